/*
 * report: a run folder read back as a model: the cells of its results.csv
 * (with its matrix.yaml and meta.csv), each cell's statistics (stats.h),
 * and the ratios between cells.  Nothing here writes a file; the writers
 * each take a loaded report and write one thing, and the command calls
 * them in this order (cli/cmd_report.c, cmd_report_build):
 *   summary.csv, ratios.csv   summary.h
 *   summary.md                markdown.h
 *   plots/NAME.gp             gnuplot.h   (gnuplot_write_scripts)
 * then, after report_release(), the images from the scripts (gnuplot_render).
 *
 * report_load reads the folder in steps, each in a file of its own:
 * results.csv into the cells (report_results.h; the machine's state
 * around each row, report_state.h), the cells' statistics
 * (report.c), hist.csv's round-trip times as each cell's merged buckets
 * (report_hist.h; optional: older folders have none), and the ratios and
 * their pairs of cells (report_ratios.h).  The questions the writers ask
 * of the loaded report, at the end of this header, are in report_query.c.
 *
 * Everything is computed from the files alone, so `matrix report DIR`
 * rebuilds exactly what `matrix run` wrote, and works on a folder whose run
 * was interrupted.  Failed repetitions are counted and left out of every
 * figure; a cell with no successful repetition keeps its status and has
 * empty figures.
 */
#ifndef MATRIX_REPORT_H
#define MATRIX_REPORT_H

#include <stddef.h>

#include "matrix.h"
#include "procinfo.h"
#include "report_pct.h"
#include "stats.h"

/* What the machine was doing around a repetition, besides our workers. */
struct rstate {
	double other_cpus;	/* other processes' CPU time over it, in CPUs */
	double steal_pct;	/* of all CPUs' time, taken by the hypervisor */
	double iowait_pct;	/* of all CPUs' time, idle waiting for I/O */
	double loadavg;		/* the 1-minute load average: the larger of
				 * loadavg_before and loadavg_after */
	double runnable;	/* procs_running just after (the runner is one) */
	double cpu_mhz;		/* the CPUs' mean clock just after, MHz */
};

/* A run shared its machine (report_busy_text) when some repetition had
 * other_cpus above REPORT_BUSY_OTHER_SHARE of meta.csv's cores, steal_pct
 * above REPORT_BUSY_STEAL_PCT, or a load average above the cores. */
#define REPORT_BUSY_OTHER_SHARE 0.25
#define REPORT_BUSY_STEAL_PCT 10.0

