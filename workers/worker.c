/* The worker's main loop for each pattern, its timing and its result
 * record.  See worker.h for the wire behaviour and wire.h for the record. */
#include "worker.h"
#include "clock.h"
#include "matrix.h"
#include "timeline.h"
#include "transport.h"
#include "units.h"
#include "wire.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/resource.h>

#define STREAM_READ_MIN (64u * 1024)

struct wopts {
	enum wire_role role;
	const struct transport *t;
	enum pattern pattern;
	struct transport_opts topts;
	uint64_t count, duration_ns, warmup, interval_ns, timeout_ns, loss_timeout_ns;
	unsigned inflight, connections, id;
	const char *bind, *connect;
	int report_fd, control_fd, human;
};

/* A failure: on the wire for the runner, on stderr for a person. */
static int fail(const struct wopts *o, const char *stage, const char *msg)
{
	if (o->human)
		fprintf(stderr, "matrix worker %s: %s\n",
			o->role == ROLE_SERVER ? "server" : "client", msg);
	else
		wire_write_error(o->report_fd, stage, msg);
	return 1;
}

static int failf(const struct wopts *o, const char *stage, const char *what)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(errno));
	return fail(o, stage, msg);
}

/* Waits for the runner's start byte; -1 when the runner is gone. */
static int wait_start(int fd)
{
	char c;
	ssize_t n;

	if (fd < 0)
		return 0;
	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return (n == 1 && c == 'g') ? 0 : -1;
}

/* ---- request bytes ------------------------------------------------- */

static void fill_pattern(unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)((i * 31 + 7) & 0xff);
}

static void stamp_seq(unsigned char *buf, size_t len, uint64_t seq)
{
	for (size_t i = 0; i < len && i < 8; i++)
		buf[i] = (unsigned char)(seq >> (8 * i));
}

static uint64_t read_seq(const unsigned char *buf, size_t len)
{
	uint64_t seq = 0;

	for (size_t i = 0; i < len && i < 8; i++)
		seq |= (uint64_t)buf[i] << (8 * i);
	return seq;
}

/* 1 when an echoed message is not the request with sequence number seq. */
static int echo_mismatch(const unsigned char *got, const unsigned char *pattern,
			 size_t len, uint64_t seq)
{
	size_t head = len < 8 ? len : 8;

	for (size_t i = 0; i < head; i++)
		if (got[i] != (unsigned char)(seq >> (8 * i)))
			return 1;
	return memcmp(got + head, pattern + head, len - head) != 0;
}

/* ---- server -------------------------------------------------------- */

struct server;

struct conn_job {
	struct server *srv;
	struct conn c;
	pthread_t thread;
	uint64_t messages, bytes, first_ns, last_ns;
	uint64_t first_read_msgs;	/* stream: completed by the first timed read */
	uint64_t duplicated, reordered;	/* lossy stream receivers */
	struct timeline tl;
	struct conn_info info;
	char err[512];
	const char *stage;
};

struct server {
	const struct wopts *o;
	_Atomic uint64_t t0;	/* start of the timed window; 0 until known */
	_Atomic uint64_t cpu0;	/* process CPU at the start signal; 0 until then */
	struct conn_job *jobs;
};

/* The start of the timed window: the runner's start byte, or else the
 * first timed byte any connection saw. */
static uint64_t server_t0(struct server *s, uint64_t now)
{
	uint64_t t0 = atomic_load(&s->t0);

	if (!t0 && atomic_compare_exchange_strong(&s->t0, &t0, now))
		return now;
	return t0 ? t0 : atomic_load(&s->t0);
}

static void *control_thread(void *arg)
{
	struct server *s = arg;

	if (wait_start(s->o->control_fd) == 0) {
		atomic_store(&s->cpu0, clock_cpu_ns());
		server_t0(s, clock_now_ns());
	}
	return NULL;
}

/* A lossy connection has no reliable end: its end marker may be lost too.
 * After the start signal, a silence this long ends it (long enough that a
 * client waiting out a lost reply never trips it). */
static int lossy_quiet(const struct server *s, uint64_t last_rx)
{
	uint64_t limit = 10 * s->o->loss_timeout_ns, now = clock_now_ns();

	if (limit < 1000000000ull)
		limit = 1000000000ull;
	return atomic_load(&s->t0) && now - last_rx > limit;
}

