/*
 * test_hist: the histogram against exact answers computed from a sorted
 * copy of the same values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "hist.h"
#include "arrays.h"

#define LIMIT ((uint64_t)1 << HIST_MAX_BITS)

/* splitmix64: deterministic, good enough, no global state. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s)	/* (0, 1) */
{
	return ((double)(rng_next(s) >> 11) + 0.5) * 0x1p-53;
}

static struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void test_index_range_round_trip(void **state)
{
	uint64_t lo, hi, next = 0;
	size_t i;

	(void)state;
	for (i = 0; i < HIST_BUCKETS; i++) {
		hist_bucket_range(i, &lo, &hi);
		/* contiguous and non-overlapping: each starts where the last ended */
		assert_int_equal(lo, next);
		assert_true(hi >= lo);
		assert_int_equal(hist_index(lo), i);
		assert_int_equal(hist_index(hi), i);
		assert_int_equal(hist_index(lo + (hi - lo) / 2), i);
		/* width bounds the relative error of the midpoint */
		assert_true((double)(hi - lo + 1) <= (double)(lo > 0 ? lo : 1) / HIST_SUB
			    || hi == lo);
		next = hi + 1;
	}
	assert_int_equal(next, LIMIT);	/* covers 0 .. 2^40-1 exactly */
	assert_int_equal(hist_index(LIMIT - 1), HIST_BUCKETS - 1);
}

static void test_exact_small_values(void **state)
{
	uint64_t v, lo, hi;

	(void)state;
	for (v = 0; v < 2 * HIST_SUB; v++) {
		assert_int_equal(hist_index(v), v);
		hist_bucket_range(hist_index(v), &lo, &hi);
		assert_int_equal(lo, v);
		assert_int_equal(hi, v);
	}
	/* the first non-exact bucket */
	hist_bucket_range(hist_index(2 * HIST_SUB), &lo, &hi);
	assert_int_equal(lo, 2 * HIST_SUB);
	assert_int_equal(hi, 2 * HIST_SUB + 1);
}

static void test_small_percentiles_exact(void **state)
{
	struct hist *h = hist_new();
	uint64_t v;

	(void)state;
	for (v = 1; v <= 100; v++)
		hist_record(h, v);
	assert_int_equal(hist_percentile(h, 0.5), 50);
	assert_int_equal(hist_percentile(h, 0.07), 7);	/* 0.07*100 = 7.000000000000001 */
	assert_int_equal(hist_percentile(h, 0.99), 99);
	assert_int_equal(hist_percentile(h, 0.999), 100);
	assert_int_equal(hist_percentile(h, 0.001), 1);
	free(h);
}

/* Distributions: each fills v[0..n) deterministically. */
enum dist { UNIFORM, LOGNORMAL, BIMODAL, CONSTANT, WIDE };

static uint64_t draw(enum dist d, uint64_t *s)
{
	double g;

	switch (d) {
	case UNIFORM:		/* 1 us .. 1 ms */
		return 1000 + rng_next(s) % 999001;
	case LOGNORMAL:		/* median ~20 us, long right tail */
		g = sqrt(-2 * log(rng_unit(s))) * cos(2 * M_PI * rng_unit(s));
		return (uint64_t)exp(log(20000.0) + 1.2 * g);
	case BIMODAL:		/* fast path ~5 us, slow path ~2 ms */
		if (rng_next(s) % 10 < 8)
			return 4000 + rng_next(s) % 2000;
		return 1500000 + rng_next(s) % 1000000;
	case CONSTANT:
		return 12345;
	case WIDE:		/* every exponent, 0 .. 2^40-1 */
		return rng_next(s) >> (64 - 1 - rng_next(s) % HIST_MAX_BITS);
	}
	return 0;
}

static void check_distribution(enum dist d, size_t n, uint64_t seed)
{
	static const unsigned permille[] = {
		1, 10, 70, 100, 250, 500, 750, 900, 950, 990, 999, 1000,
	};
	struct hist *h = hist_new();
	uint64_t *v = malloc(n * sizeof(*v)), s = seed, got, want;
	long double sum = 0;
	size_t i, k, rank;

	assert_non_null(v);
	for (i = 0; i < n; i++) {
		v[i] = draw(d, &s);
		sum += v[i];
		hist_record(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);

	assert_int_equal(h->count, n);
	assert_int_equal(h->overflow, 0);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);
	assert_int_equal(hist_percentile(h, 0), v[0]);
	assert_int_equal(hist_percentile(h, 1), v[n - 1]);
	assert_true(fabs(hist_mean(h) - (double)(sum / n)) <= 1e-9 * (double)(sum / n));

	for (k = 0; k < ARRAY_SIZE(permille); k++) {
		/* exact nearest rank, in integers: ceil(p * n / 1000) */
		rank = (permille[k] * n + 999) / 1000;
		want = v[rank ? rank - 1 : 0];
		got = hist_percentile(h, permille[k] / 1000.0);
		if (fabs((double)got - (double)want) > HIST_REL_ERROR * (double)want)
			fail_msg("dist %d p%.1f: got %llu, want %llu", (int)d,
				 permille[k] / 10.0, (unsigned long long)got,
				 (unsigned long long)want);
	}
	free(v);
	free(h);
}

