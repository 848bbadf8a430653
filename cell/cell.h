/*
 * cell: one repetition of one cell, from the first fork to the last reap.
 *
 *   1. start the server worker; wait for its `listen` line
 *   2. start `concurrency` client workers with that address; wait until
 *      every one says `ready` (connected and warmed up)
 *   3. start them all at once: one write of one 'g' per worker on the shared
 *      start pipe (the server takes one too: its timeline starts there)
 *   4. collect every report until end of file, reap every worker (wait4,
 *      with its rusage)
 * Every wait is bounded by the matrix timeout, on CLOCK_MONOTONIC.  On the
 * first failure (a worker's error line, a non-zero exit, a crash, the
 * timeout, an interrupt) the other workers get SIGTERM, then SIGKILL after a
 * short grace; nothing is left running, nothing is left on disk.
 *
 * A program of the user's (matrix `programs:`) takes a worker's place: a
 * program server is ready when its port accepts or its `ready` regex
 * matches its output, and is stopped once every client is done; a program
 * client starts at once and is timed from spawn to reap.  A stream's
 * program receiver is stopped only once it printed its figures (result:),
 * or, timed whole-process, must exit by itself; a program server's
 * `timeline:` lines become the repetition's timeline.  What is special
 * about programs is in program.h; cell.c is the event loop, its steps in
 * cell_start.h (1 to 3), cell_judge.h (4, and every failure a worker
 * shows) and cell_stop.h (the signals); cell_rep.h is their shared state.
 */
#ifndef MATRIX_CELL_H
#define MATRIX_CELL_H

#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>

#include "plan.h"
#include "prog_timeline.h"
#include "wire.h"

struct cell_ctx {
	const struct plan *plan;
	const struct cell *cell;
	unsigned rep;			/* 1-based */
	const char *self_exe;		/* the matrix binary, for fork+exec */
	const char *sockdir;		/* private 0700 directory for socket paths */
	const char *logdir;		/* run folder's logs/ */
	volatile sig_atomic_t *interrupted;
	void (*tick)(void *arg);	/* called about 5 times a second, may be NULL */
	void *tick_arg;
	struct netns *net;		/* topology: netns (netns.h); NULL: none */
};

struct cell_outcome {
	int ok;
	int skipped;			/* the machine cannot run it (no IPv6 loopback...) */
	char status[256];		/* "ok", "timeout", "crashed: SIGSEGV", ... */
	char error[1024];		/* detail, "" when ok */
	char log[4096];			/* log of the worker at fault, "" if none */
	struct worker_result server;
	struct worker_result *clients;
	unsigned nclients;
	struct rusage server_ru, clients_ru;	/* clients summed */
	int measured_by_process;	/* program clients: timed from spawn to reap */
	double *printed;		/* [client][figure]: what program clients printed,
					 * PROGRAM_NFIGURES each (matrix.h), NaN if not */
	double server_printed[PROGRAM_NFIGURES];	/* a stream's program receiver's */
	double wall_s;			/* first fork to last reap */
	uint64_t release_ns;		/* the start signal went out; 0 if it never did */
	/* a program server's timeline: in a stream cell (prog_timeline.h):
	 * its rows replace the server's own timeline in timeline.csv */
	int has_prog_tl;
	struct prog_tl_row *prog_tl;
	size_t nprog_tl;
	int cross_host;			/* server and clients on two hosts (remote.h):
					 * their timestamps do not compare */
	int remote_clients;		/* the clients' clock is not the runner's */
};

/* Runs one repetition; always fills out (release it with
 * cell_outcome_release).  Returns 0 when the cell ran (ok or not), -1 when
 * the run was interrupted. */
int cell_run(const struct cell_ctx *ctx, struct cell_outcome *out);
void cell_outcome_release(struct cell_outcome *out);
/* The outcome of a repetition of c that did not run (its setup failed,
 * its link could not be set): status (`setup failed`, `link failed`),
 * error why, log (the console's hint; "" for none). */
void cell_outcome_refused(const struct cell *c, const char *status, const char *why,
			  const char *log, struct cell_outcome *out);

#endif
