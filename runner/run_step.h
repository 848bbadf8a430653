/*
 * run_step: one repetition of one cell, run and recorded: its programs'
 * setup (setup.h) and its link (netns.h) first, then the repetition
 * (cell.h), its row (aggregate.h) written to results.csv, the progress
 * line and the warnings said once a cell (a short timed window, a rate
 * not kept), repeat: auto's judgement (run_auto.h) and the runner's
 * overhead (meta.h).
 */
#ifndef MATRIX_RUN_STEP_H
#define MATRIX_RUN_STEP_H

#include <stddef.h>

#include "run_state.h"

/* Runs repetition rep of the cell of index ci and records it; 0, or -1
 * when interrupted, when its setup was, or when its row could not be
 * written (said on stderr; s->write_failed). */
int run_step(struct run_state *s, size_t ci, unsigned rep);

#endif
