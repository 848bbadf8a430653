/* matrix: the command line.  The only place that calls exit(). */
#include "cmd_compare.h"
#include "cmd_history.h"
#include "compare.h"
#include "gnuplot.h"
#include "markdown.h"
#include "matrix.h"
#include "matrix_set.h"
#include "plan.h"
#include "report.h"
#include "resume.h"
#include "run.h"
#include "stale.h"
#include "suggest.h"
#include "stats.h"
#include "summary.h"
#include "transport.h"
#include "units.h"
#include "version.h"
#include "worker.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_BADINPUT 2

static const char usage_main[] =
"usage: matrix COMMAND [options]\n"
"\n"
"How much faster is transport A than transport B, for my message sizes and my\n"
"concurrency, on this machine?  matrix reads a YAML matrix of transports,\n"
"patterns, sizes and concurrency, runs real server and client processes over\n"
"real sockets for every cell, and writes a run folder of CSV files.\n"
"\n"
"commands:\n"
"  run FILE        run every cell of a matrix and write a run folder\n"
"  plan FILE       validate a matrix and print its cells, running nothing\n"
"  report DIR      rebuild a run folder's summary, ratios and charts\n"
"  compare BASE NEW  regression verdicts of a new run folder against a baseline\n"
"  history DIR     each cell's median across the run folders in DIR, steps marked\n"
"  transports      list the transports, their patterns and limits\n"
"  worker ROLE     run one server or client worker by hand\n"
"\n"
"  matrix COMMAND --help     options of one command\n"
"  matrix --version\n";

static const char usage_run[] =
"usage: matrix run FILE [-o DIR] [--repeat N] [--only KEY=VALUE ...] [--quiet]\n"
"                  [--set KEY=VALUE ...] [--order shuffled|sequential] [--seed N]\n"
"                  [--baseline DIR] [--compare DIM=BASE:CAND] [--threshold PCT]\n"
"       matrix run --resume DIR [--quiet] [--baseline DIR] [--compare ...]\n"
"\n"
"Runs every cell of the matrix FILE, each repetition with a fresh server and\n"
"fresh clients, and writes results.csv, timeline.csv (stream cells), meta.csv\n"
"and a copy of FILE into the run folder.\n"
"\n"
"  -o, --output DIR      run folder (must not exist or be empty); default\n"
"                        results/<name>/<UTC timestamp>, linked as results/<name>/latest\n"
"  -r, --repeat N        repetitions per cell, instead of the file's `repeat`\n"
"      --only KEY=VALUE  run only cells whose KEY is VALUE; repeat for more\n"
"                        values (same key: any of them; different keys: all)\n"
"      --set KEY=VALUE   override the file: KEY is repeat, warmup, timeout or a\n"
"                        key of matrix: (a dimension becomes this one value),\n"
"                        checked as if written there; repeat for more keys;\n"
"                        the run folder's matrix.yaml has the change made\n"
"  -q, --quiet           print only failures and the final line\n"
"      --order ORDER     repetitions run in rounds (repetition 1 of every cell,\n"
"                        then 2, ...); within a round the cells run shuffled\n"
"                        (the default: afresh each round) or sequential (in\n"
"                        cell order)\n"
"      --seed N          the shuffle's seed (0 to 2^64-1), to replay a run's\n"
"                        order; default random; meta.csv keeps the one used\n"
"      --resume DIR      carry on the interrupted or killed run of DIR, as it ran\n"
"      --baseline DIR    then compare the run folder with DIR, as `matrix compare`\n"
"      --compare DIM=BASE:CAND  then the in-run A/B of `matrix report --compare`\n"
"      --threshold PCT   of either comparison (default 5%)\n"
"      --metric METRIC   compared by either; repeat for more\n"
"\n"
"The run folder's path is the last line on stdout (all else is on stderr).\n"
"exit status: 0 every repetition ok, 1 some failed, 2 bad input, 130\n"
"interrupted; with --baseline or --compare (or the matrix's report: compare:),\n"
"those of `matrix compare`: 0 nothing regressed, 1 a regression, 2 a failure,\n"
"3 inconclusive\n";