static void serve_pingpong(struct conn_job *j)
{
	const struct wopts *o = j->srv->o;
	const struct transport *t = o->t;
	size_t req = o->topts.size;
	size_t resp = o->pattern == PAT_ECHO ? req : o->topts.response_size;
	unsigned char *in = malloc(req), *out = malloc(resp);
	uint64_t n = 0;

	if (!in || !out) {
		snprintf(j->err, sizeof(j->err), "out of memory for %zu-byte messages", req);
		j->stage = "memory";
		goto out;
	}
	fill_pattern(out, resp);
	size_t seqlen = req < resp ? req : resp;
	uint64_t last_rx = clock_now_ns();
	if (seqlen > 8)
		seqlen = 8;
	for (;;) {
		int rc = t->recv(&j->c, in, req);
		if (rc == 1)
			break;
		if (rc < 0 && errno == EAGAIN && (t->lossy || t->quiet_ends)) {
			if (lossy_quiet(j->srv, last_rx))
				break;	/* its end marker was lost */
			continue;
		}
		if (rc < 0 && errno == ECONNREFUSED && t->lossy)
			break;	/* a datagram peer that is gone: a reply of ours bounced */
		if (t->lossy || t->quiet_ends)
			last_rx = clock_now_ns();
		if (rc < 0) {
			snprintf(j->err, sizeof(j->err), "receive from %s: %s", j->c.peer,
				 errno == EPROTO ? "stream ended inside a message" : strerror(errno));
			j->stage = "receive";
			break;
		}
		memcpy(out, in, seqlen);	/* the reply carries the request's number */
		if (t->send(&j->c, o->pattern == PAT_ECHO ? in : out,
			    o->pattern == PAT_ECHO ? req : resp) < 0) {
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

static void serve_stream(struct conn_job *j)
{
	struct server *s = j->srv;
	const struct wopts *o = s->o;
	size_t size = o->topts.size;
	size_t cap = size > STREAM_READ_MIN ? size : STREAM_READ_MIN;
	unsigned char *buf = malloc(cap);
	uint64_t total = 0, warm = o->warmup * size * j->c.streams, timed_msgs = 0;
	uint64_t last_rx = clock_now_ns();

	if (!buf) {
		snprintf(j->err, sizeof(j->err), "out of memory");
		j->stage = "memory";
		return;
	}
	for (;;) {
		ssize_t n = o->t->recv_some(&j->c, buf, cap);
		if (n == 0)
			break;
		if (n < 0 && errno == EAGAIN && o->t->quiet_ends) {
			if (lossy_quiet(s, last_rx))
				break;	/* the senders are long gone: what is missing is lost */
			continue;
		}
		if (o->t->quiet_ends)
			last_rx = clock_now_ns();
		if (n < 0) {
			snprintf(j->err, sizeof(j->err), "receive from %s: %s", j->c.peer,
				 strerror(errno));
			j->stage = "receive";
			break;
		}
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
			size_t idx = timeline_index(now, server_t0(s, now), o->interval_ns);
			timeline_add(&j->tl, idx, msgs - timed_msgs, (msgs - timed_msgs) * size);
			timed_msgs = msgs;
			j->last_ns = now;
		}
	}
	if (!j->err[0] && total % size) {
		snprintf(j->err, sizeof(j->err), "stream from %s ended inside a message "
			 "(%llu bytes is not a whole number of %zu-byte messages)", j->c.peer,
			 (unsigned long long)total, size);
		j->stage = "receive";
	}
	j->messages = timed_msgs;
	j->bytes = timed_msgs * size;
	free(buf);
}

/* Datagrams may be lost, duplicated or reordered: every message is
 * looked at, and a bitmap of the sequence numbers seen tells them apart. */
static void serve_stream_lossy(struct conn_job *j)
{
	struct server *s = j->srv;
	const struct wopts *o = s->o;
	size_t size = o->topts.size;
	unsigned char *buf = malloc(size), *seen = NULL;
	uint64_t max_seen = 0, unique = 0, seen_cap = 0, last_rx = clock_now_ns();

	if (!buf) {
		snprintf(j->err, sizeof(j->err), "out of memory");
		j->stage = "memory";
		return;
	}
	for (;;) {
		int rc = o->t->recv(&j->c, buf, size);
		if (rc == 1)
			break;
		if (rc < 0 && errno == EAGAIN) {
			if (lossy_quiet(s, last_rx))
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
		uint64_t seq = read_seq(buf, size);
		if (seq < o->warmup)
			continue;
		uint64_t idx = seq - o->warmup, now = clock_now_ns();
		if (idx >= seen_cap * 8) {
			uint64_t cap = seen_cap ? seen_cap : 1024;
			while (cap * 8 <= idx)
				cap *= 2;
			unsigned char *ns = cap > (1ull << 30) ? NULL : realloc(seen, cap);
			if (!ns) {
				snprintf(j->err, sizeof(j->err), "sequence number %llu out of range",
					 (unsigned long long)seq);
				j->stage = "receive";
				break;
			}
			memset(ns + seen_cap, 0, cap - seen_cap);
			seen = ns;
			seen_cap = cap;
		}
		if (seen[idx / 8] & (1u << (idx % 8))) {
			j->duplicated++;
			continue;
		}
		seen[idx / 8] |= (unsigned char)(1u << (idx % 8));
		if (unique && idx < max_seen)
			j->reordered++;
		if (idx > max_seen || !unique)
			max_seen = idx;
		if (!j->first_ns) {
			j->first_ns = now;
			j->first_read_msgs = 1;
		}
		unique++;
		timeline_add(&j->tl, timeline_index(now, server_t0(s, now), o->interval_ns), 1, size);
		j->last_ns = now;
	}
	j->messages = unique;
	j->bytes = unique * size;
	free(seen);
	free(buf);
}

static void *conn_thread(void *arg)
{
	struct conn_job *j = arg;

	j->srv->o->t->info(&j->c, &j->info);
	if (j->srv->o->pattern != PAT_STREAM)
		serve_pingpong(j);
	else if (j->srv->o->t->lossy)
		serve_stream_lossy(j);
	else
		serve_stream(j);
	j->srv->o->t->close(&j->c);
	return NULL;
}

static void server_report_human(const struct wopts *o, const struct worker_result *r)
{
	double secs = r->end_ns > r->start_ns ? (double)(r->end_ns - r->start_ns) / 1e9 : 0;

	printf("server: %llu messages, %llu bytes in %.3f s", (unsigned long long)r->messages,
	       (unsigned long long)r->bytes, secs);
	if (secs > 0 && o->pattern == PAT_STREAM)
		printf(" = %.0f msg/s, %.2f MiB/s at the receiver",
		       (double)r->window_messages / secs,
		       (double)r->window_messages * (double)o->topts.size / secs / 1048576.0);
	printf("\n");
}

static int run_server(const struct wopts *o)
{
	struct server s = { .o = o };
	char addr[256], err[512];
	pthread_t ctl;
	int lfd, rc = 0, have_ctl = 0;
	unsigned accepted = 0;
	uint64_t cpu0;

	errno = 0;
	lfd = o->t->listen(&o->topts, o->bind, addr, sizeof(addr), err, sizeof(err));
	if (lfd < 0)	/* no such address or family on this machine: the cell is skipped */
		return fail(o, errno == EADDRNOTAVAIL || errno == EAFNOSUPPORT ? "unavailable"
			    : "bind", err);
	if (o->human)
		fprintf(stderr, "server: %s %s listening on %s for %u connection%s\n",
			o->t->name, pattern_names[o->pattern], addr, o->connections,
			o->connections == 1 ? "" : "s");
	else if (wire_write_listen(o->report_fd, addr) < 0)
		rc = failf(o, "report", "write listen line");
	s.jobs = calloc(o->connections, sizeof(*s.jobs));
	if (!s.jobs)
		rc = fail(o, "memory", "out of memory");
	if (!rc && o->control_fd >= 0) {
		if (pthread_create(&ctl, NULL, control_thread, &s) == 0)
			have_ctl = 1;
		else
			rc = fail(o, "thread", "cannot start control thread");
	}
	cpu0 = clock_cpu_ns();
	uint64_t first_accept_ns = 0;
	for (; !rc && accepted < o->connections; accepted++) {
		struct conn_job *j = &s.jobs[accepted];
		j->srv = &s;
		if (o->t->accept(lfd, &o->topts, &j->c, err, sizeof(err)) < 0) {
			rc = fail(o, "accept", err);
			break;
		}
		if (!first_accept_ns)
			first_accept_ns = clock_now_ns();
		if (pthread_create(&j->thread, NULL, conn_thread, j) != 0) {
			o->t->close(&j->c);
			rc = fail(o, "thread", "cannot start connection thread");
			break;
		}
	}

	struct worker_result r;
	struct timeline tl = TIMELINE_INIT;
	uint64_t before_window = 0;
	worker_result_init(&r);
	r.role = ROLE_SERVER;
	r.start_ns = UINT64_MAX;
	for (unsigned i = 0; i < accepted; i++) {
		struct conn_job *j = &s.jobs[i];
		pthread_join(j->thread, NULL);
		if (j->err[0] && !rc)
			rc = fail(o, j->stage, j->err);
		r.messages += j->messages;
		r.bytes += j->bytes;
		r.duplicated += j->duplicated;
		r.reordered += j->reordered;
		if (j->first_ns && j->first_ns < r.start_ns) {
			r.start_ns = j->first_ns;
			before_window = j->first_read_msgs;
		}
		if (j->last_ns > r.end_ns)
			r.end_ns = j->last_ns;
		timeline_merge(&tl, &j->tl);
		timeline_release(&j->tl);
		if (i == 0) {
			r.sndbuf = j->info.sndbuf;
			r.rcvbuf = j->info.rcvbuf;
			r.nodelay = j->info.nodelay;
		}
	}
	r.t0_ns = atomic_load(&s.t0);
	/* the timed window's CPU: from the start signal when there was one */
	if (atomic_load(&s.cpu0))
		cpu0 = atomic_load(&s.cpu0);
	r.cpu_ns = clock_cpu_ns() - cpu0;
	if (o->pattern != PAT_STREAM) {	/* clients time round trips; the server's window is start..now */
		r.start_ns = atomic_load(&s.t0) ? atomic_load(&s.t0) : first_accept_ns;
		r.end_ns = clock_now_ns();
	} else if (r.start_ns == UINT64_MAX) {
		r.start_ns = 0;
	} else {
		r.window_messages = r.messages - before_window;
	}
	/* only now: a zmq server's one socket is its connections' socket too */
	o->t->unlisten(lfd, addr);
	if (!rc && tl.overflow)
		rc = fail(o, "timeline", "timeline too long: raise interval");
	if (have_ctl) {
		/* The runner closes the control pipe after the start byte, so
		 * the control thread has ended or ends now. */
		pthread_join(ctl, NULL);
	}
	if (!rc) {
		r.tl_messages = tl.msgs;
		r.tl_bytes = tl.bytes;
		r.tl_len = tl.len;
		if (o->human)
			server_report_human(o, &r);
		else if (wire_write_result(o->report_fd, &r) < 0)
			rc = failf(o, "report", "write result");
	}
	timeline_release(&tl);
	free(s.jobs);
	return rc;
}

/* ---- client -------------------------------------------------------- */

struct client {
	const struct wopts *o;
	struct conn c;
	unsigned char *req, *resp, *pattern;
	size_t reqlen, resplen;
	struct hist *hist;
	uint64_t messages, mismatches, start_ns, end_ns;
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
 * lost it (no reply in time; nothing is resent), -1 with cl->err set. */
static int round_trip(struct client *cl, uint64_t seq, uint64_t *rtt)
{
	const struct transport *t = cl->o->t;
	uint64_t t0;
	int rc;

	stamp_seq(cl->req, cl->reqlen, seq);
	t0 = clock_now_ns();
	if (t->send(&cl->c, cl->req, cl->reqlen) < 0)
		return client_error(cl, "send", "send to");
	for (;;) {
		if (t->lossy && cl->c.fd >= 0) {
			/* the reply is lost once loss_timeout has passed since the
			 * request left, however many late replies came meanwhile */
			uint64_t now = clock_now_ns(), deadline = t0 + cl->o->loss_timeout_ns;
			struct timespec left = { 0, 0 };
			struct pollfd p = { .fd = cl->c.fd, .events = POLLIN };
			if (now < deadline)
				left = (struct timespec){ (time_t)((deadline - now) / 1000000000ull),
							  (long)((deadline - now) % 1000000000ull) };
			int pr = now < deadline ? ppoll(&p, 1, &left, NULL) : 0;
			if (pr == 0) {
				cl->lost++;
				return 1;
			}
			if (pr < 0 && errno != EINTR)
				return client_error(cl, "receive", "poll");
			if (pr < 0)
				continue;
		}
		rc = t->recv(&cl->c, cl->resp, cl->resplen);
		if (rc < 0 && errno == EAGAIN && t->lossy) {
			cl->lost++;
			return 1;
		}
		if (rc) {
			if (rc == 1)
				errno = 0;
			return client_error(cl, "receive", "receive from");
		}
		/* a late reply to an earlier, given-up request: not this one */
		if (!t->lossy || read_seq(cl->resp, cl->resplen < 8 ? cl->resplen : 8) >= seq)
			break;
	}
	*rtt = clock_now_ns() - t0;
	if (cl->o->pattern == PAT_ECHO && echo_mismatch(cl->resp, cl->pattern, cl->resplen, seq))
		cl->mismatches++;
	return 0;
}

static int done(const struct wopts *o, uint64_t n, uint64_t now, uint64_t start)
{
	return o->duration_ns ? now - start >= o->duration_ns : n >= o->count;
}

static int pingpong_serial(struct client *cl)
{
	const struct wopts *o = cl->o;
	uint64_t rtt, now;

	cl->start_ns = now = clock_now_ns();
	for (uint64_t seq = o->warmup; !done(o, cl->messages + cl->lost, now, cl->start_ns); seq++) {
		int rc = round_trip(cl, seq, &rtt);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			hist_record(cl->hist, rtt);
			cl->messages++;
		}
		now = clock_now_ns();
	}
	cl->end_ns = now;
	return 0;
}

/* inflight > 1: the connection's descriptor non-blocking, driven by poll,
 * up to `inflight` requests written ahead of their responses.  Responses
 * come back in order, so request i's start time is t_start[i % inflight]. */
static int pingpong_pipelined(struct client *cl)
{
	const struct wopts *o = cl->o;
	int fd = cl->c.fd, wfd = cl->c.wfd;
	uint64_t *t_start = calloc(o->inflight, sizeof(*t_start));
	uint64_t sent = 0, recvd = 0, now, seq0 = o->warmup;
	size_t woff = 0, roff = 0;
	int stop_sending = 0, rc = -1;

	if (!t_start || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0 ||
	    fcntl(wfd, F_SETFL, fcntl(wfd, F_GETFL) | O_NONBLOCK) < 0) {
		free(t_start);
		return client_error(cl, "setup", "non-blocking");
	}
	cl->start_ns = now = clock_now_ns();
	for (;;) {
		int progress = 0;
		/* stop only between requests: a half-written one is finished */
		if (!stop_sending && woff == 0 && done(o, sent, now, cl->start_ns))
			stop_sending = 1;
		while (!stop_sending && sent - recvd < o->inflight) {
			if (woff == 0) {
				stamp_seq(cl->req, cl->reqlen, seq0 + sent);
				t_start[sent % o->inflight] = clock_now_ns();
			}
			ssize_t n = write(wfd, cl->req + woff, cl->reqlen - woff);
			if (n < 0) {
				if (errno == EAGAIN || errno == EINTR)
					break;
				client_error(cl, "send", "send to");
				goto out;
			}
			progress = 1;
			woff += (size_t)n;
			if (woff == cl->reqlen) {
				woff = 0;
				sent++;
				if (done(o, sent, clock_now_ns(), cl->start_ns))
					stop_sending = 1;
			}
		}
		if (stop_sending && recvd == sent)
			break;
		ssize_t n = read(fd, cl->resp + roff, cl->resplen - roff);
		if (n == 0) {
			errno = roff ? EPROTO : 0;
			client_error(cl, "receive", "receive from");
			goto out;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			client_error(cl, "receive", "receive from");
			goto out;
		}
		if (n > 0) {
			progress = 1;
			roff += (size_t)n;
			if (roff == cl->resplen) {
				now = clock_now_ns();
				hist_record(cl->hist, now - t_start[recvd % o->inflight]);
				if (o->pattern == PAT_ECHO &&
				    echo_mismatch(cl->resp, cl->pattern, cl->resplen, seq0 + recvd))
					cl->mismatches++;
				recvd++;
				roff = 0;
				cl->end_ns = now;
			}
		}
		if (!progress) {
			struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = -1 } };
			if (!stop_sending && sent - recvd < o->inflight) {
				if (wfd == fd)
					p[0].events |= POLLOUT;
				else
					p[1] = (struct pollfd){ .fd = wfd, .events = POLLOUT };
			}
			if (poll(p, 2, -1) < 0 && errno != EINTR) {
				client_error(cl, "poll", "poll");
				goto out;
			}
		}
		now = clock_now_ns();
	}
	cl->messages = recvd;
	rc = 0;
out:
	free(t_start);
	return rc;
}

/* inflight > 1 over a transport without a descriptor (zmq DEALER): its
 * sends queue without blocking, so `inflight` requests go out first, then
 * each response read lets the next request go. */
static int pingpong_window(struct client *cl)
{
	const struct wopts *o = cl->o;
	const struct transport *t = o->t;
	uint64_t *t_start = calloc(o->inflight, sizeof(*t_start));
	uint64_t sent = 0, recvd = 0, now, seq0 = o->warmup;
	int rc = -1;

	if (!t_start)
		return client_error(cl, "setup", "memory for");
	cl->start_ns = now = clock_now_ns();
	for (;;) {
		while (sent - recvd < o->inflight && !done(o, sent, now, cl->start_ns)) {
			stamp_seq(cl->req, cl->reqlen, seq0 + sent);
			t_start[sent % o->inflight] = clock_now_ns();
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
		hist_record(cl->hist, now - t_start[recvd % o->inflight]);
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
	uint64_t n = 0, now;

	cl->start_ns = now = clock_now_ns();
	while (!done(o, n, now, cl->start_ns)) {
		stamp_seq(cl->req, cl->reqlen, o->warmup + n);
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
	printf("client %u: %llu round trips in %.3f s = %.0f msg/s; rtt mean %.2f us, "
	       "p50 %.2f us, p99 %.2f us, max %.2f us\n", o->id,
	       (unsigned long long)r->messages, secs,
	       secs > 0 ? (double)r->messages / secs : 0, hist_mean(r->hist) / 1e3,
	       (double)hist_percentile(r->hist, 0.50) / 1e3,
	       (double)hist_percentile(r->hist, 0.99) / 1e3, (double)r->hist->max / 1e3);
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
	fill_pattern(cl->req, cl->reqlen);
	fill_pattern(cl->pattern, cl->reqlen);
	hist_init(cl->hist);
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
		} else if (round_trip(cl, i, &rtt) < 0) {
			return -1;
		}
	}
	cl->lost = 0;	/* the timed window counts its own losses */
	return 0;
}

static int run_client(const struct wopts *o)
{
	struct client cl = { .o = o, .c = { .fd = -1, .wfd = -1 } };
	struct worker_result r;
	uint64_t cpu0, sent = 0;
	int rc = 0, connected = 0;

	worker_result_init(&r);
	r.role = ROLE_CLIENT;
	if (client_setup(&cl) < 0)
		goto failed;
	if (o->t->connect(&o->topts, o->connect, &cl.c, cl.err, sizeof(cl.err)) < 0) {
		cl.stage = "connect";
		goto failed;
	}
	connected = 1;
	if (client_warmup(&cl) < 0)
		goto failed;
	if (!o->human && wire_write_ready(o->report_fd) < 0) {
		rc = failf(o, "report", "write ready line");
		goto out;
	}
	if (wait_start(o->control_fd) < 0) {
		rc = fail(o, "start", "runner closed the control pipe before the start signal");
		goto out;
	}
	cpu0 = clock_cpu_ns();
	if (o->pattern == PAT_STREAM) {
		if (stream_send(&cl, &sent) < 0)
			goto failed;
	} else if (o->inflight <= 1 ? pingpong_serial(&cl)
		   : cl.c.fd >= 0 ? pingpong_pipelined(&cl) : pingpong_window(&cl)) {
		goto failed;
	}
	r.cpu_ns = clock_cpu_ns() - cpu0;
	struct conn_info ci;
	o->t->info(&cl.c, &ci);
	o->t->close(&cl.c);
	connected = 0;

	r.start_ns = cl.start_ns;
	r.end_ns = cl.end_ns;
	r.sndbuf = ci.sndbuf;
	r.rcvbuf = ci.rcvbuf;
	r.nodelay = ci.nodelay;
	r.mismatches = cl.mismatches;
	r.lost = cl.lost;
	if (o->pattern == PAT_STREAM) {
		r.sent_messages = sent;
		r.sent_bytes = sent * cl.reqlen;
	} else {
		r.messages = cl.messages;
		r.sent_messages = cl.messages + cl.lost;	/* requests that went out */
		r.bytes = cl.messages * (cl.reqlen + cl.resplen);
		r.sent_bytes = cl.messages * cl.reqlen;
		r.hist = cl.hist;
	}
	if (cl.mismatches) {
		char msg[128];
		snprintf(msg, sizeof(msg), "echo mismatch: %llu of %llu responses (%llu warmup, "
			 "%llu timed) differ from their request", (unsigned long long)cl.mismatches,
			 (unsigned long long)(o->warmup + cl.messages), (unsigned long long)o->warmup,
			 (unsigned long long)cl.messages);
		rc = fail(o, "verify", msg);
	} else if (o->human) {
		client_report_human(o, &r);
	} else if (wire_write_result(o->report_fd, &r) < 0) {
		rc = failf(o, "report", "write result");
	}
	r.hist = NULL;
	goto out;
failed:
	rc = fail(o, cl.stage ? cl.stage : "client", cl.err);
out:
	if (connected)
		o->t->close(&cl.c);
	free(cl.req);
	free(cl.resp);
	free(cl.pattern);
	free(cl.hist);
	return rc;
}

/* ---- command line -------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: matrix worker server|client [options]\n"
"\n"
"Runs one server or client worker, as `matrix run` does for every cell, or by\n"
"hand like the source experiments' programs.  On a terminal it prints a\n"
"readable result line; otherwise it writes the wire protocol (workers/wire.h).\n"
"\n"
"  -t, --transport NAME     see `matrix transports` (default tcp)\n"
"  -p, --pattern NAME       pingpong | echo | stream (default pingpong)\n"
"  -s, --size SIZE          request/message size, e.g. 10, 1KiB (default 1KiB)\n"
"  -r, --response-size SIZE pingpong response size (default: size)\n"
"  -n, --count N            messages for this client (default 10000)\n"
"  -d, --duration DUR       send for DUR instead of a count, e.g. 5s\n"
"  -w, --warmup N           untimed messages first (default %d)\n"
"  -i, --inflight N         outstanding requests per connection (default 1)\n"
"      --nodelay BOOL       TCP_NODELAY (default true)\n"
"      --interval DUR       timeline interval of a stream server (default 1s)\n"
"  -c, --connections N      server: connections to serve, then exit (default 1)\n"
"  -b, --bind ADDR          server: HOST:PORT or socket path (default 127.0.0.1:0)\n"
"  -a, --connect ADDR       client: the server's address\n"
"      --id N               client number, for messages\n"
"      --report-fd FD       write the wire protocol to FD (default: stdout)\n"
"      --control-fd FD      wait for the start byte on FD (default: start at once)\n"
"      --timeout DUR        give up after DUR (default 300s)\n"
"      --loss-timeout DUR   lossy transports: a reply later than this is lost (100ms)\n"
"      --endpoint tcp|ipc   zmq: where the server binds (default tcp)\n"
"  -h, --help\n", MATRIX_DEFAULT_WARMUP);
}

static int parse_opt_value(int c, const char *arg, struct wopts *o, char *why, size_t wl)
{
	uint64_t v;
	int b;

	switch (c) {
	case 't':
		if (!(o->t = transport_find(arg))) {
			snprintf(why, wl, "unknown transport '%s'", arg);
			return -1;
		}
		return 0;
	case 'p':
		for (int p = 0; p < PAT__COUNT; p++)
			if (!strcmp(arg, pattern_names[p])) {
				o->pattern = (enum pattern)p;
				return 0;
			}
		snprintf(why, wl, "unknown pattern '%s'", arg);
		return -1;
	case 's': return units_parse_size(arg, &o->topts.size, why, wl);
	case 'r': return units_parse_size(arg, &o->topts.response_size, why, wl);
	case 'n': return units_parse_count(arg, &o->count, why, wl);
	case 'd': return units_parse_duration(arg, &o->duration_ns, why, wl);
	case 'w': return units_parse_count(arg, &o->warmup, why, wl);
	case 'N':
		if (units_parse_bool(arg, &b, why, wl) < 0)
			return -1;
		o->topts.nodelay = b;
		return 0;
	case 'I': return units_parse_duration(arg, &o->interval_ns, why, wl);
	case 'T': return units_parse_duration(arg, &o->timeout_ns, why, wl);
	case 'L': return units_parse_duration(arg, &o->loss_timeout_ns, why, wl);
	case 'E':
		if (strcmp(arg, "tcp") && strcmp(arg, "ipc")) {
			snprintf(why, wl, "expected tcp or ipc");
			return -1;
		}
		o->topts.endpoint_ipc = !strcmp(arg, "ipc");
		return 0;
	case 'b': o->bind = arg; return 0;
	case 'a': o->connect = arg; return 0;
	case 'i': case 'c': case 'R': case 'C': case 'D':
		if (units_parse_count(arg, &v, why, wl) < 0)
			return -1;
		if ((c == 'i' || c == 'c') && (v == 0 || v > 1024)) {
			snprintf(why, wl, "must be between 1 and 1024");
			return -1;
		}
		if (v > 1u << 30) {
			snprintf(why, wl, "too large");
			return -1;
		}
		if (c == 'i') o->inflight = (unsigned)v;
		else if (c == 'c') o->connections = (unsigned)v;
		else if (c == 'R') o->report_fd = (int)v;
		else if (c == 'C') o->control_fd = (int)v;
		else o->id = (unsigned)v;
		return 0;
	}
	return -1;
}

int worker_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "transport", 1, 0, 't' }, { "pattern", 1, 0, 'p' }, { "size", 1, 0, 's' },
		{ "response-size", 1, 0, 'r' }, { "count", 1, 0, 'n' }, { "duration", 1, 0, 'd' },
		{ "warmup", 1, 0, 'w' }, { "inflight", 1, 0, 'i' }, { "nodelay", 1, 0, 'N' },
		{ "interval", 1, 0, 'I' }, { "connections", 1, 0, 'c' }, { "bind", 1, 0, 'b' },
		{ "connect", 1, 0, 'a' }, { "id", 1, 0, 'D' }, { "report-fd", 1, 0, 'R' },
		{ "control-fd", 1, 0, 'C' }, { "timeout", 1, 0, 'T' }, { "loss-timeout", 1, 0, 'L' },
		{ "endpoint", 1, 0, 'E' },
		{ "help", 0, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	struct wopts o = {
		.t = transport_find("tcp"), .pattern = PAT_PINGPONG,
		.topts = { .nodelay = 1, .size = 1024 }, .count = 10000,
		.warmup = MATRIX_DEFAULT_WARMUP, .interval_ns = 1000000000ull,
		.timeout_ns = 300ull * 1000000000ull, .loss_timeout_ns = 100000000ull,
		.inflight = 1, .connections = 1, .id = 1,
		.report_fd = 1, .control_fd = -1,
	};
	char why[256];
	int c;

	if (argc < 2 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			usage(stdout);
			return 0;
		}
		usage(stderr);
		return 2;
	}
	o.role = strcmp(argv[1], "server") ? ROLE_CLIENT : ROLE_SERVER;
	optind = 2;
	while ((c = getopt_long(argc, argv, "t:p:s:r:n:d:w:i:c:b:a:h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == '?') {
			fprintf(stderr, "matrix worker: see `matrix worker --help`\n");
			return 2;
		}
		if (parse_opt_value(c, optarg, &o, why, sizeof(why)) < 0) {
			const char *name = "?";
			for (const struct option *lo = longopts; lo->name; lo++)
				if (lo->val == c)
					name = lo->name;
			fprintf(stderr, "matrix worker: --%s %s: %s\n", name, optarg, why);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "matrix worker: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (!o.topts.response_size)
		o.topts.response_size = o.topts.size;
	if (!o.topts.size || !o.topts.response_size || (!o.count && !o.duration_ns) ||
	    !o.interval_ns) {
		fprintf(stderr, "matrix worker: size, response size, count, duration and interval "
			"must be greater than zero\n");
		return 2;
	}
	if (!(o.t->patterns & PAT_BIT(o.pattern))) {
		fprintf(stderr, "matrix worker: transport %s cannot do pattern %s\n", o.t->name,
			pattern_names[o.pattern]);
		return 2;
	}
	if (o.role == ROLE_SERVER && !o.bind) {
		if (!o.t->default_bind) {
			fprintf(stderr, "matrix worker: --bind PATH is required for %s\n", o.t->name);
			return 2;
		}
		o.bind = o.t->default_bind;
	}
	if (o.role == ROLE_CLIENT && !o.connect) {
		fprintf(stderr, "matrix worker: --connect ADDR is required for a client\n");
		return 2;
	}
	if (o.topts.size < o.t->min_size ||
	    (o.pattern == PAT_PINGPONG && o.topts.response_size < o.t->min_size)) {
		fprintf(stderr, "matrix worker: transport %s needs messages of at least %llu bytes\n",
			o.t->name, (unsigned long long)o.t->min_size);
		return 2;
	}
	if (o.t->max_inflight && o.inflight > o.t->max_inflight) {
		fprintf(stderr, "matrix worker: transport %s allows inflight %u at most\n", o.t->name,
			o.t->max_inflight);
		return 2;
	}
	o.topts.pattern = (int)o.pattern;
	o.topts.inflight = o.inflight;
	o.topts.connections = o.connections;
	o.topts.id = o.id;
	/* lossy transports: a client gives up a reply after loss_timeout; a
	 * server's idle receive wakes up as often to see whether the run ended */
	o.topts.recv_timeout_ns = o.loss_timeout_ns;
	o.human = isatty(o.report_fd);
	signal(SIGPIPE, SIG_IGN);
	uint64_t alarm_s = o.timeout_ns / 1000000000ull + 1;
	alarm(alarm_s > 864000 ? 864000 : (unsigned)alarm_s);
	if (!o.human && wire_write_hello(o.report_fd, o.role) < 0) {
		fprintf(stderr, "matrix worker: write to report fd %d: %s\n", o.report_fd,
			strerror(errno));
		return 1;
	}
	return o.role == ROLE_SERVER ? run_server(&o) : run_client(&o);
}
