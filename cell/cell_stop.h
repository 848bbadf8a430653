/*
 * cell_stop: a repetition's workers ended.  A program server is stopped
 * once every client is done (SIGTERM, then SIGKILL after a grace, neither
 * a failure), or once a stream's program receiver has printed what it
 * owes.  An interrupt or the deadline is a failure; on the first failure
 * of any kind (cell_rep_fail) every worker still running gets SIGTERM,
 * and SIGKILL once the grace (CELL_GRACE_NS) is over.  A worker found dead
 * before its signal is judged first (cell_judge_exit), so that its own
 * crash is not taken for ours.
 */
#ifndef MATRIX_CELL_STOP_H
#define MATRIX_CELL_STOP_H

#include <stdint.h>

#include "cell_rep.h"

/* Once per loop pass, when every client is done: a program server serves
 * until we stop it; our server ends by itself, unless a program client
 * made fewer connections (a failure, once the grace is over). */
void cell_stop_server_when_done(struct cell_rep *r);
/* Once per loop pass: an interrupt (*ctx->interrupted) or deadline (on
 * CLOCK_MONOTONIC) passed is a failure, said with what the repetition was
 * waiting for; the SIGTERM round on the first failure, the SIGKILL round
 * when its grace is over. */
void cell_stop_on_failure(struct cell_rep *r, uint64_t deadline);

#endif
