/* Request and response, the loops of pingpong and echo: the server's
 * answers, and the client's round trips (serial, pipelined, windowed),
 * their timing and their figures.  See rr.h, payload.h for the bytes. */
#include "rr.h"
#include "clock.h"
#include "fdio.h"
#include "hist.h"
#include "pace.h"
#include "pattern.h"
#include "pattern_ops.h"
#include "payload.h"
#include "transport.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A byte stream of descriptors (tcp, unix, pipe: fdio.h), never lossy,
 * on a connection without an io_uring (poll: uring's transfers must go
 * through fdio's ring, which the inline calls skip): its loops call fdio
 * inline, not through the ops table. */
static int rr_fd_stream(const struct transport *t, const struct conn *c)
{
	return t->send == fd_send_all && t->recv == fd_recv_all && !t->lossy && !c->ring;
}

/* The reply carries the request's number: its first seqlen bytes. */
static inline void copy_seq(unsigned char *out, const unsigned char *in, size_t seqlen)
{
	if (seqlen == 8)
		memcpy(out, in, 8);
	else
		memcpy(out, in, seqlen);
}

/* rr_serve's loop over a byte stream (rr_fd_stream): receive, answer,
 * count, until the peer ends the connection. */
static void serve_fd_stream(struct conn_job *j, unsigned char *in, size_t req,
			    unsigned char *out, size_t resp, size_t seqlen,
			    const unsigned char *reply)
{
	const struct wopts *o = j->srv->o;
	struct conn *c = &j->c;
	uint64_t spin = o->spin_ns, warm = o->warmup * c->streams, n = 0;
	int rc;

	while ((rc = fd_recv_all_inline(c, in, req)) == 0) {
		if (spin)
			clock_spin(spin);	/* a test aid: 0 unless asked */
		if (reply == out)	/* pingpong; an echo's reply is the request */
			copy_seq(out, in, seqlen);
		if (fd_send_all_inline(c, reply, resp) < 0) {
			snprintf(j->err, sizeof(j->err), "send to %s: %s", c->peer, strerror(errno));
			j->stage = "send";
			break;
		}
		n++;
	}
	if (rc < 0) {
		snprintf(j->err, sizeof(j->err), "receive from %s: %s", c->peer,
			 errno == EPROTO ? "stream ended inside a message" : strerror(errno));
		j->stage = "receive";
	}
	j->messages = n > warm ? n - warm : 0;
	j->bytes = j->messages * (req + resp);
}

void rr_serve(struct conn_job *j)
{
	const struct wopts *o = j->srv->o;
	const struct transport *t = o->t;
	const struct pattern_info *pi = pattern_info(o->pattern);
	size_t req = o->topts.size;
	size_t resp = pattern_reply_size(pi, req, o->topts.response_size);
	unsigned char *in = malloc(req), *out = malloc(resp);
	/* the answer: the request itself (echo), or the server's own bytes */
	const unsigned char *reply = pi->reply == PATTERN_REPLY_REQUEST ? in : out;
	uint64_t n = 0;

	if (!in || !out) {
		snprintf(j->err, sizeof(j->err), "out of memory for %zu-byte messages", req);
		j->stage = "memory";
		goto out;
	}
	payload_fill(out, resp);
	size_t seqlen = req < resp ? req : resp;
	uint64_t last_rx = clock_now_ns();
	if (seqlen > 8)
		seqlen = 8;
	if (rr_fd_stream(t, &j->c)) {
		serve_fd_stream(j, in, req, out, resp, seqlen, reply);
		goto out;
	}
	for (;;) {
		int rc = t->recv(&j->c, in, req);
		if (rc == 1)
			break;
		if (rc < 0 && errno == EAGAIN && t->lossy) {
			if (serve_lossy_quiet(j->srv, last_rx))
				break;	/* its end marker was lost */
			continue;
		}
		if (rc < 0 && errno == ECONNREFUSED && t->lossy)
			break;	/* a datagram peer that is gone: a reply of ours bounced */
		if (t->lossy)
			last_rx = clock_now_ns();
		if (rc < 0) {
			snprintf(j->err, sizeof(j->err), "receive from %s: %s", j->c.peer,
				 errno == EPROTO ? "stream ended inside a message" : strerror(errno));
			j->stage = "receive";
			break;
		}
		clock_spin(o->spin_ns);		/* a test aid: 0 unless asked */
		memcpy(out, in, seqlen);	/* the reply carries the request's number */
		if (t->send(&j->c, reply, resp) < 0) {
			snprintf(j->err, sizeof(j->err), "send to %s: %s", j->c.peer, strerror(errno));
			j->stage = "send";
			break;
		}
		/* lossy: a lost warmup request must not shift the count */
		if (t->lossy ? read_seq(in, req) >= o->warmup : ++n > o->warmup * j->c.streams) {
			j->messages++;
			j->bytes += req + resp;
		}
	}
out:
	free(in);
	free(out);
}

/* One request, one response: 0 with its RTT, 1 when a lossy transport
 * lost it (no reply in time; nothing is resent), -1 with cl->err set.
 * A lossy transport's recv gives up by itself once loss_timeout has passed
 * (its receive timeout, set at connect), so a round trip is one send and
 * one receive on every transport.  Only when a late reply to an earlier,
 * given-up request comes first is the next wait cut to what is left of
 * this request's loss_timeout, and set back after: the reply is lost once
 * loss_timeout has passed since the request left, however many late
 * replies came meanwhile.  The kernel counts a receive timeout in timer
 * ticks, so the wait may end a little after loss_timeout; a reply in that
 * margin is lost too.  A paced request's RTT counts from due, when it was
 * scheduled to go (0: from its send). */
static int round_trip(struct client *cl, uint64_t seq, uint64_t due, uint64_t *rtt)
{
	const struct transport *t = cl->o->t;
	uint64_t t0, now, limit = cl->o->loss_timeout_ns;
	int rc, lost = 0, cut = 0;

	stamp_seq(cl->req, cl->reqlen, seq);
	t0 = clock_now_ns();
	if (t->send(&cl->c, cl->req, cl->reqlen) < 0)
		return drive_error(cl, "send", "send to");
	for (;;) {
		rc = t->recv(&cl->c, cl->resp, cl->resplen);
		now = clock_now_ns();
		if (rc < 0 && errno == EAGAIN && t->lossy) {
			lost = 1;
			break;
		}
		if (rc) {
			if (rc == 1)
				errno = 0;
			return drive_error(cl, "receive", "receive from");
		}
		if (!t->lossy || read_seq(cl->resp, cl->resplen < 8 ? cl->resplen : 8) >= seq) {
			lost = t->lossy && now - t0 > limit;	/* the timeout ran over */
			break;
		}
		/* a late reply to an earlier, given-up request: not this one */
		if (now - t0 >= limit) {
			lost = 1;
			break;
		}
		if (t->set_recv_timeout(&cl->c, t0 + limit - now) < 0)
			return drive_error(cl, "receive", "receive timeout for");
		cut = 1;
	}
	if (cut && t->set_recv_timeout(&cl->c, limit) < 0)
		return drive_error(cl, "receive", "receive timeout for");
	if (lost) {
		cl->lost++;
		return 1;
	}
	*rtt = now - (due ? due : t0);
	if (cl->ops->check_reply && cl->ops->check_reply(cl, seq))
		cl->mismatches++;
	return 0;
}

/* One round trip's time, into the histogram or (record: totals) its totals. */
static void record_rtt(struct client *cl, uint64_t ns)
{
	if (cl->o->totals)
		hist_record_totals(cl->hist, ns);
	else
		hist_record(cl->hist, ns);
}

/* rr_serial over a byte stream (rr_fd_stream), unpaced: each round trip
 * timed from just before its send to just after its reply, and the end
 * of one is the reading the window's end is judged by. */
static int rr_serial_fd_stream(struct client *cl)
{
	struct conn *c = &cl->c;
	struct hist *h = cl->hist;
	int totals = cl->o->totals;
	int (*check)(const struct client *, uint64_t) = cl->ops->check_reply;
	uint64_t t0, now = drive_window_start(cl);

	for (uint64_t seq = cl->o->warmup; !drive_done(cl, cl->messages, now); seq++) {
		stamp_seq(cl->req, cl->reqlen, seq);
		t0 = clock_now_ns();
		if (fd_send_all_inline(c, cl->req, cl->reqlen) < 0)
			return drive_error(cl, "send", "send to");
		int rc = fd_recv_all_inline(c, cl->resp, cl->resplen);
		now = clock_now_ns();
		if (rc) {
			if (rc == 1)
				errno = 0;
			return drive_error(cl, "receive", "receive from");
		}
		if (totals)
			hist_record_totals(h, now - t0);
		else
			hist_record(h, now - t0);
		if (check && check(cl, seq))
			cl->mismatches++;
		cl->messages++;
	}
	cl->end_ns = now;
	return 0;
}

static int rr_serial(struct client *cl)
{
	const struct wopts *o = cl->o;
	uint64_t rtt, now;

	if (!o->rate && rr_fd_stream(o->t, &cl->c))
		return rr_serial_fd_stream(cl);
	now = drive_window_start(cl);

	for (uint64_t seq = o->warmup; !drive_done(cl, cl->messages + cl->lost, now); seq++) {
		uint64_t due = o->rate ? pace_wait(&cl->pace, cl->messages + cl->lost) : 0;
		int rc = round_trip(cl, seq, due, &rtt);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			record_rtt(cl, rtt);
			cl->messages++;
		}
		now = clock_now_ns();
	}
	cl->end_ns = now;
	return 0;
}

