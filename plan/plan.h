/*
 * plan: a matrix expanded into cells, each with every parameter resolved.
 *
 * Cells are the cartesian product of the dimensions in the order their keys
 * are written (the first key varies slowest), minus `exclude` and minus
 * cells that `--only` filters leave out.  Cell numbers are 1-based and
 * follow that order; they are stable for a given matrix file, whatever
 * --only selects, so results from filtered runs line up.
 *
 * Repetitions run interleaved: repetition 1 of every cell, then repetition 2
 * of every cell, and so on, so slow drift on a shared machine spreads over
 * all cells instead of biasing the ones that ran last; within each round the
 * cells run shuffled by default (order.h).
 *
 * Each cell's parameters are resolved as cell_params.h says.  plan_build()
 * also checks every cell against what its transport can do (plan_check.h)
 * and reports the first impossible one as FILE:LINE:COL of the value at
 * fault; nothing is ever clamped.  It refuses a product of more than
 * PLAN_MAX_CELLS cells before building any, and a selected cell whose
 * buffers exceed the machine's memory or whose workers need more open
 * files than the runner may have.  A cpu: placement is checked against the
 * CPUs the runner may use when it plans (sched_getaffinity): a CPU outside
 * them, or split with one CPU, is an error at the cpu: value.
 */
#ifndef MATRIX_PLAN_H
#define MATRIX_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "cell_params.h"
#include "matrix.h"
#include "placement.h"
#include "transport.h"

/* cells x repetitions of a run: what its progress and order can count */
#define PLAN_MAX_RUNS 10000000u

struct cell {
	unsigned number;		/* 1-based, in product order */
	size_t *choice;			/* choice[d]: index into dims[d].values */
	struct cell_params p;
};

/* --only KEY=VALUE, parsed against the matrix. */
struct only_filter {
	size_t dim;
	uint64_t num;
};

struct plan {
	const struct matrix *m;
	struct cell *cells;
	size_t ncells;
	unsigned repeat;
	cpu_set_t cpus;			/* the runner's allowed CPUs when planned
					 * (sched_getaffinity): what cpu: places on */
};

/* Parses "KEY=VALUE" for --only; -1 with "--only KEY=VALUE: message". */
int plan_parse_only(const struct matrix *m, const char *arg, struct only_filter *f,
		    char *err, size_t errlen);

/* Expands m.  Returns 0, or -1 with "FILE:LINE:COL: message" (or an
 * --only message) in err. */
int plan_build(struct plan *pl, const struct matrix *m, const struct only_filter *only,
	       size_t nonly, char *err, size_t errlen);
/* plan_build for runs made on other machines (matrix merge's shards): the
 * same cells, not checked against this machine's CPUs (cpu:), memory and
 * open-file limit. */
int plan_build_elsewhere(struct plan *pl, const struct matrix *m,
			 const struct only_filter *only, size_t nonly, char *err, size_t errlen);
void plan_release(struct plan *pl);

/* The index in pl->cells of the cell numbered number (cells are in number
 * order), or -1 when the plan has none (--only left it out). */
long plan_cell_index(const struct plan *pl, unsigned long number);

/* "transport=unix size=10 concurrency=1": the cell's dimension values as
 * written, for progress lines and messages. */
void plan_cell_label(const struct plan *pl, const struct cell *c, char *buf, size_t len);

/* The CPUs a cell's workers run on (placement_resolve against pl->cpus):
 * PLACE_NONE, or PLACE_MAP with the server's and the clients' CPUs;
 * plan_build() has checked that it resolves. */
void plan_placement(const struct plan *pl, const struct cell_params *p, struct placement *out);
/* As results.csv's placement column writes it: "none", "server=0;clients=1". */
void plan_placement_text(const struct plan *pl, const struct cell_params *p, char *buf,
			 size_t len);
/* poll: busy: the cell's spinning threads (a server thread per connection,
 * one for zmq's shared socket, and each client) and the CPUs they may run
 * on (its placement, or the runner's allowed CPUs), where they are most
 * crowded: the server's CPUs, the clients', or all of them.  *spinners
 * is 0 for a blocking cell; more than *cpus means some spinner has no CPU
 * of its own. */
void plan_cell_spin(const struct plan *pl, const struct cell_params *p, unsigned *spinners,
		    unsigned *cpus);

/* Worker runs of the whole plan: cells x repeat x (1 + concurrency). */
uint64_t plan_worker_runs(const struct plan *pl);

#endif
