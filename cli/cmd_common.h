/*
 * cmd_common: what the commands run and plan share: their options (struct
 * common, cmd_parse_common), loading the matrix into a plan, the messages.
 */
#ifndef MATRIX_CMD_COMMON_H
#define MATRIX_CMD_COMMON_H

#include "cmd_compare.h"
#include "matrix.h"
#include "matrix_set.h"
#include "order.h"
#include "plan.h"
#include "shard.h"

#include <stdint.h>

#define EXIT_BADINPUT 2

struct common {
	const char *file;
	unsigned repeat;
	const char *only[256];
	size_t nonly;
	const char *outdir;
	int quiet;
	const char *ab, *baseline;	/* run --compare, --baseline */
	struct compare_args ca;
	enum run_order order;		/* run --order, --seed */
	int has_seed;
	uint64_t seed;
	struct matrix_sets sets;	/* --set */
	const char *resume;		/* run --resume DIR */
	const char *export_json;	/* run --export-json FILE */
	int json;			/* plan --json */
	struct shard shard;		/* run --shard K/N; n 0: none */
	int elsewhere;			/* merge: runs of other machines, whose
					 * limits cmd_load_plan does not check */
};

/* Parses run (is_run) or plan options into c; --help prints usage and
 * exits 0.  -1 after printing a message. */
int cmd_parse_common(int argc, char **argv, struct common *c, int is_run, const char *usage);
/* A matrix error: "FILE:LINE:COL: ..." as it is, a --set one after "matrix: ". */
void cmd_print_matrix_error(const char *err);
/* Loads the matrix (with --set made) and builds the plan; -1 after
 * printing the error, with nothing left to release. */
int cmd_load_plan(struct common *c, struct matrix *m, struct plan *pl);
/* argv joined by spaces, malloc'd (NULL when out of memory). */
char *cmd_join_argv(int argc, char **argv);

#endif
