/* stream: one way.  The clients write messages of `size` bytes back to
 * back and close; the receiver (the server) only reads, counts whole
 * messages, and keeps a timeline of them per interval; the receiver times
 * the window (the pattern table, pattern.h).  Over a lossy transport every
 * datagram is looked at, and the duplicated and reordered ones counted.
 * Two settings change the system calls, not the counting (issue 29):
 * batch: N sends and receives datagrams N to a call (sendmmsg, recvmmsg:
 * transports/mmsg.h), zerocopy: true sends with MSG_ZEROCOPY from a pool
 * of buffers the kernel gives back (transports/zerocopy.h). */
#include "bidir.h"
#include "clock.h"
#include "drive.h"
#include "mmsg.h"
#include "pattern_ops.h"
#include "payload.h"
#include "seqwin.h"
#include "serve.h"
#include "timeline.h"
#include "transport.h"
#include "txcpu.h"
#include "zerocopy.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STREAM_READ_MIN (64u * 1024)

/* ---- batch: (issue 29): recvmmsg of up to o->batch messages a call ---- */

/* A receiver's batch (mb->n = 0 when batch: 1, nothing allocated), or -1
 * with j->err set. */
static int batch_setup(struct conn_job *j, struct mmsg_batch *mb)
{
	const struct wopts *o = j->srv->o;

	memset(mb, 0, sizeof(*mb));
	if (o->batch <= 1)
		return 0;
	if (mmsg_init(mb, o->batch, o->topts.size, NULL) == 0)
		return 0;
	snprintf(j->err, sizeof(j->err), "out of memory for a batch of %u", o->batch);
	j->stage = "memory";
	return -1;
}

/* A reliable datagram stream (unix_dgram) by batches: the bytes of the
 * next messages, as recv_some gives one's; 0 once the end-of-stream
 * message came (*ended), -1 with errno. */
static ssize_t batch_read(struct conn_job *j, struct mmsg_batch *mb, int *ended)
{
	ssize_t sum = 0;

	while (!sum && !*ended) {
		int got = mmsg_recv(&j->c, mb);
		if (got < 0)
			return -1;
		for (int i = 0; i < got && !*ended; i++) {
			int r = mmsg_result(mb, (unsigned)i);
			if (r < 0)
				return -1;
			*ended = r == 1;
			sum += r == 0 ? (ssize_t)mb->size : 0;
		}
	}
	return sum;
}

/* ---- the receivers ---- */

/* A reliable stream: read in chunks of at least STREAM_READ_MIN, whole
 * messages counted across reads once the warmup's bytes have passed. */
static void serve_reliable(struct conn_job *j)
{
	struct server *s = j->srv;
	const struct wopts *o = s->o;
	size_t size = o->topts.size;
	size_t cap = size > STREAM_READ_MIN ? size : STREAM_READ_MIN;
	unsigned char *buf = malloc(cap);
	uint64_t total = 0, warm = o->warmup * size * j->c.streams, timed_msgs = 0;
	/* bidir (h22): the reverse sender beside this loop (bidir.h) */
	struct bidir_tx tx = { .started = 0 };
	struct mmsg_batch mb;
	int ended = 0;

	if (!buf) {
		snprintf(j->err, sizeof(j->err), "out of memory");
		j->stage = "memory";
		return;
	}
	if (batch_setup(j, &mb) < 0) {
		free(buf);
		return;
	}
	if (o->bidir && bidir_tx_start(&tx, j) < 0) {
		mmsg_release(&mb);
		free(buf);
		return;
	}
	/* CPU per interval (h22): this thread's, at each interval's close */
	if (!o->totals)
		j->tl.cpu_clock = timeline_thread_cpu_ns;
	for (;;) {
		ssize_t n = mb.n ? batch_read(j, &mb, &ended) : o->t->recv_some(&j->c, buf, cap);
		if (n == 0)
			break;
		if (n < 0) {
			snprintf(j->err, sizeof(j->err), "receive from %s: %s", j->c.peer,
				 strerror(errno));
			j->stage = "receive";
			break;
		}
		/* a test aid, 0 unless asked: per whole message this read completed */
		clock_spin(o->spin_ns * ((total + (uint64_t)n) / size - total / size));
		total += (uint64_t)n;
		if (total <= warm)
			continue;
		uint64_t now = clock_now_ns();
		uint64_t msgs = (total - warm) / size;
		if (!j->first_ns) {
			j->first_ns = now;
			j->first_read_msgs = msgs;
		}
		if (msgs > timed_msgs) {
			if (!o->totals)	/* record: totals keeps no timeline */
				timeline_count(&j->tl, o->interval_ns, now, serve_t0(s, now),
					       msgs - timed_msgs, (msgs - timed_msgs) * size);
			timed_msgs = msgs;
			j->last_ns = now;
		}
	}
	timeline_cpu_close(&j->tl);	/* h22 */
	bidir_tx_stop(&tx, j);		/* h22: after the client's end of stream */
	if (!j->err[0] && total % size) {
		snprintf(j->err, sizeof(j->err), "stream from %s ended inside a message "
			 "(%llu bytes is not a whole number of %zu-byte messages)", j->c.peer,
			 (unsigned long long)total, size);
		j->stage = "receive";
	}
	j->messages = timed_msgs;
	j->bytes = timed_msgs * size;
	mmsg_release(&mb);
	free(buf);
}

