/* `matrix run`: see cmd_run.h. */
#include "cmd_run.h"
#include "cmd_common.h"
#include "cmd_guard.h"
#include "cmd_report.h"
#include "compare.h"
#include "json.h"
#include "resume.h"
#include "run.h"
#include "stats.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static const char usage_run[] =
"usage: matrix run FILE [-o DIR] [--repeat N] [--only KEY=VALUE ...] [--quiet]\n"
"                  [--set KEY=VALUE ...] [--order shuffled|sequential] [--seed N]\n"
"                  [--baseline DIR] [--compare DIM=BASE:CAND] [--threshold PCT]\n"
"                  [--export-json FILE] [--shard K/N]\n"
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
"  -q, --quiet           no progress and no notes on stderr: only failures\n"
"                        (then the closing count); stdout still ends with\n"
"                        the run folder's path\n"
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
"      --export-json FILE  at the end, the run's meta, cells, statistics, ratios\n"
"                        and verdicts into FILE as one JSON document\n"
"      --shard K/N       run only shard K of N: the cell repetitions whose index\n"
"                        (from 0, by cell number then repetition) is K-1 modulo\n"
"                        N; with repeat: auto, whole cells (the cell's place\n"
"                        from 0 modulo N).  The same split on every machine,\n"
"                        whatever --order and --seed; `matrix merge` joins the\n"
"                        N folders\n"
"\n"
"With --baseline or --compare, the rows the first judgement leaves inconclusive\n"
"run four times as many rounds again into DIR/look2 and are judged on all of\n"
"them (a second look; README \"Regression gating\").\n"
"\n"
"The run folder's path is the last line on stdout (all else is on stderr).\n"
"exit status: 0 every repetition ok, 1 some failed, 2 bad input, 130\n"
"interrupted; with --baseline or --compare (or the matrix's report: compare:),\n"
"those of `matrix compare`: 0 nothing regressed, 1 a regression, 2 a failure,\n"
"3 inconclusive\n";



/* repeat: auto's measure (run.h): the width of the interval of the median
 * of v relative to the median, NaN when there is none. */
static double median_rel_width(const double *v, size_t n)
{
	struct stat_summary st;

	stats_summarize(v, n, &st);
	return st.median > 0 ? (st.ci_hi - st.ci_lo) / st.median : NAN;
}

/* The report of a run folder and the comparisons asked for: their exit
 * statuses in *cmp and *base (-1: none), the cells a second look would run
 * again in la and lab; the report into json too, when not NULL (the
 * comparisons' verdicts go to c->ca.json).  Returns cmd_report_build's
 * status. */
static int judge_run(const struct common *c, const char *dir, struct run_json *json, int *cmp,
		     int *base, struct look_again *la, struct look_again *lab)
{
	struct report_opts ro = { .nratios = 0 };
	int rc;

	struct report_ask ask = { .cmd = "run", .ab = c->ab, .ca = &c->ca, .rg = la,
				  .json = json };

	rc = cmd_report_build(dir, &ro, c->quiet, &ask);
	*cmp = ask.cmp;
	*base = c->baseline ? cmd_compare_dirs(c->baseline, dir, &c->ca, "run", lab) : -1;
	/* without a comparison a failed chart fails the run's report (1), as
	 * before; with one it is said and changes nothing */
	return rc ? rc : *cmp < 0 && *base < 0 ? ask.chart_failed : 0;
}

/* The run's report and its first judgement (judge_run), made while its
 * meta.csv says `reporting` (run.h, run_opts.report), for run_verdict. */
struct judged {
	const struct common *c;
	int done, rc, cmp, base;
	struct look_again la, lab;
};

static void report_run(void *arg, const char *dir)
{
	struct judged *j = arg;

	j->done = 1;
	j->rc = judge_run(j->c, dir, j->c->ca.json, &j->cmp, &j->base, &j->la, &j->lab);
}

