/*
 * plan_check: whether a cell can run, before any runs.  Each refusal is
 * "FILE:LINE:COL: message" at the value to blame (the named key's value
 * in the cell, else the first dimension's key); nothing is ever clamped.
 *
 *   plan_check_count    the product's size, before a cell is built
 *   plan_check_cell     every cell not excluded: what its transport, its
 *                       pattern (pattern.h), its programs, the topology and
 *                       the hosts allow
 *   plan_check_machine  the cells selected, on the machine that runs them:
 *                       memory, open files, the cpu: placement, the
 *                       transport's limits here (transport.h's limits_now:
 *                       mq's sysctls), which a merge of runs made
 *                       elsewhere does not ask
 */
#ifndef MATRIX_PLAN_CHECK_H
#define MATRIX_PLAN_CHECK_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "cell_params.h"
#include "matrix.h"

#define PLAN_MAX_INTERVALS (1u << 20)	/* timeline rows per stream repetition */
#define PLAN_MAX_TIMEOUT_NS (86400ull * 1000000000ull)
/* The most cells a plan may have: the product of the dimensions' lengths,
 * counted before exclude and --only, and before any cell is built. */
#define PLAN_MAX_CELLS 100000u

/* What the machine gives a plan, read once per plan_build. */
struct plan_limits {
	uint64_t mem;			/* bytes; 0: unknown, not checked */
	const char *mem_what;		/* where mem comes from */
	uint64_t nofile, nofile_max;	/* RLIMIT_NOFILE soft and hard; 0: unknown */
};

/* The available memory (/proc/meminfo, else the physical memory) and the
 * open-file limit into lim; what cannot be read is 0. */
void plan_read_limits(struct plan_limits *lim);

/* The cells of m's product, before exclude and --only: 0, or -1 with the
 * count in err when over PLAN_MAX_CELLS. */
int plan_check_count(const struct matrix *m, char *err, size_t errlen);

/* Cell choice, resolved into p: 0 when it can run as far as the matrix
 * and the transports tell, else -1 with the first reason in err. */
int plan_check_cell(const struct matrix *m, const size_t *choice, const struct cell_params *p,
		    char *err, size_t errlen);

/* A machine's limits, so checked for the cells selected only: the
 * workers' buffers against lim's memory, the runner's open files against
 * its limit, the cpu: placement on cpus, the transport's limits_now.  0, or -1 with err. */
int plan_check_machine(const struct matrix *m, const size_t *choice, const struct cell_params *p,
		       const struct plan_limits *lim, const cpu_set_t *cpus, char *err,
		       size_t errlen);

#endif
