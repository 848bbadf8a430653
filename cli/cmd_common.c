/* The options and loading that run and plan share: see cmd_common.h. */
#include "cmd_common.h"
#include "outfile.h"
#include "resume.h"
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --set KEY=VALUE, run --seed N, --order ORDER; -1 after printing a message. */
static int parse_noise_flag(int ch, const char *arg, struct common *c)
{
	char *end, why[1024];

	if (ch == 'E' && matrix_sets_add(&c->sets, arg, why, sizeof(why)) < 0) {
		fprintf(stderr, "matrix: %s\n", why);
		return -1;
	}
	if (ch == 'R' && order_parse(arg, &c->order) < 0) {
		fprintf(stderr, "matrix: --order %s: expected shuffled or sequential\n", arg);
		return -1;
	}
	if (ch != 'S')
		return 0;
	errno = 0;
	c->seed = strtoull(arg, &end, 10);
	if (!isdigit((unsigned char)*arg) || *end || errno) {
		fprintf(stderr, "matrix: --seed %s: expected a whole number from 0 to %llu\n", arg,
			(unsigned long long)UINT64_MAX);
		return -1;
	}
	c->has_seed = 1;
	return 0;
}

/* The options of `run` alone (cmd_parse_common): 1 when ch is one and it was
 * taken, 0 when it is none of them, -1 after a message. */
static int run_option(int ch, const char *arg, struct common *c)
{
	char why[256];

	switch (ch) {
	case 'o':
		c->outdir = arg;
		return 1;
	case 'U':
		c->resume = resume_folder(arg);
		return 1;
	case 'q':
		c->quiet = c->ca.quiet = 1;
		return 1;
	case 'c':
		c->ab = arg;
		return 1;
	case 'J':
		c->export_json = arg;
		return 1;
	case 'b':
		c->baseline = arg;
		return 1;
	case 't':
		return cmd_compare_parse_threshold("run", arg, &c->ca.threshold) < 0 ? -1 : 1;
	case 'm':
		return cmd_compare_parse_metric("run", arg, &c->ca) < 0 ? -1 : 1;
	case 'R':
	case 'S':
		return parse_noise_flag(ch, arg, c) < 0 ? -1 : 1;
	case 'K':
		if (shard_parse(arg, &c->shard, why, sizeof(why)) < 0) {
			fprintf(stderr, "matrix: --shard %s: %s\n", arg, why);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* --seed with --order sequential: -1 after printing a message. */
static int check_seed(const struct common *c)
{
	if (c->has_seed && c->order == ORDER_SEQUENTIAL) {
		fprintf(stderr, "matrix: --seed orders a shuffled run; --order sequential has none\n");
		return -1;
	}
	return 0;
}

int cmd_parse_common(int argc, char **argv, struct common *c, int is_run, const char *usage)
{
	static const struct option longopts[] = {
		{ "output", 1, 0, 'o' }, { "repeat", 1, 0, 'r' }, { "only", 1, 0, 'O' },
		{ "quiet", 0, 0, 'q' }, { "compare", 1, 0, 'c' }, { "baseline", 1, 0, 'b' },
		{ "threshold", 1, 0, 't' }, { "metric", 1, 0, 'm' }, { "help", 0, 0, 'h' },
		{ "order", 1, 0, 'R' }, { "seed", 1, 0, 'S' }, { "set", 1, 0, 'E' },
		{ "resume", 1, 0, 'U' }, { "export-json", 1, 0, 'J' }, { "json", 0, 0, 'j' },
		{ "shard", 1, 0, 'K' },
		{ 0, 0, 0, 0 }
	};
	char why[256];
	uint64_t v;
	int ch, rc = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, is_run ? "o:r:qh" : "r:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case 'E':	/* --set: run and plan */
			if (parse_noise_flag(ch, optarg, c) < 0)
				return -1;
			break;
		case 'r':
			if (units_parse_count(optarg, &v, why, sizeof(why)) < 0) {
				fprintf(stderr, "matrix: --repeat %s: %s\n", optarg, why);
				return -1;
			}
			if (!v || v > MATRIX_MAX_REPEAT) {
				fprintf(stderr, "matrix: --repeat %s: must be between 1 and %d\n", optarg,
					MATRIX_MAX_REPEAT);
				return -1;
			}
			c->repeat = (unsigned)v;
			break;
		case 'O':
			if (c->nonly == sizeof(c->only) / sizeof(c->only[0])) {
				fprintf(stderr, "matrix: too many --only filters\n");
				return -1;
			}
			c->only[c->nonly++] = optarg;
			break;
		default:
			if (is_run && (rc = run_option(ch, optarg, c)) > 0)
				break;
			if (!is_run && ch == 'j') {	/* plan --json */
				c->json = 1;
				break;
			}
			if (rc < 0)
				return -1;
			fprintf(stderr, "%s", usage);
			return -1;
		}
	}
	if (optind != argc - 1 && !(c->resume && optind == argc)) {
		fprintf(stderr, optind >= argc ? "matrix: missing matrix FILE\n%s"
			: "matrix: expected one matrix FILE\n%s", usage);
		return -1;
	}
	c->file = argv[optind];
	return check_seed(c);
}

void cmd_print_matrix_error(const char *err)
{
	fprintf(stderr, "%s%s\n", strncmp(err, "--set ", 6) ? "" : "matrix: ", err);
}

/* poll: busy spins only where every spinner has a CPU of its own: a cell
 * with more spinners than CPUs gets a warning (the first few cells, then
 * how many more). */
static void warn_busy(const struct plan *pl)
{
	size_t shown = 0, more = 0;
	char label[512];

	for (size_t i = 0; i < pl->ncells; i++) {
		const struct cell *cl = &pl->cells[i];
		unsigned n, cpus;
		plan_cell_spin(pl, &cl->p, &n, &cpus);
		if (n <= cpus)
			continue;
		if (shown++ >= 3) {
			more++;
			continue;
		}
		plan_cell_label(pl, cl, label, sizeof(label));
		fprintf(stderr, "matrix: warning: cell %u (%s): poll: busy: %u spinning processes on "
			"%u CPU%s: they will take turns, not spin\n", cl->number, label, n, cpus,
			cpus == 1 ? "" : "s");
	}
	if (more)
		fprintf(stderr, "matrix: warning: and %zu more poll: busy cell%s like it\n", more,
			more == 1 ? "" : "s");
}

int cmd_load_plan(struct common *c, struct matrix *m, struct plan *pl)
{
	struct only_filter only[256];
	char err[1024];

	if (matrix_load_sets(m, c->file, &c->sets, err, sizeof(err)) < 0) {
		cmd_print_matrix_error(err);
		return -1;
	}
	if (c->repeat) {	/* a fixed number, also over repeat: auto */
		m->repeat = c->repeat;
		m->repeat_min = 0;
	}
	for (size_t i = 0; i < c->nonly; i++)
		if (plan_parse_only(m, c->only[i], &only[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "matrix: %s\n", err);
			matrix_release(m);
			matrix_sets_release(&c->sets);
			return -1;
		}
	if ((c->elsewhere ? plan_build_elsewhere : plan_build)(pl, m, only, c->nonly, err,
							      sizeof(err)) < 0) {
		matrix_sets_explain(&c->sets, c->file, err, sizeof(err));
		cmd_print_matrix_error(err);
		matrix_release(m);
		matrix_sets_release(&c->sets);
		return -1;
	}
	if (!c->quiet)
		warn_busy(pl);
	return 0;
}

char *cmd_join_argv(int argc, char **argv)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++)
		p += sprintf(p, "%s%s", i ? " " : "", argv[i]);
	*p = '\0';
	return s;
}

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
		if ((errno != ENOENT && errno != ENOTDIR) || !strcmp(head, "/"))
			return -1;
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
 * "that is NAME of the run folder DIR, which CMD reads" in what, else 0. */
