/*
 * Unit tests for gate/signtest.c: the binomial distribution against a
 * published table of the sign test's critical values, exact p-values,
 * the median's order-statistic interval at its exact indices (an
 * off-by-one either way gives another value), and, by simulation, that
 * two looks at COMPARE_ALPHA each keep the overall false-alarm rate at 5%
 * for the paired sign test and for two separate runs' Mann-Whitney test
 * (which two looks at 5% each would not).
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
#include "signtest.h"
#include "unit.h"

/* The largest T with P(X <= T) <= alpha, X ~ Binomial(n, 1/2): the sign
 * test's one-sided critical values as the usual table prints them (e.g.
 * Sheskin, Handbook of Parametric and Nonparametric Statistical
 * Procedures, the binomial sign test table), n = 5..20; -1: none. */
static const long crit05[] = { 0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5 };
static const long crit025[] = { -1, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5 };

static void test_table_of_critical_values(void **state)
{
	(void)state;
	for (size_t n = 5; n <= 20; n++) {
		long t5 = crit05[n - 5], t25 = crit025[n - 5];
		double at5 = t5 < 0 ? 0 : binom_half_cdf(n, (size_t)t5);
		double at25 = t25 < 0 ? 0 : binom_half_cdf(n, (size_t)t25);
		if (!(at5 <= 0.05 && binom_half_cdf(n, (size_t)(t5 + 1)) > 0.05))
			fail_msg("n %zu: P(X <= %ld) = %g around 0.05", n, t5, at5);
		if (!(at25 <= 0.025 && binom_half_cdf(n, (size_t)(t25 + 1)) > 0.025))
			fail_msg("n %zu: P(X <= %ld) = %g around 0.025", n, t25, at25);
	}
	/* exact counts: 11 of 1024 patterns of 10 have at most 1 head */
	EXPECT(binom_half_cdf(10, 1), 11.0 / 1024);
	EXPECT(binom_half_cdf(14, 3), 470.0 / 16384);
	EXPECT(binom_half_cdf(7, 0), 1.0 / 128);
	EXPECT(binom_half_cdf(7, 7), 1);
}

static void test_p_values(void **state)
{
	const double all[] = { 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7 };
	const double one[] = { 0.1, 0.2, 0.3, -9, 0.5, 0.6, 0.7 };
	const double zero[] = { 0, 1, 2 }, none[] = { 0, 0 }, gap[] = { NAN, 1, -1 };

	(void)state;
	EXPECT(sign_p_upper(all, 7), 1.0 / 128);
	/* one round the other way, however far: 6 of 7, P(X >= 6) = 8/128 */
	EXPECT(sign_p_upper(one, 7), 8.0 / 128);
	/* a zero is dropped: two positive of two */
	EXPECT(sign_p_upper(zero, 3), 1.0 / 4);
	EXPECT(sign_p_upper(gap, 3), 3.0 / 4);
	EXPECT_NAN(sign_p_upper(none, 2));
	double big[300];
	for (size_t i = 0; i < 300; i++)
		big[i] = i % 2 ? 1 : -1;	/* 150 of 300 */
	double p = sign_p_upper(big, 300);
	assert_true(p > 0.45 && p < 0.55);
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
/* Two looks under the null, the second on (1 + COMPARE_LOOK2_TIMES) n
 * values, each at COMPARE_ALPHA, a false alarm when either rejects: at
 * most 5% overall, for the paired sign test and for separate runs (the
 * baseline's n stay, the new side grows); the separate runs' looks at 5%
 * each would not. */
static void test_two_looks_keep_five_percent(void **state)
{
	enum { TRIALS = 20000, N = 7, M = (1 + COMPARE_LOOK2_TIMES) * N };
	uint64_t s = 12345;
	double d[M], b[N], a[M];
	size_t alarm = 0, alarm_mw = 0, naive_mw = 0;

	(void)state;
	for (int t = 0; t < TRIALS; t++) {
		for (size_t i = 0; i < M; i++)
			d[i] = normal(&s);
		double p1 = sign_p_upper(d, N), p2 = sign_p_upper(d, M);
		alarm += p1 < COMPARE_ALPHA || p2 < COMPARE_ALPHA;
		for (size_t i = 0; i < N; i++)
			b[i] = normal(&s);
		for (size_t i = 0; i < M; i++)
			a[i] = normal(&s);
		double q1 = compare_mw_p_smaller(b, N, a, N), q2 = compare_mw_p_smaller(b, N, a, M);
		alarm_mw += q1 < COMPARE_ALPHA || q2 < COMPARE_ALPHA;
		naive_mw += q1 < 0.05 || q2 < 0.05;
	}
	double rate = (double)alarm / TRIALS, rate_mw = (double)alarm_mw / TRIALS;
	double naive_rate = (double)naive_mw / TRIALS, se = sqrt(0.05 * 0.95 / TRIALS);
	print_message("two looks (%d and %d): paired %.4f, separate %.4f; separate at 5%% each "
		      "%.4f\n", N, M, rate, rate_mw, naive_rate);
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
		cmocka_unit_test(test_median_interval_indices),
		cmocka_unit_test(test_two_looks_keep_five_percent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
