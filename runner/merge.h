/*
 * merge: `matrix merge DIR... -o OUT`, the folders of the N shards of one
 * run (`matrix run --shard K/N`, shard.h) joined into one run folder, as
 * `matrix run` without --shard would have written it.
 *
 * Call order: merge_open() (each folder's meta.csv: a finished run, a
 * shard), merge_check_shards() (one N, every K once, one run's flags),
 * merge_rows() against the plan the first folder's flags make
 * (resume_args), then merge_write(), and merge_release() in any case.
 * The caller (cmd_merge.c) checks the machines' fingerprints in between
 * and writes the reports after.
 *
 * OUT gets matrix.yaml (the shards', byte for byte the same), results.csv,
 * timeline.csv and hist.csv with every shard's rows in the order of a
 * sequential run (repetition, then cell number: rounds, as run.h runs
 * them), logs/ with every shard's files (a name two shards have, a
 * program's setup log, is kept once when their bytes are the same, else
 * once per shard: the later ones as NAME.shardK), and meta.csv: shard
 * 1's, without `shard`, with host the shards' (each once, in shard
 * order), start_utc the earliest, end_utc the latest, status `some
 * repetitions failed` when a shard's is, order and seed each shard's when
 * they differ ("per shard: 7 9", "-" for a sequential shard's seed; the
 * shards' own when they agree), and merged_from the folders in shard
 * order, separated by spaces, each that holds a space, a tab, a newline
 * or a double quote, or is empty, double-quoted with its " doubled as in
 * CSV ("s 1" "s ""2"""), so that every name can be read back (a folder
 * from before has names without spaces, as they read).
 */
#ifndef MATRIX_MERGE_H
#define MATRIX_MERGE_H

#include <stddef.h>

#include "csvfile.h"
#include "plan.h"
#include "shard.h"

struct merge_src {
	const char *dir;
	struct shard shard;
	struct csv_table meta;		/* DIR/meta.csv */
	struct csv_table results;	/* DIR/results.csv, once merge_rows read it */
};

/* A cell repetition's row in a source's table (results.csv, or a side
 * file's rows of that repetition). */
struct merge_row {
	unsigned rep, cell;
	size_t src, row;
};

struct merge {
	struct merge_src *src;		/* in shard order after merge_check_shards */
	size_t nsrc;
	struct merge_row *rows;		/* results.csv's, in the order written */
	size_t nrows;
	int failed;			/* a shard's status is `some repetitions failed` */
};

/* Reads DIR/meta.csv of each of dirs[0..n): each must be a finished run
 * (status ok or some repetitions failed) with a `shard`.  0, or -1 with
 * err naming the folder; merge_release either way. */
int merge_open(struct merge *mg, char *const *dirs, size_t n, char *err, size_t errlen);

/* The folders are the N shards of one run: one N, every K from 1 to N
 * once, and the same cells, repetitions, --only and --set.  Sorts them by
 * K.  0, or -1 with err naming the folders and what differs. */
int merge_check_shards(struct merge *mg, char *err, size_t errlen);

/* Reads every results.csv and checks its rows against pl (the plan the
 * shards' flags make): each cell repetition in one folder only, the
 * folder of its shard, and none missing (with repeat: auto, a cell's
 * repetitions from 1 up to the one that says why it stopped).  0, or -1
 * with err naming the folders and cell repetitions. */
int merge_rows(struct merge *mg, const struct plan *pl, char *err, size_t errlen);

/* Writes OUT's files (above) into the folder out, made and locked by the
 * caller.  0, or -1 with err naming the file. */
int merge_write(const struct merge *mg, const char *out, const char *merged_from, char *err,
		size_t errlen);

/* The value of key in meta.csv table t, NULL when absent. */
const char *merge_meta(const struct csv_table *t, const char *key);

void merge_release(struct merge *mg);

#endif
