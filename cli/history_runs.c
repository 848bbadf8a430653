/* The run folders of a history: see history_runs.h. */
#include "history_runs.h"
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A list of paths, each malloc'd. */
struct paths {
	char **v;
	size_t n, cap;
};

static int paths_add(struct paths *p, const char *dir, const char *name)
{
	size_t len = strlen(dir);

	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		char **nv = realloc(p->v, cap * sizeof(*nv));
		if (!nv)
			return -1;
		p->v = nv;
		p->cap = cap;
	}
	while (name && len > 1 && dir[len - 1] == '/')
		len--;
	size_t size = len + (name ? strlen(name) + 2 : 1);
	if (!(p->v[p->n] = malloc(size)))
		return -1;
	if (name)
		snprintf(p->v[p->n], size, "%.*s/%s", (int)len, dir, name);
	else
		snprintf(p->v[p->n], size, "%s", dir);
	p->n++;
	return 0;
}

static void paths_release(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
}

/* Is dir a run folder: does it hold a results.csv?  Whatever it is: one
 * that is no regular file (a fifo) is refused by report_load, by name,
 * rather than passed over. */
static int has_results(const char *dir)
{
	char path[PATH_MAX + 16];
	struct stat st;

	snprintf(path, sizeof(path), "%s/results.csv", dir);
	return lstat(path, &st) == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whose messages: "matrix CMD: FLAGPATH: ..." ("history", "" or
 * "compare", "--history "). */
struct who {
	const char *cmd, *flag;
};

/* The run folders in dir: its folders (not symbolic links) that hold a
 * results.csv, by name.  0, or -1 after a message. */
static int scan(const struct who *w, const char *dir, struct paths *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;

	if (!d) {
		fprintf(stderr, "matrix %s: %s%s: %s\n", w->cmd, w->flag, dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (paths_add(out, dir, e->d_name) < 0) {
			closedir(d);
			fprintf(stderr, "matrix %s: out of memory\n", w->cmd);
			return -1;
		}
		char *p = out->v[out->n - 1];
		if (lstat(p, &st) < 0 || !S_ISDIR(st.st_mode) || !has_results(p))
			free(out->v[--out->n]);
	}
	closedir(d);
	if (!out->n) {
		fprintf(stderr, "matrix %s: %s%s: no run folder in it (a folder holding a "
			"results.csv)\n", w->cmd, w->flag, dir);
		return -1;
	}
	qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	return 0;
}

/* The run folders of the arguments: those in DIR when it is the one
 * argument and no run folder itself, else the arguments, each a run
 * folder (the same folder twice, as through `latest`, counts once).
 * Sets *parent when DIR was scanned.  0, or -1 after a message. */
static int find_runs(const struct who *w, int argc, char *const *argv, struct paths *out,
		     int *parent)
{
	struct stat st;

	*parent = 0;
	if (argc == 1 && !has_results(argv[0])) {
		errno = 0;
		if (stat(argv[0], &st) < 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "matrix %s: %s%s: %s\n", w->cmd, w->flag, argv[0],
				errno ? strerror(errno) : "not a folder");
			return -1;
		}
		*parent = 1;
		return scan(w, argv[0], out);
	}
	for (int i = 0; i < argc; i++) {
		char real[PATH_MAX], other[PATH_MAX];
		int dup = 0;
		if (!has_results(argv[i])) {
			fprintf(stderr, "matrix %s: %s%s: not a run folder (no results.csv in it)%s\n",
				w->cmd, w->flag, argv[i], argc > 1 ? "; give the folder that holds the "
				"runs alone to read every run folder in it" : "");
			return -1;
		}
		for (size_t k = 0; k < out->n && !dup && realpath(argv[i], real); k++)
			dup = realpath(out->v[k], other) && !strcmp(real, other);
		if (!dup && paths_add(out, argv[i], NULL) < 0) {
			fprintf(stderr, "matrix %s: out of memory\n", w->cmd);
			return -1;
		}
	}
	return 0;
}

int cmd_history_load(const char *cmd, const char *flag, int argc, char *const *argv,
		     struct history_runs *hr)
{
	const struct who w = { cmd, flag };
	struct paths dirs = { 0 };
	char err[1024];
	int rc = -1;

	memset(hr, 0, sizeof(*hr));
	if (find_runs(&w, argc, argv, &dirs, &hr->parent) < 0)
		goto out;
	if (!(hr->runs = calloc(dirs.n, sizeof(*hr->runs)))) {
		fprintf(stderr, "matrix %s: out of memory\n", cmd);
		goto out;
	}
	for (; hr->n < dirs.n; hr->n++) {
		if (report_load(&hr->runs[hr->n], dirs.v[hr->n], NULL, err, sizeof(err)) < 0) {
			fprintf(stderr, "matrix %s: %s%s\n", cmd, flag, err);
			goto out;
		}
		if (hr->runs[hr->n].dropped_row)
			fprintf(stderr, "matrix %s: %s/results.csv ends in a row an interrupted "
				"write cut short; it is left out\n", cmd, dirs.v[hr->n]);
	}
	rc = 0;
out:
	paths_release(&dirs);
	return rc;
}

void cmd_history_release(struct history_runs *hr)
{
	for (size_t i = 0; i < hr->n; i++)
		report_release(&hr->runs[i]);
	free(hr->runs);
	memset(hr, 0, sizeof(*hr));
}

