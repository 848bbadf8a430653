/*
 * run: `matrix run` from a loaded plan to a finished run folder.
 *
 * The run folder (default results/<name>/<UTC timestamp>/, with
 * results/<name>/latest pointing at it; or -o DIR, which must not exist or
 * be empty) holds matrix.yaml (the file as given, byte for byte, or as
 * --set made it: base/matrix_set.h), meta.csv,
 * results.csv, timeline.csv for stream cells, and logs/ with any worker
 * output worth keeping (see reports/results.h and reports/meta.h).
 */
#ifndef MATRIX_RUN_H
#define MATRIX_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "matrix_set.h"
#include "order.h"
#include "plan.h"

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
};

/* Runs every cell repetition of pl, in rounds of one repetition of every
 * cell, each round in o->order (meta.csv keeps the order and the seed).  Returns the exit status: 0 all ok,
 * 1 some repetition failed or a file could not be written (message on
 * stderr), 2 the run folder could not be made (message in err), 130
 * interrupted (what was measured is kept).  With repeat: auto, a cell's
 * repetitions stop after repeat_min once o->rel_width of its msgs_per_s is
 * at most repeat_width, or at repeat (the most); the row where it stopped
 * says why in repeat_stop. */
int run_plan(const struct plan *pl, const struct run_opts *o, char *err, size_t errlen);

#endif
