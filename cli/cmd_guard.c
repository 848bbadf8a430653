/* What a command reads and writes, and the files it is told to write: see
 * cmd_guard.h. */
#include "cmd_guard.h"
#include "outfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_guard_add(struct cmd_guard *g, const char *dir, int how)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 8;
		struct cmd_guarded *d = realloc(g->dirs, cap * sizeof(*d));
		if (!d) {
			fprintf(stderr, "matrix %s: out of memory\n", g->cmd);
			return -1;
		}
		g->dirs = d;
		g->cap = cap;
	}
	g->dirs[g->n++] = (struct cmd_guarded){ dir, how };
	return 0;
}

void cmd_guard_release(struct cmd_guard *g)
{
	free(g->dirs);
	g->dirs = NULL;
	g->n = g->cap = 0;
}

/* path's real path into out: realpath() when it exists, else that of its
 * deepest folder that does, with the rest after it (`.` and `..` taken
 * as they read).  -1 when it cannot be made. */
static int real_path(const char *path, char *out)
{
	char head[PATH_MAX], rest[PATH_MAX] = "", tmp[PATH_MAX];

	if (snprintf(head, sizeof(head), "%s", path) >= (int)sizeof(head))
		return -1;
	while (!realpath(*head ? head : ".", out)) {
		char *slash = strrchr(head, '/');
		if ((errno != ENOENT && errno != ENOTDIR) || !*head || !strcmp(head, "/"))
			return -1;	/* not even the current folder or the root */
		if (snprintf(tmp, sizeof(tmp), "%s%s%s", slash ? slash + 1 : head, *rest ? "/" : "",
			     rest) >= (int)sizeof(tmp))
			return -1;
		memcpy(rest, tmp, sizeof(rest));
		if (slash == head)
			head[1] = '\0';		/* "/x": the root */
		else if (slash)
			*slash = '\0';
		else
			head[0] = '\0';		/* "x": the current folder */
	}
	for (char *save = NULL, *c = strtok_r(rest, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		size_t len = strlen(out);
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *slash = strrchr(out, '/');
			if (slash)
				slash[slash == out] = '\0';
			continue;
		}
		if (len + 1 + strlen(c) >= PATH_MAX)
			return -1;
		snprintf(out + len, PATH_MAX - len, "%s%s", len > 1 ? "/" : "", c);
	}
	return 0;
}

static int listed(const char *name, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(name, *names))
			return 1;
	return 0;
}

/* rel, a path inside a folder guarded as how: "reads" or "writes" when
 * it is a file of the folder the command reads or writes, else NULL. */
static const char *guarded_as(const char *rel, int how)
{
	static const char *const data[] = {
		"matrix.yaml", "meta.csv", "results.csv", "timeline.csv", "hist.csv", ".lock", NULL
	};
	static const char *const reports[] = {
		"summary.csv", "ratios.csv", "summary.md", "report.html", "ab.csv", "ab.md",
		"compare.csv", "compare.md", "history.csv", "history.md", NULL
	};

	while (!strncmp(rel, "look2/", 6))	/* a second look: a run folder too */
		rel += 6;
	if (listed(rel, data) || !strncmp(rel, "logs/", 5))
		return how & CMD_READS ? "reads" : "writes";
	if ((how & CMD_WRITES) && (listed(rel, reports) || !strncmp(rel, "plots/", 6)))
		return "writes";
	return NULL;
}

/* Is path (really) the matrix file or a file of a guarded folder?  1 with
 * "NAME of the run folder DIR, which CMD reads" in what, else 0. */
static int guarded(const struct cmd_guard *g, const char *path, char *what, size_t len)
{
	char fr[PATH_MAX], dr[PATH_MAX];

	if (real_path(path, fr) < 0)
		return 0;	/* nothing can be written there either */
	if (g->matrix && real_path(g->matrix, dr) == 0 && !strcmp(fr, dr)) {
		snprintf(what, len, "the matrix file %s, which %s reads", g->matrix, g->cmd);
		return 1;
	}
	for (size_t i = 0; i < g->n; i++) {
		const struct cmd_guarded *d = &g->dirs[i];
		size_t n;
		if (real_path(d->dir, dr) < 0)
			continue;
		n = strcmp(dr, "/") ? strlen(dr) : 0;
		if (strncmp(fr, dr, n) || fr[n] != '/')
			continue;
		const char *rel = fr + n + 1, *word;
		int first = 0, how = d->how;
		if (how & CMD_RUNS_IN) {	/* results/NAME/latest, or a folder in it */
			if (!strcmp(rel, "latest")) {
				snprintf(what, len, "%s/latest, the link %s writes", d->dir, g->cmd);
				return 1;
			}
			if (!strchr(rel, '/'))
				continue;
			first = (int)(strchr(rel, '/') - rel);
			how = CMD_WRITES;	/* the new run folder: all its files */
		}
		if (!(word = guarded_as(rel + (first ? first + 1 : 0), how)))
			continue;
		snprintf(what, len, "%s of the run folder %s%s%.*s, which %s %s",
			 rel + (first ? first + 1 : 0), d->dir, first ? "/" : "", first, rel, g->cmd,
			 word);
		return 1;
	}
	return 0;
}

int cmd_guard_check(const struct cmd_guard *g, const char *flag, const char *path)
{
	char what[3 * PATH_MAX];

	if (!path || !strcmp(path, "-") || !guarded(g, path, what, sizeof(what)))
		return 0;	/* "-" is stdout */
	fprintf(stderr, "matrix %s: %s %s: that is %s: choose another file\n", g->cmd, flag, path,
		what);
	return -1;
}

int cmd_guard_check_dir(const struct cmd_guard *g, const char *flag, const char *dir,
			const char *const *names)
{
	char what[3 * PATH_MAX], path[PATH_MAX + 64];

	for (; dir && *names; names++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *names);
		if (!guarded(g, path, what, sizeof(what)))
			continue;
		fprintf(stderr, "matrix %s: %s %s: its %s would be %s: choose another folder\n",
			g->cmd, flag, dir, *names, what);
		return -1;
	}
	return 0;
}

int cmd_check_own_dirs(const char *cmd, const char *dir)
{
	static const char *const sub[] = { "plots", "look2", "look2/plots" };
	char path[PATH_MAX + 16], err[PATH_MAX + 256];

	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sub[i]);
		if (outfile_own_dir(path, 0, err, sizeof(err)) < 0) {
			fprintf(stderr, "matrix %s: %s\n", cmd, err);
			return -1;
		}
	}
	return 0;
}