struct rcell {
	unsigned number;
	char **dims;			/* values as results.csv writes them */
	size_t reps, failed;
	unsigned *okreps;		/* the repetitions that succeeded */
	size_t nokreps;
	char *status;			/* "ok", "ok, 1 of 3 failed (timeout)", "timeout (all 3)" */
	double *vals[MATRIX_NMETRICS];	/* one per successful repetition */
	unsigned *valrep[MATRIX_NMETRICS];	/* the repetition (round) of each of vals */
	struct stat_summary st[MATRIX_NMETRICS];
	int noisy[MATRIX_NMETRICS];	/* CV above report.noisy_cv */
	/* results.csv's `lost` and `rtt_samples`, each summed over the
	 * successful repetitions that have it; NaN when none has (a reliable
	 * transport, or an older results.csv without the column).  A lost
	 * request is in no round-trip time. */
	double lost, rtt_samples;
	/* results.csv's zc_sends, zc_completions, zc_copied (zerocopy:
	 * true cells), summed likewise; NaN in other cells */
	double zc_sends, zc_completions, zc_copied;
	/* results.csv's measured_by of the successful repetitions as written
	 * ("worker", "process", "printed", "receiver=printed;senders=process")
	 * when they agree, "mixed" when not, "" in an older file without the
	 * column (see results.h) */
	char measured_by[64];
	/* results.csv's placement of its repetitions, failed ones too, when
	 * they agree ("none", "server=0;clients=1"), "mixed" when not; "none"
	 * in an older file without the column (its workers were not placed) */
	char placement[MATRIX_MAX_PLACEMENT];
	/* results.csv's repeat_stop of the cell's last row that has one (why
	 * `repeat: {min, max, width}` stopped adding repetitions); "" when
	 * none has, or an older file without the column */
	char repeat_stop[256];
	/* of the values in vals[m], how many the programs printed themselves,
	 * and how many the runner timed from outside a program's process,
	 * spawn to exit (provenance.h) */
	size_t printed[MATRIX_NMETRICS];
	size_t outside[MATRIX_NMETRICS];
	/* the median of results.csv's elapsed_s (the timed window) over the
	 * successful repetitions, NaN when none has one; under
	 * MATRIX_SHORT_WINDOW_S (vocab.h) the cell's figures are mostly
	 * start-up, and short_window says so */
	double window_s;
	int short_window;
	double *elapsed;		/* each successful repetition's, until summarized */
	size_t nelapsed;
	/* hist.csv: the round-trip times of the successful repetitions, every
	 * repetition's buckets merged (rows of the same bounds added up), in
	 * ascending order; none for a stream cell or a folder from before
	 * hist.csv.  hist_count is their sum, hist_reps how many
	 * repetitions had rows. */
	struct rbucket {
		double low_us, high_us;	/* low_us <= t < high_us */
		double count;
	} *buckets;
	size_t nbuckets;
	double hist_count;
	size_t hist_reps;
	/* the machine around the successful repetitions (results.csv's
	 * machine-state columns, results.h): each figure the median over the
	 * repetitions that have it; NaN when none has (an older folder, a
	 * machine without the figure, repetitions under 0.1 s).  gate/guard.h
	 * compares two runs' cells by them.  states: each successful
	 * repetition's, until summarized (report_state.h). */
	struct rstate state;
	struct rstate *states;
	size_t nstates;
	/* timeline.csv's rows of the successful repetitions (report_timeline.h):
	 * how many, the most one repetition has, the highest rate
	 * (messages / covered_s) among them, the end of the last interval and
	 * the earliest start (0 when none starts before 0) */
	size_t tl_rows, tl_most;
	double tl_top, tl_end, tl_begin;
	/* the matrix's percentiles the metric table has no line for
	 * (report_pct.h, report.extra): each successful repetition's figure
	 * (until summarized), its summary, its CV above report.noisy_cv */
	double *xvals[PERCENTILE_MAX];
	struct stat_summary xst[PERCENTILE_MAX];
	int xnoisy[PERCENTILE_MAX];
	/* direction: bidir: results.csv's rev_msgs_per_s and rev_mib_per_s
	 * summed over the successful repetitions that have them (rev_reps of
	 * them; 0 for a one-way cell or an older file without the columns) */
	double rev_msgs_per_s, rev_mib_per_s;
	size_t rev_reps;
};

struct rratio_def {
	char *name;
	size_t dim;			/* index into report.dimnames */
	char *num, *den;		/* values as results.csv writes them */
	int metric;			/* index into matrix_metrics */
	double geomean;			/* over the pairs with a ratio */
	size_t npairs;			/* pairs with a ratio (both sides measured) */
	const struct ratio_spec *spec;	/* the matrix file's entry (its reference:);
					 * NULL for --ratio and the default ratios */
	const char *flag;		/* the --ratio argument it came from, or NULL */
};

struct rpair {
	size_t def;			/* index into defs */
	const struct rcell *num, *den;
	double ratio, lo, hi;		/* ratio of medians, its interval (stats.h) */
	double level;			/* the interval's real coverage */
};

struct report_opts {
	const char *ratios[32];		/* --ratio [DIM:]NUM/DEN; replace the matrix's */
	size_t nratios;
	const char *metric;		/* --metric: for every ratio */
};