/* One datagram of a lossy stream, its sequence number in buf: counted
 * once, past the warmup, its duplicates and reorders told apart. */
static void lossy_take(struct conn_job *j, struct seqwin *seen, const unsigned char *buf,
		       uint64_t *unique)
{
	struct server *s = j->srv;
	const struct wopts *o = s->o;
	size_t size = o->topts.size;

	clock_spin(o->spin_ns);	/* a test aid: 0 unless asked */
	uint64_t seq = read_seq(buf, size);
	if (seq < o->warmup)
		return;
	uint64_t now = clock_now_ns();
	enum seq_verdict v = seqwin_add(seen, seq - o->warmup);
	if (v == SEQ_DUPLICATE || v == SEQ_TOO_OLD) {	/* too old: seqwin.h */
		j->duplicated++;
		return;
	}
	j->reordered += v == SEQ_REORDERED;
	if (!j->first_ns) {
		j->first_ns = now;
		j->first_read_msgs = 1;
	}
	(*unique)++;
	if (!o->totals)	/* record: totals keeps no timeline */
		timeline_count(&j->tl, o->interval_ns, now, serve_t0(s, now), 1, size);
	j->last_ns = now;
}

/* The next datagrams of a lossy stream into seen: one (recv), or a batch
 * (recvmmsg).  As recv: 0, 1 at the end-of-stream message, -1 with errno. */
static int lossy_receive(struct conn_job *j, struct mmsg_batch *mb, unsigned char *buf,
			 struct seqwin *seen, uint64_t *unique)
{
	const struct wopts *o = j->srv->o;

	if (!mb->n) {
		int rc = o->t->recv(&j->c, buf, o->topts.size);
		if (rc == 0)
			lossy_take(j, seen, buf, unique);
		return rc;
	}
	int got = mmsg_recv(&j->c, mb);
	for (int i = 0; i < got; i++) {
		int r = mmsg_result(mb, (unsigned)i);
		if (r < 0 || r == 1)
			return r;
		if (r == 0)
			lossy_take(j, seen, mmsg_buf(mb, (unsigned)i), unique);
	}
	return got < 0 ? -1 : 0;
}

/* Datagrams may be lost, duplicated or reordered: every message is
 * looked at, and a window of the sequence numbers seen tells them apart
 * (seqwin.h: bounded memory, whatever the count). */