static int guarded(const struct cmd_guard *g, const char *path, char *what, size_t len)
{
	char fr[PATH_MAX], dr[PATH_MAX];

	if (real_path(path, fr) < 0)
		return 0;	/* nothing can be written there either */
	if (g->matrix && real_path(g->matrix, dr) == 0 && !strcmp(fr, dr)) {
		snprintf(what, len, "that is the matrix file %s, which %s reads", g->matrix, g->cmd);
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
				snprintf(what, len, "that is %s/latest, the link %s writes", d->dir,
					 g->cmd);
				return 1;
			}
			if (!strchr(rel, '/'))
				continue;
			first = (int)(strchr(rel, '/') - rel);
			how = CMD_READS | CMD_WRITES;
		}
		if (!(word = guarded_as(rel + (first ? first + 1 : 0), how)))
			continue;
		snprintf(what, len, "that is %s of the run folder %s%s%.*s, which %s %s",
			 rel + (first ? first + 1 : 0), d->dir, first ? "/" : "", first, rel, g->cmd,
			 word);
		return 1;
	}
	return 0;
}

int cmd_guard_check(const struct cmd_guard *g, const char *flag, const char *path)
{
	char what[3 * PATH_MAX];

	if (!path || !guarded(g, path, what, sizeof(what)))
		return 0;
	fprintf(stderr, "matrix %s: %s %s: %s: choose another file\n", g->cmd, flag, path, what);
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
		fprintf(stderr, "matrix %s: %s %s: its %s would replace what is there: %s: choose "
			"another folder\n", g->cmd, flag, dir, *names, what);
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
