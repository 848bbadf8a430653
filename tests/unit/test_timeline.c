/*
 * Unit tests for workers/timeline.c: which interval a time falls in, and
 * the per-interval counts of one connection and of several merged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "timeline.h"
#include "arrays.h"

#define MS 1000000ull

static void test_index_counts_from_the_start_signal(void **state)
{
	const uint64_t t0 = 5000 * MS;

	(void)state;
	assert_int_equal(timeline_index(t0, t0, 100 * MS), 0);
	assert_int_equal(timeline_index(t0 + 1, t0, 100 * MS), 0);
	assert_int_equal(timeline_index(t0 + 100 * MS - 1, t0, 100 * MS), 0);
	assert_int_equal(timeline_index(t0 + 100 * MS, t0, 100 * MS), 1);
	assert_int_equal(timeline_index(t0 + 250 * MS, t0, 100 * MS), 2);
	assert_int_equal(timeline_index(t0 + 3000 * MS, t0, 1000 * MS), 3);
	/* a clock read just before the signal was noted: interval 0 */
	assert_int_equal(timeline_index(t0 - 7, t0, 100 * MS), 0);
	/* far beyond what is kept: clamped, so that adding it overflows */
	assert_int_equal(timeline_index(t0 + (UINT64_C(1) << 62), t0, 1), TIMELINE_MAX);
}

static void test_add_fills_every_interval_up_to_the_last(void **state)
{
	struct timeline tl = TIMELINE_INIT;

	(void)state;
	timeline_add(&tl, 0, 10, 1000);
	timeline_add(&tl, 3, 4, 400);
	timeline_add(&tl, 0, 1, 100);
	assert_int_equal(tl.len, 4);
	assert_int_equal(tl.msgs[0], 11);
	assert_int_equal(tl.bytes[0], 1100);
	assert_int_equal(tl.msgs[1], 0);	/* nothing arrived: there, and zero */
	assert_int_equal(tl.msgs[2], 0);
	assert_int_equal(tl.bytes[2], 0);
	assert_int_equal(tl.msgs[3], 4);
	assert_int_equal(tl.bytes[3], 400);
	/* growing past the first allocation keeps what was counted */
	timeline_add(&tl, 1000, 2, 20);
	assert_int_equal(tl.len, 1001);
	assert_int_equal(tl.msgs[0], 11);
	assert_int_equal(tl.msgs[3], 4);
	assert_int_equal(tl.msgs[999], 0);
	assert_int_equal(tl.msgs[1000], 2);
	assert_false(tl.overflow);
	timeline_add(&tl, TIMELINE_MAX, 1, 1);
	assert_true(tl.overflow);
	assert_int_equal(tl.len, 1001);
	timeline_release(&tl);
	assert_null(tl.msgs);
	assert_int_equal(tl.len, 0);
}

static void test_merge_adds_connections_interval_by_interval(void **state)
{
	struct timeline a = TIMELINE_INIT, b = TIMELINE_INIT, all = TIMELINE_INIT;

	(void)state;
	timeline_add(&a, 0, 5, 50);
	timeline_add(&a, 1, 6, 60);
	timeline_add(&b, 1, 7, 70);
	timeline_add(&b, 4, 8, 80);
	timeline_merge(&all, &a);
	timeline_merge(&all, &b);
	assert_int_equal(all.len, 5);
	const uint64_t msgs[] = { 5, 13, 0, 0, 8 }, bytes[] = { 50, 130, 0, 0, 80 };
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(all.msgs[i], msgs[i]);
		assert_int_equal(all.bytes[i], bytes[i]);
	}
	assert_false(all.overflow);
	b.overflow = 1;
	timeline_merge(&all, &b);
	assert_true(all.overflow);
	timeline_release(&a);
	timeline_release(&b);
	timeline_release(&all);
}

/* interval 0: counted at 100 us, merged 5 or 2 at a time past the 100th
 * interval; nothing lost, 20 to 100 intervals whatever the length */
static void test_auto_interval_keeps_20_to_100_intervals(void **state)
{
	const uint64_t t0 = 1000000000ull, lens[] = { 3 * MS, 47 * MS, 900 * MS, 61000 * MS };

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(lens); k++) {
		struct timeline tl = TIMELINE_INIT;
		uint64_t n = 0, sum = 0;
		for (uint64_t t = 0; t <= lens[k]; t += lens[k] / 1000, n++)
			timeline_count(&tl, 0, t0 + t, t0, 1, 10);
		assert_true(tl.autosize);
		assert_in_range(tl.len, 20, TIMELINE_AUTO_LEN);
		for (size_t i = 0; i < tl.len; i++)
			sum += tl.msgs[i];
		assert_int_equal(sum, n);
		/* the last message is in the last interval */
		assert_int_equal(tl.len, lens[k] / tl.interval_ns + 1);
		timeline_release(&tl);
	}
	struct timeline tl = TIMELINE_INIT;
	timeline_count(&tl, 0, t0 + 47 * MS, t0, 1, 1);
	assert_int_equal(tl.interval_ns, 500000);	/* 100us, 500us */
	timeline_count(&tl, 0, t0 + 120 * MS, t0, 1, 1);
	assert_int_equal(tl.interval_ns, 5 * MS);	/* 1ms, 5ms */
	assert_int_equal(tl.msgs[47 / 5], 1);
	assert_int_equal(tl.msgs[120 / 5], 1);
	timeline_release(&tl);
	/* a fixed interval stays what it is */
	timeline_count(&tl, 1 * MS, t0 + 900 * MS, t0, 1, 1);
	assert_int_equal(tl.interval_ns, MS);
	assert_int_equal(tl.len, 901);
	timeline_release(&tl);
}

