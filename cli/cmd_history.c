/* `matrix history`: see cmd_history.h. */
#include "cmd_compare.h"
#include "cmd_history.h"
#include "gnuplot.h"
#include "history.h"
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EXIT_BADINPUT 2

static const char usage_history[] =
"usage: matrix history DIR | RUN_DIR... [--metric METRIC ...] [--threshold PCT]\n"
"                      [-o DIR] [--quiet]\n"
"\n"
"The run folders in DIR (such as results/NAME/: every folder in it with a\n"
"results.csv; symbolic links such as `latest` are passed over), or the run\n"
"folders listed, as a history: ordered by their start time (meta.csv's\n"
"start_utc, else the folder's name), each cell's median per run and metric,\n"
"and the steps: the runs that `matrix compare` finds regressed or improved\n"
"against the previous run that measured the cell AND whose change is beyond\n"
"4 times the cell's normal night-to-night spread, learnt from the earlier\n"
"runs alone (1.4826 x the median absolute log change of the last 20; with\n"
"fewer than 5 the spread is not known yet, and compare's verdict stands).\n"
"A run whose folder holds its own gate (ab.csv, compare.csv, the second\n"
"look's in look2/ when there is one) gives its night's verdict itself; the\n"
"night verdicts are the ones marked.  Runs whose machine or inputs differ\n"
"(kernel, CPU model, cores, governor, matrix version, matrix.yaml) are kept\n"
"apart, each fingerprint a group of its own.  Writes history.csv,\n"
"history.md and plots/history.gp (and its images).\n"
"\n"
"      --metric METRIC  this metric; repeat for more (default msgs_per_s and\n"
"                       rtt_p50_us)\n"
"      --threshold PCT  the smallest change that is a step (default 5%)\n"
"  -o, --output DIR     write the files here (default: DIR, or the current\n"
"                       folder for a list of run folders)\n"
"  -q, --quiet          print only the groups and errors\n"
"\n"
"exit status: 0, or 2 bad input (no run folder, a folder or a gate file that\n"
"cannot be read)\n";

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

/* Is dir a run folder: does it hold a results.csv? */
static int has_results(const char *dir)
{
	char path[PATH_MAX + 16];
	struct stat st;

	snprintf(path, sizeof(path), "%s/results.csv", dir);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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

struct history_args {
	struct compare_args ca;
	int first;		/* argv index of the first folder */
};

static int parse_args(int argc, char **argv, struct history_args *a)
{
	static const struct option longopts[] = {
		{ "threshold", 1, 0, 't' }, { "metric", 1, 0, 'm' }, { "output", 1, 0, 'o' },
		{ "quiet", 0, 0, 'q' }, { "help", 0, 0, 'h' }, { 0, 0, 0, 0 }
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(usage_history, stdout);
			return 1;
		case 't':
			if (cmd_compare_parse_threshold("history", optarg, &a->ca.threshold) < 0)
				return -1;
			break;
		case 'm':
			if (cmd_compare_parse_metric("history", optarg, &a->ca) < 0)
				return -1;
			break;
		case 'o':
			a->ca.out = optarg;
			break;
		case 'q':
			a->ca.quiet = 1;
			break;
		default:
			fputs(usage_history, stderr);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "matrix history: expected a folder of run folders, or run "
			"folders\n%s", usage_history);
		return -1;
	}
	a->first = optind;
	return 0;
}

/* Builds, writes and renders the history of the loaded runs into out;
 * the exit status. */
static int write_history(struct report *runs, size_t n, const struct compare_args *ca,
			 const char *out)
{
	const struct report **rp = malloc(n * sizeof(*rp));
	struct history h;
	char err[1024];
	int rc = EXIT_BADINPUT;

	if (!rp) {
		fprintf(stderr, "matrix history: out of memory\n");
		return rc;
	}
	for (size_t i = 0; i < n; i++)
		rp[i] = &runs[i];
	if (history_build(&h, rp, n, ca->threshold, ca->metrics, ca->nmetrics, err,
			  sizeof(err)) < 0) {
		fprintf(stderr, "matrix history: %s\n", err);
	} else if (mkdir(out, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "matrix history: %s: %s\n", out, strerror(errno));
	} else if (history_write_csv(&h, out, err, sizeof(err)) < 0 ||
		   history_write_md(&h, out, err, sizeof(err)) < 0 ||
		   history_write_chart(&h, out, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix history: %s\n", err);
	} else {
		int chart = gnuplot_render_chart(out, "history", "history.csv", err, sizeof(err));
		if (chart)
			fprintf(stderr, "matrix history: %s\n", err);
		history_print(&h, stderr, !ca->quiet);
		fprintf(stderr, "matrix: history in %s/history.md\n", out);
		rc = chart == -2 ? EXIT_BADINPUT : 0;	/* an image not written */
	}
	history_release(&h);
	free(rp);
	return rc;
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

int cmd_history(int argc, char **argv)
{
	struct history_args a = { .ca = { .threshold = COMPARE_DEFAULT_THRESHOLD } };
	struct history_runs hr;
	int rc = EXIT_BADINPUT;

	int pr = parse_args(argc, argv, &a);
	if (pr)
		return pr > 0 ? 0 : EXIT_BADINPUT;
	if (cmd_history_load("history", "", argc - a.first, argv + a.first, &hr) == 0)
		rc = write_history(hr.runs, hr.n, &a.ca,
				   a.ca.out ? a.ca.out : hr.parent ? argv[a.first] : ".");
	cmd_history_release(&hr);
	return rc;
}
