/*
 * run_auto: repeat: auto (matrix.h repeat_min > 0), the rule: a cell's
 * repetitions stop after repeat_min once s->rel_width of its ok rows'
 * msgs_per_s is at most repeat_width, or at repeat (the most).  The
 * values are kept by cell index in s->vals, the cells that have enough
 * marked in s->stopped.
 */
#ifndef MATRIX_RUN_AUTO_H
#define MATRIX_RUN_AUTO_H

#include <stddef.h>

#include "results.h"
#include "run_state.h"

/* One more msgs_per_s of an ok row of cell index ci (NaN is not kept). */
void run_auto_keep(struct run_state *s, size_t ci, double v);
/* After the cell's repetition rep (row), whether it has enough: its
 * msgs_per_s interval narrow enough after repeat_min, or the most
 * repetitions.  The row says why it stopped (repeat_stop).  Nothing
 * without repeat: auto. */
void run_auto_stop(struct run_state *s, size_t ci, unsigned rep, struct result_row *row);

#endif
