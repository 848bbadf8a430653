/* One cell repetition: see cell.h.  The event loop; its steps are in
 * cell_start.c (the workers started), cell_judge.c (what they say and how
 * they exit, judged) and cell_stop.c (the workers ended). */
#include "cell.h"
#include "cell_judge.h"
#include "cell_rep.h"
#include "cell_start.h"
#include "cell_stop.h"
#include "clock.h"
#include "netns.h"
#include "outlog.h"
#include "program.h"
#include "remote.h"
#include "spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define TICK_MS 200

/* Its lines as rows of timeline.csv (before the output is closed). */
static void timeline_rows(struct cell_rep *r)
{
	const struct cell_slot *srv = &r->slots[0];
	struct prog_tl_clock clk = { .server_ns = srv->t_start, .first_ns = UINT64_MAX };

	if (!r->out->has_prog_tl || !srv->out.npoints)
		return;
	for (unsigned i = 1; i < r->nslots; i++) {
		const struct cell_slot *s = &r->slots[i];
		if (s->started && s->t_start < clk.first_ns)
			clk.first_ns = s->t_start;
		if (s->started && s->ch.reaped && s->t_end > clk.last_ns)
			clk.last_ns = s->t_end;
	}
	if (clk.first_ns == UINT64_MAX || !(r->out->prog_tl = malloc(srv->out.npoints *
								     sizeof(*r->out->prog_tl))))
		return;
	r->out->nprog_tl = prog_timeline_rows(&srv->prog->timeline, srv->out.points,
					      srv->out.npoints, &clk, r->out->prog_tl);
}

/* The descriptors to wait on: each running worker's report pipe (until its
 * end of file) and pidfd (until it is reaped), owner[i] the slot of pfd[i];
 * first, while workers run, the link process's control socket (owner
 * NULL), that reads at its end, then the remote agents' (owner NULL,
 * *first counts them all).  Returns how many. */
static nfds_t poll_set(struct cell_rep *r, struct pollfd *pfd, struct cell_slot **owner,
		       nfds_t *first)
{
	nfds_t n = 0;
	int link = netns_link_fd(r->ctx->net);

	if (link >= 0) {
		pfd[n] = (struct pollfd){ .fd = link, .events = POLLIN };
		owner[n++] = NULL;
	}
	for (int k = remote_poll_fds(pfd + n, 8); k > 0; k--)
		owner[n++] = NULL;
	*first = n;

	for (unsigned i = 0; i < r->nslots; i++) {
		struct cell_slot *s = &r->slots[i];
		if (!s->started)
			continue;
		/* a remote worker's ssh, reaped, past the SIGKILL round: its
		 * report pipe may be held by the run's ssh master (a session's
		 * descriptors are passed to it) until a stalled connection
		 * times out, 15 s on; what it had is read, the rest is lost */
		if (s->remote && s->ch.reaped && s->ch.report_fd >= 0 &&
		    r->kill_at == UINT64_MAX) {
			cell_judge_reports(r, s);
			if (s->ch.report_fd >= 0)
				close(s->ch.report_fd);
			s->ch.report_fd = -1;
		}
		if (s->ch.report_fd >= 0) {
			pfd[n] = (struct pollfd){ .fd = s->ch.report_fd, .events = POLLIN };
			owner[n++] = s;
		}
		if (!s->ch.reaped) {
			pfd[n] = (struct pollfd){ .fd = s->ch.pidfd, .events = POLLIN };
			owner[n++] = s;
		}
		if (s->out.fd >= 0 && !s->ch.reaped) {	/* a program's output */
			pfd[n] = (struct pollfd){ .fd = s->out.fd, .events = POLLIN };
			owner[n++] = s;
		}
	}
	return n;
}

/* How long one poll may wait: until the next tick, or sooner for the
 * deadline, the SIGKILL round, the server's stop, a program's readiness. */
static int poll_ms(const struct cell_rep *r, uint64_t now, uint64_t deadline)
{
	uint64_t wake = deadline;

	if (r->killing)		/* past the deadline: wake for the SIGKILL round */
		wake = r->kill_at;
	if (r->stop_at && r->stop_at < wake)
		wake = r->stop_at;
	uint64_t left_ms = wake > now ? (wake - now) / 1000000 + 1 : 0;
	int ms = left_ms > TICK_MS ? TICK_MS : (int)left_ms;
	if (r->p->server_prog && !r->clients_started && ms > 10)
		ms = 10;	/* probing a program server for readiness */
	return ms;
}

/* Waits for the workers' reports and exits, and handles what came; 0 when
 * no worker is left to wait for. */
