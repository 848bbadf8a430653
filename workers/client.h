/*
 * client: the sending side of a cell, `matrix worker client`, one
 * connection per process.
 *
 * client_run connects to o->connect, exchanges o->warmup untimed messages,
 * says `ready`, waits for the runner's start byte on o->control_fd, then
 * runs the timed window: o->count messages, or for o->duration_ns.
 * pingpong and echo time every round trip into a histogram (serially, or
 * with o->inflight requests outstanding); stream writes back to back and
 * closes.  A transport with finish() (zmq) confirms the end first: its
 * failure, or no confirmation by o->timeout_ns, fails the client (stage
 * `ack`).  It writes one result record (or a readable line by hand); an
 * echo reply that differs from its request fails the run.
 *
 * Everything it opens it closes; the report and control descriptors stay
 * open.  Returns the exit status: 0 the record was written, 1 a failure was
 * reported (worker_fail(), options.h).
 */
#ifndef MATRIX_CLIENT_H
#define MATRIX_CLIENT_H

#include "options.h"

int client_run(const struct wopts *o);

#endif