static void serve_lossy(struct conn_job *j)
{
	struct server *s = j->srv;
	const struct wopts *o = s->o;
	unsigned char *buf = malloc(o->topts.size);
	uint64_t unique = 0, last_rx = clock_now_ns();
	struct seqwin seen;
	struct mmsg_batch mb;

	if (seqwin_init(&seen) < 0 || !buf) {
		seqwin_release(&seen);
		free(buf);
		snprintf(j->err, sizeof(j->err), "out of memory");
		j->stage = "memory";
		return;
	}
	/* CPU per interval (h22): this thread's, at each interval's close */
	if (!o->totals)
		j->tl.cpu_clock = timeline_thread_cpu_ns;
	if (batch_setup(j, &mb) < 0)
		goto out;
	for (;;) {
		int rc = lossy_receive(j, &mb, buf, &seen, &unique);
		if (rc == 1)
			break;
		if (rc < 0 && errno == EAGAIN) {
			if (serve_lossy_quiet(s, last_rx))
				break;	/* the end marker was lost */
			continue;
		}
		if (rc < 0 && errno == ECONNREFUSED)
			break;	/* the sender is gone */
		if (rc < 0) {
			snprintf(j->err, sizeof(j->err), "receive from %s: %s", j->c.peer,
				 strerror(errno));
			j->stage = "receive";
			break;
		}
		last_rx = clock_now_ns();
	}
	timeline_cpu_close(&j->tl);	/* h22 */
	j->messages = unique;
	j->bytes = unique * o->topts.size;
out:
	mmsg_release(&mb);
	seqwin_release(&seen);
	free(buf);
}

/* A connection's messages: every datagram looked at when they may be
 * lost, else counted in chunks. */
static void stream_serve(struct conn_job *j)
{
	if (j->srv->o->t->lossy)
		serve_lossy(j);
	else
		serve_reliable(j);
}

/* By hand there is no start signal and no senders' start: a stream's rate
 * runs from the end of the receiver's first read to its last, so the
 * messages of that first read (maybe a backlog) are left out of it. */
static void stream_server_line(const struct wopts *o, const struct worker_result *r,
			       uint64_t first_read_msgs, double secs)
{
	double inside = (double)(r->messages - first_read_msgs);

	printf(" = %.0f msg/s, %.2f MiB/s at the receiver (from its first read to its "
	       "last, without the %llu messages of the first)", inside / secs,
	       inside * (double)o->topts.size / secs / 1048576.0,
	       (unsigned long long)first_read_msgs);
}

/* ---- the senders ---- */

/* zerocopy: and batch: (issue 29): a sender's state beside its request
 * buffer, made by the warmup (cl->sender; NULL when neither is asked):
 * the zero-copy pool (each message from a buffer the kernel has given
 * back, zerocopy.h), or the batch (k messages, each stamped with its own
 * sequence number, one sendmmsg, mmsg.h). */
struct stream_sender {
	int zerocopy;
	struct zc_sender zc;
	struct mmsg_batch mb;	/* mb.n > 1: batch */
};

static int sender_setup(struct client *cl)
{
	const struct wopts *o = cl->o;
	struct stream_sender *ss;

	if (!o->zerocopy && o->batch <= 1)
		return 0;
	if (!(ss = calloc(1, sizeof(*ss)))) {
		snprintf(cl->err, sizeof(cl->err), "out of memory");
		cl->stage = "memory";
		return -1;
	}
	cl->sender = ss;
	ss->zerocopy = o->zerocopy;
	if (o->zerocopy && zc_sender_init(&ss->zc, cl->c.wfd, cl->c.busy, cl->reqlen, cl->req,
					  cl->err, sizeof(cl->err)) < 0) {
		cl->stage = "zerocopy";
		return -1;
	}
	if (!o->zerocopy && mmsg_init(&ss->mb, o->batch, cl->reqlen, cl->req) < 0) {
		snprintf(cl->err, sizeof(cl->err), "out of memory for a batch of %u", o->batch);
		cl->stage = "memory";
		return -1;
	}
	return 0;
}

static void stream_release(struct client *cl)
{
	struct stream_sender *ss = cl->sender;

	if (!ss)
		return;
	zc_sender_release(&ss->zc);
	mmsg_release(&ss->mb);
	free(ss);
	cl->sender = NULL;
}

