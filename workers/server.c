/* The server: one thread per connection running the pattern's receive
 * loop, a control thread waiting for the start signal, and the result
 * record summed over the connections.  See server.h for what it does,
 * payload.h for the bytes and wire.h for the record. */
#include "server.h"
#include "clock.h"
#include "dgram.h"
#include "matrix.h"
#include "payload.h"
#include "procinfo.h"
#include "seqwin.h"
#include "timeline.h"
#include "transport.h"
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STREAM_READ_MIN (64u * 1024)

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

struct late { int lfd, wake[2]; pthread_t thread; };

static void *late_thread(void *arg)
{
	struct late *l = arg;

	dgram_answer_late(l->lfd, l->wake[0]);
	return NULL;
}

/* A lossy transport's clients whose ok the link lost retry their hello
 * after the last accept: answered until late_stop (dgram.h). 1 when the
 * thread runs. */
static int late_start(const struct wopts *o, int lfd, struct late *l)
{
	l->lfd = lfd;
	if (!o->t->lossy || pipe2(l->wake, O_CLOEXEC) < 0)
		return 0;
	if (pthread_create(&l->thread, NULL, late_thread, l) == 0)
		return 1;
	close(l->wake[0]);
	close(l->wake[1]);
	return 0;
}

static void late_stop(struct late *l)
{
	if (write(l->wake[1], "x", 1) < 0)
		perror("server: wake the hello answerer");
	pthread_join(l->thread, NULL);
	close(l->wake[0]);
	close(l->wake[1]);
}

static void *control_thread(void *arg)
{
	struct server *s = arg;

	if (worker_wait_start(s->o->control_fd) == 0) {
		atomic_store(&s->cpu0, clock_cpu_ns());
		server_t0(s, clock_now_ns());
	}
	return NULL;
}

/* A lossy connection has no reliable end: its end marker may be lost too.
 * After the start signal, a silence this long ends it (long enough that a
 * client waiting out a lost reply never trips it); counted from the start
 * at the earliest: a connection accepted long before it (the other clients
 * retrying hellos a lossy link lost) has said nothing yet, rightly. */
