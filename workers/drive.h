/*
 * drive: a client's connection as its pattern's loop drives it, and the
 * pieces every such loop shares.  client.c owns the struct client: it
 * fills it in (buffers, histogram, schedule), connects, and hands it to
 * the pattern's ops (pattern_ops.h: warmup, drive, result), which run the
 * messages and set the window's figures in it; client.c then makes the
 * record of them.
 *
 * The loops live in their patterns' files (rr.c for the round trips of
 * pingpong and echo, stream.c); nothing here allocates.
 */
#ifndef MATRIX_DRIVE_H
#define MATRIX_DRIVE_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "options.h"
#include "pace.h"
#include "timeline.h"
#include "transport.h"

struct pattern_ops;

struct client {
	const struct wopts *o;
	const struct pattern_ops *ops;	/* o->pattern's (pattern_ops.h) */
	struct conn c;
	unsigned char *req, *resp, *pattern;	/* resp: NULL for a pattern of one way */
	size_t reqlen, resplen;
	struct hist *hist;
	struct pace pace;	/* rate: the schedule; its start is start_ns */
	uint64_t messages, mismatches, start_ns, end_ns;
	uint64_t sent;		/* one way: messages sent in the window */
	uint64_t last_send_ns;	/* one way: just before the last send began */
	uint64_t lost;		/* lossy transports: requests with no reply in time */
	uint64_t rev_messages;	/* bidir: messages the server sent back (bidir.h) */
	uint64_t rev_end_ns;	/* bidir: the end of the last read of them */
	struct timeline tx_cpu;	/* stream: the sender's CPU per interval (txcpu.h);
				 * client_run releases it */
	void *sender;		/* the pattern's own sending state (stream: its
				 * zero-copy pool, its batch), made by its warmup,
				 * freed by its release op; NULL: none */
	char err[512];
	const char *stage;
};

/* A failure of the connection: cl->err = "WHAT PEER: why", why from errno
 * (EPROTO: closed inside a message; 0: closed by the server), and
 * cl->stage = stage.  Returns -1, for `return drive_error(...)`. */
int drive_error(struct client *cl, const char *stage, const char *what);

/* The timed window starts now: its start, and the schedule's; returns it. */
uint64_t drive_window_start(struct client *cl);

/* Has the window ended before message n (0-based)?  By count; by time;
 * or, paced, by the schedule alone: message n goes when it is due before
 * the window's end, however late the client is to send it (behind a
 * stall near the end), so that every request the rate asked for in the
 * window is sent and counted, as with a count.  Inline: it runs once per
 * message. */
static inline int drive_done(const struct client *cl, uint64_t n, uint64_t now)
{
	const struct wopts *o = cl->o;

	if (!o->duration_ns)
		return n >= o->count;
	if (o->rate)
		return pace_due(&cl->pace, n) - cl->start_ns >= o->duration_ns;
	return now - cl->start_ns >= o->duration_ns;
}

#endif
