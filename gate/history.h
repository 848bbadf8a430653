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
 *   learns each point's noise: the normal night-to-night spread of its
 *     cell and metric, from the group's EARLIER runs only (history_noise
 *     over the log of each consecutive pair of their medians; a run
 *     without a figure of the cell is passed over)
 *   judges each point against the previous run of its group that has a
 *     figure of that cell and metric (a failed run is passed over): change
 *     (median ratio - 1) and the verdict of compare_folders(previous run,
 *     this run) for that cell and metric, with the same threshold and
 *     metrics, so it is the verdict `matrix compare PREVIOUS THIS` gives
 *     (a run where the cell failed is judged too: inconclusive, "failed on
 *     a side"); one comparison per pair of runs, not per point
 *   then the noise rule (history_calibrate): a regressed or improved
 *     verdict stays one only when the change is beyond HISTORY_NOISE_K
 *     times the noise, else it is inconclusive ("within the normal
 *     night-to-night spread"); with fewer than HISTORY_NOISE_MIN earlier
 *     changes the noise is not known yet and compare's verdict stands.  A
 *     step is a verdict (after the rule) of regressed or improved
 *   reads each run's own gate, when its folder holds one (history_gate.c):
 *     ab.csv (an in-run A/B: the row whose candidate is the cell) or else
 *     compare.csv (`run --baseline`, `compare BASE RUN`), each the second
 *     look's (look2/) when the run took one: the final verdicts.  A
 *     point's night verdict is its gate's when it has one, else its own
 *     verdict; history.md and the chart mark those
 *
 * Writers (history_out.c), each one file, called by the command in this
 * order; none calls another (history_write_chart makes plots/ if needed):
 *   history.csv   history_write_csv: one row per point (columns there)
 *   history.md    history_write_md: per group, how many nights its noise is
 *                 learnt from, a table per metric, a row per cell, a column
 *                 per run (median), the night verdicts marked, the list of
 *                 steps and that of the nights' own gates
 *   plots/history.gp  history_write_chart: per group and metric a panel, a
 *                 line per cell over the run's index in its group (at most
 *                 HISTORY_CHART_LINES, cells with a marked night first),
 *                 whiskers the interval of the median, the night verdicts
 *                 as large triangles, each line over the cell's own median
 *                 of the group's runs (1x; that median in the key), a y
 *                 range per panel; it reads history.csv:
 *                   cd DIR && gnuplot -c plots/history.gp history.csv plots/history.svg
 */
#ifndef MATRIX_HISTORY_H
#define MATRIX_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"

/* The noise rule (README "History"): a step must be beyond K times the
 * noise, learnt from the last MAX changes of the cell, once there are MIN. */
#define HISTORY_NOISE_K 4.0
#define HISTORY_NOISE_MIN 5
#define HISTORY_NOISE_MAX 20
/* A chart panel draws at most this many cells (history.csv has them all). */
#define HISTORY_CHART_LINES 12

/* What the noise rule made of a point's verdict. */
enum noise_call {
	NOISE_NONE,		/* no previous run, or no figure on a side */
	NOISE_UNKNOWN,		/* fewer than HISTORY_NOISE_MIN changes: compare's verdict stands */
	NOISE_WITHIN,		/* a step of compare's within the spread: made inconclusive */
	NOISE_BEYOND,		/* a step beyond the spread: it stands */
	NOISE_KNOWN,		/* no step to weigh; the spread is known */
};

struct hist_run {
	const struct report *r;
	char name[256];			/* the folder's last component */
	const char *start;		/* meta.csv start_utc, or "" */
	size_t group;			/* 1, 2, ... */
	size_t index;			/* 1, 2, ... within its group, in order */
	size_t first_point, npoints;	/* its points: points[first_point..+npoints) */
	/* its group's cell k, metric h->metrics[mi]: points[point_of[k *
	 * nmetrics + mi]], SIZE_MAX when it has none */
	size_t *point_of;
	int gated;			/* its folder holds a gate of its own */
};

/* A cell of a group: its first appearance stands for it. */
struct hist_cell {
	const struct report *r;
	const struct rcell *c;
	char label[512];		/* every dimension: "pattern=pingpong size=16" */
	char title[512];		/* the values of those that vary in the group */
	char *key;			/* every dimension, sorted by name: the identity */
	unsigned char has[MATRIX_NMETRICS];	/* by position in h->metrics: a run has
						 * a figure of it */
	int measured;			/* some run has a figure of it (else has[0] is
					 * set alone, so that it is seen) */
	unsigned char marked[MATRIX_NMETRICS];	/* by position: a night verdict of it is
						 * regressed or improved */
};

struct hist_group {
	size_t first;			/* index into runs of its first run */
	size_t nruns, nsteps;
	size_t ngate_marks;		/* points whose gate's final verdict is a step */
	char differs[2048];		/* compare_fingerprint lines against group 1's
					 * first run ("  kernel: A vs B\n"); "" for group 1 */
	struct hist_cell *cells;
	size_t ncells;
	size_t *slots, nslots;		/* a hash of the cells' keys: index + 1, or 0 */
	size_t nights_lo, nights_hi;	/* its last run's points: the fewest and most
					 * changes their noise is learnt from */
};

struct hist_point {
	size_t run;			/* index into runs */
	size_t group;			/* index into groups (its number - 1) */
	size_t cell;			/* index into its group's cells */
	int metric;			/* index into metrics */
	size_t mi;			/* its position in h->metrics */
	const struct rcell *rc;		/* the cell in that run */
	size_t n;			/* successful repetitions with a figure */
	double median, ci_lo, ci_hi;	/* the cell's stat_summary; NaN when n = 0 */
	size_t prev;			/* index into runs of the run judged
					 * against, or SIZE_MAX (the first) */
	double prev_median;		/* the previous run's, or NaN */
	double change;			/* median / previous median - 1, or NaN */
	enum verdict compared;		/* compare_folders' verdict; V__COUNT without
					 * a previous run */
	double noise;			/* history_noise of the earlier changes, NaN
					 * when there are none */
	size_t noise_nights;		/* how many changes it is learnt from */
	enum noise_call call;		/* what the noise rule made of compared */
	enum verdict verdict;		/* after the noise rule; V__COUNT without a
					 * previous run */
	const char *why;		/* compare's word on its verdict, or "" */
	int step;			/* verdict regressed or improved */
	const char *gate;		/* the run's own gate with a row of this cell
					 * and metric: "ab.csv", "look2/ab.csv",
					 * "compare.csv", "look2/compare.csv", or "" */
	enum verdict gate_verdict;	/* its verdict, final; V__COUNT without one */
	const char *gate_why;		/* its why, or "" */
	enum verdict night;		/* gate_verdict when there is one, else verdict */
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
	size_t ngates;			/* runs with a gate of their own */
	char **strings;			/* the gates' whys, owned */
	size_t nstrings;
};

/* Orders, groups, learns the noise, judges and reads the gates of the runs
 * (reports[0..n), each loaded; they must outlive h).  metrics: nmetrics
 * of them, or 0 for compare's default (compare_default_metrics).  0, or -1
 * with err (out of memory, no run, a gate file that cannot be read); h
 * must be released even on failure. */
int history_build(struct history *h, const struct report *const *reports, size_t n,
		  double threshold, const int *metrics, size_t nmetrics, char *err,
		  size_t errlen);
/* history_build's first steps only: orders, groups, makes the points and
 * learns their noise; no verdict (every one V__COUNT), no gate.  For
 * `compare --history`, which needs the noise alone. */
int history_learn(struct history *h, const struct report *const *reports, size_t n,
		  const int *metrics, size_t nmetrics, char *err, size_t errlen);
void history_release(struct history *h);

/* The run of h whose report is r, or SIZE_MAX. */
size_t history_run_of(const struct history *h, const struct report *r);
/* The index of cell c (of report r: matched by its parameters, every
 * dimension by name) among group g's cells, or SIZE_MAX. */
size_t history_cell_of(const struct history *h, size_t g, const struct report *r,
		       const struct rcell *c);


/* The noise of cell c (of report r: matched by its parameters) and metric
 * in group g (an index), learnt from the group's runs that come before
 * runs[before] in order (before = h->nruns: all of them), as a run there
 * would be judged with; *nights how many changes.  NaN, 0 nights when the
 * group has no such cell. */
double history_noise_before(const struct history *h, size_t g, size_t before,
			    const struct report *r, const struct rcell *c, int metric,
			    size_t *nights);

/* The pure parts.  The noise of a cell: chg[0..n), the log of the ratio
 * of each consecutive pair of its runs' medians, oldest first; of the last
 * HISTORY_NOISE_MAX of them, 1.4826 x their median absolute value (a
 * robust standard deviation of the night-to-night change, unmoved by a
 * few real steps among them).  *used how many; NaN when n = 0. */
double history_noise(const double *chg, size_t n, size_t *used);
/* The noise rule on compare's verdict v of a change (ratio - 1): a
 * regressed or improved verdict with |log(1 + change)| at most
 * HISTORY_NOISE_K x noise becomes inconclusive (NOISE_WITHIN); with fewer
 * than HISTORY_NOISE_MIN nights it stands (NOISE_UNKNOWN); *call says
 * which.  Any other verdict stands. */
enum verdict history_calibrate(enum verdict v, double change, double noise, size_t nights,
			       enum noise_call *call);
/* The why of a point after the noise rule, into buf: compare's why (cmp,
 * may be "") joined with the rule's word:
 *   "too little history (2 of 5 nights): the normal spread is not known yet"
 *   "within the normal night-to-night spread (±3.1%, 14 nights)"
 *   "beyond the normal night-to-night spread (±3.1%, 14 nights)"
 * (the band is HISTORY_NOISE_K x the noise, as a log change in percent). */
void history_why(enum noise_call call, double noise, size_t nights, const char *cmp, char *buf,
		 size_t len);

/* Reads the run's own gate into its points (history_gate.c; history_build
 * calls it): run->gated and each point's gate, gate_verdict and gate_why:
 * the row whose new_cell is the point's cell and whose metric is its, of
 * ab.csv, else of compare.csv; of each, the second look's
 * (RUN/look2/ab.csv) when the run took one, which holds every row's final
 * verdict (those the first look decided keep it).  Rows of metrics h does
 * not follow, and added or removed rows, are passed over.  0, or -1 with
 * err naming the file. */
int history_read_gate(struct history *h, size_t run, char *err, size_t errlen);

/* Writes DIR/history.csv, one row per point:
 *   group, run (the folder's name), start_utc, label (the cell's dimensions,
 *   "k=v k=v"), metric, n, median, ci_lo, ci_hi (the cell's interval of the
 *   median, stats.h), change_vs_previous, verdict_vs_previous (after the
 *   noise rule; empty for a first run), step (1 or 0), then run_index
 *   (within the group), previous (the folder judged against, or empty) and
 *   why (compare's word and the noise rule's), then compare_verdict
 *   (compare's, before the noise rule), noise (history_noise, a log
 *   change), noise_nights, gate (ab.csv, compare.csv or empty),
 *   gate_verdict (its final verdict), gate_why, night_verdict (the one
 *   marked: gate_verdict when there is one, else verdict_vs_previous).
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
 * and one per marked night verdict of a gate:
 *   "20261203T100000Z: server=new size=64: rtt_p50_us 62.2 µs, regressed
 *    (its own gate, look2/ab.csv)"
 */
void history_print(const struct history *h, FILE *f, int every_step);

/* The parts of history_learn in files of their own, for history.c:
 * history_cells.c keys a cell by every dimension's name and value (sorted
 * by name; malloc'd, NULL out of memory), finds a key among a group's
 * cells (SIZE_MAX: none) and adds a cell to a group (its key taken over;
 * -1 out of memory); history_noise.c learns every point's noise from the
 * runs of its group before its own (-1 out of memory). */
char *history_cell_key(const struct report *r, const struct rcell *c);
size_t history_find_key(const struct hist_group *g, const char *key);
int history_add_cell(struct hist_group *g, size_t *cap, const struct report *r,
		     const struct rcell *c, char *key);
int history_learn_noise(struct history *h);
/* A copy of s that h keeps until history_release (history_cells.c); NULL
 * out of memory. */
const char *history_own(struct history *h, const char *s);

#endif