/* The cells of the plan numbered in la or lab, into sub (pl's cells). */
static void pick_cells(const struct plan *pl, const struct look_again *la,
		       const struct look_again *lab, struct plan *sub)
{
	sub->ncells = 0;
	for (size_t i = 0; i < pl->ncells; i++) {
		int want = 0;
		for (size_t k = 0; k < la->ncells; k++)
			want |= la->cells[k] == pl->cells[i].number;
		for (size_t k = 0; k < lab->ncells; k++)
			want |= lab->cells[k] == pl->cells[i].number;
		if (want)
			sub->cells[sub->ncells++] = pl->cells[i];
	}
}

/* The second look (compare.h): the cells of the rows the first look left
 * inconclusive run as many rounds again, their pairs side by side as in
 * the run, into DIR/look2, and those rows are judged once more on the
 * rounds of both looks (DIR/look2/ab.* and compare.*).  *cmp and *base
 * become the second judgement's statuses.  Returns 0, 130 when it was
 * interrupted, 2 when it could not run. */
static int second_look(const struct common *c, const struct plan *pl, const char *dir,
		       const struct run_opts *ro, const struct look_again *la,
		       const struct look_again *lab, int *cmp, int *base)
{
	struct plan sub = *pl;
	char ldir[PATH_MAX + 16], err[1024];
	int rc = EXIT_BADINPUT;

	sub.cells = calloc(pl->ncells + 1, sizeof(*sub.cells));
	if (!sub.cells)
		return EXIT_BADINPUT;
	pick_cells(pl, la, lab, &sub);
	sub.repeat = COMPARE_LOOK2_TIMES * pl->repeat;	/* the looks at n and 5n rounds */
	snprintf(ldir, sizeof(ldir), "%s/%s", dir, COMPARE_LOOK2);
	size_t rows = la->nrows + lab->nrows;
	fprintf(stderr, "matrix: a second look at %zu inconclusive row%s: %zu cell%s, %u more "
		"round%s, into %s\n", rows, rows == 1 ? "" : "s", sub.ncells,
		sub.ncells == 1 ? "" : "s", sub.repeat, sub.repeat == 1 ? "" : "s", ldir);
	char ldirout[PATH_MAX] = "";
	struct run_opts o = { .outdir = ldir, .dir = ldirout, .quiet = c->quiet,
			      .command_line = "second look of a comparison",
			      .order = c->order, .has_seed = c->has_seed, .seed = c->seed + 1,
			      .rel_width = median_rel_width, .sets = &c->sets,
			      .paired = ro->paired, .pair_dim = ro->pair_dim };
	int status = run_plan(&sub, &o, err, sizeof(err));
	if (status == EXIT_BADINPUT) {
		fprintf(stderr, "matrix: second look: %s\n", err);
	} else if (status == 130) {
		rc = 130;
	} else if (ldirout[0]) {
		struct compare_args args = c->ca;
		struct report r;
		args.look = 2;
		rc = 0;
		if (la->ncells) {
			if (report_load(&r, dir, NULL, err, sizeof(err)) < 0) {
				fprintf(stderr, "matrix: second look: %s\n", err);
				rc = EXIT_BADINPUT;
			} else {
				*cmp = cmd_compare_in_run(&r, c->ab, &args, "run", NULL);
				report_release(&r);
			}
		}
		if (lab->ncells)
			*base = cmd_compare_dirs(c->baseline, dir, &args, "run", NULL);
	}
	free(sub.cells);
	return rc;
}

/* After a run: its report (read back from the folder, as `matrix report`
 * does), then the comparisons asked for at their first look (both in j,
 * made by run_plan: report_run), then the second look at what they left
 * inconclusive.  Without a comparison, the
 * run's status (1 when the report failed too); with one, compare's: 1 a
 * regression, else 2 a failed repetition or tool, else 3 inconclusive,
 * else 0. */