/* inflight > 1: the connection's descriptor non-blocking, driven by poll
 * (busy: by a spin of reads and writes, no poll), up to `inflight`
 * requests written ahead of their responses.  Responses
 * come back in order, so request i's start time is t_start[i % inflight].
 * A request's clock starts at the first try to write it: time spent
 * waiting for room in the send buffer is part of its round trip.  Paced,
 * a request goes once it is due and the window has room, and its clock
 * starts when it was due. */
struct pipeline {
	uint64_t *t_start;
	uint64_t sent, recvd, seq0;
	uint64_t started;	/* requests whose clock runs: sent, or sent + 1 */
	uint64_t next_due;	/* paced: the next request is not due before this */
	size_t woff, roff;	/* bytes done of the request, of the response */
	int stop_sending;
};

/* Writes requests while fewer than `inflight` are outstanding and the
 * descriptor takes them: 1 when some bytes went out, 0 when none did, -1
 * with cl->err set. */
static int pipeline_send(struct client *cl, struct pipeline *pl)
{
	const struct wopts *o = cl->o;
	int progress = 0;

	pl->next_due = 0;
	while (!pl->stop_sending && pl->sent - pl->recvd < o->inflight) {
		if (pl->started == pl->sent) {	/* not on a retry after EAGAIN */
			uint64_t now = clock_now_ns(), due = pace_due(&cl->pace, pl->sent);
			if (o->rate && due > now) {
				pl->next_due = due;
				break;
			}
			stamp_seq(cl->req, cl->reqlen, pl->seq0 + pl->sent);
			pl->t_start[pl->sent % o->inflight] = o->rate ? due : now;
			pl->started++;
		}
		ssize_t n = write(cl->c.wfd, cl->req + pl->woff, cl->reqlen - pl->woff);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			return drive_error(cl, "send", "send to");
		}
		progress = 1;
		pl->woff += (size_t)n;
		if (pl->woff == cl->reqlen) {
			pl->woff = 0;
			pl->sent++;
			if (drive_done(cl, pl->sent, clock_now_ns()))
				pl->stop_sending = 1;
		}
	}
	return progress;
}

