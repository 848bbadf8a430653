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
	stats_ratio_ci(a, 5, b, 5, 2000, 43, 0.95, &r3, &lo3, &hi3);
	assert_float_equal(r3, r1, EPS);
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
	stats_ratio_ci(a, 3, b, 3, 500, 7, 0.95, &r, &lo, &hi);
	assert_float_equal(r, 3, EPS);
	assert_float_equal(lo, 3, EPS);
	assert_float_equal(hi, 3, EPS);
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
		cmocka_unit_test(test_nan_skipped_and_empty),
		cmocka_unit_test(test_ratio_and_bootstrap_determinism),
		cmocka_unit_test(test_constant_ratio_has_no_spread),
		cmocka_unit_test(test_geomean_and_rng),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
