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
 * A ratio of two cells' medians gets a percentile-bootstrap interval: both
 * sides resampled with replacement, independently, from a fixed seed, so
 * the same data gives the same interval on every run and every machine.
 */
#ifndef MATRIX_STATS_H
#define MATRIX_STATS_H

#include <stddef.h>
#include <stdint.h>

#define STATS_LEVEL 0.95
#define STATS_BOOT_RESAMPLES 10000
#define STATS_BOOT_SEED 0x6d61747269780001ull

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

/* Median of n sorted values; NaN when n == 0. */
double stats_median_sorted(const double *sorted, size_t n);

/* Order-statistic interval of the median of n sorted values (see above). */
void stats_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi,
		     double *achieved);

/* Ratio of medians num/den with a bootstrap interval at `level`.  Returns
 * -1 (figures NaN) when a side is empty or the denominator median is 0. */
int stats_ratio_ci(const double *num, size_t nn, const double *den, size_t nd,
		   unsigned resamples, uint64_t seed, double level,
		   double *ratio, double *lo, double *hi);

/* exp(mean(log v)) over the positive finite values; NaN when none. */
double stats_geomean(const double *v, size_t n);

/* The deterministic generator the bootstrap uses (splitmix64). */
uint64_t stats_rng_next(uint64_t *state);

#endif
