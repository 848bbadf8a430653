/* The client: warmup, the timed loop of each pattern (serial, pipelined
 * or windowed pingpong; stream), its timing and its result record.  See
 * client.h for what it does, payload.h for the bytes and wire.h for the
 * record. */
#include "client.h"
#include "clock.h"
#include "hist.h"
#include "matrix.h"
#include "pace.h"
#include "payload.h"
#include "procinfo.h"
#include "transport.h"
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct client {
	const struct wopts *o;
	struct conn c;
	unsigned char *req, *resp, *pattern;
	size_t reqlen, resplen;
	struct hist *hist;
	struct pace pace;	/* rate: the schedule; its start is start_ns */
	uint64_t messages, mismatches, start_ns, end_ns;
	uint64_t last_send_ns;	/* stream: just before the last send began */
	uint64_t lost;		/* lossy transports: requests with no reply in time */
	char err[512];
	const char *stage;
};

static int client_error(struct client *cl, const char *stage, const char *what)
{
	snprintf(cl->err, sizeof(cl->err), "%s %s: %s", what, cl->c.peer,
		 errno == EPROTO ? "connection closed inside a message" :
		 errno == 0 ? "connection closed by the server" : strerror(errno));
	cl->stage = stage;
	return -1;
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
		return client_error(cl, "send", "send to");
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
			return client_error(cl, "receive", "receive from");
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
			return client_error(cl, "receive", "receive timeout for");
		cut = 1;
	}
	if (cut && t->set_recv_timeout(&cl->c, limit) < 0)
		return client_error(cl, "receive", "receive timeout for");
	if (lost) {
		cl->lost++;
		return 1;
	}
	*rtt = now - (due ? due : t0);
	if (cl->o->pattern == PAT_ECHO && echo_mismatch(cl->resp, cl->pattern, cl->resplen, seq))
		cl->mismatches++;
	return 0;
}

/* Has the window ended before message n (0-based)?  By count, or by
 * time: paced, also when message n would be due after the window (a
 * schedule not kept by then is not sent: msgs_per_s shows it). */
static int done(const struct client *cl, uint64_t n, uint64_t now)
{
	const struct wopts *o = cl->o;

	if (!o->duration_ns)
		return n >= o->count;
	return now - cl->start_ns >= o->duration_ns ||
	       (o->rate && pace_due(&cl->pace, n) - cl->start_ns >= o->duration_ns);
}

/* The timed window starts now: its start, and the schedule's. */
static uint64_t window_start(struct client *cl)
{
	cl->start_ns = cl->pace.start_ns = clock_now_ns();
	return cl->start_ns;
}

/* One round trip's time, into the histogram or (record: totals) its totals. */
static void record_rtt(struct client *cl, uint64_t ns)
{
	if (cl->o->totals)
		hist_record_totals(cl->hist, ns);
	else
		hist_record(cl->hist, ns);
}

