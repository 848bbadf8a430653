/* The server process: one thread per connection running the pattern's
 * serve (its ops, pattern_ops.h), a control thread waiting for the start
 * signal, and the result record summed over the connections.  See server.h
 * for what it does, serve.h for the state the pattern's loop serves,
 * payload.h for the bytes and wire.h for the record. */
#include "server.h"
#include "clock.h"
#include "dgram.h"
#include "pattern.h"
#include "pattern_ops.h"
#include "procinfo.h"
#include "serve.h"
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
		serve_t0(s, clock_now_ns());
	}
	return NULL;
}

static void *conn_thread(void *arg)
{
	struct conn_job *j = arg;

	j->srv->ops->serve(j);
	/* the kernel's view after the last message, while the socket lives */
	if (j->srv->o->t->tcp_view)
		j->has_tcp = j->srv->o->t->tcp_view(&j->c, &j->tcp) == 0;
	/* after the window: what was in force while it ran (a receive
	 * buffer the kernel grew as it went, left to itself) */
	j->info = (struct conn_info){ .mss = -1 };
	j->srv->o->t->info(&j->c, &j->info);
	j->srv->o->t->close(&j->c);
	return NULL;
}

/* By hand: the counts, and what the pattern adds (a stream's rate). */
static void server_report_human(const struct server *s, const struct worker_result *r,
				uint64_t first_read_msgs)
{
	double secs = r->end_ns > r->start_ns ? (double)(r->end_ns - r->start_ns) / 1e9 : 0;

	printf("server: %llu messages, %llu bytes in %.3f s", (unsigned long long)r->messages,
	       (unsigned long long)r->bytes, secs);
	if (secs > 0 && s->ops->server_line)
		s->ops->server_line(s->o, r, first_read_msgs, secs);
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
		r->sent_messages += j->rev_sent;	/* bidir: sent back */
		r->sent_bytes += j->rev_sent * s->o->topts.size;
		r->reordered += j->reordered;
		if (j->first_ns && j->first_ns < r->start_ns) {
			r->start_ns = j->first_ns;
			*first_read_msgs = j->first_read_msgs;
		}
		if (j->last_ns > r->end_ns)
			r->end_ns = j->last_ns;
		timeline_merge(tl, &j->tl);
		timeline_release(&j->tl);
		if (j->has_tcp && r->tcp)	/* r->tcp has room for every connection */
			r->tcp[r->ntcp++] = j->tcp;
		if (i == 0) {
			r->sndbuf = j->info.sndbuf;
			r->rcvbuf = j->info.rcvbuf;
			r->nodelay = j->info.nodelay;
			r->mss = j->info.mss;
		}
		wire_name_join(r->congestion, sizeof(r->congestion), j->info.congestion);
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
	/* clients time round trips: the server's window is start..now */
	if (!pattern_info(s->o->pattern)->receiver_times) {
		r->start_ns = atomic_load(&s->t0) ? atomic_load(&s->t0) : first_accept_ns;
		r->end_ns = clock_now_ns();
	} else if (r->start_ns == UINT64_MAX) {
		r->start_ns = 0;
	}
}

int server_run(const struct wopts *o)
{
	struct server s = { .o = o, .ops = pattern_ops_of(o->pattern) };
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
	if (o->t->tcp_view && accepted)	/* no room: the record goes without tcp lines */
		r.tcp = calloc(accepted, sizeof(*r.tcp));
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
		r.tl_cpu_ns = tl.has_cpu ? tl.cpu : NULL;	/* CPU per interval */
		r.tl_interval_ns = o->totals ? 0 : tl.interval_ns ? tl.interval_ns : o->interval_ns;
		r.hwm_kib = proc_self_hwm_kib();
		if (o->human)
			server_report_human(&s, &r, first_read_msgs);
		else if (wire_write_result(o->report_fd, &r) < 0)
			rc = worker_failf(o, "report", "write result");
	}
	timeline_release(&tl);
	free(r.tcp);
	free(s.jobs);
	return rc;
}