/* Reads what has come of the next response, and times it once it is
 * whole: 1 when some bytes came, 0 when none did, -1 with cl->err set. */
static int pipeline_recv(struct client *cl, struct pipeline *pl)
{
	const struct wopts *o = cl->o;
	ssize_t n = read(cl->c.fd, cl->resp + pl->roff, cl->resplen - pl->roff);

	if (n == 0) {
		errno = pl->roff ? EPROTO : 0;
		return drive_error(cl, "receive", "receive from");
	}
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return drive_error(cl, "receive", "receive from");
	if (n < 0)
		return 0;
	pl->roff += (size_t)n;
	if (pl->roff == cl->resplen) {
		uint64_t now = clock_now_ns();
		record_rtt(cl, now - pl->t_start[pl->recvd % o->inflight]);
		if (cl->ops->check_reply && cl->ops->check_reply(cl, pl->seq0 + pl->recvd))
			cl->mismatches++;
		pl->recvd++;
		pl->roff = 0;
		cl->end_ns = now;
	}
	return 1;
}

/* Nothing moved: waits until a response can be read, or a request written
 * when another may go (paced: until the next one is due, at the latest).
 * 0, or -1 with cl->err set. */
static int pipeline_wait(struct client *cl, const struct pipeline *pl)
{
	int fd = cl->c.fd, wfd = cl->c.wfd;
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = -1 } };
	struct timespec ts, *until = NULL;

	if (pl->next_due) {
		uint64_t now = clock_now_ns(), left = pl->next_due > now ? pl->next_due - now : 0;
		ts = (struct timespec){ .tv_sec = (time_t)(left / 1000000000u),
					.tv_nsec = (long)(left % 1000000000u) };
		until = &ts;
	} else if (!pl->stop_sending && pl->sent - pl->recvd < cl->o->inflight) {
		if (wfd == fd)
			p[0].events |= POLLOUT;
		else
			p[1] = (struct pollfd){ .fd = wfd, .events = POLLOUT };
	}
	if (ppoll(p, 2, until, NULL) < 0 && errno != EINTR)
		return drive_error(cl, "poll", "poll");
	return 0;
}