static int run_verdict(const struct common *c, const struct plan *pl, const char *dir,
		       const struct run_opts *ro, int status, struct judged *j)
{
	if (!j->done)
		report_run(j, dir);
	struct look_again la = j->la, lab = j->lab;
	int cmp = j->cmp, base = j->base, rc = j->rc;

	if (status != 130 && (cmp >= 0 || base >= 0) && (la.ncells || lab.ncells)) {
		int look = second_look(c, pl, dir, ro, &la, &lab, &cmp, &base);
		if (look)
			status = look == 130 ? 130 : EXIT_BADINPUT;
	}
	cmd_look_again_release(&la);
	cmd_look_again_release(&lab);
	if (status == 130)
		return status;
	if (cmp < 0 && base < 0)
		return rc && !status ? 1 : status;
	if (cmp == 1 || base == 1)
		return 1;
	if (status || rc || cmp == EXIT_BADINPUT || base == EXIT_BADINPUT)
		return EXIT_BADINPUT;
	return cmp == 3 || base == 3 ? 3 : 0;
}

/* --export-json FILE after the run: the run's exit status, made that of a
 * report file that could not be written when it could not (1; with a
 * comparison 2, as compare's, unless a regression stands). */
static int export_run_json(const struct common *c, const struct matrix *m, const char *dir,
			   int status)
{
	int compared = c->ab || c->baseline || m->report.compare.set;

	if (cmd_report_export_json(c->ca.json, c->export_json, dir, "run", c->quiet) == 0 ||
	    status == 130)
		return status;
	if (!compared)
		return status ? status : 1;
	return status == 1 ? 1 : EXIT_BADINPUT;
}

/* --export-json FILE, before anything runs: never the matrix file, nor a
 * file of the run folder (-o DIR, --resume DIR, or the one to be made in
 * results/NAME/) or of the baseline that the run reads or writes.  -1
 * after saying which. */
static int run_check_outputs(const struct common *c, const struct matrix *m)
{
	struct cmd_guard g = { .cmd = "run", .matrix = c->file };
	char stamped[PATH_MAX];
	const char *dir = c->resume ? c->resume : c->outdir;
	int rc;

	if (!c->export_json)
		return 0;
	snprintf(stamped, sizeof(stamped), "results/%s", m->name);
	rc = cmd_guard_add(&g, dir ? dir : stamped, dir ? CMD_READS | CMD_WRITES : CMD_RUNS_IN);
	if (!rc && c->baseline)
		rc = cmd_guard_add(&g, c->baseline, CMD_READS);
	if (!rc)
		rc = cmd_guard_check(&g, "--export-json", c->export_json);
	cmd_guard_release(&g);
	return rc;
}

/* An in-run A/B (--compare DIM=..., else the matrix's report: compare:)
 * runs its pairs side by side, ABBA (order.h): its dimension into o. */
static void pair_by(const struct common *c, const struct matrix *m, struct run_opts *o)
{
	size_t len = c->ab ? strcspn(c->ab, "=") : 0;

	if (!c->ab && !m->report.compare.set)
		return;
	for (size_t d = 0; d < m->ndims; d++)
		if (c->ab ? strlen(m->dims[d].key) == len && !strncmp(m->dims[d].key, c->ab, len)
			  : d == m->report.compare.dim) {
			o->paired = 1;
			o->pair_dim = d;
		}
}

/* --resume DIR: the folder read first as `matrix report` reads it, before
 * anything of it is touched: one report refuses (a row twice, a figure
 * that is no number, a fifo, a field past its bound) is refused here, and
 * stays as it was.  A folder killed before its results.csv was made has
 * nothing to read.  0, or -1 after saying why. */
