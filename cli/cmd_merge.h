/*
 * cmd_merge: `matrix merge DIR... -o OUT`, the shards of one run (`matrix
 * run --shard K/N`) joined into one run folder and reported (merge.h).
 */
#ifndef MATRIX_CMD_MERGE_H
#define MATRIX_CMD_MERGE_H

/* `matrix merge ARGS`: its exit status (0 every repetition ok, 1 some
 * failed or the report could not be written, 2 refused). */
int cmd_merge(int argc, char **argv);

#endif
