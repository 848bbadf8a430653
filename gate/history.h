/*
 * history: many run folders of one benchmark read as a time series, each
 * cell's median per run, with the runs where a step change happened.
 *
 * The caller loads the run folders (report_load) and hands them over in
 * any order; history_build
 *   orders them by meta.csv's start_utc ("2026-12-01T10:00:00Z"), or, with
 *     none, by the folder's name (`matrix run` names folders by the same
 *     UTC timestamp, "20261201T100000Z", so the two orders agree); ties by
 *     folder name, then by the order given
 *   groups them by fingerprint (compare_fingerprint, compare.h: kernel, CPU
 *     model, cores, governor, tool version, matrix.yaml): a run joins the
 *     first group whose first run has the same fingerprint, else starts a
 *     new one.  Groups are numbered from 1 in the order of their first run;
 *     each is a history of its own, and never compared with another
 *   makes one point per run x cell x metric, group by group, runs in order,
 *     cells in the order they first appear in the group (matched across runs
 *     by their parameters, every dimension by name, as compare_folders
 *     does), metrics in the order asked.  A metric is a cell's when some run
 *     of the group has a figure of it there (no RTT for a stream cell); a
 *     cell that no run measured at all keeps a point of the first metric,
 *     with n = 0, so it is seen.  A run that lacks the cell has no point
 *   judges each point against the previous run of its group that has a
 *     figure of that cell and metric (a failed run is passed over): change
 *     (median ratio - 1) and the verdict of compare_folders(previous run,
 *     this run) for that cell and metric, with the same threshold and
 *     metrics, so it is the verdict `matrix compare PREVIOUS THIS` gives
 *     (a run where the cell failed is judged too: inconclusive, "failed on
 *     a side").  A step is a verdict of regressed or improved.
 *
 * Writers (history_out.c), each one file, called by the command in this
 * order; none calls another (history_write_chart makes plots/ if needed):
 *   history.csv   history_write_csv: one row per point (columns there)
 *   history.md    history_write_md: per group, a table per metric, a row per
 *                 cell, a column per run (median), steps marked, and the
 *                 list of steps
 *   plots/history.gp  history_write_chart: per group and metric a panel, a
 *                 line per cell over the run's index in its group, whiskers
 *                 the interval of the median, steps as large triangles;
 *                 it reads history.csv:
 *                   cd DIR && gnuplot -c plots/history.gp history.csv plots/history.svg
 */
#ifndef MATRIX_HISTORY_H
#define MATRIX_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"

struct hist_run {
	const struct report *r;
	char name[256];			/* the folder's last component */
	const char *start;		/* meta.csv start_utc, or "" */
	size_t group;			/* 1, 2, ... */
	size_t index;			/* 1, 2, ... within its group, in order */
	size_t first_point, npoints;	/* its points: points[first_point..+npoints) */
};

/* A cell of a group: its first appearance stands for it. */
struct hist_cell {
	const struct report *r;
	const struct rcell *c;
	char label[512];		/* every dimension: "pattern=pingpong size=16" */
	char title[512];		/* the values of those that vary in the group */
};

struct hist_group {
	size_t first;			/* index into runs of its first run */
	size_t nruns, nsteps;
	char differs[2048];		/* compare_fingerprint lines against group 1's
					 * first run ("  kernel: A vs B\n"); "" for group 1 */
	struct hist_cell *cells;
	size_t ncells;
};

struct hist_point {
	size_t run;			/* index into runs */
	size_t group;			/* index into groups (its number - 1) */
	size_t cell;			/* index into its group's cells */
	int metric;			/* index into metrics */
	const struct rcell *rc;		/* the cell in that run */
	size_t n;			/* successful repetitions with a figure */
	double median, ci_lo, ci_hi;	/* the cell's stat_summary; NaN when n = 0 */
	size_t prev;			/* index into runs of the run judged
					 * against, or SIZE_MAX (the first) */
	double prev_median;		/* the previous run's, or NaN */
	double change;			/* median / previous median - 1, or NaN */
	enum verdict verdict;		/* V__COUNT without a previous run */
	const char *why;		/* compare's word on the verdict, or "" */
	int step;			/* verdict regressed or improved */
};

struct history {
	struct hist_run *runs;		/* in order (see above) */
	size_t nruns;
	struct hist_group *groups;
	size_t ngroups;
	struct hist_point *points;	/* group by group, run, cell, metric */
	size_t npoints;
	double threshold;
	int metrics[MATRIX_NMETRICS];
	size_t nmetrics;
	size_t nsteps;
};

/* Orders, groups and judges the runs (reports[0..n), each loaded; they
 * must outlive h).  metrics: nmetrics of them, or 0 for compare's default
 * (compare_default_metrics).  0, or -1 with err (out of memory, no run);
 * h must be released even on failure. */
int history_build(struct history *h, const struct report *const *reports, size_t n,
		  double threshold, const int *metrics, size_t nmetrics, char *err,
		  size_t errlen);
void history_release(struct history *h);

/* Writes DIR/history.csv, one row per point:
 *   group, run (the folder's name), start_utc, label (the cell's dimensions,
 *   "k=v k=v"), metric, n, median, ci_lo, ci_hi (the cell's interval of the
 *   median, stats.h), change_vs_previous, verdict_vs_previous (empty for a
 *   first run), step (1 or 0), then run_index (within the group), previous
 *   (the folder judged against, or empty) and why (compare's word on an
 *   inconclusive verdict).
 * -1 with err naming the file. */
int history_write_csv(const struct history *h, const char *dir, char *err, size_t errlen);
/* Writes DIR/history.md (see above); -1 with err naming the file. */
int history_write_md(const struct history *h, const char *dir, char *err, size_t errlen);
/* Writes DIR/plots/history.gp, making plots/ if needed; -1 with err. */
int history_write_chart(const struct history *h, const char *dir, char *err, size_t errlen);

/* One line per group on f, with what differs from group 1 below it:
 *   "history: group 2: 1 run, 0 steps; differs from group 1 in:"
 *   "  kernel: Linux 6.1.0 vs Linux 6.6.0"
 * then, when every_step, one line per step (the new figure first):
 *   "20261202T100000Z: pattern=pingpong size=16 transport=unix: msgs_per_s
 *    16.0k msg/s vs 20.0k msg/s, -20.0%, regressed (against 20261201T100000Z)"
 */
void history_print(const struct history *h, FILE *f, int every_step);

#endif
