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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_counts_from_the_start_signal),
		cmocka_unit_test(test_add_fills_every_interval_up_to_the_last),
		cmocka_unit_test(test_merge_adds_connections_interval_by_interval),
		cmocka_unit_test(test_auto_interval_keeps_20_to_100_intervals),
		cmocka_unit_test(test_auto_merge_takes_the_longest_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
