/*
 * Unit tests for gate/signrank.c: the signed-rank distribution against a
 * published table of critical values, exact p-values with and without
 * ties, the Walsh-average interval and the median's order-statistic
 * interval at their exact indices (an off-by-one either way gives another
 * value), the Hodges-Lehmann estimate, and, by simulation, that two looks
 * at COMPARE_ALPHA each keep the overall false-alarm rate at 5% for the
 * paired test and for two separate runs.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "rng.h"
#include "signrank.h"
#include "unit.h"

/* The largest T with P(W+ <= T) <= alpha, one-sided, as printed in the
 * usual table of the Wilcoxon signed-rank test's critical values (e.g.
 * Sheskin, Handbook of Parametric and Nonparametric Statistical
 * Procedures, table A5), for n = 5..20. */
static const long crit05[] = { 0, 2, 3, 5, 8, 10, 13, 17, 21, 25, 30, 35, 41, 47, 53, 60 };
static const long crit025[] = { -1, 0, 2, 3, 5, 8, 10, 13, 17, 21, 25, 29, 34, 40, 46, 52 };

static void test_table_of_critical_values(void **state)
{
	(void)state;
	for (size_t n = 5; n <= 20; n++) {
		long t5 = crit05[n - 5], t25 = crit025[n - 5];
		if (!(signrank_cdf(n, t5) <= 0.05 && signrank_cdf(n, t5 + 1) > 0.05))
			fail_msg("n %zu: P(W <= %ld) = %g, P(W <= %ld) = %g around 0.05", n, t5,
				 signrank_cdf(n, t5), t5 + 1, signrank_cdf(n, t5 + 1));
		if (!(signrank_cdf(n, t25) <= 0.025 && signrank_cdf(n, t25 + 1) > 0.025))
			fail_msg("n %zu: P(W <= %ld) around 0.025", n, t25);
	}
	/* exact counts: 43 of the 1024 sign patterns of 10 sum to 10 or less */
	EXPECT(signrank_cdf(10, 10), 43.0 / 1024);
	EXPECT(signrank_cdf(7, 2), 3.0 / 128);
	EXPECT(signrank_cdf(7, 3), 5.0 / 128);
	EXPECT(signrank_cdf(7, -1), 0);
	EXPECT(signrank_cdf(7, 28), 1);
	/* symmetry: P(W <= w) = P(W >= N - w) */
	EXPECT(signrank_cdf(12, 20), 1 - signrank_cdf(12, 78 - 20 - 1));
}

static void test_p_values(void **state)
{
	const double all[] = { 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7 };
	const double one[] = { 0.1, 0.2, 0.3, -0.4, 0.5, 0.6, 0.7 };
	const double tie[] = { 1, 1, 2 }, tie2[] = { 1, -1, 2 }, zero[] = { 0, 1, 2 };
	const double none[] = { 0, 0 };

	(void)state;
	EXPECT(signrank_p_upper(all, 7), 1.0 / 128);
	/* W+ = 28 - 4 = 24: P(W+ >= 24) = P(W+ <= 4) = 7/128 */
	EXPECT(signrank_p_upper(one, 7), 7.0 / 128);
	/* ties: mean ranks 1.5, 1.5, 3, their own null distribution counted */
	EXPECT(signrank_p_upper(tie, 3), 1.0 / 8);
	EXPECT(signrank_p_upper(tie2, 3), 3.0 / 8);
	/* three tied at mean rank 2 (doubled 4), one of them negative: W2 =
	 * 26 of 30, P = the 4 of 32 patterns whose complement sums to 4 or
	 * less (ranks 1, 2, 3 apart would give 2/32 or 5/32) */
	const double tie3[] = { 1, 1, -1, 2, 3 };
	EXPECT(signrank_p_upper(tie3, 5), 4.0 / 32);
	/* a zero is dropped: two positive differences left */
	EXPECT(signrank_p_upper(zero, 3), 1.0 / 4);
	EXPECT_NAN(signrank_p_upper(none, 2));
	/* far above the exact range, the normal approximation */
	double big[300];
	for (size_t i = 0; i < 300; i++)
		big[i] = (double)(i + 1) * (i % 2 ? 1 : -1);	/* W+ near its mean */
	double p = signrank_p_upper(big, 300);
	assert_true(p > 0.3 && p < 0.7);
}

