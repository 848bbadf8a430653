/* `matrix run`: see cmd_run.h. */
#include "cmd_run.h"
#include "cmd_common.h"
#include "cmd_report.h"
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
 * statuses in *cmp and *base (-1: none), what they called regressed in
 * rg and rgb; the report into json too, when not NULL (the comparisons'
 * verdicts go to c->ca.json).  Returns cmd_report_build's status. */
static int judge_run(const struct common *c, const char *dir, struct run_json *json, int *cmp,
		     int *base, struct regressions *rg, struct regressions *rgb)
{
	struct report_opts ro = { .nratios = 0 };
	int rc;

	struct report_ask ask = { .cmd = "run", .ab = c->ab, .ca = &c->ca, .rg = rg,
				  .json = json };

	memset(rg, 0, sizeof(*rg));
	memset(rgb, 0, sizeof(*rgb));
	rc = cmd_report_build(dir, &ro, c->quiet, &ask);
	*cmp = ask.cmp;
	*base = c->baseline ? cmd_compare_dirs(c->baseline, dir, &c->ca, "run", rgb) : -1;
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
		struct common again = *c;	/* its verdicts are a confirmation */
		again.ca.confirmation = 1;
		judge_run(&again, cdirout, NULL, &cmp, &base, &rg2, &rgb2);
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
	int rc = judge_run(c, dir, c->ca.json, &cmp, &base, &rg, &rgb);

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
	    (c.baseline && access(probe, R_OK) < 0 &&
	     fprintf(stderr, "matrix run: --baseline %s: not a run folder (%s: %s)\n", c.baseline,
		     probe, strerror(errno)))) {
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
	if (c.shard.n && !c.quiet && !shard_count(&c.shard, &pl))
		fprintf(stderr, "matrix run: shard %u/%u runs nothing: the plan has %zu %s for %u "
			"shards (its folder is made all the same, for matrix merge)\n", c.shard.k,
			c.shard.n, m.repeat_min ? pl.ncells : pl.ncells * pl.repeat,
			m.repeat_min ? "cells (repeat: auto)" : "cell repetitions", c.shard.n);
	status = run_plan(&pl, &o, err, sizeof(err));
	if (status == EXIT_BADINPUT) {
		fprintf(stderr, "matrix: %s\n", err);
	} else if (dir[0]) {
		status = run_verdict(&c, &pl, dir, status);
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
