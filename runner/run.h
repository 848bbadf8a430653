/*
 * run: `matrix run` from a loaded plan to a finished run folder.
 *
 * The run folder (default results/<name>/<UTC timestamp>/, with
 * results/<name>/latest pointing at it, once it is whole; or -o DIR, which
 * must not exist or be empty, and no other live run's) holds matrix.yaml (the file as given, byte for byte, or as
 * --set made it: base/matrix_set.h), meta.csv,
 * results.csv, timeline.csv for stream cells, logs/ with any worker
 * output worth keeping (see results.h and meta.h), and .lock (lock.h).
 */
#ifndef MATRIX_RUN_H
#define MATRIX_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "matrix_set.h"
#include "order.h"
#include "plan.h"
#include "shard.h"

struct run_opts {
	const char *outdir;		/* NULL: results/<name>/<timestamp> */
	char *dir;			/* out: the run folder made (PATH_MAX bytes) */
	int quiet;
	const char *command_line;
	enum run_order order;		/* within each round (order.h); 0: shuffled */
	int has_seed;			/* the shuffle's seed is `seed`; else a random one */
	uint64_t seed;
	/* repeat: auto (matrix.h repeat_min > 0): the width of the interval of
	 * the median of n values relative to the median, NaN if none */
	double (*rel_width)(const double *v, size_t n);
	const struct matrix_sets *sets;	/* --set: matrix.yaml is their text, meta.csv's
					 * `set` their flags; NULL or none: a copy */
	const char *const *only;	/* the --only flags' KEY=VALUE, for meta.csv */
	size_t nonly;
	const char *resume;		/* --resume DIR: carry on DIR's run (resume.h),
					 * pl being what resume_args says it ran */
	struct shard shard;		/* --shard K/N: only its cell repetitions run
					 * (shard.h); n 0: all of them */
	/* an in-run A/B along matrix dimension pair_dim (its index in
	 * m->dims): each round runs the cells that differ only there next to
	 * each other, in ABBA order (order.h); meta.csv's paired_by names it */
	int paired;
	size_t pair_dim;
	/* The run's reports (cmd_run.c: its report and the comparisons asked
	 * for), built by report(report_arg, DIR) between the run's end and
	 * its final status: meta.csv says `reporting`, with the run's own
	 * status in run_status and this runner in runner_pid, runner_start
	 * and boot_id, until report has returned, and the run's status
	 * (run_status gone) after.  A runner killed meanwhile so leaves a
	 * folder that says its reports are not whole: `matrix report` tells
	 * (launch/stale.h, reports/report.h), and `--resume` of a folder
	 * whose run had ended (run_status ok or some repetitions failed)
	 * runs nothing again but report and the final status, from the
	 * folder's own meta.csv (an interrupted or stopped one carries on as
	 * any).  NULL: no reports, the status written at the end. */
	void (*report)(void *arg, const char *dir);
	void *report_arg;
};

/* Runs every cell repetition of pl, in rounds of one repetition of every
 * cell, each round in o->order (meta.csv keeps the order and the seed).
 * The run folder is locked (lock.h) from its making to the end of the
 * process, so the report built after run_plan is covered too.  Returns
 * the exit status: 0 all ok, 1 some repetition failed or a file could not
 * be written (message on stderr), 2 the run folder could not be made, or
 * is another live run's, or cannot be resumed (message in err; nothing
 * is left made), 130 interrupted (what was measured is kept).  With
 * o->resume, 0 and o->dir empty when the run had finished (said on
 * stderr): nothing ran.  With repeat: auto, a cell's
 * repetitions stop after repeat_min once o->rel_width of its msgs_per_s is
 * at most repeat_width, or at repeat (the most); the row where it stopped
 * says why in repeat_stop. */
int run_plan(const struct plan *pl, const struct run_opts *o, char *err, size_t errlen);

#endif