static int wait_workers(struct cell_rep *r, uint64_t deadline)
{
	struct pollfd pfd[3 * 1025 + 9];
	struct cell_slot *owner[3 * 1025 + 9];
	uint64_t now = clock_now_ns();
	nfds_t first, n = poll_set(r, pfd, owner, &first);	/* first: past the link's, the agents' */
	char why[256];

	if (n == first)		/* no worker left */
		return 0;
	if (poll(pfd, n, poll_ms(r, now, deadline)) < 0 && errno != EINTR)
		cell_rep_fail(r, NULL, 3, "poll failed", "poll: %s", strerror(errno));
	/* the link process gone: nothing crosses any more, so the workers
	 * would wait for the timeout; failed now, before what it makes them
	 * say (a worker's error ranks below) */
	if (netns_link_fd(r->ctx->net) >= 0 && pfd[0].revents &&
	    netns_link_lost(r->ctx->net, why, sizeof(why)))
		cell_rep_fail(r, NULL, 2, "link failed", "%s", why);
	/* what the agents sent: into the remote workers' pipes and eventfds,
	 * looked at below (on the next pass for what turns readable now) */
	remote_pump();
	/* exits first, so a crash is seen before the errors it causes in peers;
	 * without pidfds any exit means every worker is looked at (spawn.h) */
	int exited = spawn_exits_pending();
	for (nfds_t i = first; i < n; i++)
		if (pfd[i].fd == owner[i]->ch.pidfd && (pfd[i].revents || exited) &&
		    spawn_reap(&owner[i]->ch))
			cell_judge_exit(r, owner[i]);
	for (nfds_t i = first; i < n; i++)
		if (pfd[i].fd == owner[i]->ch.report_fd && pfd[i].revents)
			cell_judge_reports(r, owner[i]);
		else if (pfd[i].fd == owner[i]->out.fd && pfd[i].revents)
			outlog_read(&owner[i]->out);
	return 1;
}

/* One pass of the event loop; 1 while anything is still running. */
static int step(struct cell_rep *r, uint64_t deadline)
{
	if (!wait_workers(r, deadline))
		return 0;
	cell_start_when_ready(r);
	cell_stop_server_when_done(r);
	cell_stop_on_failure(r, deadline);
	if (r->ctx->tick)
		r->ctx->tick(r->ctx->tick_arg);
	return 1;
}

static void check_complete(struct cell_rep *r)
{
	for (unsigned i = 0; i < r->nslots && !r->fail_rank; i++) {
		struct cell_slot *s = &r->slots[i];
		if (s->prog || !s->started)
			continue;	/* judged by its exit and its output */
		if (!s->res->ended || !s->res->has_result)
			cell_rep_fail(r, s, 1, "incomplete report", "%s (pid %ld) exited 0 without "
				      "a complete result record", s->name, (long)s->ch.pid);
	}
}

static void finish_slots(struct cell_rep *r)
{
	struct stat st;

	for (unsigned i = 0; i < r->nslots; i++) {
		struct cell_slot *s = &r->slots[i];
		if (!s->started)
			continue;
		/* what a program forked may outlive it: its whole group goes now */
		spawn_group_end(&s->ch);
		struct rusage *ru = i ? &r->out->clients_ru : &r->out->server_ru;
		ru->ru_utime.tv_sec += s->ch.ru.ru_utime.tv_sec;
		ru->ru_utime.tv_usec += s->ch.ru.ru_utime.tv_usec;
		ru->ru_stime.tv_sec += s->ch.ru.ru_stime.tv_sec;
		ru->ru_stime.tv_usec += s->ch.ru.ru_stime.tv_usec;
		ru->ru_nvcsw += s->ch.ru.ru_nvcsw;
		ru->ru_nivcsw += s->ch.ru.ru_nivcsw;
		if (s->ch.ru.ru_maxrss > ru->ru_maxrss)
			ru->ru_maxrss = s->ch.ru.ru_maxrss;
		spawn_release(&s->ch);
		wire_reader_release(&s->rd);
		outlog_close(&s->out);	/* the marker, if it was cut */
		if (stat(s->log, &st) == 0 && st.st_size == 0)
			unlink(s->log);
	}
	/* point at the failing worker's log only when it has something */
	if (r->out->log[0] && stat(r->out->log, &st) == 0) {
		const char *base = strrchr(r->out->log, '/');
		size_t len = strlen(r->out->error);
		snprintf(r->out->error + len, sizeof(r->out->error) - len, "; log: logs/%s",
			 base ? base + 1 : r->out->log);
	} else {
		r->out->log[0] = '\0';
	}
}

