/*
 * server: the receiving side of a cell, `matrix worker server`.
 *
 * server_run binds o->bind (port 0 or a socket path: the address it got is
 * the `listen` line, or a line on stderr by hand), accepts
 * o->connections connections one after the other, serves each on a thread
 * of its own until its peer ends it, and writes one result record when all
 * are done: pingpong and echo answer every request, stream only reads and
 * counts whole messages per timeline interval.  The timed window starts
 * with the runner's start byte on o->control_fd (read on a thread of its
 * own), or else with the first timed byte any connection saw.
 *
 * Everything it opens it closes, connections and listening socket; the
 * report and control descriptors stay open.  Returns the exit status: 0
 * the record was written, 1 a failure was reported (worker_fail(), options.h).
 */
#ifndef MATRIX_SERVER_H
#define MATRIX_SERVER_H

#include "options.h"

int server_run(const struct wopts *o);

#endif