static void test_walsh_interval_indices(void **state)
{
	/* powers of two: the 28 Walsh averages are all different, 1, 1.5, 2,
	 * 2.5, 3, 4, ... 33, 34, 36, 40, 48, 64 */
	const double d[] = { 16, 1, 64, 4, 2, 32, 8 };
	const double few[] = { 1, 2, 3, 4, 5 };
	double lo, hi, level;

	(void)state;
	/* alpha 0.0304: P(W <= 2) = 3/128 <= it < P(W <= 3): k = 3, the third
	 * smallest and largest averages, 2 and 40 (k = 2: 1.5 and 48; k = 4:
	 * 2.5 and 36) */
	assert_int_equal(signrank_interval(d, 7, COMPARE_ALPHA, &lo, &hi, &level), 0);
	EXPECT(lo, 2);
	EXPECT(hi, 40);
	EXPECT(level, 1 - 6.0 / 128);
	/* alpha 0.05: k = 4 */
	assert_int_equal(signrank_interval(d, 7, 0.05, &lo, &hi, &level), 0);
	EXPECT(lo, 2.5);
	EXPECT(hi, 36);
	EXPECT(level, 1 - 10.0 / 128);
	/* 5 rounds: P(W <= 0) = 1/32 > 0.0304, no interval */
	assert_int_equal(signrank_interval(few, 5, COMPARE_ALPHA, &lo, &hi, &level), -1);
	EXPECT_NAN(lo);
	EXPECT(signrank_hl(d, 7), 14);
	const double skew[] = { 1, 2, 10 };	/* averages 1 1.5 2 5.5 6 10 */
	EXPECT(signrank_hl(skew, 3), 3.75);
}

static void test_median_interval_indices(void **state)
{
	double x[15], lo, hi, got;

	(void)state;
	for (size_t i = 0; i < 15; i++)
		x[i] = (double)(15 - i);	/* 15..1 */
	/* P(Bin(15, 1/2) <= 3) = 576/32768: k = 4 covers 96.5%, k = 5 only 88.2% */
	assert_int_equal(median_os_interval(x, 15, 0.95, &lo, &hi, &got), 0);
	EXPECT(lo, 4);
	EXPECT(hi, 12);
	EXPECT(got, 1 - 2 * 576.0 / 32768);
	assert_int_equal(median_os_interval(x, 15, 0.88, &lo, &hi, &got), 0);
	EXPECT(lo, 5);
	EXPECT(hi, 11);
	/* 7 values at sqrt(1 - 2 alpha): only [min, max] covers enough */
	assert_int_equal(median_os_interval(x, 7, sqrt(1 - 2 * COMPARE_ALPHA), &lo, &hi, &got), 0);
	EXPECT(lo, 9);
	EXPECT(hi, 15);
	EXPECT(got, 1 - 2.0 / 128);
	/* 6 values: [min, max] covers 1 - 2/64 = 96.9%, short of 96.92% */
	assert_int_equal(median_os_interval(x, 6, sqrt(1 - 2 * COMPARE_ALPHA), &lo, &hi, &got),
			 -1);
}

static double normal(uint64_t *s)
{
	double u = ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Two looks under the null: the first at n, the second on 2n, each at
 * COMPARE_ALPHA, a false alarm when either rejects.  Pocock's level keeps
 * the overall rate at most 5% (the signed-rank test is discrete, so it is
 * below); the same looks at 5% each would not. */
static void test_two_looks_keep_five_percent(void **state)
{
	enum { TRIALS = 20000, N = 7 };
	uint64_t s = 12345;
	double d[2 * N], b[N], a[2 * N];
	size_t alarm = 0, naive = 0, alarm_mw = 0;

	(void)state;
	for (int t = 0; t < TRIALS; t++) {
		for (size_t i = 0; i < 2 * N; i++)
			d[i] = normal(&s);
		double p1 = signrank_p_upper(d, N), p2 = signrank_p_upper(d, 2 * N);
		alarm += p1 < COMPARE_ALPHA || p2 < COMPARE_ALPHA;
		naive += p1 < 0.05 || p2 < 0.05;
		/* separate runs: the baseline's N stay, the new side grows */
		for (size_t i = 0; i < N; i++)
			b[i] = normal(&s);
		for (size_t i = 0; i < 2 * N; i++)
			a[i] = normal(&s);
		alarm_mw += compare_mw_p_smaller(b, N, a, N) < COMPARE_ALPHA ||
			    compare_mw_p_smaller(b, N, a, 2 * N) < COMPARE_ALPHA;
	}
	double rate = (double)alarm / TRIALS, rate_mw = (double)alarm_mw / TRIALS;
	double naive_rate = (double)naive / TRIALS, se = sqrt(0.05 * 0.95 / TRIALS);
	print_message("two looks: paired %.4f, separate %.4f, at 5%% each %.4f\n", rate, rate_mw,
		      naive_rate);
	if (rate > 0.05 + 3 * se || rate_mw > 0.05 + 3 * se)
		fail_msg("two looks at %g: false alarms %.4f (paired), %.4f (separate)",
			 COMPARE_ALPHA, rate, rate_mw);
	if (naive_rate <= 0.05 + 3 * se)
		fail_msg("two looks at 5%% each gave %.4f: the simulation cannot tell", naive_rate);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_of_critical_values),
		cmocka_unit_test(test_p_values),
		cmocka_unit_test(test_walsh_interval_indices),
		cmocka_unit_test(test_median_interval_indices),
		cmocka_unit_test(test_two_looks_keep_five_percent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
