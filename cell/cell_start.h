/*
 * cell_start: a repetition's workers started (cell.h, steps 1 to 3): each
 * one's command (ours, or a program of the user's), its log or its
 * watched output (outlog.h), its process here or over ssh (remote.h), and
 * the start signal, one 'g' per worker on the shared start pipe.  A worker
 * that cannot start is a failure recorded (cell_rep_fail); nothing is left
 * running by these (the loop ends what started).
 */
#ifndef MATRIX_CELL_START_H
#define MATRIX_CELL_START_H

#include "cell_rep.h"

/* Starts the server worker (slot 0) on its address: a socket path in
 * ctx->sockdir, the transport's bind address, or for a program server a
 * free port chosen here.  0, or -1 with the failure recorded. */
int cell_start_server(struct cell_rep *r);
/* Starts every client worker, with the server's address (r->addr), and
 * closes our copy of the start pipe's read end once all have theirs; stops
 * at the first that fails to start (its failure recorded). */
void cell_start_clients(struct cell_rep *r);
/* Once per loop pass: the clients once a program server is ready (our
 * server's `listen` line starts them as it is read), then the start
 * signal once every client is ready. */
void cell_start_when_ready(struct cell_rep *r);

#endif