static int lossy_quiet(const struct server *s, uint64_t last_rx)
{
	uint64_t limit = 10 * s->o->loss_timeout_ns, now = clock_now_ns();
	uint64_t t0 = atomic_load(&s->t0);

	if (limit < 1000000000ull)
		limit = 1000000000ull;
	return t0 && now - (last_rx > t0 ? last_rx : t0) > limit;
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
	payload_fill(out, resp);
	size_t seqlen = req < resp ? req : resp;
	uint64_t last_rx = clock_now_ns();
	if (seqlen > 8)
		seqlen = 8;
	for (;;) {
		int rc = t->recv(&j->c, in, req);
		if (rc == 1)
			break;
		if (rc < 0 && errno == EAGAIN && t->lossy) {
			if (lossy_quiet(j->srv, last_rx))
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

	if (!buf) {
		snprintf(j->err, sizeof(j->err), "out of memory");
		j->stage = "memory";
		return;
	}
	for (;;) {
		ssize_t n = o->t->recv_some(&j->c, buf, cap);
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
				timeline_count(&j->tl, o->interval_ns, now, server_t0(s, now),
					       msgs - timed_msgs, (msgs - timed_msgs) * size);
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
 * looked at, and a window of the sequence numbers seen tells them apart
 * (seqwin.h: bounded memory, whatever the count). */
static void serve_stream_lossy(struct conn_job *j)
{
	struct server *s = j->srv;
	const struct wopts *o = s->o;
	size_t size = o->topts.size;
	unsigned char *buf = malloc(size);
	uint64_t unique = 0, last_rx = clock_now_ns();
	struct seqwin seen;

	if (seqwin_init(&seen) < 0 || !buf) {
		seqwin_release(&seen);
		free(buf);
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
		clock_spin(o->spin_ns);	/* a test aid: 0 unless asked */
		last_rx = clock_now_ns();
		uint64_t seq = read_seq(buf, size);
		if (seq < o->warmup)
			continue;
		uint64_t now = clock_now_ns();
		enum seq_verdict v = seqwin_add(&seen, seq - o->warmup);
		if (v == SEQ_DUPLICATE || v == SEQ_TOO_OLD) {	/* too old: seqwin.h */
			j->duplicated++;
			continue;
		}
		j->reordered += v == SEQ_REORDERED;
		if (!j->first_ns) {
			j->first_ns = now;
			j->first_read_msgs = 1;
		}
		unique++;
		if (!o->totals)	/* record: totals keeps no timeline */
			timeline_count(&j->tl, o->interval_ns, now, server_t0(s, now), 1, size);
		j->last_ns = now;
	}
	j->messages = unique;
	j->bytes = unique * size;
	seqwin_release(&seen);
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

/* By hand there is no start signal and no senders' start: a stream's rate
 * runs from the end of the receiver's first read to its last, so the
 * messages of that first read (maybe a backlog) are left out of it. */
static void server_report_human(const struct wopts *o, const struct worker_result *r,
				uint64_t first_read_msgs)
{
	double secs = r->end_ns > r->start_ns ? (double)(r->end_ns - r->start_ns) / 1e9 : 0;
	double inside = (double)(r->messages - first_read_msgs);

	printf("server: %llu messages, %llu bytes in %.3f s", (unsigned long long)r->messages,
	       (unsigned long long)r->bytes, secs);
	if (secs > 0 && o->pattern == PAT_STREAM)
		printf(" = %.0f msg/s, %.2f MiB/s at the receiver (from its first read to its "
		       "last, without the %llu messages of the first)", inside / secs,
		       inside * (double)o->topts.size / secs / 1048576.0,
		       (unsigned long long)first_read_msgs);
	printf("\n");
}

/* Binds and announces the address.  *lfd is -1 when nothing is bound (the
 * failure is reported); else 0, or 1 when the listen line failed. */
static int server_listen(const struct wopts *o, char *addr, size_t addrlen, int *lfd)
{
	char err[512];

	errno = 0;
	*lfd = o->t->listen(&o->topts, o->bind, addr, addrlen, err, sizeof(err));
	if (*lfd < 0)	/* no such address or family on this machine: the cell is skipped */
		return worker_fail(o, errno == EADDRNOTAVAIL || errno == EAFNOSUPPORT ? "unavailable"
			    : "bind", err);
	if (o->human)
		fprintf(stderr, "server: %s %s listening on %s for %u connection%s\n",
			o->t->name, pattern_names[o->pattern], addr, o->connections,
			o->connections == 1 ? "" : "s");
	else if (wire_write_listen(o->report_fd, addr) < 0)
		return worker_failf(o, "report", "write listen line");
	return 0;
}

/* Accepts o->connections connections, a thread each.  *accepted counts the
 * threads started (to be joined even after a failure); *first_accept_ns is
 * when the first connection came.  0, or 1 when a failure was reported. */
static int server_accept(struct server *s, int lfd, unsigned *accepted,
			 uint64_t *first_accept_ns)
{
	const struct wopts *o = s->o;
	char err[512];
	int rc = 0;

	for (; !rc && *accepted < o->connections; (*accepted)++) {
		struct conn_job *j = &s->jobs[*accepted];
		j->srv = s;
		if (transport_accept(o->t, lfd, &o->topts, &j->c, err, sizeof(err)) < 0) {
			rc = worker_fail(o, "accept", err);
			break;
		}
		if (!*first_accept_ns)
			*first_accept_ns = clock_now_ns();
		if (pthread_create(&j->thread, NULL, conn_thread, j) != 0) {
			o->t->close(&j->c);
			rc = worker_fail(o, "thread", "cannot start connection thread");
			break;
		}
	}
	return rc;
}

/* Joins the connection threads and sums their counts into r and tl (the
 * first connection's buffer sizes stand for all).  rc is the failure so
 * far: only the first one is reported.  *first_read_msgs: the messages of
 * the earliest first read. */
static int server_collect(struct server *s, unsigned accepted, struct worker_result *r,
			  struct timeline *tl, uint64_t *first_read_msgs, int rc)
{
	for (unsigned i = 0; i < accepted; i++) {
		struct conn_job *j = &s->jobs[i];
		pthread_join(j->thread, NULL);
		if (j->err[0] && !rc)
			rc = worker_fail(s->o, j->stage, j->err);
		r->messages += j->messages;
		r->bytes += j->bytes;
		r->duplicated += j->duplicated;
		r->reordered += j->reordered;
		if (j->first_ns && j->first_ns < r->start_ns) {
			r->start_ns = j->first_ns;
			*first_read_msgs = j->first_read_msgs;
		}
		if (j->last_ns > r->end_ns)
			r->end_ns = j->last_ns;
		timeline_merge(tl, &j->tl);
		timeline_release(&j->tl);
		if (i == 0) {
			r->sndbuf = j->info.sndbuf;
			r->rcvbuf = j->info.rcvbuf;
			r->nodelay = j->info.nodelay;
		}
	}
	return rc;
}

/* The timed window of the record: t0, its CPU since cpu0 (or since the
 * start signal when there was one), and its start and end. */
static void server_window(struct server *s, struct worker_result *r, uint64_t cpu0,
			  uint64_t first_accept_ns)
{
	r->t0_ns = atomic_load(&s->t0);
	/* the timed window's CPU: from the start signal when there was one */
	if (atomic_load(&s->cpu0))
		cpu0 = atomic_load(&s->cpu0);
	r->cpu_ns = clock_cpu_ns() - cpu0;
	if (s->o->pattern != PAT_STREAM) {	/* clients time round trips; the server's window is start..now */
		r->start_ns = atomic_load(&s->t0) ? atomic_load(&s->t0) : first_accept_ns;
		r->end_ns = clock_now_ns();
	} else if (r->start_ns == UINT64_MAX) {
		r->start_ns = 0;
	}
}

int server_run(const struct wopts *o)
{
	struct server s = { .o = o };
	char addr[256];
	pthread_t ctl;
	int lfd, rc, have_ctl = 0;
	unsigned accepted = 0;
	uint64_t cpu0;

	rc = server_listen(o, addr, sizeof(addr), &lfd);
	if (lfd < 0)
		return rc;
	s.jobs = calloc(o->connections, sizeof(*s.jobs));
	if (!s.jobs)
		rc = worker_fail(o, "memory", "out of memory");
	if (!rc && o->control_fd >= 0) {
		if (pthread_create(&ctl, NULL, control_thread, &s) == 0)
			have_ctl = 1;
		else
			rc = worker_fail(o, "thread", "cannot start control thread");
	}
	cpu0 = clock_cpu_ns();
	uint64_t first_accept_ns = 0;
	if (!rc)
		rc = server_accept(&s, lfd, &accepted, &first_accept_ns);
	struct late late;
	int have_late = !rc && late_start(o, lfd, &late);

	struct worker_result r;
	struct timeline tl = TIMELINE_INIT;
	worker_result_init(&r);
	r.role = ROLE_SERVER;
	r.start_ns = UINT64_MAX;
	uint64_t first_read_msgs = 0;
	rc = server_collect(&s, accepted, &r, &tl, &first_read_msgs, rc);
	if (have_late)
		late_stop(&late);
	server_window(&s, &r, cpu0, first_accept_ns);
	/* only now: a zmq server's one socket is its connections' socket too */
	o->t->unlisten(lfd, addr);
	if (!rc && tl.overflow)
		rc = worker_fail(o, "timeline", "timeline too long: raise interval");
	if (have_ctl) {
		/* The runner closes the control pipe after the start byte, so
		 * the control thread has ended or ends now. */
		pthread_join(ctl, NULL);
	}
	if (!rc) {
		r.tl_messages = tl.msgs;
		r.tl_bytes = tl.bytes;
		r.tl_len = tl.len;
		r.tl_interval_ns = o->totals ? 0 : tl.interval_ns ? tl.interval_ns : o->interval_ns;
		r.hwm_kib = proc_self_hwm_kib();
		if (o->human)
			server_report_human(o, &r, first_read_msgs);
		else if (wire_write_result(o->report_fd, &r) < 0)
			rc = worker_failf(o, "report", "write result");
	}
	timeline_release(&tl);
	free(s.jobs);
	return rc;
}
