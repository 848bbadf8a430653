/* `matrix history`: see cmd_history.h. */
#include "cmd_guard.h"
#include "cmd_compare.h"
#include "cmd_history.h"
#include "history_runs.h"
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
"stdout: the groups and the steps; notes on stderr\n"
"exit status: 0, or 2 bad input (no run folder, a folder or a gate file that\n"
"cannot be read)\n";

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
		history_print(&h, stdout, !ca->quiet);	/* the results */
		fprintf(stderr, "matrix: history in %s/history.md\n", out);
		rc = chart == -2 ? EXIT_BADINPUT : 0;	/* an image not written */
	}
	history_release(&h);
	free(rp);
	return rc;
}

/* -o DIR: none of the files history writes there is a file of a run
 * folder it reads; and plots/ there never a link.  -1 after saying why. */
static int check_out(const struct history_runs *hr, const char *flag, const char *out)
{
	static const char *const written[] = {
		"history.csv", "history.md", "plots/history.gp", "plots/history.svg",
		"plots/history.png", "plots/history.log", NULL
	};
	struct cmd_guard g = { .cmd = "history" };
	int rc = 0;

	for (size_t i = 0; i < hr->n && !rc; i++)
		rc = cmd_guard_add(&g, hr->runs[i].dir, CMD_READS);
	if (!rc && flag)
		rc = cmd_guard_check_dir(&g, flag, out, written);
	cmd_guard_release(&g);
	return rc < 0 ? -1 : cmd_check_own_dirs("history", out);
}

int cmd_history(int argc, char **argv)
{
	struct history_args a = { .ca = { .threshold = COMPARE_DEFAULT_THRESHOLD } };
	struct history_runs hr;
	int rc = EXIT_BADINPUT;

	int pr = parse_args(argc, argv, &a);
	if (pr)
		return pr > 0 ? 0 : EXIT_BADINPUT;
	if (cmd_history_load("history", "", argc - a.first, argv + a.first, &hr) == 0) {
		const char *out = a.ca.out ? a.ca.out : hr.parent ? argv[a.first] : ".";
		if (check_out(&hr, a.ca.out ? "-o" : NULL, out) == 0)
			rc = write_history(hr.runs, hr.n, &a.ca, out);
	}
	cmd_history_release(&hr);
	return rc;
}