/* connections that picked different intervals merge at the longest */
static void test_auto_merge_takes_the_longest_interval(void **state)
{
	const uint64_t t0 = 5000;
	struct timeline a = TIMELINE_INIT, b = TIMELINE_INIT, all = TIMELINE_INIT;

	(void)state;
	timeline_count(&a, 0, t0 + 7 * MS, t0, 3, 30);		/* 100us: index 70 */
	timeline_count(&b, 0, t0 + 7 * MS, t0, 4, 40);
	timeline_count(&b, 0, t0 + 30 * MS, t0, 5, 50);		/* 500us: index 60 */
	assert_int_equal(a.interval_ns, 100000);
	assert_int_equal(b.interval_ns, 500000);
	timeline_merge(&all, &a);
	timeline_merge(&all, &b);
	assert_int_equal(all.interval_ns, 500000);
	assert_int_equal(all.msgs[14], 7);
	assert_int_equal(all.bytes[14], 70);
	assert_int_equal(all.msgs[60], 5);
	assert_int_equal(all.len, 61);
	timeline_release(&a);
	timeline_release(&b);
	timeline_release(&all);
}

/* A fake CPU clock: what *ctx holds. */
static uint64_t fake_cpu(void *ctx)
{
	return *(uint64_t *)ctx;
}

static void test_cpu_goes_to_the_interval_that_closed(void **state)
{
	struct timeline tl = TIMELINE_INIT;
	uint64_t cpu = 7 * MS;	/* before the first count: not counted */

	(void)state;
	tl.cpu_clock = fake_cpu;
	tl.cpu_ctx = &cpu;
	timeline_count(&tl, 100 * MS, 10 * MS, 0, 1, 10);	/* the mark, interval 0 */
	cpu += 3 * MS;
	timeline_count(&tl, 100 * MS, 50 * MS, 0, 1, 10);	/* same interval: no read */
	cpu += 2 * MS;
	timeline_count(&tl, 100 * MS, 120 * MS, 0, 1, 10);	/* 0 closed: 5 ms in it */
	cpu += 4 * MS;
	timeline_count(&tl, 100 * MS, 350 * MS, 0, 1, 10);	/* 1 closed: 4 ms */
	cpu += 1 * MS;
	timeline_cpu_close(&tl);				/* the rest into 3 */
	assert_true(tl.has_cpu);
	assert_int_equal(tl.len, 4);
	assert_int_equal(tl.cpu[0], 5 * MS);
	assert_int_equal(tl.cpu[1], 4 * MS);
	assert_int_equal(tl.cpu[2], 0);
	assert_int_equal(tl.cpu[3], 1 * MS);
	assert_int_equal(tl.msgs[0], 2);
	timeline_release(&tl);

	/* no clock: no CPU figures */
	timeline_count(&tl, 100 * MS, 10 * MS, 0, 1, 10);
	timeline_cpu_close(&tl);
	assert_false(tl.has_cpu);
	timeline_release(&tl);
}

static void test_cpu_coarsens_and_merges_with_the_counts(void **state)
{
	struct timeline a = TIMELINE_INIT, b = TIMELINE_INIT, all = TIMELINE_INIT;
	uint64_t cpu = 0, total = 0;

	(void)state;
	a.cpu_clock = fake_cpu;
	a.cpu_ctx = &cpu;
	/* auto: 100 us intervals, coarsened as the counts go past the 100th */
	for (uint64_t t = 0; t < 50 * MS; t += MS / 10) {
		timeline_count(&a, 0, t, 0, 1, 1);
		cpu += 1000;
		total += 1000;
	}
	timeline_cpu_close(&a);
	assert_true(a.interval_ns > 100000);
	uint64_t sum = 0;
	for (size_t i = 0; i < a.len; i++)
		sum += a.cpu[i];
	assert_int_equal(sum, total);	/* every ns from the mark (at 0) on */
	timeline_count(&b, 0, 5 * MS, 0, 1, 1);	/* a connection without CPU figures */
	timeline_merge(&all, &b);
	assert_false(all.has_cpu);
	timeline_merge(&all, &a);
	assert_true(all.has_cpu);
	uint64_t merged = 0;
	for (size_t i = 0; i < all.len; i++)
		merged += all.cpu[i];
	assert_int_equal(merged, sum);
	timeline_release(&a);
	timeline_release(&b);
	timeline_release(&all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_counts_from_the_start_signal),
		cmocka_unit_test(test_add_fills_every_interval_up_to_the_last),
		cmocka_unit_test(test_merge_adds_connections_interval_by_interval),
		cmocka_unit_test(test_auto_interval_keeps_20_to_100_intervals),
		cmocka_unit_test(test_auto_merge_takes_the_longest_interval),
		cmocka_unit_test(test_cpu_goes_to_the_interval_that_closed),
		cmocka_unit_test(test_cpu_coarsens_and_merges_with_the_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