struct report {
	char *dir;
	struct matrix m;
	char **dimnames;		/* results.csv columns between cell and rep,
					 * then those of topology: link: (the last) */
	size_t ndims;
	struct rcell *cells;		/* by cell number */
	size_t ncells;
	struct rratio_def *defs;
	size_t ndefs;
	struct rpair *pairs;
	size_t npairs;
	struct { char *key, *value; } *meta;
	size_t nmeta;
	/* every row of results.csv, by cell number and repetition
	 * (report_find_rep, report_results.h), for the readers of hist.csv
	 * and timeline.csv */
	struct rrep {
		unsigned cell, rep;
		unsigned long line;	/* its row's line in results.csv */
		size_t ci;		/* its cell: index into cells */
		long ok;		/* index into the cell's okreps; -1: it failed */
		double rtt_samples;	/* its rtt_samples; NaN when it has none */
	} *reps;
	size_t nreps;
	/* timeline.csv (report_timeline.h) was read: each cell's tl_* say
	 * what it holds; 0 when the folder has none */
	int have_timeline;
	int dropped_row;		/* results.csv ended in a row cut short */
	/* results.csv has no cpu_us_per_rtt column: it was written before the
	 * stream rate was fixed, when a receiver's msgs_per_s and mib_per_s
	 * were timed from its first read (README, "Figures in older run
	 * folders"); report_stale_stream_rates says whether that matters */
	int before_stream_fix;
	/* meta.csv says `running`: PROC_ALIVE when its runner still runs,
	 * PROC_GONE when it was killed (its status then reads "killed: ..."),
	 * PROC_UNKNOWN for a finished run or an older folder.  With
	 * reporting set, meta.csv says `reporting` (runner/run.h): the run
	 * ended and its reports were being written by that runner, still
	 * alive or killed (then they were cut short; its status reads
	 * "killed while its reports were written: ...") */
	enum proc_state runner;
	int reporting;
	size_t *dimcol;			/* results.csv's column of each of dimnames */
	/* the matrix's percentiles: (report_pct.h), in its order; npct 0
	 * without the key.  extra[x]: those the metric table lacks, as
	 * indexes into pct */
	struct rpct pct[PERCENTILE_MAX];
	size_t npct;
	size_t extra[PERCENTILE_MAX];
	size_t nextra;
	/* the machine around every repetition, failed ones too (results.csv's
	 * loadavg_before and loadavg_after, other_cpus, steal_pct): for each,
	 * the repetitions that have the figure, those of them above the bound
	 * of a busy machine (REPORT_BUSY_*, the load average above meta.csv's
	 * cores; none when the cores are missing), and the highest figure.
	 * All 0 in an older folder without the columns. */
	struct rbusy {
		size_t reps, busy;
		double max;
	} load, other, steal;
};

/* Reads DIR/results.csv, DIR/matrix.yaml and DIR/meta.csv (optional), and
 * computes every cell's statistics and the ratios: the matrix's, or o's
 * --ratio and --metric when given (o may be NULL).  0, or -1 with a message
 * naming the file (and line) or the flag in err, and nothing left to
 * release.  A last row cut short by an interrupted write is left out and
 * dropped_row set: the caller says so. */
int report_load(struct report *r, const char *dir, const struct report_opts *o,
		char *err, size_t errlen);
/* The temporary files (outfile.h: .NAME.PID.tmp, .NAME.PID.tmp.EXT) in
 * DIR and DIR/plots whose writer is gone, removed: a runner killed while
 * it wrote its reports left them.  A file is its writer's while a process
 * of that pid runs that started before the file was last written; this
 * process's own are kept, links and anything not a regular file too, and
 * plots/ is not followed when it is a link.  Nothing is said. */
void report_sweep_tmp(const char *dir);
/* The writers write into r->dir, the run folder read; `matrix report -o
 * DIR` points it at DIR once the folder is read.  0, or -1 (no memory). */
int report_set_outdir(struct report *r, const char *dir);
/* Frees everything report_load made. */
void report_release(struct report *r);

/* ---- what the writers ask of a loaded report (report_query.c) ---- */
/* A fact from meta.csv, or "" */
const char *report_meta(const struct report *r, const char *key);
/* Does the run have stream figures timed the old way (before_stream_fix
 * and a stream cell with a successful repetition)?  They may read high and
 * cannot be recomputed: the summary says so. */
