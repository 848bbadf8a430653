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
 * A ratio of two cells' medians gets a distribution-free interval whose
 * coverage is known exactly: Moses' interval for a shift (the one that goes
 * with the Hodges-Lehmann estimator), applied to logarithms.  It ASSUMES
 * the two cells' distributions differ by a factor (a shift in log space):
 * numerator = ratio x denominator, in distribution.  Under that assumption,
 * of the m * n pairwise ratios a(i) / b(j), sorted as D(1) <= ... <= D(mn),
 * [D(k), D(mn+1-k)] covers the true ratio with probability
 * 1 - 2 P(U <= k-1), U being the Mann-Whitney statistic of samples of m and
 * n when both come from one distribution.  k is the largest whose coverage
 * is at least the level asked; when none is (for 95%: 3 and 3, 3 and 4), k
 * = 1, the widest interval [min(a) / max(b), max(a) / min(b)], and the
 * coverage it really has is reported (90% for 3 and 3), rather than
 * pretending.  Coverage at 95%: 3/3 90%, 3/4 94.29%, 4/4 97.14%, 5/5
 * 96.83%, 6/6 95.89%.  The figure is still the ratio of the medians; when
 * the interval does not hold it (possible with lopsided samples of about 15
 * repetitions or more), the interval is widened to hold it, and its
 * coverage is then at least the stated one.  With ties (equal values, as
 * in constant samples) the closed interval covers at least as often as
 * stated (Noether, JASA 1967).
 */
#ifndef MATRIX_STATS_H
#define MATRIX_STATS_H

#include <stddef.h>

#define STATS_LEVEL 0.95
/* U's distribution is computed exactly (a counting recursion, in time
 * m * n * mn/2) while m * n is at most this, e.g. 100 and 100 repetitions;
 * above it, by the normal approximation with continuity correction.  The
 * coverage that states is below the exact one by at most 0.00015 for two
 * cells of 100 or more repetitions each, by up to 0.003 for lopsided sizes
 * such as 3 and 3334: on the safe side, in every case we checked. */
#define STATS_MW_EXACT_MAX 10000
/* Above this many pairwise ratios (2048 x 2048 repetitions), no interval. */
#define STATS_RATIO_MAX_PAIRS (1u << 22)

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

/* Ratio of medians num/den (NaN values skipped) and its interval (see
 * above) at `level`, with its real coverage in *achieved.  Returns -1
 * (every figure NaN) when a side is empty or the denominator's median is 0;
 * 0 with the ratio but no interval (lo, hi, achieved NaN) when a value is
 * not positive (a ratio of logarithms needs positive values), there are more
 * than STATS_RATIO_MAX_PAIRS pairs, or memory runs out. */
int stats_ratio_ci(const double *num, size_t nn, const double *den, size_t nd, double level,
		   double *ratio, double *lo, double *hi, double *achieved);

/* The k of the ratio interval [D(k), D(mn+1-k)] for samples of m and n at
 * `level`, and its coverage 1 - 2 P(U <= k-1) in *achieved; 0 (achieved
 * NaN) when m or n is 0 or memory runs out. */
size_t stats_ratio_rank(size_t m, size_t n, double level, double *achieved);

/* P(U <= u) for the Mann-Whitney statistic of samples of m and n drawn
 * from one continuous distribution (U = the pairs in which the first
 * sample's value is the larger); exact up to STATS_MW_EXACT_MAX, see there.
 * NaN when m or n is 0 or memory runs out. */
double stats_mw_cdf(size_t m, size_t n, size_t u);

/* exp(mean(log v)) over the positive finite values; NaN when none. */
double stats_geomean(const double *v, size_t n);

#endif
