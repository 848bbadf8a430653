/* pipeline: echo with no window.  The client's writer half sends its
 * requests back to back and never waits for a reply; its reader half, the
 * client's main thread, reads the echoes as they come, in chunks, checks
 * every byte of each (echo's check) and counts them.  The window runs from
 * the first write to the last echo read.  This is what seed 002's Go and
 * Java clients do (a writer loop beside a reader goroutine or thread), and
 * netperf's TCP_RR burst mode with a burst as large as the count; echo
 * with inflight: N keeps at most N requests out instead.
 *
 * Every request from 9 bytes up ends in a newline ('\n'), so a
 * line-framed echo server (read a line, write it back, as the source's)
 * echoes each whole; the bytes before it are payload.h's.  Our server
 * reads as such a server does, as much as has come (a buffered reader),
 * and writes each whole request back as it finds it, one write each (the
 * source's server flushes every line).  No round trip is timed: a reply's
 * wait is the queue ahead of it, not a round trip, so the cell has no RTT
 * figures and no hist.csv. */
#include "clock.h"
#include "drive.h"
#include "serve.h"
#include "transport.h"
#include "pace.h"
#include "pattern_ops.h"
#include "payload.h"
#include "rr.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

/* The reader's buffer: many replies per read, as a buffered reader has. */
#define PIPELINE_READ_BYTES (64u * 1024u)

struct writer {
	struct client *cl;
	_Atomic uint64_t sent;	/* requests written whole */
	_Atomic int done;	/* the writer has stopped: sent is final */
	int err;		/* errno of a failed write, else 0 */
};

/* The server's loop on one connection: reads of up to
 * PIPELINE_READ_BYTES, each whole request in them written back at once,
 * a request cut by the read's end kept for the next; the timed ones (past
 * the warmup) counted, both ways' bytes. */
static void pipeline_serve(struct conn_job *j)
{
	const struct wopts *o = j->srv->o;
	const struct transport *t = o->t;
	size_t req = o->topts.size, have = 0;
	size_t cap = PIPELINE_READ_BYTES < req ? req : PIPELINE_READ_BYTES;
	unsigned char *buf = malloc(cap);
	uint64_t n = 0, warm = o->warmup * j->c.streams;

	if (!buf) {
		snprintf(j->err, sizeof(j->err), "out of memory for %zu-byte messages", req);
		j->stage = "memory";
		return;
	}
	for (;;) {
		ssize_t got = t->recv_some(&j->c, buf + have, cap - have);
		if (got <= 0) {	/* the end, where it must be: between requests */
			if (got < 0 || have) {
				snprintf(j->err, sizeof(j->err), "receive from %s: %s", j->c.peer,
					 got == 0 ? "stream ended inside a message" : strerror(errno));
				j->stage = "receive";
			}
			break;
		}
		size_t off = 0;
		for (have += (size_t)got; have - off >= req; off += req) {
			if (t->send(&j->c, buf + off, req) < 0) {
				snprintf(j->err, sizeof(j->err), "send to %s: %s", j->c.peer,
					 strerror(errno));
				j->stage = "send";
				goto out;
			}
			if (++n > warm) {
				j->messages++;
				j->bytes += 2 * req;
			}
		}
		memmove(buf, buf + off, have - off);
		have -= off;
	}
out:
	free(buf);
}

/* The newline that ends every request of 9 bytes or more, in the request
 * and in the copy that replies are checked against. */
static int pipeline_warmup(struct client *cl)
{
	if (cl->reqlen > 8) {
		cl->req[cl->reqlen - 1] = '\n';
		cl->pattern[cl->reqlen - 1] = '\n';
	}
	return rr_warmup(cl);
}

/* The writer half: requests back to back until the window ends (by count,
 * or by time: the clock is read only then), each paced when o->rate is
 * set.  A failed write stops it and shuts the socket, so that a reader
 * waiting for echoes that will not come wakes up. */
static void *writer_run(void *arg)
{
	struct writer *w = arg;
	struct client *cl = w->cl;
	const struct wopts *o = cl->o;
	uint64_t now = cl->start_ns;

	for (uint64_t n = 0; !drive_done(cl, n, now); n++) {
		if (o->rate)
			pace_wait(&cl->pace, n);
		stamp_seq(cl->req, cl->reqlen, o->warmup + n);
		if (o->t->send(&cl->c, cl->req, cl->reqlen) < 0) {
			w->err = errno;
			shutdown(cl->c.fd, SHUT_RDWR);
			break;
		}
		atomic_store_explicit(&w->sent, n + 1, memory_order_release);
		if (o->duration_ns)
			now = clock_now_ns();
	}
	atomic_store_explicit(&w->done, 1, memory_order_release);
	return NULL;
}

