/*
 * serve: a server's connections as its pattern's loop serves them, and
 * the pieces every such loop shares.  server.c owns the struct server and
 * a struct conn_job per accepted connection: it starts a thread per job
 * that runs the pattern's serve (pattern_ops.h), which receives (and
 * answers) until the peer ends the connection and leaves its counts and
 * the times of its timed reads in the job; server.c sums the jobs into
 * the record.
 *
 * The loops live in their patterns' files (rr.c for the round trips of
 * pingpong and echo, stream.c); nothing here allocates.
 */
#ifndef MATRIX_SERVE_H
#define MATRIX_SERVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "options.h"
#include "timeline.h"
#include "transport.h"

struct pattern_ops;
struct server;

struct conn_job {
	struct server *srv;
	struct conn c;
	pthread_t thread;
	uint64_t messages, bytes, first_ns, last_ns;
	uint64_t first_read_msgs;	/* stream: completed by the first timed read */
	uint64_t duplicated, reordered;	/* lossy stream receivers */
	uint64_t rev_sent;		/* bidir: messages sent back (bidir.h) */
	struct timeline tl;
	struct conn_info info;
	struct tcp_view tcp;		/* TCP_INFO after the serve, before close */
	int has_tcp;			/* 1 when tcp was read (transport.h tcp_view) */
	char err[512];			/* a failure, with the stage it was in */
	const char *stage;
};

struct server {
	const struct wopts *o;
	const struct pattern_ops *ops;	/* o->pattern's (pattern_ops.h) */
	_Atomic uint64_t t0;	/* start of the timed window; 0 until known */
	_Atomic uint64_t cpu0;	/* process CPU at the start signal; 0 until then */
	struct conn_job *jobs;
};

/* The start of the timed window: the runner's start byte, or else the
 * first timed byte any connection saw (now, when it is the first to ask).
 * Safe from any thread. */
uint64_t serve_t0(struct server *s, uint64_t now);

/* A lossy connection has no reliable end: its end marker may be lost too.
 * After the start signal, a silence this long ends it (long enough that a
 * client waiting out a lost reply never trips it); counted from the start
 * at the earliest: a connection accepted long before it (the other clients
 * retrying hellos a lossy link lost) has said nothing yet, rightly.  1 when
 * the connection last heard from at last_rx has been quiet that long. */
int serve_lossy_quiet(const struct server *s, uint64_t last_rx);

#endif
