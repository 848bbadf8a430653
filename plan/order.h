/*
 * order: the order in which `matrix run` runs its cell repetitions.
 *
 * Repetitions run in rounds: round r runs repetition r of every cell, so
 * drift slower than a round (a machine warming up, a job starting beside
 * the run) reaches every cell's repetitions alike.  Within a round the
 * cells run in plan order (ORDER_SEQUENTIAL) or, by default, in an order
 * shuffled afresh every round (ORDER_SHUFFLED), so drift within a round (a
 * neighbour's burst, a frequency step) does not always land on the same
 * cells either.  The shuffle is Fisher-Yates driven by splitmix64 from one
 * 64-bit seed: the same seed and the same number of cells give the same
 * order, on any machine (`matrix run --seed N` replays a run's order).
 */
#ifndef MATRIX_ORDER_H
#define MATRIX_ORDER_H

#include <stddef.h>
#include <stdint.h>

enum run_order { ORDER_SHUFFLED, ORDER_SEQUENTIAL };

/* "shuffled", "sequential", by enum run_order. */
extern const char *const order_names[2];

struct order {
	enum run_order kind;
	uint64_t state;			/* splitmix64's */
};

/* "shuffled" or "sequential" into *out; -1 for anything else. */
int order_parse(const char *text, enum run_order *out);

/* A seed from /dev/urandom, or from the clock when that cannot be read. */
uint64_t order_random_seed(void);

/* Starts the order of a run; the seed matters to ORDER_SHUFFLED only. */
void order_init(struct order *o, enum run_order kind, uint64_t seed);

/* The next round: idx[0..n) becomes a permutation of 0..n-1, the plan's
 * cell indices in the order they run (0..n-1 itself when sequential). */
void order_next_round(struct order *o, size_t *idx, size_t n);

/* The next round of an in-run A/B (round counts from 1): the cells that
 * differ only in the compared dimension, a group (group[i] the group of
 * cell i, numbered from 0 in plan order, ngroups of them), run next to
 * each other, so that the baseline and the candidate of a round share its
 * moment; the groups run shuffled as whole groups (sequential: in plan
 * order), and within a group the cells run in the order of their value
 * (side[i], its index among the dimension's values) in odd rounds and in
 * the reverse order in even rounds: A B, then B A, so a drift linear over
 * two rounds reaches both sides alike (ABBA). */
void order_next_round_paired(struct order *o, size_t *idx, size_t n, const size_t *group,
			     const size_t *side, size_t ngroups, unsigned round);

#endif
