/*
 * shard: `matrix run --shard K/N`, one Nth of a run's cell repetitions, so
 * that N machines (a CI job matrix, a Slurm array, GNU parallel over ssh)
 * each run a part of one matrix and `matrix merge` joins their folders.
 *
 * Every cell repetition has a stable index i, counted from 0 in plan order
 * (by cell number, then repetition): i = c * repeat + (rep - 1), c the
 * cell's place in the plan from 0 (its number - 1 without --only), repeat
 * the plan's (the most, with repeat: auto); shard K of N runs those with
 * i % N == K - 1, so the shards' sizes differ by one at most.  With repeat:
 * auto, whose cells stop after as many repetitions as their spread needs,
 * a cell is never split: shard K runs the whole cells with c % N == K - 1.
 * The split depends only on the plan (the file, --set, --repeat, --only):
 * never on --order, --seed or the machine, so shards run anywhere line up.
 */
#ifndef MATRIX_SHARD_H
#define MATRIX_SHARD_H

#include <stddef.h>

#include "plan.h"

#define SHARD_MAX 100000

struct shard {
	unsigned k, n;			/* 1 <= k <= n; n 0: the whole run */
};

/* "K/N" (1 <= K <= N <= SHARD_MAX) into *s; -1 with err saying what is
 * wrong with text (the caller names the flag). */
int shard_parse(const char *text, struct shard *s, char *err, size_t errlen);

/* Is repetition rep (1-based) of the cell at place c (0-based) of a plan
 * of `repeat` repetitions shard s's, whole cells when whole_cells (repeat:
 * auto)?  Always, for n 0. */
int shard_has(const struct shard *s, size_t c, unsigned rep, unsigned repeat, int whole_cells);

/* shard_has for pl's cell index ci (its repeat, its repeat: auto). */
int shard_has_cell(const struct shard *s, const struct plan *pl, size_t ci, unsigned rep);

/* How many cell repetitions of pl are shard s's (with repeat: auto, the
 * most it can run). */
size_t shard_count(const struct shard *s, const struct plan *pl);

#endif
