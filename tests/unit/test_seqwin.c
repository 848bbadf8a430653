/*
 * test_seqwin: the lossy receiver's window of sequence numbers against an
 * exact record (a bitmap of every number), and at its edges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "seqwin.h"

static uint64_t rng_next(uint64_t *s)	/* splitmix64 */
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void in_order_then_repeats(void **state)
{
	struct seqwin w;

	(void)state;
	assert_int_equal(seqwin_init(&w), 0);
	for (uint64_t n = 0; n < 1000; n++)
		assert_int_equal(seqwin_add(&w, n), SEQ_NEW);
	assert_int_equal(seqwin_add(&w, 999), SEQ_DUPLICATE);
	assert_int_equal(seqwin_add(&w, 0), SEQ_DUPLICATE);
	assert_int_equal(seqwin_add(&w, 1002), SEQ_NEW);
	assert_int_equal(seqwin_add(&w, 1001), SEQ_REORDERED);
	assert_int_equal(seqwin_add(&w, 1001), SEQ_DUPLICATE);
	assert_int_equal(seqwin_add(&w, 1000), SEQ_REORDERED);
	seqwin_release(&w);
}

/* The window moves by almost its size: the ring positions it uncovers
 * held numbers one window older, which must not count as seen. */
static void edges_of_the_window(void **state)
{
	struct seqwin w;

	(void)state;
	assert_int_equal(seqwin_init(&w), 0);
	for (uint64_t n = 0; n < 10; n++)
		seqwin_add(&w, n);
	assert_int_equal(seqwin_add(&w, SEQWIN_SIZE + 5), SEQ_NEW);
	assert_int_equal(seqwin_add(&w, SEQWIN_SIZE + 3), SEQ_REORDERED);	/* ring slot of 3 */
	assert_int_equal(seqwin_add(&w, 8), SEQ_DUPLICATE);	/* still inside: seen */
	assert_int_equal(seqwin_add(&w, 6), SEQ_DUPLICATE);	/* the oldest inside */
	assert_int_equal(seqwin_add(&w, 5), SEQ_TOO_OLD);	/* just behind */
	assert_int_equal(seqwin_add(&w, 4), SEQ_TOO_OLD);
	/* a jump of more than the window forgets everything */
	assert_int_equal(seqwin_add(&w, 5 * SEQWIN_SIZE), SEQ_NEW);
	assert_int_equal(seqwin_add(&w, 4 * SEQWIN_SIZE + 1), SEQ_REORDERED);
	assert_int_equal(seqwin_add(&w, 4 * SEQWIN_SIZE), SEQ_TOO_OLD);
	seqwin_release(&w);
}

/* The top of the number range (a datagram's sequence number is whatever
 * its sender wrote: a program's, or garbage): the window moves up to
 * UINT64_MAX without its clearing loop wrapping round to 0 (it did, and
 * spun for ever). */
static void top_of_the_range(void **state)
{
	struct seqwin w;

	(void)state;
	assert_int_equal(seqwin_init(&w), 0);
	assert_int_equal(seqwin_add(&w, UINT64_MAX - 2), SEQ_NEW);
	assert_int_equal(seqwin_add(&w, UINT64_MAX), SEQ_NEW);
	assert_int_equal(seqwin_add(&w, UINT64_MAX - 1), SEQ_REORDERED);
	assert_int_equal(seqwin_add(&w, UINT64_MAX), SEQ_DUPLICATE);
	assert_int_equal(seqwin_add(&w, UINT64_MAX - 2), SEQ_DUPLICATE);
	assert_int_equal(seqwin_add(&w, 0), SEQ_TOO_OLD);
	seqwin_release(&w);
}

/* 3 window lengths of numbers, each sent once, some twice, in an order
 * shuffled locally (no number overtaken by more than a window): every
 * verdict is the one an exact record of all numbers gives. */
static void agrees_with_an_exact_record(void **state)
{
	const uint64_t total = 3 * SEQWIN_SIZE, span = 4096;
	unsigned char *exact = calloc(total / 8, 1);
	uint64_t *order = malloc(2 * total * sizeof(*order)), n = 0, seed = 14, newest = 0;
	unsigned long counts[4] = { 0 };
	struct seqwin w;

	(void)state;
	assert_non_null(exact);
	assert_non_null(order);
	for (uint64_t i = 0; i < total; i++) {
		order[n++] = i;
		if (rng_next(&seed) % 100 < 3)
			order[n++] = i;	/* a duplicate, maybe much later */
	}
	for (uint64_t i = 0; i + 1 < n; i++) {	/* swaps within span */
		uint64_t j = i + rng_next(&seed) % span;
		if (j < n) {
			uint64_t t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
	}
	assert_int_equal(seqwin_init(&w), 0);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t s = order[i];
		int was = exact[s / 8] >> (s % 8) & 1;
		enum seq_verdict want = was ? SEQ_DUPLICATE : i && s < newest ? SEQ_REORDERED
									 : SEQ_NEW;
		enum seq_verdict got = seqwin_add(&w, s);
		if (got != want)
			fail_msg("number %llu (%llu of %llu): verdict %d, the exact one %d",
				 (unsigned long long)s, (unsigned long long)i, (unsigned long long)n,
				 got, want);
		counts[got]++;
		exact[s / 8] |= (unsigned char)(1u << (s % 8));
		if (!i || s > newest)
			newest = s;
	}
	assert_int_equal(counts[SEQ_NEW] + counts[SEQ_REORDERED], total);
	assert_true(counts[SEQ_DUPLICATE] > 0 && counts[SEQ_REORDERED] > 0);
	seqwin_release(&w);
	free(exact);
	free(order);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(in_order_then_repeats),
		cmocka_unit_test(edges_of_the_window),
		cmocka_unit_test(top_of_the_range),
		cmocka_unit_test(agrees_with_an_exact_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
