/* Unit tests for reports/stats.c against hand-computed values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats.h"

#define EPS 1e-9

static void test_summary_three(void **state)
{
	const double v[] = { 3, 1, 2 };
	struct stat_summary s;

	(void)state;
	stats_summarize(v, 3, &s);
	assert_int_equal(s.n, 3);
	assert_float_equal(s.median, 2, EPS);
	assert_float_equal(s.min, 1, EPS);
	assert_float_equal(s.max, 3, EPS);
	assert_float_equal(s.mean, 2, EPS);
	assert_float_equal(s.stdev, 1, EPS);
	assert_float_equal(s.cv, 0.5, EPS);
	/* no k reaches 95% with 3 values: [min, max], 1 - 2/8 = 75% */
	assert_float_equal(s.ci_lo, 1, EPS);
	assert_float_equal(s.ci_hi, 3, EPS);
	assert_float_equal(s.ci_level, 0.75, EPS);
}

static void test_summary_ten(void **state)
{
	const double v[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	struct stat_summary s;

	(void)state;
	stats_summarize(v, 10, &s);
	assert_float_equal(s.median, 5.5, EPS);
	assert_float_equal(s.mean, 5.5, EPS);
	assert_float_equal(s.stdev, sqrt(55.0 / 6.0), 1e-12);	/* sum of squares 82.5 / 9 */
	/* P(B <= 1) = 11/1024: [x(2), x(9)] covers 1 - 22/1024; P(B <= 2) = 56/1024 is too much */
	assert_float_equal(s.ci_lo, 2, EPS);
	assert_float_equal(s.ci_hi, 9, EPS);
	assert_float_equal(s.ci_level, 1 - 22.0 / 1024, 1e-12);
}

/* Skewed values: the median is not the mean. */
static void test_summary_skewed(void **state)
{
	const double v[] = { 9, 1, 2 };
	struct stat_summary s;

	(void)state;
	stats_summarize(v, 3, &s);
	assert_true(s.median == 2);
	assert_true(s.mean == 4);
	/* squares of -3, -2, 5: 38, over n - 1 = 2: 19 */
	assert_true(fabs(s.stdev - sqrt(19)) < 1e-12);
	assert_true(fabs(s.cv - sqrt(19) / 4) < 1e-12);
	assert_true(s.ci_lo == 1 && s.ci_hi == 9);
	/* a ratio is one of medians: 2 / 1, not 4 / 1 */
	const double one[] = { 1 };
	double r, lo, hi, lvl;
	assert_int_equal(stats_ratio_ci(v, 3, one, 1, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_true(r == 2);
}

static void test_nan_skipped_and_empty(void **state)
{
	const double v[] = { NAN, 4, NAN, 2 };
	struct stat_summary s;

	(void)state;
	stats_summarize(v, 4, &s);
	assert_int_equal(s.n, 2);
	assert_float_equal(s.median, 3, EPS);
	stats_summarize(v, 1, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median) && isnan(s.ci_lo) && isnan(s.stdev));
	stats_summarize(v + 1, 1, &s);
	assert_float_equal(s.median, 4, EPS);
	assert_true(isnan(s.stdev) && isnan(s.cv));
}

/* P(U <= u): the counts of U for 3 and 3 (of 20 orderings) are 1, 1, 2,
 * 3, 3, 3, 3, 2, 1, 1; for 5 and 5 (of 252) they start 1, 1, 2, 3. */
static void test_mann_whitney_distribution(void **state)
{
	const double c33[] = { 1, 2, 4, 7, 10, 13, 16, 18, 19, 20 }, c55[] = { 1, 2, 4, 7 };

	(void)state;
	for (size_t u = 0; u < 10; u++)
		assert_float_equal(stats_mw_cdf(3, 3, u), c33[u] / 20, 1e-15);
	for (size_t u = 0; u < 4; u++)
		assert_float_equal(stats_mw_cdf(5, 5, u), c55[u] / 252, 1e-15);
	assert_float_equal(stats_mw_cdf(4, 7, 5), 18.0 / 330, 1e-15);
	assert_float_equal(stats_mw_cdf(7, 4, 5), 18.0 / 330, 1e-15);	/* symmetric in m, n */
	assert_float_equal(stats_mw_cdf(4, 7, 5) + stats_mw_cdf(4, 7, 28 - 6), 1, 1e-15);
	assert_true(stats_mw_cdf(4, 7, 28) == 1 && stats_mw_cdf(4, 7, 1000) == 1);
	assert_true(isnan(stats_mw_cdf(0, 7, 0)));
	/* the largest exact case, against exact rational arithmetic (Python's
	 * integers: 2252550064488385820421858508915372151405769623757361202647
	 * / C(200, 100)); and the first approximated one, whose normal
	 * approximation is within 0.0001 of its exact 0.0248779754 */
	assert_float_equal(stats_mw_cdf(100, 100, 4197), 0.024876720209529756, 1e-13);
	assert_float_equal(stats_mw_cdf(101, 100, 4241), 0.0248779754100001, 1e-4);
	assert_true(fabs(stats_mw_cdf(101, 100, 4241) - 0.0248779754100001) > 1e-6);
}

/* The k of [D(k), D(mn+1-k)] and its coverage 1 - 2 P(U <= k-1), as exact
 * fractions (computed apart, with Python's integers). */
static void test_ratio_rank(void **state)
{
	static const struct { size_t m, n, k; double cover; } want[] = {
		{ 3, 3, 1, 9.0 / 10 },		/* no k reaches 95%: the widest */
		{ 3, 4, 1, 33.0 / 35 },
		{ 4, 4, 1, 34.0 / 35 },		/* k = 2 would be 1 - 4/70 < 95% */
		{ 3, 5, 1, 27.0 / 28 },
		{ 5, 5, 3, 61.0 / 63 },		/* 1 - 2 * 4/252; 1 - 2 * 7/252 < 95% */
		{ 4, 6, 3, 101.0 / 105 },
		{ 6, 6, 6, 443.0 / 462 },
		{ 8, 8, 14, 2038.0 / 2145 },
		{ 12, 10, 30, 309559.0 / 323323 },
		{ 12, 12, 38, 184481.0 / 193154 },
		{ 15, 15, 65, 74042719.0 / 77558760 },
	};
	double cover;

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		size_t k = stats_ratio_rank(want[i].m, want[i].n, 0.95, &cover);
		if (k != want[i].k || fabs(cover - want[i].cover) > 1e-12)
			fail_msg("%zu and %zu: k %zu at %.9f, expected %zu at %.9f", want[i].m,
				 want[i].n, k, cover, want[i].k, want[i].cover);
	}
	/* above STATS_MW_EXACT_MAX, the normal approximation (its k and
	 * coverage from Python's erfc; the exact ones are 4242 at 0.950244 and
	 * 40840 at 0.950011), with no table of U the size of m * n */
	assert_int_equal(stats_ratio_rank(100, 101, 0.95, &cover), 4242);
	assert_float_equal(cover, 0.9500981569133764, 1e-9);
	assert_int_equal(stats_ratio_rank(300, 300, 0.95, &cover), 40839);
	assert_float_equal(cover, 0.9500179022860514, 1e-9);
	assert_true(stats_ratio_rank(100000, 100000, 0.95, &cover) > 1 && cover >= 0.95);
	/* at 90%: P(U <= 4) = 12/252 */
	assert_int_equal(stats_ratio_rank(5, 5, 0.9, &cover), 5);
	assert_float_equal(cover, 1 - 24.0 / 252, 1e-12);
	assert_int_equal(stats_ratio_rank(0, 5, 0.95, &cover), 0);
	assert_true(isnan(cover));
}

/*
 * Intervals by hand.  {2, 4, 8, 16, 32} over {1, 2, 4, 8, 16}: the 25
 * pairwise ratios are 2^e with e = -3 (once), -2 (twice), -1 (3), 0 (4),
 * 1 (5), 2 (4), 3 (3), 4 (2), 5 (once); k = 3 for 5 and 5, so D(3) = 2^-2
 * and D(23) = 2^4; the ratio of medians is 8 / 4.
 */
static void test_ratio_interval_by_hand(void **state)
{
	const double a[] = { 32, 2, 8, 4, 16 }, b[] = { 1, 16, 4, 2, 8 };
	double r, lo, hi, lvl;

	(void)state;
	assert_int_equal(stats_ratio_ci(a, 5, b, 5, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_true(r == 2 && lo == 0.25 && hi == 16);
	assert_float_equal(lvl, 1 - 8.0 / 252, 1e-12);
	/* 3 and 3: k = 1, [min(a) / max(b), max(a) / min(b)] at 90% */
	const double x[] = { 1000, 1100, 1200 }, y[] = { 500, 550, 900 };
	assert_int_equal(stats_ratio_ci(x, 3, y, 3, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_float_equal(r, 1100.0 / 550, 1e-15);
	assert_float_equal(lo, 1000.0 / 900, 1e-15);
	assert_float_equal(hi, 1200.0 / 500, 1e-15);
	assert_float_equal(lvl, 0.9, 1e-15);
	/* a ratio is one of medians: 2 / 1, not the means' 4 / 1; one value
	 * over three: k = 1 of 3 pairs, coverage 1 - 2/4 */
	const double skew[] = { 9, 1, 2 }, one[] = { 1 };
	assert_int_equal(stats_ratio_ci(one, 1, skew, 3, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_true(r == 0.5 && lo == 1.0 / 9 && hi == 1);
	assert_float_equal(lvl, 0.5, 1e-15);
	/* NaN values are skipped */
	const double xn[] = { NAN, 1000, 1100, NAN, 1200 };
	assert_int_equal(stats_ratio_ci(xn, 5, y, 3, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_true(r == 2 && lo == 1000.0 / 900 && lvl == 0.9);
}

/*
 * 15 and 15 lopsided values whose ratio of medians, 8 / 14, lies below
 * D(65) = 0.65 (64 of the 225 pairwise ratios are at most 8 / 14, and
 * k = 65): the interval is widened down to the ratio.  D(161) = 8 / 3.
 */
static void test_ratio_interval_widened_to_hold_the_ratio(void **state)
{
	const double a[] = { 4, 4, 5, 5, 7, 7, 8, 8, 13, 13, 15, 17, 17, 19, 19 },
		     b[] = { 1, 2, 3, 3, 3, 4, 4, 14, 15, 15, 17, 17, 18, 19, 20 };
	double r, lo, hi, lvl;

	(void)state;
	assert_int_equal(stats_ratio_ci(a, 15, b, 15, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_float_equal(r, 8.0 / 14, 1e-15);
	assert_true(lo == r);
	assert_float_equal(hi, 8.0 / 3, 1e-15);
	assert_float_equal(lvl, 74042719.0 / 77558760, 1e-12);
}

static void test_ratio_without_interval(void **state)
{
	const double a[] = { 6, 6, 6 }, b[] = { 2, 2, 2 }, z[] = { 0, 0 }, neg[] = { 2, -1, 3 };
	double r, lo, hi, lvl;

	(void)state;
	/* constant sides: every pairwise ratio is 3 */
	assert_int_equal(stats_ratio_ci(a, 3, b, 3, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_true(r == 3 && lo == 3 && hi == 3);
	assert_float_equal(lvl, 0.9, 1e-15);
	/* a zero or empty denominator has no ratio */
	assert_int_equal(stats_ratio_ci(a, 3, z, 2, 0.95, &r, &lo, &hi, &lvl), -1);
	assert_true(isnan(r) && isnan(lo) && isnan(hi) && isnan(lvl));
	assert_int_equal(stats_ratio_ci(a, 3, b, 0, 0.95, &r, &lo, &hi, &lvl), -1);
	assert_true(isnan(r));
	/* a value that is not positive: the ratio, but no interval */
	assert_int_equal(stats_ratio_ci(a, 3, neg, 3, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_true(r == 3 && isnan(lo) && isnan(hi) && isnan(lvl));
	/* more pairs than STATS_RATIO_MAX_PAIRS: likewise */
	static double many[2049];
	for (size_t i = 0; i < 2049; i++)
		many[i] = 1 + (double)i;
	assert_int_equal(stats_ratio_ci(many, 2049, many, 2049, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_true(r == 1 && isnan(lo) && isnan(lvl));
	assert_int_equal(stats_ratio_ci(many, 2048, many, 2048, 0.95, &r, &lo, &hi, &lvl), 0);
	assert_true(lo < 1 && hi > 1 && lvl >= 0.95);
}

/* splitmix64, and standard normal values from it (Box-Muller). */
static uint64_t next_u64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double next_normal(uint64_t *state)
{
	double u1 = ((double)(next_u64(state) >> 11) + 0.5) / 9007199254740992.0;
	double u2 = (double)(next_u64(state) >> 11) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/*
 * Coverage by simulation: lognormal cells (skewed; sigma 0.6) whose true
 * ratio is 2.5, a factor, as the interval assumes.  Over 4,000 draws of
 * each pair of sizes, the interval must hold 2.5 at least as often as it
 * says, less 3 binomial standard errors (a chance of about 1 in 700 per
 * size to fail by bad luck; the seed is fixed, so it does not flake).  The
 * percentile bootstrap this replaced claimed 95% and held it 89-90% of the
 * time at 3 and 3.
 */
static void test_ratio_interval_coverage(void **state)
{
	static const size_t sizes[][2] = { { 3, 3 }, { 4, 4 }, { 5, 5 }, { 8, 8 }, { 12, 12 },
					   { 3, 5 } };
	const double theta = 2.5, sigma = 0.6;
	const unsigned trials = 4000;
	uint64_t rng = 0x636f766572616765ull;
	double a[12], b[12], r, lo, hi, lvl, want;

	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t m = sizes[s][0], n = sizes[s][1];
		unsigned held = 0;
		stats_ratio_rank(m, n, 0.95, &want);
		for (unsigned t = 0; t < trials; t++) {
			for (size_t i = 0; i < m; i++)
				a[i] = theta * exp(sigma * next_normal(&rng));
			for (size_t j = 0; j < n; j++)
				b[j] = exp(sigma * next_normal(&rng));
			assert_int_equal(stats_ratio_ci(a, m, b, n, 0.95, &r, &lo, &hi, &lvl), 0);
			if (lvl != want)
				fail_msg("%zu and %zu: stated level %g, expected %g", m, n, lvl, want);
			held += lo <= theta && theta <= hi;
		}
		double cover = (double)held / trials, se = sqrt(lvl * (1 - lvl) / trials);
		if (cover < lvl - 3 * se)
			fail_msg("%zu and %zu: the interval held the true ratio in %.2f%% of %u draws, "
				 "but says %.2f%%", m, n, cover * 100, trials, lvl * 100);
	}
	/* the stated level is the exact one: 1 - 2/20 at 3 and 3 */
	stats_ratio_rank(3, 3, 0.95, &want);
	assert_float_equal(want, 0.9, 1e-15);
}

static void test_geomean(void **state)
{
	const double v[] = { 2, 8, NAN, -1, 0 };

	(void)state;
	assert_float_equal(stats_geomean(v, 5), 4, 1e-12);	/* only 2 and 8 count */
	assert_true(isnan(stats_geomean(v + 2, 3)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_three),
		cmocka_unit_test(test_summary_ten),
		cmocka_unit_test(test_summary_skewed),
		cmocka_unit_test(test_nan_skipped_and_empty),
		cmocka_unit_test(test_mann_whitney_distribution),
		cmocka_unit_test(test_ratio_rank),
		cmocka_unit_test(test_ratio_interval_by_hand),
		cmocka_unit_test(test_ratio_interval_widened_to_hold_the_ratio),
		cmocka_unit_test(test_ratio_without_interval),
		cmocka_unit_test(test_ratio_interval_coverage),
		cmocka_unit_test(test_geomean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
