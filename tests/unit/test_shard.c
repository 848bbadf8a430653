/*
 * Unit tests for plan/shard.c: parsing --shard K/N, and which cell
 * repetitions are shard K's (shard.h): by the stable index
 * c * repeat + rep - 1 modulo N (c the cell's place in the plan), or by
 * whole cells with repeat: auto; every cell repetition in exactly one
 * shard, and the shards within one of each other's size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "shard.h"
#include "arrays.h"

static void test_parse_good(void **state)
{
	struct shard s = { 0, 0 };
	char err[256];

	(void)state;
	assert_int_equal(shard_parse("2/3", &s, err, sizeof(err)), 0);
	assert_int_equal(s.k, 2);
	assert_int_equal(s.n, 3);
	assert_int_equal(shard_parse("1/1", &s, err, sizeof(err)), 0);
	assert_int_equal(s.k, 1);
	assert_int_equal(s.n, 1);
	assert_int_equal(shard_parse("100000/100000", &s, err, sizeof(err)), 0);
	assert_int_equal(s.k, SHARD_MAX);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"", "x", "3", "3/", "/3", "0/3", "1/0", "-1/3", "1/-3", "+1/3", " 1/3", "1/3 ",
		"1/3/4", "1.0/3", "1/3x", "100001/100001", "1/100001", "99999999999999999999/2",
	};
	struct shard s = { 7, 9 };
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		if (shard_parse(bad[i], &s, err, sizeof(err)) != -1)
			fail_msg("'%s' was taken as shard %u/%u", bad[i], s.k, s.n);
		assert_non_null(strstr(err, "expected K/N"));
		assert_int_equal(s.k, 7);	/* untouched */
	}
	assert_int_equal(shard_parse("3/2", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "K (3) must be between 1 and N (2)");
}

/* The split of 3 cells x 2 repetitions in 3 shards, written out. */
static void test_fixed_split(void **state)
{
	static const unsigned want[3][2] = {	/* [place][rep - 1]: its shard K */
		{ 1, 2 }, { 3, 1 }, { 2, 3 },
	};
	(void)state;
	for (unsigned k = 1; k <= 3; k++) {
		struct shard s = { k, 3 };
		for (unsigned c = 0; c < 3; c++)
			for (unsigned r = 1; r <= 2; r++)
				assert_int_equal(shard_has(&s, c, r, 2, 0), want[c][r - 1] == k);
	}
	/* whole cells: the place modulo N, whatever the repetition */
	struct shard s2 = { 2, 3 };
	for (unsigned r = 1; r <= 5; r++) {
		assert_true(shard_has(&s2, 1, r, 5, 1));
		assert_true(shard_has(&s2, 4, r, 5, 1));
		assert_false(shard_has(&s2, 2, r, 5, 1));
	}
	/* no shard: everything */
	struct shard none = { 0, 0 };
	assert_true(shard_has(&none, 7, 3, 4, 0));
}

/* Every cell repetition is in exactly one shard, for any N; the shards'
 * sizes differ by at most one; shard_count counts them. */
static void test_every_repetition_once(void **state)
{
	static struct matrix m;
	struct cell cells[7];
	struct plan pl = { .m = &m, .cells = cells, .ncells = 7, .repeat = 3 };

	(void)state;
	for (unsigned i = 0; i < 7; i++)
		cells[i].number = 2 * i + 1;	/* --only left every other cell */
	for (int whole = 0; whole <= 1; whole++) {
		m.repeat_min = whole ? 2 : 0;
		for (unsigned n = 1; n <= 25; n++) {
			size_t total = 0, lo = SIZE_MAX, hi = 0;
			for (unsigned k = 1; k <= n; k++) {
				struct shard s = { k, n };
				size_t got = shard_count(&s, &pl);
				total += got;
				lo = got < lo ? got : lo;
				hi = got > hi ? got : hi;
			}
			assert_int_equal(total, 21);
			if (!whole && hi - lo > 1)
				fail_msg("%u shards: sizes from %zu to %zu", n, lo, hi);
			for (size_t ci = 0; ci < 7; ci++)
				for (unsigned r = 1; r <= 3; r++) {
					unsigned in = 0;
					for (unsigned k = 1; k <= n; k++) {
						struct shard s = { k, n };
						in += (unsigned)shard_has_cell(&s, &pl, ci, r);
					}
					if (in != 1)
						fail_msg("N %u: cell %u rep %u in %u shards", n,
							 cells[ci].number, r, in);
				}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_fixed_split),
		cmocka_unit_test(test_every_repetition_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
