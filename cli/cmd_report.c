/* `matrix report` and the report a run ends with: see cmd_report.h. */
#include "cmd_report.h"
#include "arrays.h"
#include "cmd_common.h"
#include "cmd_guard.h"
#include "gnuplot.h"
#include "headline.h"
#include "html.h"
#include "json.h"
#include "markdown.h"
#include "outfile.h"
#include "stale.h"
#include "summary.h"
#include "vocab.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage_report[] =
"usage: matrix report RUN_DIR [--ratio [DIM:]NUM/DEN ...] [--metric METRIC]\n"
"                     [--compare DIM=BASE:CAND [--threshold PCT]] [-o DIR] [--quiet]\n"
"                     [--export-json FILE]\n"
"\n"
"Rebuilds summary.csv, ratios.csv, summary.md, plots/ and report.html of a run\n"
"folder from its results.csv and matrix.yaml (edit the copy to change report:\n"
"settings).\n"
"Works on the folder of an interrupted run.\n"
"\n"
"      --ratio [DIM:]NUM/DEN  compare value NUM of dimension DIM (default\n"
"                             transport) with DEN, instead of the matrix's ratios;\n"
"                             values as --only takes them (size:64/64KiB);\n"
"                             repeat for more\n"
"      --metric METRIC        the metric every ratio compares, e.g. rtt_p50_us\n"
"      --compare DIM=BASE:CAND  in-run A/B: regression verdicts of every cell\n"
"                             with DIM=CAND against its twin with DIM=BASE\n"
"                             (ab.csv, ab.md, plots/ab.gp; exit status as `matrix\n"
"                             compare`); the matrix's report: compare: does the same\n"
"      --threshold PCT        the smallest change that matters (default 5%)\n"
"      --export-json FILE     also write the run's meta, cells, statistics, ratios\n"
"                             and verdicts into FILE as one JSON document; FILE\n"
"                             - is stdout (the headline and verdicts then go to\n"
"                             stderr)\n"
"  -o, --output DIR           write the report into DIR (which must not exist or\n"
"                             be empty) and leave RUN_DIR as it is; the data its\n"
"                             charts read (timeline.csv) is copied beside them\n"
"  -q, --quiet                print only errors\n"
"\n"
"stdout: the headline and the A/B's verdicts; notes on stderr\n";




/* The headline (headline.h) on f, as summary.md has it at its top. */
static void print_headline(const struct headline *h, FILE *f)
{
	if (!h->nlines)
		return;
	fputs("matrix: headline:\n", f);
	for (size_t i = 0; i < h->nlines; i++)
		fprintf(f, "  %s\n", h->lines[i]);
	if (h->more)
		fprintf(f, "  and %zu more in the ratio tables of summary.md\n", h->more);
}

/* -o DIR: a folder that does not exist (made) or is empty.  0, 1 when it
 * was made here, or -1 after saying why. */
static int take_report_dir(const char *dir)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int empty = 1;

	if (mkdir(dir, 0755) == 0)
		return 1;
	if (errno != EEXIST || stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || !(d = opendir(dir))) {
		fprintf(stderr, "matrix report: -o %s: %s\n", dir,
			errno == EEXIST ? "exists and is not a directory" : strerror(errno));
		return -1;
	}
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	if (!empty) {
		fprintf(stderr, "matrix report: -o %s: exists and is not an empty directory\n", dir);
		return -1;
	}
	return 0;
}

/* Copies what the charts read besides the report's own files (timeline.csv,
 * hist.csv) from the run folder into a report's -o folder, each written
 * whole, so that its charts render, and rebuild by hand, there.  0, or -1
 * with err. */
