/*
 * pattern_ops: how our own workers run a pattern, one ops table per
 * pattern file (pingpong.c, echo.c, stream.c), listed in pattern_ops.c
 * the way transports/registry.c lists the transports.  What a pattern is
 * (what comes back, who times it, its words and files) is base's table,
 * pattern.h; this is the behaviour.  The request/response loops that
 * pingpong and echo share are rr.c's (google/neper's rr.c and stream.c
 * are the model).
 *
 * Call order, server (server.c): on the thread of each accepted
 * connection, serve(j), until its peer ends it; once every connection is
 * done and the record is summed, by hand, server_line.  Client
 * (client.c): warmup(cl) before the `ready` line; drive(cl), the timed
 * window, after the start byte; result(cl, r) after the connection's
 * end; by hand, client_line(o, r) instead of the record.
 *
 * A new pattern: its line in vocab.h and its entry in pattern.h's table;
 * here, one file defining a `const struct pattern_ops` and one line in
 * pattern_ops.c.
 */
#ifndef MATRIX_PATTERN_OPS_H
#define MATRIX_PATTERN_OPS_H

#include <stdint.h>

#include "options.h"
#include "pattern.h"
#include "wire.h"

struct client;		/* drive.h */
struct conn_job;	/* serve.h */

struct pattern_ops {
	enum pattern pattern;
	/* Server: receives (and answers) on j->c until its peer ends it;
	 * the timed messages and bytes into j (a stream's timeline and the
	 * times of its first and last timed read too), a failure into j->err
	 * and j->stage. */
	void (*serve)(struct conn_job *j);
	/* Client: the o->warmup untimed messages: 0, or -1 with cl->err set. */
	int (*warmup)(struct client *cl);
	/* Client: the timed window, o->count messages or o->duration_ns:
	 * its start and end, counts and times into cl.  0, or -1 with
	 * cl->err set. */
	int (*drive)(struct client *cl);
	/* Client: the pattern's figures of the window into the record r (its
	 * counts and bytes; r->hist may point at cl's histogram, which the
	 * caller clears from r after use). */
	void (*result)(const struct client *cl, struct worker_result *r);
	/* Client, by hand: its readable result line on stdout. */
	void (*client_line)(const struct wopts *o, const struct worker_result *r);
	/* Server, by hand, optional (NULL: nothing): what follows "server: N
	 * messages, B bytes in S s" on its line, when secs > 0; the messages
	 * of the earliest first read are first_read_msgs. */
	void (*server_line)(const struct wopts *o, const struct worker_result *r,
			    uint64_t first_read_msgs, double secs);
	/* Client, optional (NULL: replies are not checked): 1 when the reply
	 * in cl->resp is not what request seq should bring back.  Each one
	 * counts as a mismatch, which fails the run. */
	int (*check_reply)(const struct client *cl, uint64_t seq);
	/* Client, optional: frees cl->sender (whatever warmup made), once,
	 * after the connection is closed, whether the window ran or not. */
	void (*release)(struct client *cl);
};

/* The ops of pattern p (p < PAT__COUNT; a unit test checks that every
 * pattern has them). */
const struct pattern_ops *pattern_ops_of(enum pattern p);

#endif
