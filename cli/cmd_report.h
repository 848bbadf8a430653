/*
 * cmd_report: `matrix report`, and the report a run ends with
 * (cmd_report_build): the report model read back from a run folder, each
 * writer in turn, the in-run A/B, the charts.
 */
#ifndef MATRIX_CMD_REPORT_H
#define MATRIX_CMD_REPORT_H

#include "cmd_compare.h"
#include "report.h"

/* What a report is asked for besides its pages: an in-run A/B (ab, or the
 * matrix's report: compare:) with its options, and where its outcome goes. */
struct report_ask {
	const char *cmd;		/* "run" or "report", for messages */
	const char *ab;
	const char *outdir;		/* report -o DIR: written there, the run folder untouched */
	const struct compare_args *ca;
	int cmp;			/* out: the A/B's exit status, -1 if none */
	struct look_again *rg;		/* out: the cells a second look runs again, or NULL */
	int chart_failed;		/* out: gnuplot failed (said on stderr) */
	struct run_json *json;		/* --export-json: the report also goes there, or NULL */
};

/* summary.csv, ratios.csv, summary.md, plots/ for a run folder, and the
 * images when gnuplot is there (see cmd_report.c).  0, 1 (a file could not
 * be written, an image too) or 2 (bad input); a failed rendering
 * otherwise only sets ask->chart_failed. */
int cmd_report_build(const char *dir, const struct report_opts *o, int quiet,
		     struct report_ask *ask);
/* --export-json PATH: writes the document j (reports/json.h) of run
 * folder dir, and says so unless quiet; -1 after saying why it could not
 * (cmd: "run" or "report"; a run's folder is whole, and `matrix report`
 * writes the file again). */
int cmd_report_export_json(const struct run_json *j, const char *path, const char *dir,
			   const char *cmd, int quiet);
/* `matrix report ARGS`: its exit status. */
int cmd_report(int argc, char **argv);

#endif