static int rr_pipelined(struct client *cl)
{
	const struct wopts *o = cl->o;
	int fd = cl->c.fd, wfd = cl->c.wfd;
	struct pipeline pl = { .t_start = calloc(o->inflight, sizeof(*pl.t_start)),
			       .seq0 = o->warmup };
	uint64_t now;
	int rc = -1;

	if (!pl.t_start || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0 ||
	    fcntl(wfd, F_SETFL, fcntl(wfd, F_GETFL) | O_NONBLOCK) < 0) {
		free(pl.t_start);
		return drive_error(cl, "setup", "non-blocking");
	}
	now = drive_window_start(cl);
	for (;;) {
		/* stop only between requests: a half-written one is finished */
		if (!pl.stop_sending && pl.woff == 0 && drive_done(cl, pl.sent, now))
			pl.stop_sending = 1;
		int wrote = pipeline_send(cl, &pl);
		if (wrote < 0)
			goto out;
		if (pl.stop_sending && pl.recvd == pl.sent)
			break;
		int got = pipeline_recv(cl, &pl);
		if (got < 0)
			goto out;
		if (!wrote && !got && !cl->c.busy && pipeline_wait(cl, &pl) < 0)
			goto out;	/* busy: straight on, a spin */
		now = clock_now_ns();
	}
	cl->messages = pl.recvd;
	rc = 0;
out:
	free(pl.t_start);
	return rc;
}

/* inflight > 1 over a transport without a descriptor (zmq DEALER): its
 * sends queue without blocking, so `inflight` requests go out first, then
 * each response read lets the next request go.  A send that does wait
 * (the high-water mark) waits inside t->send, after the clock started.
 * Paced, a request not yet due waits for it when no response is awaited;
 * else the next response is read first, and a request that falls due
 * meanwhile goes after it (its clock started when it was due). */
