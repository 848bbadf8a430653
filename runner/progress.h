/*
 * progress: what `matrix run` says on stderr while it works.
 * On a terminal, one live line redrawn about five times a second:
 *   [cell 3 rep 2/3; 11 of 24] transport=unix size=10  0:12 elapsed, ETA 0:40
 * (cell 3 of results.csv, the matrix's own number even in a slice, its 2nd
 * repetition of 3; the 11th of the run's 24 cell repetitions).
 * Not on a terminal, one line per finished cell repetition.  Failures are
 * always printed, with the worker log's last lines; --quiet keeps only them.
 */
#ifndef MATRIX_PROGRESS_H
#define MATRIX_PROGRESS_H

#include <stdint.h>

#include "aggregate.h"
#include "plan.h"

struct progress {
	int tty, quiet;
	unsigned total, done;
	uint64_t t0, rep_t0;
	double spent_s;			/* sum of finished repetitions' wall time */
	unsigned cell, rep, nreps;	/* cell number, as results.csv's `cell` */
	char label[256];
	int drawn;
};

void progress_init(struct progress *p, unsigned total, int quiet);
void progress_begin(struct progress *p, unsigned cell, unsigned rep, unsigned nreps,
		    const char *label);
void progress_tick(void *p);
void progress_end(struct progress *p, const struct cell *c, const struct result_row *row,
		  const char *log_hint);
/* "matrix: MESSAGE" on a line of its own (the live line cleared and
 * redrawn after it); nothing with --quiet. */
void progress_note(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void progress_finish(struct progress *p, unsigned failed, unsigned skipped, const char *dir);

#endif
