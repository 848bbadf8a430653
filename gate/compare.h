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
 * For each pair and metric, from the successful repetitions of each side
 * (and, at a second look, of the same cells in the second look's folder):
 *
 * In-run A/B, paired by round.  Round r ran repetition r of the baseline
 * and of the candidate side by side (plan/order.h keeps them adjacent, in
 * ABBA order), so a drift the round shares cancels in their ratio.  The
 * figures are of d_r = log(candidate_r / baseline_r) over the rounds both
 * measured:
 *   change      exp(median of d) - 1 (signtest.h)
 *   lo, hi      the order-statistic interval of that median, which the sign
 *               test inverts, at one-sided alpha each way: two-sided at
 *               least 1 - 2 alpha, level its exact coverage
 *   p_worse     the exact one-sided sign-test p-value that the candidate
 *               is worse by MORE THAN THE THRESHOLD: of d - log(1 + t) when
 *               lower is better, of log(1 - t) - d when higher is (the
 *               direction is the metric table's `better`); p_better the
 *               other way
 * Two separate runs (compare_folders): no rounds to pair.
 *   change      candidate median / baseline median - 1
 *   lo, hi      from each side's order-statistic interval of its median
 *               (signtest.h), each covering with at least sqrt(1 - 2
 *               alpha) whatever the distribution: lo = cand_lo / base_hi
 *               - 1, hi = cand_hi / base_lo - 1, holding with at least
 *               level = the product of the two coverages, equal or unequal
 *               spreads (the first 6 or 7 repetitions give [min, max])
 *   p_worse     one-sided Mann-Whitney U p-value that the candidate, scaled
 *               by 1 + t (or 1 - t), is still worse, exact from stats_mw_cdf
 * and for both:
 *   q_worse     p_worse after a Benjamini-Hochberg correction over every
 *               compared pair and metric of the look; q_better likewise
 * and a verdict, at alpha = COMPARE_ALPHA each look:
 *   regressed     q_worse < alpha (separate runs: AND the whole interval
 *                 beyond the threshold on the worse side): worse by more
 *                 than the threshold, with confidence
 *   improved      the same on the better side
 *   unchanged     the whole interval lies within +-threshold (two one-sided
 *                 tests at alpha)
 *   inconclusive  anything else: too few repetitions or paired rounds for
 *                 any p-value below alpha, too noisy (an interval across the
 *                 threshold), a median of zero, or, between separate runs,
 *                 machines whose state differed (compare_guard: `guarded`,
 *                 the reason in `why`)
 *
 * Two looks (a group-sequential design, Pocock's): `matrix run` judges its
 * comparison once; the rows inconclusive then (compare_row_looks_again)
 * get COMPARE_LOOK2_TIMES as many rounds again, into RUN/look2, and are
 * judged once more on all their rounds (compare_*_more), the rows the
 * first look decided keeping its verdict.  Each look judges at
 * COMPARE_ALPHA = 0.0304, Pocock's nominal level for two equally spaced
 * looks at an overall one-sided 5%, which holds for looks at n and 5n
 * rounds too (tests/unit/test_signtest.c simulates both: the tests are
 * discrete, and their levels below it);
 * `compare` and `report` judge at the same level, so a folder's verdicts
 * never depend on the command that made them.
 *
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

#define COMPARE_ALPHA 0.0304		/* each look's: two looks at 5% overall */
#define COMPARE_OVERALL_ALPHA 0.05
#define COMPARE_LOOK2 "look2"		/* a run folder's second look: RUN/look2 */
#define COMPARE_LOOK2_TIMES 4		/* its rounds: four times the first look's */
#define COMPARE_DEFAULT_THRESHOLD 0.05

enum verdict {
	V_REGRESSED, V_IMPROVED, V_UNCHANGED, V_INCONCLUSIVE, V_ADDED, V_REMOVED, V__COUNT
};
extern const char *const compare_verdict_names[V__COUNT];

struct cmp_row {
	const struct rcell *base, *cand;	/* one is NULL for added/removed */
	const struct rcell *base2, *cand2;	/* the same cells at the second look, or NULL */
	int metric;				/* index into metrics; -1 added/removed */
	size_t n_base, n_cand;
	double base_median, cand_median;
	double change, lo, hi, level;
	double p_worse, p_better, q_worse, q_better;
	size_t rounds;				/* paired rounds judged (in-run A/B) */
	int look;				/* the look that decided it: 1 or 2 */
	enum verdict verdict;
	const char *why;			/* a word on the verdict, "" if none */
	int guarded;				/* the machine-state guard made it inconclusive */
	int base_short;				/* too few baseline repetitions for an interval */
	char guard_why[320], whybuf[128];
	char label[512];			/* "transport=tcp size=16" (what differs) */
};

struct comparison {
	const struct report *base, *cand;	/* the same report for compare_along */
	int along;				/* the dimension, -1 across folders */
	int paired;				/* judged round by round: an in-run A/B whose
						 * rounds ran here (not a merged folder's) */
	double threshold;
	double alpha;				/* each look's level (COMPARE_ALPHA) */
	const struct report *more;		/* the second look's folder, or NULL */
	/* separate runs: 1 with why when a row's two machines are not
	 * comparable (compare_guard); NULL for an in-run A/B */
	int (*guard)(const struct comparison *c, const struct cmp_row *row, char *why,
		     size_t len);
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

/* The same with a second look: `more` is the folder of the second look's
 * rounds (NULL: none, as above). */
int compare_folders_more(struct comparison *c, const struct report *base,
			 const struct report *cand, const struct report *more, double threshold,
			 const int *metrics, size_t nmetrics, char *err, size_t errlen);
int compare_along_more(struct comparison *c, const struct report *r, const struct report *more,
		       size_t dim, const char *base, const char *cand, double threshold,
		       const int *metrics, size_t nmetrics, char *err, size_t errlen);

/* A row a second look may decide: inconclusive at the first with figures
 * on both sides, not for a median of zero or the machine-state guard
 * (more rounds change neither). */
int compare_row_looks_again(const struct cmp_row *row);

/* The machine-state guard of separate runs, compare_folders' c->guard. */
int compare_guard(const struct comparison *c, const struct cmp_row *row, char *why, size_t len);

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
/* Benjamini-Hochberg adjusted q-values of n p-values (NaN stays NaN and
 * does not count). */
void compare_bh(const double *p, size_t n, double *q);

#endif