static int rr_windowed(struct client *cl)
{
	const struct wopts *o = cl->o;
	const struct transport *t = o->t;
	uint64_t *t_start = calloc(o->inflight, sizeof(*t_start));
	uint64_t sent = 0, recvd = 0, now, seq0 = o->warmup;
	int rc = -1;

	if (!t_start)
		return drive_error(cl, "setup", "memory for");
	now = drive_window_start(cl);
	for (;;) {
		while (sent - recvd < o->inflight && !drive_done(cl, sent, now)) {
			uint64_t due = pace_due(&cl->pace, sent);
			if (o->rate && due > now && recvd < sent)
				break;	/* a response may come first */
			if (o->rate) {
				pace_wait(&cl->pace, sent);
				now = clock_now_ns();
			}
			stamp_seq(cl->req, cl->reqlen, seq0 + sent);
			t_start[sent % o->inflight] = o->rate ? due : clock_now_ns();
			if (t->send(&cl->c, cl->req, cl->reqlen) < 0) {
				drive_error(cl, "send", "send to");
				goto out;
			}
			sent++;
		}
		if (recvd == sent)
			break;
		int r = t->recv(&cl->c, cl->resp, cl->resplen);
		if (r) {
			if (r == 1)
				errno = 0;
			drive_error(cl, "receive", "receive from");
			goto out;
		}
		now = clock_now_ns();
		record_rtt(cl, now - t_start[recvd % o->inflight]);
		if (cl->ops->check_reply && cl->ops->check_reply(cl, seq0 + recvd))
			cl->mismatches++;
		recvd++;
		cl->end_ns = now;
	}
	cl->messages = recvd;
	rc = 0;
out:
	free(t_start);
	return rc;
}

int rr_drive(struct client *cl)
{
	return cl->o->inflight <= 1 ? rr_serial(cl)
	       : cl->c.fd >= 0 ? rr_pipelined(cl) : rr_windowed(cl);
}

int rr_warmup(struct client *cl)
{
	uint64_t rtt;

	for (uint64_t i = 0; i < cl->o->warmup; i++)
		if (round_trip(cl, i, 0, &rtt) < 0)
			return -1;
	return 0;
}

void rr_result(const struct client *cl, struct worker_result *r)
{
	r->messages = cl->messages;
	r->sent_messages = cl->messages + cl->lost;	/* requests that went out */
	r->bytes = cl->messages * (cl->reqlen + cl->resplen);
	r->sent_bytes = cl->messages * cl->reqlen;
	r->hist = cl->hist;
}

int rr_echo_mismatch(const struct client *cl, uint64_t seq)
{
	const unsigned char *got = cl->resp;
	size_t len = cl->resplen, head = len < 8 ? len : 8;
	uint64_t mask = head == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * head)) - 1;

	if (read_seq(got, head) != (seq & mask))
		return 1;
	return memcmp(got + head, cl->pattern + head, len - head) != 0;
}

void rr_client_line(const struct wopts *o, const struct worker_result *r)
{
	double secs = (double)(r->end_ns - r->start_ns) / 1e9;
	char p50[32] = "-", p99[32] = "-";	/* record: totals keeps no percentiles */

	if (!r->hist->totals) {
		snprintf(p50, sizeof(p50), "%.2f us", (double)hist_percentile(r->hist, 0.50) / 1e3);
		snprintf(p99, sizeof(p99), "%.2f us", (double)hist_percentile(r->hist, 0.99) / 1e3);
	}
	printf("client %u: %llu round trips in %.3f s = %.0f msg/s; rtt mean %.2f us, "
	       "p50 %s, p99 %s, max %.2f us\n", o->id, (unsigned long long)r->messages, secs,
	       secs > 0 ? (double)r->messages / secs : 0, hist_mean(r->hist) / 1e3, p50, p99,
	       (double)r->hist->max / 1e3);
}