static int pingpong_serial(struct client *cl)
{
	const struct wopts *o = cl->o;
	uint64_t rtt, now = window_start(cl);

	for (uint64_t seq = o->warmup; !done(cl, cl->messages + cl->lost, now); seq++) {
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
			return client_error(cl, "send", "send to");
		}
		progress = 1;
		pl->woff += (size_t)n;
		if (pl->woff == cl->reqlen) {
			pl->woff = 0;
			pl->sent++;
			if (done(cl, pl->sent, clock_now_ns()))
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
		return client_error(cl, "receive", "receive from");
	}
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return client_error(cl, "receive", "receive from");
	if (n < 0)
		return 0;
	pl->roff += (size_t)n;
	if (pl->roff == cl->resplen) {
		uint64_t now = clock_now_ns();
		record_rtt(cl, now - pl->t_start[pl->recvd % o->inflight]);
		if (o->pattern == PAT_ECHO &&
		    echo_mismatch(cl->resp, cl->pattern, cl->resplen, pl->seq0 + pl->recvd))
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
		return client_error(cl, "poll", "poll");
	return 0;
}

static int pingpong_pipelined(struct client *cl)
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
		return client_error(cl, "setup", "non-blocking");
	}
	now = window_start(cl);
	for (;;) {
		/* stop only between requests: a half-written one is finished */
		if (!pl.stop_sending && pl.woff == 0 && done(cl, pl.sent, now))
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
static int pingpong_window(struct client *cl)
{
	const struct wopts *o = cl->o;
	const struct transport *t = o->t;
	uint64_t *t_start = calloc(o->inflight, sizeof(*t_start));
	uint64_t sent = 0, recvd = 0, now, seq0 = o->warmup;
	int rc = -1;

	if (!t_start)
		return client_error(cl, "setup", "memory for");
	now = window_start(cl);
	for (;;) {
		while (sent - recvd < o->inflight && !done(cl, sent, now)) {
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
				client_error(cl, "send", "send to");
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
			client_error(cl, "receive", "receive from");
			goto out;
		}
		now = clock_now_ns();
		record_rtt(cl, now - t_start[recvd % o->inflight]);
		if (o->pattern == PAT_ECHO &&
		    echo_mismatch(cl->resp, cl->pattern, cl->resplen, seq0 + recvd))
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

static int stream_send(struct client *cl, uint64_t *sent)
{
	const struct wopts *o = cl->o;
	uint64_t n = 0, now = window_start(cl);

	while (!done(cl, n, now)) {
		stamp_seq(cl->req, cl->reqlen, o->warmup + n);
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
		if (o->t->send(&cl->c, cl->req, cl->reqlen) < 0)
			return client_error(cl, "send", "send to");
		n++;
		if (o->duration_ns)
			now = clock_now_ns();
	}
	cl->end_ns = clock_now_ns();
	*sent = n;
	return 0;
}

static void client_report_human(const struct wopts *o, const struct worker_result *r)
{
	double secs = (double)(r->end_ns - r->start_ns) / 1e9;

	if (o->pattern == PAT_STREAM) {
		printf("client %u: sent %llu messages of %llu bytes in %.3f s = %.0f msg/s, "
		       "%.2f MiB/s at the sender\n", o->id, (unsigned long long)r->sent_messages,
		       (unsigned long long)o->topts.size, secs,
		       secs > 0 ? (double)r->sent_messages / secs : 0,
		       secs > 0 ? (double)r->sent_bytes / secs / 1048576.0 : 0);
		return;
	}
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

static int client_setup(struct client *cl)
{
	const struct wopts *o = cl->o;

	cl->reqlen = o->topts.size;
	cl->resplen = o->pattern == PAT_ECHO ? o->topts.size : o->topts.response_size;
	cl->req = malloc(cl->reqlen);
	cl->pattern = malloc(cl->reqlen);
	cl->resp = o->pattern == PAT_STREAM ? NULL : malloc(cl->resplen);
	cl->hist = malloc(sizeof(*cl->hist));
	if (!cl->req || !cl->pattern || (o->pattern != PAT_STREAM && !cl->resp) || !cl->hist) {
		snprintf(cl->err, sizeof(cl->err), "out of memory for %zu-byte messages", cl->reqlen);
		cl->stage = "memory";
		return -1;
	}
	payload_fill(cl->req, cl->reqlen);
	payload_fill(cl->pattern, cl->reqlen);
	hist_init(cl->hist);
	cl->hist->totals = o->totals;
	cl->pace.rate = o->rate;
	cl->pace.busy = o->topts.busy;	/* poll: busy: the schedule's wait spins too */
	if (o->rate)
		pace_setup();
	return 0;
}

static int client_warmup(struct client *cl)
{
	uint64_t rtt;

	for (uint64_t i = 0; i < cl->o->warmup; i++) {
		if (cl->o->pattern == PAT_STREAM) {
			stamp_seq(cl->req, cl->reqlen, i);
			if (cl->o->t->send(&cl->c, cl->req, cl->reqlen) < 0)
				return client_error(cl, "send", "warmup send to");
		} else if (round_trip(cl, i, 0, &rtt) < 0) {
			return -1;
		}
	}
	cl->lost = 0;	/* the timed window counts its own losses */
	return 0;
}

/* The timed window: the pattern's loop.  0, or -1 with cl->err set. */
static int client_measure(struct client *cl, uint64_t *sent)
{
	const struct wopts *o = cl->o;

	if (o->pattern == PAT_STREAM)
		return stream_send(cl, sent);
	return o->inflight <= 1 ? pingpong_serial(cl)
	       : cl->c.fd >= 0 ? pingpong_pipelined(cl) : pingpong_window(cl);
}

/* The record's figures of the timed window, but its CPU time.  r->hist
 * points at cl's histogram (pingpong): the caller clears it after use. */
static void client_result(const struct client *cl, const struct conn_info *ci,
			  uint64_t sent, struct worker_result *r)
{
	r->start_ns = cl->start_ns;
	r->end_ns = cl->end_ns;
	r->sndbuf = ci->sndbuf;
	r->rcvbuf = ci->rcvbuf;
	r->nodelay = ci->nodelay;
	r->mismatches = cl->mismatches;
	r->lost = cl->lost;
	r->hwm_kib = proc_self_hwm_kib();
	if (cl->o->pattern == PAT_STREAM) {
		r->sent_messages = sent;
		r->sent_bytes = sent * cl->reqlen;
		r->last_send_ns = cl->last_send_ns;
	} else {
		r->messages = cl->messages;
		r->sent_messages = cl->messages + cl->lost;	/* requests that went out */
		r->bytes = cl->messages * (cl->reqlen + cl->resplen);
		r->sent_bytes = cl->messages * cl->reqlen;
		r->hist = cl->hist;
	}
}

/* An echo mismatch fails the run; else the record goes out (a readable
 * line by hand).  0, or 1 when a failure was reported. */
static int client_report(const struct client *cl, const struct worker_result *r)
{
	const struct wopts *o = cl->o;
	int rc = 0;

	if (cl->mismatches) {
		char msg[128];
		snprintf(msg, sizeof(msg), "echo mismatch: %llu of %llu responses (%llu warmup, "
			 "%llu timed) differ from their request", (unsigned long long)cl->mismatches,
			 (unsigned long long)(o->warmup + cl->messages), (unsigned long long)o->warmup,
			 (unsigned long long)cl->messages);
		rc = worker_fail(o, "verify", msg);
	} else if (o->human) {
		client_report_human(o, r);
	} else if (wire_write_result(o->report_fd, r) < 0) {
		rc = worker_failf(o, "report", "write result");
	}
	return rc;
}

int client_run(const struct wopts *o)
{
	struct client cl = { .o = o, .c = { .fd = -1, .wfd = -1 } };
	struct worker_result r;
	uint64_t cpu0, sent = 0, deadline = clock_now_ns() + o->timeout_ns;
	int rc = 0, connected = 0;

	worker_result_init(&r);
	r.role = ROLE_CLIENT;
	if (client_setup(&cl) < 0)
		goto failed;
	if (transport_connect(o->t, &o->topts, o->connect, &cl.c, cl.err, sizeof(cl.err)) < 0) {
		cl.stage = "connect";
		goto failed;
	}
	connected = 1;
	if (client_warmup(&cl) < 0)
		goto failed;
	if (!o->human && wire_write_ready(o->report_fd) < 0) {
		rc = worker_failf(o, "report", "write ready line");
		goto out;
	}
	if (worker_wait_start(o->control_fd) < 0) {
		rc = worker_fail(o, "start", "runner closed the control pipe before the start signal");
		goto out;
	}
	cpu0 = clock_cpu_ns();
	if (client_measure(&cl, &sent))
		goto failed;
	r.cpu_ns = clock_cpu_ns() - cpu0;
	struct conn_info ci;
	o->t->info(&cl.c, &ci);
	/* zmq: the server confirms the end before anything is closed; by the
	 * worker's timeout, before its alarm */
	uint64_t now = clock_now_ns();
	if (o->t->finish && o->t->finish(&cl.c, now < deadline ? deadline - now : 1, cl.err,
					 sizeof(cl.err)) < 0) {
		cl.stage = "ack";
		goto failed;
	}
	o->t->close(&cl.c);
	connected = 0;

	client_result(&cl, &ci, sent, &r);
	rc = client_report(&cl, &r);
	r.hist = NULL;
	goto out;
failed:
	rc = worker_fail(o, cl.stage ? cl.stage : "client", cl.err);
out:
	if (connected)
		o->t->close(&cl.c);
	free(cl.req);
	free(cl.resp);
	free(cl.pattern);
	free(cl.hist);
	return rc;
}
