/*
 * compare: regression verdicts between a baseline and a candidate.
 *
 * Two ways to pair cells, one way to judge a pair:
 *   compare_folders  two run folders (a baseline run and a new one): cells
 *                    are matched by their parameters (every dimension's
 *                    name and value), never by cell number; cells on one
 *                    side only are `added` or `removed`
 *   compare_along    one run folder, along a dimension (in-run A/B): every
 *                    pair of cells that differ only in that dimension, the
 *                    baseline value against the candidate value; the pairs
 *                    ran interleaved in one session, so machine drift hits
 *                    both alike
 *
 * For each pair and metric, from the successful repetitions of each side:
 *   change      candidate median / baseline median - 1
 *   lo, hi      its 95% interval: a percentile bootstrap of the ratio of
 *               medians (COMPARE_RESAMPLES resamples of each side, a fixed
 *               seed, so the same folders always give the same interval),
 *               minus 1.  Its real coverage is below 95% with few
 *               repetitions (about 90% at 3 and 3, in simulation); the
 *               verdicts ask for significance as well, and significance
 *               needs at least 4 and 4 repetitions.
 *   p_worse     one-sided Mann-Whitney U p-value that the candidate is worse
 *               (throughput lower, latency and CPU higher: the direction is
 *               the metric table's `better`), exact from stats_mw_cdf, ties
 *               counted against the candidate's side only by half
 *   q_worse     p_worse after a Benjamini-Hochberg correction over every
 *               compared pair and metric; p_better, q_better the same the
 *               other way
 * and a verdict:
 *   regressed     q_worse < alpha AND the whole interval lies beyond the
 *                 threshold on the worse side
 *   improved      the same on the better side
 *   unchanged     the whole interval lies within +-threshold
 *   inconclusive  anything else: too few repetitions (fewer than 2 on a side,
 *                 or too few for any p-value below alpha), too noisy (an
 *                 interval across the threshold), or a median of zero
 * The exit status of a comparison: 1 when anything regressed, else 2 when a
 * compared cell has a failed repetition on either side, else 3 when
 * anything is inconclusive or nothing was compared, else 0 (a failed chart
 * never changes it).
 */
#ifndef MATRIX_COMPARE_H
#define MATRIX_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

#define COMPARE_ALPHA 0.05
#define COMPARE_LEVEL 0.95
#define COMPARE_RESAMPLES 10000
#define COMPARE_SEED 0x6d617472697821ull	/* "matrix!" */
#define COMPARE_DEFAULT_THRESHOLD 0.05

enum verdict {
	V_REGRESSED, V_IMPROVED, V_UNCHANGED, V_INCONCLUSIVE, V_ADDED, V_REMOVED, V__COUNT
};
extern const char *const compare_verdict_names[V__COUNT];

struct cmp_row {
	const struct rcell *base, *cand;	/* one is NULL for added/removed */
	int metric;				/* index into metrics; -1 added/removed */
	size_t n_base, n_cand;
	double base_median, cand_median;
	double change, lo, hi, level;
	double p_worse, p_better, q_worse, q_better;
	enum verdict verdict;
	const char *why;			/* a word on the verdict, "" if none */
	char label[512];			/* "transport=tcp size=16" (what differs) */
};

struct comparison {
	const struct report *base, *cand;	/* the same report for compare_along */
	int along;				/* the dimension, -1 across folders */
	double threshold;
	int metrics[MATRIX_NMETRICS];
	size_t nmetrics;
	struct cmp_row *rows;
	size_t nrows;
	size_t count[V__COUNT];
	int failed;				/* a compared cell failed on a side */
	const char *forced;			/* fingerprint differences compared
						 * anyway (--force), or NULL */
};

/* The metrics compared when none are asked for: msgs_per_s and rtt_p50_us
 * (each only where a cell has it). */
size_t compare_default_metrics(int *out);

/* Pairs and judges; 0, or -1 with err (out of memory, an unknown value of
 * the dimension).  c is filled and must be released even on failure. */
int compare_folders(struct comparison *c, const struct report *base, const struct report *cand,
		    double threshold, const int *metrics, size_t nmetrics, char *err, size_t errlen);
int compare_along(struct comparison *c, const struct report *r, size_t dim, const char *base,
		  const char *cand, double threshold, const int *metrics, size_t nmetrics,
		  char *err, size_t errlen);
void compare_release(struct comparison *c);

/* The exit status (see above). */
int compare_exit_status(const struct comparison *c);

/* The facts of meta.csv and matrix.yaml that must agree for two folders to
 * be compared: kernel, CPU model, cores, governor, tool version, matrix
 * content, and the CPUs each cell's workers ran on (results.csv's
 * placement: a cell of the same matrix placed on other CPUs, under another
 * taskset say, is another experiment; "none" for a folder without it).  Writes one line per difference into out ("kernel: A vs B");
 * returns how many differ. */
size_t compare_fingerprint(const struct report *a, const struct report *b, char *out,
			   size_t outlen);

/* One line per compared pair and metric (when every_row), hyperfine-style:
 *   "transport=tcp size=16: rtt_p50_us 53.2 µs vs 48.1 µs, +10.6% (+8.2%..+12.9%), regressed"
 * (the new figure first), then one line of counts. */
void compare_print(const struct comparison *c, FILE *f, int every_row);

/* NAME.csv and NAME.md into dir, and plots/NAME.gp (its chart: relative
 * change per pair with its interval, a band at +-threshold); NAME is
 * "compare" for two folders, "ab" for an in-run A/B, so both can sit in
 * one run folder.  -1 with err naming the file. */
int compare_write(const struct comparison *c, const char *dir, const char *name, char *err,
		  size_t errlen);

/* The pure parts, for tests.  One-sided Mann-Whitney p-value that x tends
 * to be smaller than y: P(U >= u) under the null, U = pairs with x < y
 * (ties counting 1/2, rounded down).  NaN when a side is empty. */
double compare_mw_p_smaller(const double *x, size_t m, const double *y, size_t n);
/* The bootstrap interval of median(a) / median(b) (see above) into lo, hi;
 * -1 (NaN) when a side is empty or no resample has a positive median of b. */
int compare_boot_ratio(const double *a, size_t na, const double *b, size_t nb, double *lo,
		       double *hi);
/* Benjamini-Hochberg adjusted q-values of n p-values (NaN stays NaN and
 * does not count). */
void compare_bh(const double *p, size_t n, double *q);

#endif