/* Everything this repetition's workers made in the private folder is
 * named after its socket path (cN-rR.sock and cN-rR.sock.*). */
static void remove_leftovers(struct cell_rep *r)
{
	char prefix[64], path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (!r->addr.path[0] || !(d = opendir(r->ctx->sockdir)))
		return;
	snprintf(prefix, sizeof(prefix), "c%u-r%u.sock", r->ctx->cell->number, r->ctx->rep);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)) &&
		    (e->d_name[strlen(prefix)] == '\0' || e->d_name[strlen(prefix)] == '.')) {
			snprintf(path, sizeof(path), "%s/%s", r->ctx->sockdir, e->d_name);
			unlink(path);
		}
	closedir(d);
}

int cell_run(const struct cell_ctx *ctx, struct cell_outcome *out)
{
	const struct cell_params *p = &ctx->cell->p;
	struct cell_rep r = { .ctx = ctx, .p = p, .out = out, .start_rd = -1, .start_wr = -1 };
	int pipefd[2];
	uint64_t t0 = clock_now_ns(), deadline = t0 + ctx->plan->m->timeout_ns;

	memset(out, 0, sizeof(*out));
	plan_placement(ctx->plan, p, &r.place);
	snprintf(r.addr.tmp, sizeof(r.addr.tmp), "%s", ctx->sockdir);	/* {tmp} */
	worker_result_init(&out->server);
	out->nclients = p->concurrency;
	out->clients = calloc(p->concurrency, sizeof(*out->clients));
	r.nslots = p->concurrency + 1;
	r.slots = calloc(r.nslots, sizeof(*r.slots));
	if (!out->clients || !r.slots) {
		free(r.slots);
		snprintf(out->status, sizeof(out->status), "out of memory");
		return 0;
	}
	for (unsigned i = 0; i < p->concurrency; i++)
		worker_result_init(&out->clients[i]);
	out->measured_by_process = p->client_prog != NULL;
	out->printed = malloc((size_t)p->concurrency * PROGRAM_NFIGURES * sizeof(*out->printed));
	for (size_t i = 0; out->printed && i < (size_t)p->concurrency * PROGRAM_NFIGURES; i++)
		out->printed[i] = NAN;
	for (size_t i = 0; i < PROGRAM_NFIGURES; i++)
		out->server_printed[i] = NAN;
	char unreached[768];
	out->cross_host = remote_cross(ctx->plan->m);
	out->remote_clients = matrix_remote_host(ctx->plan->m, 1) != NULL;
	if (remote_hello_failed(ctx->plan->m, unreached, sizeof(unreached))) {
		cell_rep_fail(&r, NULL, 2, "ssh failed", "%s", unreached);
	} else if (pipe2(pipefd, O_CLOEXEC) < 0) {
		cell_rep_fail(&r, NULL, 1, "pipe failed", "start pipe: %s", strerror(errno));
	} else {
		r.start_rd = pipefd[0];
		r.start_wr = pipefd[1];
		cell_start_server(&r);
	}
	while (step(&r, deadline))
		;
	cell_judge_server_quit(&r);
	if (!r.fail_rank)
		check_complete(&r);
	timeline_rows(&r);
	finish_slots(&r);
	if (r.start_rd >= 0)
		close(r.start_rd);
	if (r.start_wr >= 0)
		close(r.start_wr);
	remove_leftovers(&r);	/* a killed worker leaves its socket files and FIFOs */
	free(r.slots);
	out->wall_s = (double)(clock_now_ns() - t0) / 1e9;
	out->ok = !r.fail_rank;
	if (out->ok)
		snprintf(out->status, sizeof(out->status), "ok");
	return *ctx->interrupted ? -1 : 0;
}

void cell_outcome_release(struct cell_outcome *out)
{
	worker_result_release(&out->server);
	for (unsigned i = 0; i < out->nclients; i++)
		worker_result_release(&out->clients[i]);
	free(out->clients);
	free(out->printed);
	free(out->prog_tl);
	out->clients = NULL;
	out->printed = NULL;
	out->prog_tl = NULL;
	out->nclients = 0;
}

void cell_outcome_refused(const struct cell *c, const char *status, const char *why,
			  const char *log, struct cell_outcome *out)
{
	memset(out, 0, sizeof(*out));
	worker_result_init(&out->server);
	snprintf(out->status, sizeof(out->status), "%s", status);
	snprintf(out->error, sizeof(out->error), "%s", why);
	snprintf(out->log, sizeof(out->log), "%s", log);
	out->measured_by_process = c->p.client_prog != NULL;
}