int report_stale_stream_rates(const struct report *r);
/* Has cell c a figure of metric m that the runner timed, in some successful
 * repetition, from outside a program's process (outside[m]): marked ʷ in
 * the tables, drawn open in the charts. */
int report_whole_process(const struct rcell *c, int m);
/* Did the run put its server and its clients on two hosts?  meta.csv's
 * server_host and client_host (launch/remote.h: a URL, or local) name two
 * hosts (host_url_same, matrix.h: an older folder's ssh://h:22 is ssh://h);
 * a folder without them ran on one. */
int report_cross_host(const struct report *r);
/* Is cell c's figure of metric m an upper bound by construction: a
 * stream's msgs_per_s or mib_per_s across two hosts, whose clocks cannot
 * be subtracted, so its window is the longer of two same-host windows
 * (the senders', the receiver's), both inside the true one (README
 * "Across machines")?  Marked ᵘ in the tables and the charts, "bound":
 * "upper" in the JSON. */
int report_upper_bound(const struct report *r, const struct rcell *c, int m);
/* A paced cell's schedule (the rate dimension, per connection) against
 * what its successful repetitions achieved, as the runner judges it when
 * it warns: each repetition's msgs_per_s (a stream's senders':
 * sent_msgs_per_s) over the concurrency, under MATRIX_RATE_KEPT (vocab.h)
 * of the rate, and the schedule was not kept. */
struct rate_schedule {
	double asked;		/* msg/s per connection (the rate dimension) */
	double achieved;	/* per connection: the median repetition's */
	int metric;		/* the figure it comes from (msgs_per_s, sent_msgs_per_s) */
	size_t reps;		/* repetitions with that figure */
	size_t behind;		/* of them, under MATRIX_RATE_KEPT of asked */
};
/* 1 with cell c's schedule in *s when the cell was paced and has a
 * figure to judge it by; 0 for an unpaced cell (no rate dimension, or
 * rate 0) and one without. */
int report_rate_schedule(const struct report *r, const struct rcell *c, struct rate_schedule *s);
/* Dimension d's value v (as results.csv has it) for a person, into b:
 * sizes as 10B, 1KiB; durations as 200ms; rates as 20k/s (0: unpaced);
 * anything else,
 * or a value that does not read as its kind, as it is (v itself). */
const char *report_value_human(const struct report *r, size_t d, const char *v, char *b,
			       size_t len);
/* Index of a dimension column, or -1. */
int report_dim(const struct report *r, const char *name);
/* The distinct values of dimension d among the cells, in cell order, into
 * out (at most max); returns how many. */
size_t report_dim_values(const struct report *r, size_t d, const char **out, size_t max);

/* Did the run share its machine (report_state.c)?  1 when some repetition
 * was busy (REPORT_BUSY_* above), with what was seen in buf, a clause per
 * kind joined by "; ": "the 1-minute load average was above the 2 cores
 * around 5 of the 14 repetitions (up to 5.40); other processes used more
 * than 0.50 of the 2 CPUs in 3 of the 14 repetitions (up to 1.62); the
 * hypervisor took more than 10% of the CPUs' time (steal) in 1 of the 14
 * repetitions (up to 12.5%)"; else 0. */
int report_busy_text(const struct report *r, char *buf, size_t len);
/* The results.csv columns report_busy_text's clauses read, for a reader
 * to look them up: "`loadavg_before`, `loadavg_after`, `other_cpus`"
 * ("" when the run was not busy). */
void report_busy_columns(const struct report *r, char *buf, size_t len);

/* The published ratio the matrix file's reference: sets beside pair p
 * (its first entry whose terms all hold in p's cells): 1 with it in
 * *ratio and its label ("source") in *label, 0 when p has none. */
int report_pair_reference(const struct report *r, const struct rpair *p, double *ratio,
			  const char **label);

#endif