static const char usage_report[] =
"usage: matrix report RUN_DIR [--ratio [DIM:]NUM/DEN ...] [--metric METRIC]\n"
"                     [--compare DIM=BASE:CAND [--threshold PCT]] [--quiet]\n"
"\n"
"Rebuilds summary.csv, ratios.csv, summary.md and plots/ of a run folder from\n"
"its results.csv and matrix.yaml (edit the copy to change report: settings).\n"
"Works on the folder of an interrupted run.\n"
"\n"
"      --ratio [DIM:]NUM/DEN  compare value NUM of dimension DIM (default\n"
"                             transport) with DEN, instead of the matrix's ratios;\n"
"                             repeat for more\n"
"      --metric METRIC        the metric every ratio compares, e.g. rtt_p50_us\n"
"      --compare DIM=BASE:CAND  in-run A/B: regression verdicts of every cell\n"
"                             with DIM=CAND against its twin with DIM=BASE\n"
"                             (ab.csv, ab.md, plots/ab.gp; exit status as `matrix\n"
"                             compare`); the matrix's report: compare: does the same\n"
"      --threshold PCT        the smallest change that matters (default 5%)\n"
"  -q, --quiet                print only errors\n";

static const char usage_plan[] =
"usage: matrix plan FILE [--repeat N] [--only KEY=VALUE ...] [--set KEY=VALUE ...]\n"
"\n"
"Validates FILE and prints one line per cell with its parameters, and the\n"
"number of worker processes a run would start.  Runs nothing.  --repeat,\n"
"--only and --set as for `matrix run`.\n";

struct common {
	const char *file;
	unsigned repeat;
	const char *only[256];
	size_t nonly;
	const char *outdir;
	int quiet;
	const char *ab, *baseline;	/* run --compare, --baseline */
	struct compare_args ca;
	enum run_order order;		/* run --order, --seed */
	int has_seed;
	uint64_t seed;
	struct matrix_sets sets;	/* --set */
	const char *resume;		/* run --resume DIR */
};

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

/* The options of `run` alone (parse_common): 1 when ch is one and it was
 * taken, 0 when it is none of them, -1 after a message. */
