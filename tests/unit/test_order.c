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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_seed_fixed_permutation),
		cmocka_unit_test(test_every_cell_once_per_round),
		cmocka_unit_test(test_sequential_is_cell_order),
		cmocka_unit_test(test_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
