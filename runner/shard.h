/*
 * shard: `matrix run --shard K/N`, one Nth of a run's cell repetitions, so
 * that N machines (a CI job matrix, a Slurm array, GNU parallel over ssh)
 * each run a part of one matrix and `matrix merge` joins their folders.
 *
 * Every cell repetition has a stable index i, counted from 0 in plan order:
 * by cell number, then repetition, i = (number - 1) * repeat + (rep - 1)
 * (repeat: the plan's, the most with repeat: auto); shard K of N runs those
 * with i % N == K - 1.  With repeat: auto, whose cells stop after as many
 * repetitions as their spread needs, a cell is never split: shard K runs
 * the whole cells with (number - 1) % N == K - 1.  Cell numbers are the
 * matrix file's (plan.h), so the split depends only on the file, --repeat
 * and --only: never on --order, --seed or the machine, and shards run
 * anywhere line up.
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

/* Is cell `number` (1-based) repetition rep (1-based) shard s's, in a plan
 * of `repeat` repetitions, whole cells when whole_cells (repeat: auto)?
 * Always, for n 0. */
int shard_has(const struct shard *s, unsigned number, unsigned rep, unsigned repeat,
	      int whole_cells);

/* shard_has for the plan's cell index ci (its repeat, its repeat: auto). */
int shard_has_cell(const struct shard *s, const struct plan *pl, size_t ci, unsigned rep);

/* How many cell repetitions of pl are shard s's (with repeat: auto, the
 * most it can run). */
size_t shard_count(const struct shard *s, const struct plan *pl);

#endif
