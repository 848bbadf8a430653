/*
 * run_state: the state of a run going on, from run_plan's start to its
 * end, shared by the files of `matrix run` (run.c the rounds, run_open.c
 * the start and the end, run_folder.c the run folder made, run_step.c one
 * repetition, run_auto.c repeat: auto).  Private to runner/run*.c.
 */
#ifndef MATRIX_RUN_STATE_H
#define MATRIX_RUN_STATE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "lock.h"
#include "meta.h"
#include "netns.h"
#include "order.h"
#include "plan.h"
#include "progress.h"
#include "results.h"
#include "resume.h"
#include "setup.h"

struct run_state {
	const struct plan *pl;
	char dir[PATH_MAX], logdir[PATH_MAX + 8], sockdir[PATH_MAX], self[PATH_MAX];
	struct meta meta;
	struct results_writer rw;
	struct progress prog;
	struct order order;
	uint64_t seed;
	unsigned char *warned;		/* by cell index: its short window (1), its
					 * rate not kept (2) was said */
	unsigned char *stopped;		/* by cell index: repeat: auto has enough */
	double **vals;			/* by cell index: msgs_per_s of its ok rows */
	size_t *nvals;
	double (*rel_width)(const double *v, size_t n);
	double *overhead_ms;		/* per ok repetition run: meta_runner_costs */
	size_t noverhead, overhead_cap;
	unsigned failed, skipped;
	int write_failed;
	int reports;			/* run_opts.report is set: `reporting` first */
	const char *end_status;		/* the run's status, once it has ended */
	struct run_lock lock;		/* held to the end of the process */
	size_t made;			/* folders made, for run_folder_unmake */
	int rw_open;
	struct resume res;		/* --resume: what the folder holds */
	struct setups setups;		/* programs' setup: and teardown: */
	struct netns net;		/* topology: netns */
};

#endif