static int copy_chart_data(const char *from, const char *to, char *err, size_t errlen)
{
	static const char *const names[] = { "timeline.csv", "hist.csv" };
	char src[4200], dst[4200], buf[65536];

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct outfile o;
		size_t n;
		snprintf(src, sizeof(src), "%s/%s", from, names[i]);
		snprintf(dst, sizeof(dst), "%s/%s", to, names[i]);
		FILE *f = fopen(src, "re");
		if (!f)
			continue;	/* the run has none */
		if (outfile_open(&o, dst, err, errlen) < 0) {
			fclose(f);
			return -1;
		}
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, o.f);
		int bad = ferror(f);
		fclose(f);
		if (bad) {
			outfile_abort(&o);
			snprintf(err, errlen, "%.900s: read error", src);
			return -1;
		}
		if (outfile_commit(&o, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* summary.csv, ratios.csv, summary.md, plots/ for a run folder, and the
 * images when gnuplot is there: the report model read back from the folder,
 * then each writer in turn (the first that fails stops the rest), then the
 * in-run A/B when one is asked for, then the rendering, then report.html
 * (summary.md and the images on one page; a failure to write it is as an
 * image's).  0, 1 (a file
 * could not be written, an image too) or 2 (bad input); a failed rendering
 * otherwise only sets chart_failed. */
int cmd_report_build(const char *dir, const struct report_opts *o, int quiet,
		     struct report_ask *ask)
{
	struct headline h = { 0 };
	struct report r;
	char err[1024];
	int rc = 0;

	ask->cmp = -1;
	ask->chart_failed = 0;
	if (report_load(&r, dir, o, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix %s: %s\n", ask->cmd, err);
		return EXIT_BADINPUT;
	}
	/* before anything is written: charts never go through a link */
	if (!ask->outdir && cmd_check_own_dirs(ask->cmd, dir) < 0) {
		report_release(&r);
		return EXIT_BADINPUT;
	}
	run_json_add_report(ask->json, &r);	/* run_dir: the run folder, before -o */
	if (ask->outdir && (report_set_outdir(&r, ask->outdir) < 0 ||
			    copy_chart_data(dir, ask->outdir, err, sizeof(err)) < 0)) {
		fprintf(stderr, "matrix %s: could not write the report: %s\n", ask->cmd, err);
		report_release(&r);
		return 1;
	}
	if (!ask->outdir)	/* what a writer killed mid-report left (-o: the folder as it was) */
		report_sweep_tmp(dir);
	if (r.dropped_row)
		fprintf(stderr, "matrix %s: %s/results.csv ends in a row an interrupted write "
			"cut short; it is left out\n", ask->cmd, dir);
	if (summary_write_csv(&r, err, sizeof(err)) < 0 ||
	    summary_write_ratios(&r, err, sizeof(err)) < 0 ||
	    markdown_write(&r, err, sizeof(err)) < 0 ||
	    gnuplot_write_scripts(&r, err, sizeof(err)) < 0)
		rc = -1;
	if (!rc)
		ask->cmp = cmd_compare_in_run(&r, ask->ab, ask->ca, ask->cmd, ask->rg);
	if (!rc && !quiet)
		headline_build(&r, &h);	/* out of memory: no headline, nothing worse */
	if (rc < 0) {
		report_release(&r);
		fprintf(stderr, "matrix %s: could not write the report: %s\n", ask->cmd, err);
		return 1;
	}
	const char *out = ask->outdir ? ask->outdir : dir;
	rc = gnuplot_render(out, err, sizeof(err));
	if (rc)		/* 1: no gnuplot here, which is said and no failure */
		fprintf(stderr, "matrix %s: %s\n", ask->cmd, err);
	ask->chart_failed = rc < 0;
	/* report.html: summary.md and the charts just drawn, on one page */
	if (html_write(&r, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix %s: could not write the report: %s\n", ask->cmd, err);
		rc = -2;
	}
	char busy[768];
	int was_busy = report_busy_text(&r, busy, sizeof(busy));
	report_release(&r);
	print_headline(&h, ask->ca->results ? ask->ca->results : stderr);
	headline_release(&h);
	if (was_busy && !quiet)	/* --quiet: errors only */
		fprintf(stderr, "matrix: warning: a busy machine: %s; see summary.md\n", busy);
	if (!quiet && rc != -2)	/* the page to open first, then the text */
		fprintf(stderr, "matrix: report in %s/report.html, summary in %s/summary.md\n", out,
			out);
	else if (!quiet)
		fprintf(stderr, "matrix: summary in %s/summary.md\n", out);
	return rc == -2;	/* an image could not be written: as a page */
}

int cmd_report_export_json(const struct run_json *j, const char *path, const char *dir,
			   const char *cmd, int quiet)
{
	char err[4200];

	if (run_json_write(j, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix %s: --export-json: %s%s%s%s\n", cmd, err,
			strcmp(cmd, "run") ? "" : "; the run folder is whole: `matrix report ",
			strcmp(cmd, "run") ? "" : dir,
			strcmp(cmd, "run") ? "" : " --export-json FILE` writes it again");
		return -1;
	}
	if (!quiet && strcmp(path, "-"))
		fprintf(stderr, "matrix: JSON in %s\n", path);
	return 0;
}

/* -o DIR and --export-json FILE, before anything is written: never a
 * file of the run folder (or of DIR) that the report reads or writes;
 * then DIR taken (take_report_dir).  0, 1 when DIR was made here, or -1
 * after saying why. */
static int report_take_outputs(const char *dir, const char *outdir, const char *json)
{
	static const char *const written[] = {
		"summary.csv", "ratios.csv", "summary.md", "report.html", "timeline.csv",
		"hist.csv", "plots/throughput.gp", NULL
	};
	struct cmd_guard g = { .cmd = "report" };
	int rc = cmd_guard_add(&g, dir, CMD_READS | CMD_WRITES);

	if (!rc && outdir)
		rc = cmd_guard_check_dir(&g, "-o", outdir, written);
	if (!rc && outdir)
		rc = cmd_guard_add(&g, outdir, CMD_WRITES);
	if (!rc)
		rc = cmd_guard_check(&g, "--export-json", json);
	cmd_guard_release(&g);
	return rc < 0 ? -1 : outdir ? take_report_dir(outdir) : 0;
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

/* The headline and the A/B's verdicts are the results, on stdout; with
 * the JSON there (--export-json -), on stderr.  -1 after a message. */
static int report_results(struct compare_args *ca, const char *json_path)
{
	ca->results = json_path && !strcmp(json_path, "-") ? NULL : stdout;
	if (json_path && !(ca->json = run_json_new())) {
		fprintf(stderr, "matrix report: out of memory\n");
		return -1;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ratio", 1, 0, 'r' }, { "metric", 1, 0, 'm' }, { "quiet", 0, 0, 'q' },
		{ "compare", 1, 0, 'c' }, { "threshold", 1, 0, 't' }, { "help", 0, 0, 'h' },
		{ "export-json", 1, 0, 'J' }, { "output", 1, 0, 'o' }, { 0, 0, 0, 0 }
	};
	struct report_opts o = { .nratios = 0 };
	struct compare_args ca = { .threshold = 0 };
	const char *ab = NULL, *json_path = NULL, *outdir = NULL;
	int ch, quiet = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "qho:", longopts, NULL)) != -1) {
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
		case 'J':
			json_path = optarg;
			break;
		case 'o':
			outdir = optarg;
			break;
		case 't':
			if (cmd_compare_parse_threshold("report", optarg, &ca.threshold) < 0)
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
	if (report_results(&ca, json_path) < 0)
		return EXIT_BADINPUT;
	struct report_ask ask = { .cmd = "report", .ab = ab, .ca = &ca, .json = ca.json,
				  .outdir = outdir };
	int made = report_take_outputs(argv[optind], outdir, json_path);
	if (made < 0) {
		run_json_free(ca.json);
		return EXIT_BADINPUT;
	}
	stale_check(argv[optind], "report");	/* a killed or running run is said */
	int rc = cmd_report_build(argv[optind], &o, quiet, &ask);
	if (rc == EXIT_BADINPUT && made)
		rmdir(outdir);		/* nothing was written: nothing left made */
	/* a JSON export that could not be written is a report file that could
	 * not be (1), and with an A/B a tool failure (2) */
	if (json_path && rc != EXIT_BADINPUT &&
	    cmd_report_export_json(ca.json, json_path, argv[optind], "report", quiet) < 0 && !rc)
		rc = 1;
	run_json_free(ca.json);
	/* alone, a failed chart is a failed report (1); with an A/B it is said
	 * and changes nothing, and a report that could not be written is a
	 * tool failure, as compare's 2 */
	if (ask.cmp < 0)
		return rc ? rc : ask.chart_failed;
	return rc ? EXIT_BADINPUT : ask.cmp;
}