/* The reader has every echo of what was written so far: 1 when the
 * writer is done too (the window is over), else 0 after waiting a little
 * for more (the writer runs by time: how many it sends is not known
 * before it stops). */
static int caught_up(struct client *cl, struct writer *w)
{
	if (atomic_load_explicit(&w->done, memory_order_acquire) &&
	    cl->messages == atomic_load_explicit(&w->sent, memory_order_acquire))
		return 1;
	if (!cl->c.busy) {
		struct pollfd p = { .fd = cl->c.fd, .events = POLLIN };
		poll(&p, 1, 1);
	}
	return 0;
}

/* Takes the whole replies at the front of buf (have bytes): each checked
 * and counted, the clock read once for the last.  Returns the bytes left
 * over, moved to the front. */
static size_t take_replies(struct client *cl, unsigned char *buf, size_t have)
{
	size_t off = 0;

	while (have - off >= cl->resplen) {
		memcpy(cl->resp, buf + off, cl->resplen);
		if (cl->ops->check_reply(cl, cl->o->warmup + cl->messages))
			cl->mismatches++;
		cl->messages++;
		off += cl->resplen;
	}
	if (off) {
		cl->end_ns = clock_now_ns();
		memmove(buf, buf + off, have - off);
	}
	return have - off;
}

/* The reader half, until every request written has its echo.  A count
 * of requests is known at the start, so the reader blocks in read() as
 * the source's does; by time, it reads only while echoes are owed.  0, or
 * -1 with cl->err set. */
static int reader_run(struct client *cl, struct writer *w, unsigned char *buf, size_t cap)
{
	const struct wopts *o = cl->o;
	size_t have = 0;

	for (;;) {
		uint64_t owed = o->duration_ns ? atomic_load_explicit(&w->sent, memory_order_acquire)
					       : o->count;
		if (atomic_load_explicit(&w->done, memory_order_acquire))
			owed = atomic_load_explicit(&w->sent, memory_order_acquire);
		if (cl->messages >= owed) {
			if (caught_up(cl, w))
				return 0;
			continue;
		}
		ssize_t n = o->t->recv_some(&cl->c, buf + have, cap - have);
		if (n == 0) {
			errno = have ? EPROTO : 0;
			return drive_error(cl, "receive", "receive from");
		}
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return drive_error(cl, "receive", "receive from");
		}
		have = take_replies(cl, buf, have + (size_t)n);
	}
}

static int pipeline_drive(struct client *cl)
{
	struct writer w = { .cl = cl };
	size_t cap = PIPELINE_READ_BYTES < cl->resplen ? cl->resplen : PIPELINE_READ_BYTES;
	unsigned char *buf = malloc(cap);
	pthread_t th;
	int rc;

	if (!buf) {
		errno = ENOMEM;
		return drive_error(cl, "setup", "memory for");
	}
	drive_window_start(cl);
	cl->end_ns = cl->start_ns;
	if ((rc = pthread_create(&th, NULL, writer_run, &w))) {
		free(buf);
		errno = rc;
		return drive_error(cl, "setup", "writer thread for");
	}
	rc = reader_run(cl, &w, buf, cap);
	if (rc < 0)
		shutdown(cl->c.wfd, SHUT_RDWR);	/* a writer blocked on a full buffer */
	pthread_join(th, NULL);
	cl->sent = atomic_load(&w.sent);
	free(buf);
	if (w.err) {	/* the cause, before what the reader saw after it */
		errno = w.err;
		return drive_error(cl, "send", "send to");
	}
	return rc;
}

static void pipeline_result(const struct client *cl, struct worker_result *r)
{
	r->messages = cl->messages;
	r->sent_messages = cl->sent;
	r->bytes = cl->messages * (cl->reqlen + cl->resplen);
	r->sent_bytes = cl->sent * cl->reqlen;
}

static void pipeline_client_line(const struct wopts *o, const struct worker_result *r)
{
	double secs = (double)(r->end_ns - r->start_ns) / 1e9;

	printf("client %u: %llu echoes of %llu requests sent back to back in %.3f s = %.0f msg/s\n",
	       o->id, (unsigned long long)r->messages, (unsigned long long)r->sent_messages, secs,
	       secs > 0 ? (double)r->messages / secs : 0);
}

const struct pattern_ops pattern_ops_pipeline = {
	.pattern = PAT_PIPELINE,
	.serve = pipeline_serve,
	.warmup = pipeline_warmup,
	.drive = pipeline_drive,
	.result = pipeline_result,
	.client_line = pipeline_client_line,
	.check_reply = rr_echo_mismatch,
};
