/*
 * cmd_compare: `matrix compare BASE_DIR NEW_DIR`, and the comparisons that
 * `matrix run --baseline DIR`, `run --compare` and `report --compare` make
 * with it (gate/compare.h judges; this reads the options, loads the
 * folders, writes the files and says the verdicts).  Every one exits with
 * compare's status: 0 nothing regressed, 1 a regression, 2 bad input, a
 * tool or a cell failed, 3 inconclusive.
 */
#ifndef MATRIX_CMD_COMPARE_H
#define MATRIX_CMD_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "vocab.h"

struct matrix;
struct report;
struct run_json;

/* What the three share: the options of a comparison. */
struct compare_args {
	double threshold;		/* fraction; 0 = the default */
	int metrics[MATRIX_NMETRICS];
	size_t nmetrics;		/* 0 = the default metrics */
	const char *out;		/* compare: -o DIR, else NEW_DIR */
	int force, quiet;
	struct run_json *json;		/* --export-json: the verdicts also go there, or NULL */
	/* where the verdict lines go: stdout for `matrix compare`, `history`
	 * and `report`, whose results they are; NULL (stderr) for run, whose
	 * stdout is its folder alone, and when JSON goes to stdout */
	FILE *results;
	/* the second look (compare.h): 0 judges the first look and, when the
	 * folder holds a look2/ run folder (RUN/look2/results.csv), the second
	 * too, written into that folder; 2 writes only the second look (the
	 * run's own call once look2/ is measured) */
	int look;
	/* compare --history DIR: the runs each cell's normal night-to-night
	 * spread is learnt from (history.h), or NULL */
	const char *history;
};

/* --threshold PCT and --metric M of any command; -1 after a message. */
int cmd_compare_parse_threshold(const char *cmd, const char *s, double *v);
int cmd_compare_parse_metric(const char *cmd, const char *s, struct compare_args *a);

/* The cells a second look runs again: the new side's of every row
 * compare_row_looks_again, and for an in-run A/B the baseline's too. */
struct look_again {
	unsigned *cells;
	size_t ncells, nrows;
};
void cmd_look_again_release(struct look_again *la);

int cmd_compare(int argc, char **argv);

/* A baseline folder against a new one; compare's exit status.  la, when
 * not NULL, gets the cells a second look would run again. */
int cmd_compare_dirs(const char *base, const char *cand, const struct compare_args *a,
		     const char *cmd, struct look_again *la);

/* The in-run A/B of a loaded run folder: `spec` DIM=BASE:CAND (from
 * --compare), else the matrix's report: compare:.  Writes ab.csv, ab.md
 * and plots/ab.gp into the folder.  compare's exit status, or -1 when neither asks for one. */
int cmd_compare_in_run(const struct report *r, const char *spec, const struct compare_args *a,
		       const char *cmd, struct look_again *la);

/* Before a run: --compare DIM=BASE:CAND names a key of the matrix and two
 * of its values, and --baseline a run folder; -1 after a message. */
int cmd_compare_check_spec(const struct matrix *m, const char *spec, const char *cmd);

#endif