static int run_option(int ch, const char *arg, struct common *c)
{
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
	case 'b':
		c->baseline = arg;
		return 1;
	case 't':
		return parse_threshold("run", arg, &c->ca.threshold) < 0 ? -1 : 1;
	case 'm':
		return parse_metric("run", arg, &c->ca) < 0 ? -1 : 1;
	case 'R':
	case 'S':
		return parse_noise_flag(ch, arg, c) < 0 ? -1 : 1;
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

/* Parses run/plan options; returns -1 after printing a message. */
static int parse_common(int argc, char **argv, struct common *c, int is_run, const char *usage)
{
	static const struct option longopts[] = {
		{ "output", 1, 0, 'o' }, { "repeat", 1, 0, 'r' }, { "only", 1, 0, 'O' },
		{ "quiet", 0, 0, 'q' }, { "compare", 1, 0, 'c' }, { "baseline", 1, 0, 'b' },
		{ "threshold", 1, 0, 't' }, { "metric", 1, 0, 'm' }, { "help", 0, 0, 'h' },
		{ "order", 1, 0, 'R' }, { "seed", 1, 0, 'S' }, { "set", 1, 0, 'E' },
		{ "resume", 1, 0, 'U' }, { 0, 0, 0, 0 }
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

/* A matrix error: "FILE:LINE:COL: ..." as it is, a --set one after "matrix: ". */
static void print_matrix_error(const char *err)
{
	fprintf(stderr, "%s%s\n", strncmp(err, "--set ", 6) ? "" : "matrix: ", err);
}

/* Loads the matrix (with --set made) and builds the plan; -1 after
 * printing the error, with nothing left to release. */
static int load(struct common *c, struct matrix *m, struct plan *pl)
{
	struct only_filter only[256];
	char err[1024];

	if (matrix_load_sets(m, c->file, &c->sets, err, sizeof(err)) < 0) {
		print_matrix_error(err);
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
	if (plan_build(pl, m, only, c->nonly, err, sizeof(err)) < 0) {
		matrix_sets_explain(&c->sets, c->file, err, sizeof(err));
		print_matrix_error(err);
		matrix_release(m);
		matrix_sets_release(&c->sets);
		return -1;
	}
	return 0;
}

static char *join_argv(int argc, char **argv)
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

/* What a report is asked for besides its pages: an in-run A/B (ab, or the
 * matrix's report: compare:) with its options, and where its outcome goes. */
struct report_ask {
	const char *cmd;		/* "run" or "report", for messages */
	const char *ab;
	const struct compare_args *ca;
	int cmp;			/* out: the A/B's exit status, -1 if none */
	struct regressions *rg;		/* out: what it called regressed, or NULL */
	int chart_failed;		/* out: gnuplot failed (said on stderr) */
};

/* summary.csv, ratios.csv, summary.md, plots/ for a run folder, and the
 * images when gnuplot is there: the report model read back from the folder,
 * then each writer in turn (the first that fails stops the rest), then the
 * in-run A/B when one is asked for, then the rendering.  0, 1 (a file
 * could not be written, an image too) or 2 (bad input); a failed rendering
 * otherwise only sets chart_failed. */
static int build_report(const char *dir, const struct report_opts *o, int quiet,
			struct report_ask *ask)
{
	struct report r;
	char err[1024];
	int rc = 0;

	ask->cmp = -1;
	ask->chart_failed = 0;
	if (report_load(&r, dir, o, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix %s: %s\n", ask->cmd, err);
		return EXIT_BADINPUT;
	}
	if (r.dropped_row)
		fprintf(stderr, "matrix %s: %s/results.csv ends in a row an interrupted write "
			"cut short; it is left out\n", ask->cmd, dir);
	if (summary_write_csv(&r, err, sizeof(err)) < 0 ||
	    summary_write_ratios(&r, err, sizeof(err)) < 0 ||
	    markdown_write(&r, err, sizeof(err)) < 0 ||
	    gnuplot_write_scripts(&r, err, sizeof(err)) < 0)
		rc = -1;
	if (!rc)
		ask->cmp = compare_in_run(&r, ask->ab, ask->ca, ask->cmd, ask->rg);
	report_release(&r);
	if (rc < 0) {
		fprintf(stderr, "matrix %s: could not write the report: %s\n", ask->cmd, err);
		return 1;
	}
	rc = gnuplot_render(dir, err, sizeof(err));
	if (rc)		/* 1: no gnuplot here, which is said and no failure */
		fprintf(stderr, "matrix %s: %s\n", ask->cmd, err);
	ask->chart_failed = rc < 0;
	if (!quiet)
		fprintf(stderr, "matrix: summary in %s/summary.md\n", dir);
	return rc == -2;	/* an image could not be written: as a page */
}

/* The metric table, for `report --help`: each metric's name, unit and
 * what it counts, wrapped to 78 columns. */
static void print_metrics(FILE *f)
{
	fputs("\nMETRIC is a column of results.csv:\n", f);
	for (int m = 0; m < MATRIX_NMETRICS; m++) {
		const char *w = metrics[m].counts;
		fprintf(f, "  %-16s %s, %s\n", metrics[m].name, metrics[m].unit, metrics[m].title);
		while (*w) {
			size_t n = strlen(w), cut = n;
			if (n > 58)
				for (cut = 58; cut > 0 && w[cut] != ' '; cut--)
					;
			if (!cut)
				cut = n;
			fprintf(f, "  %-16s   %.*s\n", "", (int)cut, w);
			w += cut;
			while (*w == ' ')
				w++;
		}
	}
}

static int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ratio", 1, 0, 'r' }, { "metric", 1, 0, 'm' }, { "quiet", 0, 0, 'q' },
		{ "compare", 1, 0, 'c' }, { "threshold", 1, 0, 't' }, { "help", 0, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	struct report_opts o = { .nratios = 0 };
	struct compare_args ca = { .threshold = 0 };
	const char *ab = NULL;
	int ch, quiet = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(usage_report, stdout);
			print_metrics(stdout);
			exit(0);
		case 'r':
			if (o.nratios == sizeof(o.ratios) / sizeof(o.ratios[0])) {
				fprintf(stderr, "matrix report: too many --ratio flags\n");
				return EXIT_BADINPUT;
			}
			o.ratios[o.nratios++] = optarg;
			break;
		case 'm':
			o.metric = optarg;
			break;
		case 'q':
			quiet = ca.quiet = 1;
			break;
		case 'c':
			ab = optarg;
			break;
		case 't':
			if (parse_threshold("report", optarg, &ca.threshold) < 0)
				return EXIT_BADINPUT;
			break;
		default:
			fputs(usage_report, stderr);
			return EXIT_BADINPUT;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "matrix report: expected one RUN_DIR\n%s", usage_report);
		return EXIT_BADINPUT;
	}
	struct report_ask ask = { .cmd = "report", .ab = ab, .ca = &ca };
	stale_check(argv[optind], "report");	/* a killed or running run is said */
	int rc = build_report(argv[optind], &o, quiet, &ask);
	/* alone, a failed chart is a failed report (1); with an A/B it is said
	 * and changes nothing, and a report that could not be written is a
	 * tool failure, as compare's 2 */
	if (ask.cmp < 0)
		return rc ? rc : ask.chart_failed;
	return rc ? EXIT_BADINPUT : ask.cmp;
}

/* repeat: auto's measure (run.h): the width of the interval of the median
 * of v relative to the median, NaN when there is none. */
static double median_rel_width(const double *v, size_t n)
{
	struct stat_summary st;

	stats_summarize(v, n, &st);
	return st.median > 0 ? (st.ci_hi - st.ci_lo) / st.median : NAN;
}

/* The report of a run folder and the comparisons asked for: their exit
 * statuses in *cmp and *base (-1: none), what they called regressed in
 * rg and rgb.  Returns build_report's status. */
static int judge_run(const struct common *c, const char *dir, int *cmp, int *base,
		     struct regressions *rg, struct regressions *rgb)
{
	struct report_opts ro = { .nratios = 0 };
	int rc;

	struct report_ask ask = { .cmd = "run", .ab = c->ab, .ca = &c->ca, .rg = rg };

	memset(rg, 0, sizeof(*rg));
	memset(rgb, 0, sizeof(*rgb));
	rc = build_report(dir, &ro, c->quiet, &ask);
	*cmp = ask.cmp;
	*base = c->baseline ? compare_dirs(c->baseline, dir, &c->ca, "run", rgb) : -1;
	/* without a comparison a failed chart fails the run's report (1), as
	 * before; with one it is said and changes nothing */
	return rc ? rc : *cmp < 0 && *base < 0 ? ask.chart_failed : 0;
}

/* How many of the rows first called regressed are regressed again. */
static size_t confirmed(const struct regressions *first, const struct regressions *again)
{
	size_t n = 0;

	for (size_t i = 0; i < first->nrows; i++)
		for (size_t j = 0; j < again->nrows; j++)
			if (!strcmp(first->rows[i], again->rows[j])) {
				n++;
				break;
			}
	return n;
}

/* Cells called regressed are run once more, interleaved, into DIR/confirm
 * (their own repetitions, the same matrix), and judged again there: a
 * regression stands only when the second judgement says it too.  Returns
 * 1 when one stands, 0 when none does (they become inconclusive), 130 when
 * the confirmation was interrupted, 2 when it could not run; more
 * regressions than COMPARE_MAX_CONFIRM are too many to re-run: they stand
 * (1), and the console says so. */
static int confirm_regressions(const struct common *c, const struct plan *pl, const char *dir,
			       const struct regressions *rg, const struct regressions *rgb)
{
	struct plan sub = *pl;
	struct regressions rg2, rgb2;
	char cdir[PATH_MAX + 16], err[1024];
	int cmp, base, rc = EXIT_BADINPUT;

	if (rg->overflow || rgb->overflow) {
		fprintf(stderr, "matrix: over %d regressions: too many to confirm; they stand\n",
			COMPARE_MAX_CONFIRM);
		return 1;
	}
	sub.cells = calloc(pl->ncells, sizeof(*sub.cells));
	if (!sub.cells)
		return EXIT_BADINPUT;
	sub.ncells = 0;
	for (size_t i = 0; i < pl->ncells; i++) {
		int want = 0;
		for (size_t k = 0; k < rg->ncells; k++)
			want |= rg->cells[k] == pl->cells[i].number;
		for (size_t k = 0; k < rgb->ncells; k++)
			want |= rgb->cells[k] == pl->cells[i].number;
		if (want)
			sub.cells[sub.ncells++] = pl->cells[i];
	}
	snprintf(cdir, sizeof(cdir), "%s/confirm", dir);
	fprintf(stderr, "matrix: confirming %zu regression%s: %zu cell%s once more, into %s\n",
		rg->nrows + rgb->nrows, rg->nrows + rgb->nrows == 1 ? "" : "s", sub.ncells,
		sub.ncells == 1 ? "" : "s", cdir);
	char cdirout[PATH_MAX] = "";
	struct run_opts o = { .outdir = cdir, .dir = cdirout, .quiet = c->quiet,
			      .command_line = "confirmation of regressions",
			      .order = c->order, .has_seed = c->has_seed, .seed = c->seed,
			      .rel_width = median_rel_width, .sets = &c->sets };
	int status = run_plan(&sub, &o, err, sizeof(err));
	if (status == EXIT_BADINPUT)
		fprintf(stderr, "matrix: confirmation: %s\n", err);
	else if (status == 130)
		rc = 130;
	else if (cdirout[0]) {
		judge_run(c, cdirout, &cmp, &base, &rg2, &rgb2);
		size_t n = confirmed(rg, &rg2) + confirmed(rgb, &rgb2);
		fprintf(stderr, "matrix: %zu of %zu regression%s confirmed\n", n,
			rg->nrows + rgb->nrows, rg->nrows + rgb->nrows == 1 ? "" : "s");
		rc = n > 0;
	}
	free(sub.cells);
	return rc;
}

/* After a run: its report (read back from the folder, as `matrix report`
 * does), then the comparisons asked for, then the confirmation of what
 * they called regressed.  Without a comparison, the run's status (1 when
 * the report failed too); with one, compare's: 1 a confirmed regression,
 * else 2 a failed repetition or tool, else 3 inconclusive (an unconfirmed
 * regression too), else 0. */
static int run_verdict(const struct common *c, const struct plan *pl, const char *dir,
		       int status)
{
	struct regressions rg, rgb;
	int cmp, base;
	int rc = judge_run(c, dir, &cmp, &base, &rg, &rgb);

	if (status == 130)
		return status;
	if (cmp < 0 && base < 0)
		return rc && !status ? 1 : status;
	int regressed = cmp == 1 || base == 1;
	if (regressed) {
		int conf = confirm_regressions(c, pl, dir, &rg, &rgb);
		if (conf == 1 || conf == 130)
			return conf;
		if (conf == EXIT_BADINPUT)
			return EXIT_BADINPUT;
	}
	if (status || rc || cmp == EXIT_BADINPUT || base == EXIT_BADINPUT)
		return EXIT_BADINPUT;
	return regressed || cmp == 3 || base == 3 ? 3 : 0;
}

static int cmd_run(int argc, char **argv, int full_argc, char **full_argv)
{
	struct common c = { 0 };
	struct matrix m;
	struct plan pl;
	char err[1024];
	int status;

	/* before getopt permutes argv */
	char *cmdline = join_argv(full_argc, full_argv);
	struct resume_args ra;	/* --resume: the folder's flags, parsed as the user's */

	if (parse_common(argc, argv, &c, 1, usage_run) < 0 || (c.resume &&
	    (resume_args(&ra, c.resume, c.file || c.outdir || c.repeat || c.nonly || c.sets.n ||
			 c.has_seed || c.order) < 0 || parse_common(ra.argc, ra.argv, &c, 1, "") < 0)) ||
	    load(&c, &m, &pl) < 0) {
		free(cmdline);
		matrix_sets_release(&c.sets);
		return EXIT_BADINPUT;
	}
	/* what is compared after the run is checked before it */
	char probe[PATH_MAX + 16];
	snprintf(probe, sizeof(probe), "%s/results.csv", c.baseline ? c.baseline : "");
	if (compare_check_spec(&m, c.ab, "run") < 0 ||
	    (c.baseline && access(probe, R_OK) < 0 &&
	     fprintf(stderr, "matrix run: --baseline %s: not a run folder (%s: %s)\n", c.baseline,
		     probe, strerror(errno)))) {
		free(cmdline);
		plan_release(&pl);
		matrix_release(&m);
		matrix_sets_release(&c.sets);
		return EXIT_BADINPUT;
	}
	char dir[PATH_MAX] = "";
	struct run_opts o = { .outdir = c.outdir, .dir = dir, .quiet = c.quiet,
			      .rel_width = median_rel_width,
			      .command_line = cmdline, .order = c.order, .has_seed = c.has_seed,
			      .seed = c.seed, .sets = &c.sets, .only = c.only, .nonly = c.nonly,
			      .resume = c.resume };
	status = run_plan(&pl, &o, err, sizeof(err));
	if (status == EXIT_BADINPUT) {
		fprintf(stderr, "matrix: %s\n", err);
	} else if (dir[0]) {
		status = run_verdict(&c, &pl, dir, status);
		printf("%s\n", dir);	/* the last line on stdout: dir=$(matrix run ...) */
	}
	free(cmdline);
	plan_release(&pl);
	matrix_release(&m);
	matrix_sets_release(&c.sets);
	return status;
}

static void print_cell(const struct cell *cl)
{
	const struct cell_params *p = &cl->p;
	char size[32], resp[32], amount[32];

	units_format_size(p->size, size, sizeof(size));
	if (p->pattern == PAT_PINGPONG)
		units_format_size(p->response_size, resp, sizeof(resp));
	else
		snprintf(resp, sizeof(resp), "-");
	if (p->duration_ns)
		units_format_duration(p->duration_ns, amount, sizeof(amount));
	else
		snprintf(amount, sizeof(amount), "%llu", (unsigned long long)p->count);
	printf("%4u  %-9s %-14s %9s %9s %5u %12s %8u %7s  %s %s\n", cl->number,
	       pattern_names[p->pattern], p->transport->name, size, resp, p->concurrency, amount,
	       p->inflight, p->transport->has_nodelay ? (p->nodelay ? "on" : "off") : "-",
	       p->server_prog ? p->server_prog->name : "builtin",
	       p->client_prog ? p->client_prog->name : "builtin");
}

static int cmd_plan(int argc, char **argv)
{
	struct common c = { 0 };
	struct matrix m;
	struct plan pl;
	char t[32];

	if (parse_common(argc, argv, &c, 0, usage_plan) < 0)
		return EXIT_BADINPUT;
	if (load(&c, &m, &pl) < 0)
		return EXIT_BADINPUT;
	printf("matrix %s: %s\n", m.name, m.description);
	printf("%4s  %-9s %-14s %9s %9s %5s %12s %8s %7s  %s\n", "cell", "pattern", "transport",
	       "size", "response", "conc", "count/dur", "inflight", "nodelay", "server client");
	for (size_t i = 0; i < pl.ncells; i++)
		print_cell(&pl.cells[i]);
	printf("%zu cell%s x %u repetition%s = %zu cell runs, %llu worker processes; "
	       "warmup %llu messages per connection, timeout %s per repetition\n",
	       pl.ncells, pl.ncells == 1 ? "" : "s", pl.repeat, pl.repeat == 1 ? "" : "s",
	       pl.ncells * pl.repeat, (unsigned long long)plan_worker_runs(&pl),
	       (unsigned long long)m.warmup, units_format_duration(m.timeout_ns, t, sizeof(t)));
	plan_release(&pl);
	matrix_release(&m);
	matrix_sets_release(&c.sets);
	return 0;
}

static int cmd_transports(void)
{
	printf("%-15s %-21s %-32s %s\n", "transport", "patterns", "limits", "options");
	for (size_t i = 0; i < transport_count(); i++) {
		const struct transport *t = transport_at(i);
		char pats[64] = "", lim[96] = "", a[32], b[32];
		for (int p = 0; p < PAT__COUNT; p++)
			if (t->patterns & PAT_BIT(p))
				snprintf(pats + strlen(pats), sizeof(pats) - strlen(pats), "%s%s",
					 pats[0] ? "," : "", pattern_names[p]);
		if (t->max_size != UINT64_MAX && t->max_size % 1024)
			snprintf(b, sizeof(b), "%lluB", (unsigned long long)t->max_size);
		else if (t->max_size != UINT64_MAX)
			units_format_size(t->max_size, b, sizeof(b));
		if (t->min_size > 1 || t->max_size != UINT64_MAX)
			snprintf(lim, sizeof(lim), "size %s to %s",
				 units_format_size(t->min_size ? t->min_size : 1, a, sizeof(a)),
				 t->max_size == UINT64_MAX ? "any" : b);
		if (t->max_inflight)
			snprintf(lim + strlen(lim), sizeof(lim) - strlen(lim), "%sinflight %u",
				 lim[0] ? ", " : "", t->max_inflight);
		printf("%-15s %-21s %-32s %s\n   %s\n", t->name, pats, lim[0] ? lim : "-",
		       t->options ? t->options : "-", t->summary);
	}
	return 0;
}

/* Standard descriptors closed at start (`matrix run m.yaml 2>&-`) are
 * opened on /dev/null first: else the first file the run opens would be
 * descriptor 2, and every progress line would land in it. */
static void open_standard_fds(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
			if (n >= 0 && n != fd)	/* a lower one was closed too: taken above */
				close(n);
		}
}

/* A cell of 1024 clients needs some thousands of descriptors in the
 * runner; the common soft limit is 1024: raise it to the hard limit. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	open_standard_fds();
	raise_fd_limit();
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		fputs(usage_main, stderr);
		exit(EXIT_BADINPUT);
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage_main, stdout);
		exit(0);
	}
	if (!strcmp(cmd, "--version")) {
		printf("matrix %s (%s)\n", MATRIX_VERSION, MATRIX_GIT_REV);
		exit(0);
	}
	if (!strcmp(cmd, "run"))
		exit(cmd_run(argc - 1, argv + 1, argc, argv));
	if (!strcmp(cmd, "plan"))
		exit(cmd_plan(argc - 1, argv + 1));
	if (!strcmp(cmd, "report"))
		exit(cmd_report(argc - 1, argv + 1));
	if (!strcmp(cmd, "compare"))
		exit(cmd_compare(argc - 1, argv + 1));
	if (!strcmp(cmd, "history"))
		exit(cmd_history(argc - 1, argv + 1));
	if (!strcmp(cmd, "transports"))
		exit(cmd_transports());
	if (!strcmp(cmd, "worker"))
		exit(worker_main(argc - 1, argv + 1));
	const char *cmds[] = { "run", "plan", "report", "compare", "history", "transports",
			       "worker" };
	char hint[128];
	fprintf(stderr, "matrix: unknown command '%s'%s\n%s", cmd,
		suggest_hint(cmd, cmds, sizeof(cmds) / sizeof(cmds[0]), hint, sizeof(hint)),
		usage_main);
	exit(EXIT_BADINPUT);
}
