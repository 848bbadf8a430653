/*
 * stats: the figures of a handful of repetitions, with honest spread.
 *
 * Medians, not means, are the headline: a shared machine adds one-sided
 * noise.  The confidence interval of a median makes no assumption about the
 * distribution: it is the order-statistic interval [x(k), x(n+1-k)], with
 * the largest k whose coverage 1 - 2 P(Binom(n, 1/2) <= k-1) is at least the
 * level asked.  With few repetitions no such k exists (for 95%: n <= 5); then
 * the interval is [min, max] and `ci_level` says the coverage it really has
 * (75% for 3 repetitions, 93.75% for 5), rather than pretending.
 *
 * A ratio of two cells' medians gets an interval that assumes nothing about
 * either cell's distribution, nor that the two have the same shape (a unix
 * cell and a tcp cell seldom spread alike): each cell's own order-statistic
 * interval of its median, at level sqrt(L) for an asked level L, then
 * [lo(num) / hi(den), hi(num) / lo(den)] (with a numerator below 0, the
 * least and the greatest of the four ratios of the ends).  When both
 * intervals hold their cell's true median, this one holds the true ratio of
 * medians; the cells are measured apart (independent), so it does with
 * probability AT LEAST the product of the two coverages, and that product
 * is the level stated.  It is a lower bound, often a loose one: the
 * interval can hold the ratio when one side misses.  A side with too few
 * repetitions for sqrt(L) takes its widest interval [min, max] and its
 * real coverage; for 95%, each side needs 7 repetitions (0.984375 each,
 * 96.9% together); 6 and 6 state 93.85%, 3 and 3 56.25%.  The figure is
 * the ratio of the medians, which the interval always holds.  With ties
 * the closed intervals cover at least as often as stated.
 *
 * One value has no interval: its [x(1), x(1)] is a point that covers the
 * median with probability 0.  stats_summarize still fills it (so a reader
 * of the summary always finds the median between ci_lo and ci_hi), and
 * stats_has_interval() says it is none: the writers leave it and its
 * level empty.  A ratio with a side of one value has no interval at all.
 *
 * The Mann-Whitney distribution (stats_mw_cdf) is kept for tests of a
 * shift between two cells; no interval here uses it.
 */
#ifndef MATRIX_STATS_H
#define MATRIX_STATS_H

#include <stddef.h>

#define STATS_LEVEL 0.95
/* The Mann-Whitney U's distribution is computed exactly (a counting
 * recursion, in time m * n * mn/2) while m * n is at most this, e.g. 100
 * and 100 repetitions; above it, by the normal approximation with
 * continuity correction.  Near its 2.5% tail that is above the exact
 * P(U <= u) (on the safe side for a test) by at most 0.000075 for two cells
 * of 100 or more repetitions each, by up to 0.0015 for lopsided sizes such
 * as 3 and 3334, in every case we checked. */
#define STATS_MW_EXACT_MAX 10000

struct stat_summary {
	size_t n;
	double median, min, max, mean;
	double stdev;		/* sample (n - 1); NaN when n < 2 */
	double cv;		/* stdev / mean; NaN when n < 2 or mean == 0 */
	double ci_lo, ci_hi;	/* interval of the median */
	double ci_level;	/* its real coverage */
};

/* All NaN values in v are skipped.  n = 0 leaves every figure NaN. */
void stats_summarize(const double *v, size_t n, struct stat_summary *s);

/* Has s an interval of its median?  0 for fewer than 2 values (above). */
int stats_has_interval(const struct stat_summary *s);

/* Median of n sorted values; NaN when n == 0. */
double stats_median_sorted(const double *sorted, size_t n);

/* Order-statistic interval of the median of n sorted values (see above). */
void stats_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi,
		     double *achieved);

/* Ratio of medians num/den (NaN values skipped) and its interval (see
 * above) for an asked `level`, with the coverage it is sure of (the product
 * of the two sides' coverages, at least `level` when both sides have enough
 * repetitions) in *achieved.  Returns -1 (every figure NaN) when a side is
 * empty or the denominator's median is 0; 0 with the ratio but no interval
 * (lo, hi, achieved NaN) when a side has one value, when the denominator's
 * interval reaches 0 or below, or memory runs out. */
int stats_ratio_ci(const double *num, size_t nn, const double *den, size_t nd, double level,
		   double *ratio, double *lo, double *hi, double *achieved);

/* P(U <= u) for the Mann-Whitney statistic of samples of m and n drawn
 * from one continuous distribution (U = the pairs in which the first
 * sample's value is the larger); exact up to STATS_MW_EXACT_MAX, see there.
 * NaN when m or n is 0 or memory runs out. */
double stats_mw_cdf(size_t m, size_t n, size_t u);

/* exp(mean(log v)) over the positive finite values; NaN when none. */
double stats_geomean(const double *v, size_t n);

#endif