/* Message seq: from the request buffer, or zerocopy: from the next buffer
 * of the pool once it is free.  0, or -1 with errno. */
static inline int send_one(struct client *cl, uint64_t seq)
{
	struct stream_sender *ss = cl->sender;

	if (ss && ss->zerocopy) {
		unsigned char *b = zc_acquire(&ss->zc);
		if (!b)
			return -1;
		stamp_seq(b, cl->reqlen, seq);
		return zc_send(&ss->zc, cl->reqlen);
	}
	stamp_seq(cl->req, cl->reqlen, seq);
	return cl->o->t->send(&cl->c, cl->req, cl->reqlen);
}

/* batch: messages n.. of the window k at a time (fewer at its end), in
 * one sendmmsg each; paced, a batch goes once its last message is due. */
static int stream_send_batch(struct client *cl, struct mmsg_batch *mb)
{
	const struct wopts *o = cl->o;
	uint64_t n = 0, now = drive_window_start(cl);

	while (!drive_done(cl, n, now)) {
		unsigned k = 1;
		while (k < mb->n && !drive_done(cl, n + k, now))
			k++;
		for (unsigned i = 0; i < k; i++)
			stamp_seq(mmsg_buf(mb, i), cl->reqlen, o->warmup + n + i);
		if (o->rate) {
			pace_wait(&cl->pace, n + k - 1);
			if (o->duration_ns)
				now = clock_now_ns();
		}
		if (o->duration_ns)
			cl->last_send_ns = now;
		else if (n + k == o->count)
			cl->last_send_ns = clock_now_ns();
		if (mmsg_send(&cl->c, mb, k) < 0)
			return drive_error(cl, "send", "send to");
		n += k;
		if (o->duration_ns)
			now = clock_now_ns();
	}
	cl->end_ns = clock_now_ns();
	cl->sent = n;
	return 0;
}


/* The window's sends: one at a time (zerocopy: from the pool), or in
 * batches.  0, or -1 with cl->err set. */
static int stream_send_loop(struct client *cl)
{
	const struct wopts *o = cl->o;
	struct stream_sender *ss = cl->sender;
	uint64_t n = 0, now;

	if (ss && ss->mb.n > 1)
		return stream_send_batch(cl, &ss->mb);
	now = drive_window_start(cl);
	while (!drive_done(cl, n, now)) {
		if (o->rate) {	/* paced: each message once it is due */
			pace_wait(&cl->pace, n);
			if (o->duration_ns)
				now = clock_now_ns();
		}
		/* by time, `now` was read after the send (or the wait) before;
		 * by count, one clock read before the last send */
		if (o->duration_ns)
			cl->last_send_ns = now;
		else if (n + 1 == o->count)
			cl->last_send_ns = clock_now_ns();
		if (send_one(cl, o->warmup + n) < 0)
			return drive_error(cl, "send", "send to");
		n++;
		if (o->duration_ns)
			now = clock_now_ns();
	}
	/* zerocopy: the window ends when the kernel has given every buffer back */
	if (ss && ss->zerocopy && zc_drain(&ss->zc) < 0)
		return drive_error(cl, "send", "zero-copy completions from");
	cl->end_ns = clock_now_ns();
	cl->sent = n;
	return 0;
}

/* h22: the sends with their CPU per interval sampled beside them
 * (txcpu.h; none with record: totals, or when no sampler starts). */
static int stream_send_sampled(struct client *cl)
{
	struct txcpu tc;
	int sampled = !cl->o->totals && txcpu_start(&tc, cl->o->interval_ns, clock_now_ns()) == 0;
	int rc = stream_send_loop(cl);

	if (sampled) {
		txcpu_stop(&tc);
		cl->tx_cpu = tc.tl;
		cl->tx_cpu.cpu_clock = NULL;
		cl->tx_cpu.cpu_ctx = NULL;
	}
	return rc;
}

/* bidir (h22): the reverse receiver (bidir.h) beside the sends; its end
 * after theirs, the sends' failure first. */
