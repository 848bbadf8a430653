/*
 * Unit tests for plan/order.c: the order of cell repetitions within each
 * round.  The expected permutations come from a separate implementation of
 * splitmix64 and Fisher-Yates (Python, the reference constants of
 * splitmix64), so a change to the shuffle, which would silently stop old
 * seeds replaying old runs, fails here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "order.h"
#include "arrays.h"

static void expect_perm(const size_t *got, const size_t *want, size_t n, unsigned round)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("round %u, position %zu: cell index %zu, expected %zu", round, i,
				 got[i], want[i]);
}

static void test_fixed_seed_fixed_permutation(void **state)
{
	static const size_t want42[3][10] = {
		{ 0, 9, 5, 8, 6, 4, 7, 2, 1, 3 },
		{ 0, 9, 3, 2, 5, 7, 1, 6, 8, 4 },
		{ 2, 1, 5, 9, 6, 3, 4, 8, 0, 7 },
	};
	static const size_t want1[2][5] = { { 2, 1, 4, 3, 0 }, { 2, 4, 3, 0, 1 } };
	struct order o;
	size_t idx[10];

	(void)state;
	order_init(&o, ORDER_SHUFFLED, 42);
	for (unsigned r = 0; r < 3; r++) {
		order_next_round(&o, idx, 10);
		expect_perm(idx, want42[r], 10, r + 1);
	}
	order_init(&o, ORDER_SHUFFLED, 1);
	for (unsigned r = 0; r < 2; r++) {
		order_next_round(&o, idx, 5);
		expect_perm(idx, want1[r], 5, r + 1);
	}
}

/* Every cell once per round, whatever the seed and the number of cells;
 * and the order changes from round to round. */
static void test_every_cell_once_per_round(void **state)
{
	static const uint64_t seeds[] = { 0, 1, 7, 0xffffffffffffffffull, 12345678901234567ull };
	size_t idx[37], first[37];
	struct order o;

	(void)state;
	for (size_t s = 0; s < ARRAY_SIZE(seeds); s++)
		for (size_t n = 0; n <= 37; n += 6) {
			int differs = 0;
			order_init(&o, ORDER_SHUFFLED, seeds[s]);
			for (unsigned r = 0; r < 4; r++) {
				unsigned char seen[37] = { 0 };
				order_next_round(&o, idx, n);
				for (size_t i = 0; i < n; i++) {
					assert_true(idx[i] < n);
					if (seen[idx[i]]++)
						fail_msg("seed %zu, %zu cells, round %u: cell %zu twice", s,
							 n, r + 1, idx[i]);
				}
				if (!r)
					memcpy(first, idx, sizeof(idx));
				else
					differs |= memcmp(first, idx, n * sizeof(*idx)) != 0;
			}
			if (n > 6 && !differs)
				fail_msg("seed %zu, %zu cells: every round in the same order", s, n);
		}
}

static void test_sequential_is_cell_order(void **state)
{
	struct order o;
	size_t idx[9];

	(void)state;
	order_init(&o, ORDER_SEQUENTIAL, 42);
	for (unsigned r = 0; r < 3; r++) {
		order_next_round(&o, idx, 9);
		for (size_t i = 0; i < 9; i++)
			assert_int_equal(idx[i], i);
	}
}

static void test_parse(void **state)
{
	enum run_order k = ORDER_SHUFFLED;

	(void)state;
	assert_int_equal(order_parse("sequential", &k), 0);
	assert_int_equal(k, ORDER_SEQUENTIAL);
	assert_int_equal(order_parse("shuffled", &k), 0);
	assert_int_equal(k, ORDER_SHUFFLED);
	assert_int_equal(order_parse("random", &k), -1);
	assert_int_equal(order_parse("", &k), -1);
	assert_string_equal(order_names[ORDER_SHUFFLED], "shuffled");
	assert_string_equal(order_names[ORDER_SEQUENTIAL], "sequential");
}


/* An in-run A/B's round: each group's cells next to each other, by value
 * forward in odd rounds and backward in even ones (A B, B A: ABBA), every
 * cell once, the groups' order drawn afresh. */
static void test_paired_rounds_are_abba(void **state)
{
	/* 6 cells: groups {0, 1}, {2, 3}, {4, 5}; cell 2i is the baseline (side 0) */
	static const size_t group[] = { 0, 0, 1, 1, 2, 2 }, side[] = { 0, 1, 0, 1, 0, 1 };
	/* a group of three values, and a group given candidate-first */
	static const size_t group3[] = { 0, 1, 0, 0, 1 }, side3[] = { 2, 1, 0, 1, 0 };
	struct order o;
	size_t idx[6];
	int orders_seen = 0, first_group[3] = { 0 };

	(void)state;
	order_init(&o, ORDER_SHUFFLED, 7);
	for (unsigned round = 1; round <= 40; round++) {
		order_next_round_paired(&o, idx, 6, group, side, 3, round);
		unsigned char seen[6] = { 0 };
		for (size_t k = 0; k < 6; k += 2) {
			if (group[idx[k]] != group[idx[k + 1]])
				fail_msg("round %u: cells %zu and %zu of one pair not adjacent", round,
					 idx[k], idx[k + 1]);
			size_t want = round % 2 ? 0 : 1;	/* the first of the pair's sides */
			if (side[idx[k]] != want)
				fail_msg("round %u: the pair starts with side %zu", round, side[idx[k]]);
			seen[idx[k]]++;
			seen[idx[k + 1]]++;
		}
		for (size_t i = 0; i < 6; i++)
			assert_int_equal(seen[i], 1);
		first_group[group[idx[0]]]++;
	}
	for (size_t g = 0; g < 3; g++)
		orders_seen += first_group[g] > 0;
	assert_int_equal(orders_seen, 3);	/* the groups' order is shuffled */
	/* sequential: groups in plan order */
	order_init(&o, ORDER_SEQUENTIAL, 0);
	order_next_round_paired(&o, idx, 5, group3, side3, 2, 1);
	/* group 0 is cells 0, 2, 3 (sides 2, 0, 1), group 1 cells 1, 4 (1, 0) */
	static const size_t want1[] = { 2, 3, 0, 4, 1 }, want2[] = { 0, 3, 2, 1, 4 };
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(idx[i], want1[i]);
	order_next_round_paired(&o, idx, 5, group3, side3, 2, 2);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(idx[i], want2[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_seed_fixed_permutation),
		cmocka_unit_test(test_every_cell_once_per_round),
		cmocka_unit_test(test_sequential_is_cell_order),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_paired_rounds_are_abba),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