static int resume_readable(const char *dir)
{
	char path[PATH_MAX + 16], err[1024];
	struct report r;
	struct stat st;

	snprintf(path, sizeof(path), "%s/results.csv", dir);
	if (lstat(path, &st) < 0 && errno == ENOENT)
		return 0;
	if (report_load(&r, dir, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix run: --resume %s: %s\n", dir, err);
		return -1;
	}
	report_release(&r);
	return 0;
}

/* A run that could not start: "matrix: why", or a matrix file's error
 * (topology: netns without root) as the loader's, FILE:LINE:COL first. */
static void print_run_error(const struct matrix *m, const char *err)
{
	size_t at = strlen(m->path);

	fprintf(stderr, "%s%s\n", strncmp(err, m->path, at) || err[at] != ':' ? "matrix: " : "",
		err);
}

int cmd_run(int argc, char **argv, int full_argc, char **full_argv)
{
	struct common c = { 0 };
	struct matrix m;
	struct plan pl;
	char err[1024];
	int status;

	/* before getopt permutes argv */
	char *cmdline = cmd_join_argv(full_argc, full_argv);
	struct resume_args ra;	/* --resume: the folder's flags, parsed as the user's */

	if (cmd_parse_common(argc, argv, &c, 1, usage_run) < 0 || (c.resume &&
	    (resume_args(&ra, c.resume, c.file || c.outdir || c.repeat || c.nonly || c.sets.n ||
			 c.has_seed || c.order || c.shard.n) < 0 ||
	     cmd_parse_common(ra.argc, ra.argv, &c, 1, "") < 0)) ||
	    cmd_load_plan(&c, &m, &pl) < 0) {
		free(cmdline);
		matrix_sets_release(&c.sets);
		return EXIT_BADINPUT;
	}
	/* what is compared after the run is checked before it */
	char probe[PATH_MAX + 16];
	snprintf(probe, sizeof(probe), "%s/results.csv", c.baseline ? c.baseline : "");
	if (cmd_compare_check_spec(&m, c.ab, "run") < 0 ||
	    (c.resume && resume_readable(c.resume) < 0) ||
	    (c.baseline && access(probe, R_OK) < 0 &&
	     fprintf(stderr, "matrix run: --baseline %s: not a run folder (%s: %s)\n", c.baseline,
		     probe, strerror(errno))) || run_check_outputs(&c, &m) < 0) {
		free(cmdline);
		plan_release(&pl);
		matrix_release(&m);
		matrix_sets_release(&c.sets);
		return EXIT_BADINPUT;
	}
	if (c.export_json && !(c.ca.json = run_json_new())) {
		fprintf(stderr, "matrix run: out of memory\n");
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
			      .resume = c.resume, .shard = c.shard };
	struct judged judged = { .c = &c };
	o.report = report_run;
	o.report_arg = &judged;
	pair_by(&c, &m, &o);
	if (c.shard.n && !c.quiet && !shard_count(&c.shard, &pl))
		fprintf(stderr, "matrix run: shard %u/%u runs nothing: the plan has %zu %s for %u "
			"shards (its folder is made all the same, for matrix merge)\n", c.shard.k,
			c.shard.n, m.repeat_min ? pl.ncells : pl.ncells * pl.repeat,
			m.repeat_min ? "cells (repeat: auto)" : "cell repetitions", c.shard.n);
	status = run_plan(&pl, &o, err, sizeof(err));
	if (status == EXIT_BADINPUT) {
		print_run_error(&m, err);
	} else if (dir[0]) {
		status = run_verdict(&c, &pl, dir, &o, status, &judged);
		if (c.export_json)
			status = export_run_json(&c, &m, dir, status);
		printf("%s\n", dir);	/* the last line on stdout: dir=$(matrix run ...) */
	} else if (!status && c.resume && c.export_json) {
		/* a finished run: nothing ran, so no document was made */
		fprintf(stderr, "matrix run: --export-json %s: nothing was resumed, so nothing "
			"written; `matrix report %s --export-json %s` writes it\n", c.export_json,
			c.resume, c.export_json);
		status = EXIT_BADINPUT;
	} else if (!status && c.resume) {
		printf("%s\n", c.resume);	/* a finished run, nothing to resume */
	}
	run_json_free(c.ca.json);
	free(cmdline);
	plan_release(&pl);
	matrix_release(&m);
	matrix_sets_release(&c.sets);
	return status;
}