static int stream_send(struct client *cl)
{
	struct bidir_rx rx = { .started = 0 };

	if (!cl->o->bidir)
		return stream_send_sampled(cl);
	if (bidir_rx_start(&rx, cl) < 0)
		return -1;
	int rc = stream_send_sampled(cl);
	char err[sizeof(cl->err)];
	const char *stage = cl->stage;
	memcpy(err, cl->err, sizeof(err));
	if (bidir_rx_finish(&rx, cl) < 0 && !rc)
		return -1;
	if (rc) {	/* the sends' failure, not the receiver's after it */
		memcpy(cl->err, err, sizeof(err));
		cl->stage = stage;
	}
	return rc;
}


static int stream_warmup(struct client *cl)
{
	struct stream_sender *ss;
	uint64_t warmup = cl->o->warmup;

	if (sender_setup(cl) < 0)
		return -1;
	ss = cl->sender;
	for (uint64_t i = 0; ss && ss->mb.n > 1 && i < warmup; i += ss->mb.n) {
		unsigned k = warmup - i < ss->mb.n ? (unsigned)(warmup - i) : ss->mb.n;
		for (unsigned m = 0; m < k; m++)
			stamp_seq(mmsg_buf(&ss->mb, m), cl->reqlen, i + m);
		if (mmsg_send(&cl->c, &ss->mb, k) < 0)
			return drive_error(cl, "send", "warmup send to");
	}
	for (uint64_t i = 0; !(ss && ss->mb.n > 1) && i < warmup; i++)
		if (send_one(cl, i) < 0)
			return drive_error(cl, "send", "warmup send to");
	/* zerocopy: the window counts its own sends and completions */
	if (ss && ss->zerocopy && zc_drain(&ss->zc) < 0)
		return drive_error(cl, "send", "warmup zero-copy completions from");
	if (ss && ss->zerocopy)
		zc_counters_reset(&ss->zc);
	return 0;
}

static void stream_result(const struct client *cl, struct worker_result *r)
{
	const struct stream_sender *ss = cl->sender;

	r->sent_messages = cl->sent;
	r->sent_bytes = cl->sent * cl->reqlen;
	r->last_send_ns = cl->last_send_ns;
	if (cl->tx_cpu.has_cpu) {	/* h22: the sender's CPU per interval */
		r->tl_messages = cl->tx_cpu.msgs;
		r->tl_bytes = cl->tx_cpu.bytes;
		r->tl_cpu_ns = cl->tx_cpu.cpu;
		r->tl_len = cl->tx_cpu.len;
		r->tl_has_cpu = 1;
		r->tl_interval_ns = cl->tx_cpu.interval_ns;
	}
	if (cl->o->bidir) {	/* h22: the reverse direction, counted here */
		r->has_reverse = 1;
		r->rev_messages = cl->rev_messages;
		r->rev_bytes = cl->rev_messages * cl->reqlen;
		r->rev_end_ns = cl->rev_end_ns;
	}
	if (ss && ss->zerocopy) {
		r->zc_sends = ss->zc.sends;
		r->zc_completions = ss->zc.completions;
		r->zc_copied = ss->zc.copied;
	}
}

static void stream_client_line(const struct wopts *o, const struct worker_result *r)
{
	double secs = (double)(r->end_ns - r->start_ns) / 1e9;

	printf("client %u: sent %llu messages of %llu bytes in %.3f s = %.0f msg/s, "
	       "%.2f MiB/s at the sender\n", o->id, (unsigned long long)r->sent_messages,
	       (unsigned long long)o->topts.size, secs,
	       secs > 0 ? (double)r->sent_messages / secs : 0,
	       secs > 0 ? (double)r->sent_bytes / secs / 1048576.0 : 0);
}

const struct pattern_ops pattern_ops_stream = {
	.pattern = PAT_STREAM,
	.serve = stream_serve,
	.warmup = stream_warmup,
	.drive = stream_send,
	.result = stream_result,
	.client_line = stream_client_line,
	.server_line = stream_server_line,
	.release = stream_release,
};