static void test_percentiles_uniform(void **state)
{
	(void)state;
	check_distribution(UNIFORM, 100000, 1);
	check_distribution(UNIFORM, 7, 2);
}

static void test_percentiles_lognormal(void **state)
{
	(void)state;
	check_distribution(LOGNORMAL, 100000, 3);
	check_distribution(LOGNORMAL, 1001, 4);
}

static void test_percentiles_bimodal(void **state)
{
	(void)state;
	check_distribution(BIMODAL, 100000, 5);
}

static void test_percentiles_constant(void **state)
{
	(void)state;
	check_distribution(CONSTANT, 1000, 6);
	check_distribution(CONSTANT, 1, 7);
}

static void test_percentiles_wide(void **state)
{
	(void)state;
	check_distribution(WIDE, 100000, 8);
}

static void test_empty(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	assert_int_equal(h->count, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(h->max, 0);
	assert_int_equal(hist_percentile(h, 0), 0);
	assert_int_equal(hist_percentile(h, 0.5), 0);
	assert_int_equal(hist_percentile(h, 1), 0);
	assert_true(hist_mean(h) == 0);
	free(h);
}

static void test_merge(void **state)
{
	struct hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	struct hist *empty = hist_new();
	uint64_t s = 42, v;
	int i;

	(void)state;
	for (i = 0; i < 50000; i++) {
		v = draw(i % 2 ? LOGNORMAL : BIMODAL, &s);
		hist_record(i % 3 ? a : b, v);
		hist_record(all, v);
	}
	hist_record(b, LIMIT + 5);
	hist_record(all, LIMIT + 5);
	hist_merge(a, b);
	assert_memory_equal(a->buckets, all->buckets, sizeof(all->buckets));
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->overflow, all->overflow);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_true(a->sum == all->sum);

	/* merging an empty histogram changes nothing, and into one copies */
	hist_merge(a, empty);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->count, all->count);
	hist_merge(empty, all);
	assert_int_equal(empty->min, all->min);
	assert_int_equal(hist_percentile(empty, 0.9), hist_percentile(all, 0.9));
	free(a);
	free(b);
	free(all);
	free(empty);
}

static void test_overflow(void **state)
{
	struct hist *h = hist_new();
	uint64_t total = 0;
	size_t i;

	(void)state;
	hist_record(h, 1000);
	hist_record(h, LIMIT - 1);	/* the last bucket, not overflow */
	hist_record(h, LIMIT);
	hist_record(h, UINT64_MAX);
	assert_int_equal(h->count, 4);
	assert_int_equal(h->overflow, 2);
	assert_int_equal(h->min, 1000);
	assert_int_equal(h->max, UINT64_MAX);
	assert_int_equal(h->buckets[HIST_BUCKETS - 1], 1);
	for (i = 0; i < HIST_BUCKETS; i++)
		total += h->buckets[i];
	assert_int_equal(total, 2);	/* never clamped into a bucket */
	assert_int_equal(hist_percentile(h, 0.25), 1000);	/* rank 1: min */
	assert_true(hist_percentile(h, 0.5) >= LIMIT - LIMIT / 256);
	assert_true(hist_percentile(h, 0.5) < LIMIT);
	assert_int_equal(hist_percentile(h, 0.75), UINT64_MAX);	/* in overflow: max */
	assert_int_equal(hist_percentile(h, 1), UINT64_MAX);
	/* the sum keeps values beyond 2^64 in total */
	assert_true(h->sum == (long double)1000 + (LIMIT - 1) + LIMIT + UINT64_MAX);
	free(h);
}

static void test_mean_exact(void **state)
{
	struct hist *h = hist_new();
	uint64_t v;

	(void)state;
	for (v = 1; v <= 1000; v++)
		hist_record(h, v * 1000003);	/* values spread over many buckets */
	assert_true(hist_mean(h) == 500.5 * 1000003);
	hist_init(h);
	hist_record(h, 3);
	hist_record(h, 4);
	assert_true(hist_mean(h) == 3.5);
	hist_init(h);
	hist_record(h, UINT64_MAX);
	hist_record(h, UINT64_MAX - 2);	/* the sum exceeds 2^64 */
	assert_true(hist_mean(h) == (double)(UINT64_MAX - 1));
	free(h);
}

static void test_add_bucket(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	assert_int_equal(hist_add_bucket(h, 0, 3), 0);
	assert_int_equal(hist_add_bucket(h, HIST_BUCKETS - 1, 2), 0);
	assert_int_equal(hist_add_bucket(h, HIST_BUCKETS, 1), -1);
	assert_int_equal(h->buckets[0], 3);
	assert_int_equal(h->buckets[HIST_BUCKETS - 1], 2);
	assert_int_equal(h->count, 0);	/* the summary is the caller's */
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_range_round_trip),
		cmocka_unit_test(test_exact_small_values),
		cmocka_unit_test(test_small_percentiles_exact),
		cmocka_unit_test(test_percentiles_uniform),
		cmocka_unit_test(test_percentiles_lognormal),
		cmocka_unit_test(test_percentiles_bimodal),
		cmocka_unit_test(test_percentiles_constant),
		cmocka_unit_test(test_percentiles_wide),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_mean_exact),
		cmocka_unit_test(test_add_bucket),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
