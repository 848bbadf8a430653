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
	double r, lo, hi;
	assert_int_equal(stats_ratio_ci(v, 3, one, 1, 100, 1, 0.95, &r, &lo, &hi), 0);
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

static void test_ratio_and_bootstrap_determinism(void **state)
{
	const double a[] = { 10, 12, 11, 13, 9 }, b[] = { 5, 6, 5.5, 4, 7 };
	double r1, lo1, hi1, r2, lo2, hi2, r3, lo3, hi3;

	(void)state;
	assert_int_equal(stats_ratio_ci(a, 5, b, 5, 2000, 42, 0.95, &r1, &lo1, &hi1), 0);
	assert_float_equal(r1, 11 / 5.5, EPS);
	assert_true(lo1 <= r1 && r1 <= hi1);
	assert_true(lo1 >= 9.0 / 7 && hi1 <= 13.0 / 4);	/* inside the extreme ratios */
	assert_int_equal(stats_ratio_ci(a, 5, b, 5, 2000, 42, 0.95, &r2, &lo2, &hi2), 0);
	assert_true(lo1 == lo2 && hi1 == hi2);		/* same seed, same interval */
	/* another seed: the same ratio, in an interval inside the extreme ratios */
	assert_int_equal(stats_ratio_ci(a, 5, b, 5, 2000, 43, 0.95, &r3, &lo3, &hi3), 0);
	assert_true(r3 == r1);
	assert_true(lo3 <= r3 && r3 <= hi3);
	assert_true(lo3 < hi3);
	assert_true(lo3 >= 9.0 / 7 && hi3 <= 13.0 / 4);
	/* a zero or empty denominator has no ratio */
	const double z[] = { 0, 0 };
	assert_int_equal(stats_ratio_ci(a, 5, z, 2, 100, 1, 0.95, &r1, &lo1, &hi1), -1);
	assert_true(isnan(r1) && isnan(lo1));
	assert_int_equal(stats_ratio_ci(a, 5, b, 0, 100, 1, 0.95, &r1, &lo1, &hi1), -1);
}

static void test_constant_ratio_has_no_spread(void **state)
{
	const double a[] = { 6, 6, 6 }, b[] = { 2, 2, 2 };
	double r, lo, hi;

	(void)state;
	for (uint64_t seed = 7; seed < 10; seed++) {
		assert_int_equal(stats_ratio_ci(a, 3, b, 3, 500, seed, 0.95, &r, &lo, &hi), 0);
		assert_true(r == 3 && lo == 3 && hi == 3);
	}
}

/*
 * {1, 2} over {1}: a resample of the numerator has median 1, 1.5 or 2 with
 * probability 1/4, 1/2, 1/4, so of 2000 resamples about 500 are 1 and 500
 * are 2 (standard deviation 19).  The interval at level L takes sorted
 * indexes floor(x * 1999) and ceil((1 - x) * 1999), x = (1 - L) / 2:
 *   L = 0.95: 49 and 1950, [1, 2]      L = 0.6: 399 and 1600, [1, 2]
 *   L = 0.4: 599 and 1400, [1.5, 1.5]  L = 0: 999 and 1000, [1.5, 1.5]
 * whatever the seed: each is at least 5 standard deviations from a bound.
 */
static void test_bootstrap_interval_by_hand(void **state)
{
	static const double level[] = { 0.95, 0.6, 0.4, 0 }, want[][2] = {
		{ 1, 2 }, { 1, 2 }, { 1.5, 1.5 }, { 1.5, 1.5 },
	};
	const double a[] = { 1, 2 }, b[] = { 1 };
	double r, lo, hi;

	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++)
		for (size_t i = 0; i < 4; i++) {
			assert_int_equal(stats_ratio_ci(a, 2, b, 1, 2000, seed, level[i], &r, &lo,
							&hi), 0);
			if (r != 1.5 || lo != want[i][0] || hi != want[i][1])
				fail_msg("seed %d level %g: %g (%g-%g), expected 1.5 (%g-%g)",
					 (int)seed, level[i], r, lo, hi, want[i][0], want[i][1]);
		}
}

static void test_geomean_and_rng(void **state)
{
	const double v[] = { 2, 8, NAN, -1, 0 };
	uint64_t s1 = 1, s2 = 1;

	(void)state;
	assert_float_equal(stats_geomean(v, 5), 4, 1e-12);	/* only 2 and 8 count */
	assert_true(isnan(stats_geomean(v + 2, 3)));
	for (int i = 0; i < 100; i++)
		assert_int_equal(stats_rng_next(&s1), stats_rng_next(&s2));
	/* splitmix64's published first output for seed 0 */
	uint64_t z = 0;
	assert_int_equal(stats_rng_next(&z), 0xe220a8397b1dcdafull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_three),
		cmocka_unit_test(test_summary_ten),
		cmocka_unit_test(test_summary_skewed),
		cmocka_unit_test(test_nan_skipped_and_empty),
		cmocka_unit_test(test_ratio_and_bootstrap_determinism),
		cmocka_unit_test(test_constant_ratio_has_no_spread),
		cmocka_unit_test(test_bootstrap_interval_by_hand),
		cmocka_unit_test(test_geomean_and_rng),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
