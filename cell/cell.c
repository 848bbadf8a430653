/* One cell repetition: see cell.h. */
#include "cell.h"
#include "clock.h"
#include "outlog.h"
#include "program.h"
#include "remote.h"
#include "spawn.h"
#include "netns.h"
#include "worker_args.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define TICK_MS 200
#define GRACE_NS 1000000000ull

struct slot {
	struct child ch;
	struct wire_reader rd;
	struct worker_result *res;
	int started;
	const struct program *prog;	/* a program of the user's, or NULL */
	int remote;			/* over ssh (remote.h): its own start channel */
	size_t first_fig;		/* outlog: the index of its first figure's regex */
	struct outlog out;		/* a program's output, read by us */
	uint64_t t_start, t_end;	/* a program's spawn and reap */
	char name[32];
	char log[PATH_MAX];
};

struct run {
	const struct cell_ctx *ctx;
	const struct cell_params *p;
	struct cell_outcome *out;
	struct slot *slots;		/* [0] server, [1..n] clients */
	unsigned nslots;
	int start_rd, start_wr;
	int clients_started, go_sent;
	int fail_rank;			/* 0 none, 1 error/exit, 2 crash, 3 timeout/interrupt */
	int killing;
	uint64_t kill_at;
	struct server_addr addr;	/* where the server listens, in every form */
	uint64_t stop_at;		/* when a server still running after its clients is stopped */
	int server_quit;		/* a program server exited 0 by itself, clients running */
	struct placement place;		/* the CPUs of the server and of the clients */
};

/* Records a failure unless a graver one is already recorded; s is the
 * worker at fault, if any (its log is shown). */
__attribute__((format(printf, 5, 6)))
static void fail(struct run *r, const struct slot *s, int rank, const char *status,
		 const char *fmt, ...)
{
	va_list ap;

	if (rank <= r->fail_rank)
		return;
	r->fail_rank = rank;
	snprintf(r->out->log, sizeof(r->out->log), "%s", s ? s->log : "");
	snprintf(r->out->status, sizeof(r->out->status), "%s", status);
	va_start(ap, fmt);
	vsnprintf(r->out->error, sizeof(r->out->error), fmt, ap);
	va_end(ap);
}

static void common_args(struct run *r, struct spawn_argv *a, const char *role)
{
	const struct matrix *m = r->ctx->plan->m;

	worker_args_common(a, r->ctx->self_exe, r->p, program_cell_warmup(r->p, m->warmup),
			   m->timeout_ns + 2 * GRACE_NS, role);
	worker_args_netns(a, netns_of(r->ctx->net, role));
}

/* The descriptor a worker writes its output to: its log file, or for a
 * program of the user's a pipe we read (outlog.h: capped, and watched for
 * its `ready:` or `result:` regexes).  -1 with a message in err. */
static int open_log(struct run *r, struct slot *s, char *err, size_t errlen)
{
	int fd;

	snprintf(s->log, sizeof(s->log), "%s/cell%u-rep%u-%s.log", r->ctx->logdir,
		 r->ctx->cell->number, r->ctx->rep, s->name);
	for (char *c = strrchr(s->log, '/'); c && *c; c++)
		if (*c == ' ')
			*c = '-';
	if (s->prog) {
		const char *re[OUTLOG_MAX_RE];
		size_t n = program_watch(r->p, s == r->slots, re, OUTLOG_MAX_RE, &s->first_fig);
		fd = outlog_open(&s->out, s->log, err, errlen);
		if (fd >= 0 && outlog_watch(&s->out, re, n, err, errlen) < 0) {
			close(fd);
			outlog_close(&s->out);
			fd = -1;
		}
		return fd;
	}
	fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		snprintf(err, errlen, "cannot create %.400s: %s", s->log, strerror(errno));
	return fd;
}

/* A program server's timeline: lines in a stream cell, every one kept
 * (outlog_collect).  0, or -1 with a message in err. */
static int watch_timeline(struct run *r, struct slot *s, char *err, size_t errlen)
{
	const struct program_timeline *tl = s->prog ? &s->prog->timeline : NULL;

	if (s != r->slots || !tl || !tl->regex || !pattern_info(r->p->pattern)->receiver_times)
		return 0;
	r->out->has_prog_tl = 1;
	return outlog_collect(&s->out, tl->regex, tl->time_group ? tl->time_group : tl->index_group,
			      tl->messages_group ? tl->messages_group : tl->rate_group, err, errlen);
}

/* Its lines as rows of timeline.csv (before the output is closed). */
static void timeline_rows(struct run *r)
{
	const struct slot *srv = &r->slots[0];
	struct prog_tl_clock clk = { .server_ns = srv->t_start, .first_ns = UINT64_MAX };

	if (!r->out->has_prog_tl || !srv->out.npoints)
		return;
	for (unsigned i = 1; i < r->nslots; i++) {
		const struct slot *s = &r->slots[i];
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

/* The CPUs a worker may run on (cpu:), NULL when it is not placed. */
static const cpu_set_t *slot_cpus(const struct run *r, const struct slot *s)
{
	if (r->place.mode == PLACE_NONE)
		return NULL;
	return s == r->slots ? &r->place.server : &r->place.clients;
}

static int start_slot(struct run *r, struct slot *s, struct spawn_argv *a)
{
	char err[512];
	int logfd;

	if (a->overflow) {
		fail(r, NULL, 1, "command too long", "%s: more than %d words or %zu bytes", s->name,
		     SPAWN_MAX_ARGS - 1, sizeof(a->store));
		return -1;
	}
	s->out = (struct outlog){ .fd = -1, .logfd = -1 };
	logfd = open_log(r, s, err, sizeof(err));
	if (logfd >= 0 && watch_timeline(r, s, err, sizeof(err)) < 0) {
		close(logfd);
		outlog_close(&s->out);
		logfd = -1;
	}
	if (logfd < 0) {
		fail(r, NULL, 1, "log", "%s", err);
		return -1;
	}
	s->res = s == r->slots ? &r->out->server : &r->out->clients[s - r->slots - 1];
	worker_result_init(s->res);
	wire_reader_init(&s->rd);
	s->t_start = clock_now_ns();
	s->remote = !s->prog && matrix_remote_host(r->ctx->plan->m, s != r->slots);
	if ((s->remote ? remote_spawn(&s->ch, r->ctx->plan->m, r->p, s != r->slots, a, logfd, err,
				      sizeof(err))
	     : spawn_start_flags(&s->ch, a->argv, s->prog ? -1 : r->start_rd, logfd,
				 s->prog ? SPAWN_PROGRAM : 0, slot_cpus(r, s), err, sizeof(err))) < 0) {
		close(logfd);
		outlog_close(&s->out);
		unlink(s->log);
		fail(r, NULL, 1, s->prog ? "program failed to start" : "spawn failed", "%s: %s",
		     s->name, err);
		return -1;
	}
	close(logfd);
	s->started = 1;
	return 0;
}

static int start_server(struct run *r)
{
	struct spawn_argv a = { .argc = 0 };
	const struct cell_params *p = r->p;

	if (!p->transport->default_bind)
		snprintf(r->addr.path, sizeof(r->addr.path), "%s/c%u-r%u.sock", r->ctx->sockdir,
			 r->ctx->cell->number, r->ctx->rep);
	snprintf(r->slots[0].name, sizeof(r->slots[0].name), "server");
	if (p->server_prog) {	/* we choose its address and pass it in */
		r->slots[0].prog = p->server_prog;
		if (program_server_addr(p, &r->addr) < 0) {
			fail(r, NULL, 1, "no free port", "no free port on %s", r->addr.host);
			return -1;
		}
		program_argv(r->ctx->plan->m, r->ctx->cell, &r->addr, p->server_prog, 0, &a);
		return start_slot(r, &r->slots[0], &a);
	}
	common_args(r, &a, "server");
	char bind[300];
	worker_args_server(&a, p, netns_bind(r->ctx->net, p->transport->default_bind ?
					     remote_bind(r->ctx->plan->m, p->transport, bind,
							 sizeof(bind)) : r->addr.path));
	return start_slot(r, &r->slots[0], &a);
}

static void start_clients(struct run *r)
{
	const struct cell_params *p = r->p;

	r->clients_started = 1;
	for (unsigned i = 0; i < p->concurrency; i++) {
		struct spawn_argv a = { .argc = 0 };
		struct slot *s = &r->slots[i + 1];
		uint64_t share = plan_client_share(p, i + 1);

		snprintf(s->name, sizeof(s->name), "client%u", i + 1);
		if (p->client_prog) {
			s->prog = p->client_prog;
			program_argv(r->ctx->plan->m, r->ctx->cell, &r->addr, p->client_prog, i + 1,
				     &a);
			if (start_slot(r, s, &a) < 0)
				return;
			continue;
		}
		common_args(r, &a, "client");
		worker_args_client(&a, p, i + 1, share, r->addr.address);
		if (start_slot(r, s, &a) < 0)
			return;
	}
	close(r->start_rd);	/* the workers have their copies */
	r->start_rd = -1;
}

static void send_go(struct run *r)
{
	char go[1 + 1024];
	size_t n = 0;

	for (unsigned i = 0; i < r->nslots; i++)
		n += !r->slots[i].prog && !r->slots[i].remote;	/* programs do not read it */
	memset(go, 'g', n);
	/* one write: every worker polling the pipe wakes to its byte */
	r->out->release_ns = clock_now_ns();
	for (unsigned i = 0; i < r->nslots; i++)	/* a remote one's own, over ssh */
		if (r->slots[i].remote && write(r->slots[i].ch.stdin_wr, "g", 1) != 1)
			fail(r, &r->slots[i], 1, "start failed", "start byte to ssh: %s",
			     strerror(errno));
	if (n && write(r->start_wr, go, n) != (ssize_t)n)
		fail(r, NULL, 1, "start failed", "write to start pipe: %s", strerror(errno));
	close(r->start_wr);
	r->start_wr = -1;
	r->go_sent = 1;
}

/* "connect: Connection refused" from stage "connect" and message
 * "connect 127.0.0.1:1: Connection refused": the stage and the reason,
 * short enough to group rows by; the whole message goes in `error`. */
static void short_status(const struct worker_result *res, char *buf, size_t len)
{
	const char *reason = strrchr(res->error, ':');

	reason = reason && reason[1] == ' ' && strlen(reason + 2) <= 60 ? reason + 2 : res->error;
	snprintf(buf, len, "%s: %.100s", res->error_stage, reason);
}

static void on_line(struct run *r, struct slot *s, const char *line)
{
	char err[256];

	if (wire_apply(s->res, line, err, sizeof(err)) < 0) {
		fail(r, s, 1, "protocol error", "%s: %s", s->name, err);
		return;
	}
	if (s->res->error[0] && r->fail_rank < 1) {
		char status[160];
		short_status(s->res, status, sizeof(status));
		if (!strcmp(s->res->error_stage, "unavailable")) {
			snprintf(status, sizeof(status), "skipped: %.140s", s->res->error);
			r->out->skipped = 1;
		}
		fail(r, s, 1, status, "%s (pid %ld): %s: %s", s->name, (long)s->ch.pid,
		     s->res->error_stage, s->res->error);
	}
	if (s == r->slots && s->res->address[0] && !r->clients_started && !r->fail_rank) {
		program_server_addr_set(&r->addr, r->p->transport, s->res->address);
		start_clients(r);
	}
}

static void read_reports(struct run *r, struct slot *s)
{
	char *line;
	long n;

	while ((n = wire_reader_fill(&s->rd, s->ch.report_fd)) > 0) {
		int got;
		while ((got = wire_reader_next(&s->rd, &line)) == 1) {
			on_line(r, s, line);
			free(line);
		}
		if (got < 0)
			fail(r, s, 1, "protocol error", "%s: report line too long", s->name);
	}
	if (n == 0 || (n < 0 && errno != EAGAIN)) {
		close(s->ch.report_fd);
		s->ch.report_fd = -1;
	}
}

/* A program client that exited 0: the runner's own figures for it (its
 * share of the count, spawn to reap), and the ones its output gives. */
static void program_client_done(struct run *r, struct slot *s)
{
	unsigned id = (unsigned)(s - r->slots);
	double *printed = r->out->printed ? &r->out->printed[(id - 1) * PROGRAM_NFIGURES] : NULL;
	const char *found[OUTLOG_MAX_RE] = { NULL };
	char err[1024];

	for (size_t i = s->first_fig; i < OUTLOG_MAX_RE; i++)
		found[i - s->first_fig] = outlog_match(&s->out, i);
	if (printed && program_client_printed(r->p, s->prog, found, printed, err, sizeof(err)) < 0)
		fail(r, s, 1, "no result", "%s %s", s->name, err);
	program_client_figures(r->p, id, s->t_start, s->t_end, &s->ch.ru, printed, s->res);
}

/* A stream's program receiver that exited 0, or that we stopped (after
 * its figures came, or on a failure): its figures, those it printed and
 * the runner's (spawn of the first sender to its own exit). */
static void program_receiver_done(struct run *r, struct slot *s)
{
	const char *found[OUTLOG_MAX_RE] = { NULL };
	uint64_t first = UINT64_MAX;
	char err[1024];

	for (size_t i = s->first_fig; i < OUTLOG_MAX_RE; i++)
		found[i - s->first_fig] = outlog_match(&s->out, i);
	if (program_server_printed(s->prog, found, r->out->server_printed, err, sizeof(err)) < 0)
		fail(r, s, 1, "no result", "receiver %s", err);
	for (unsigned i = 1; i < r->nslots; i++)
		if (r->slots[i].started && r->slots[i].t_start < first)
			first = r->slots[i].t_start;
	program_server_figures(r->p, first == UINT64_MAX ? 0 : first,
			       s->ch.signalled_by_us ? 0 : s->t_end, &s->ch.ru,
			       r->out->server_printed, s->res);
}

/* A stream's program receiver, once every sender is done, owes its
 * figures: it is stopped once its result: regexes all matched (one like
 * source 001's never exits), and one timed whole-process must exit by
 * itself; the cell's deadline bounds both. */
static int receiver_owes(const struct run *r)
{
	const struct slot *s = &r->slots[0];
	unsigned done = 0;

	for (unsigned i = 1; i < r->nslots; i++)
		done += r->slots[i].ch.reaped;
	if (!pattern_info(r->p->pattern)->receiver_times || !r->p->server_prog || s->ch.reaped ||
	    !r->clients_started || done < r->nslots - 1)
		return 0;
	if (!program_times_itself(s->prog))
		return 1;
	for (size_t i = 0; i < s->prog->nserver_results; i++)
		if (!outlog_match(&s->out, s->first_fig + i))
			return 1;
	return 0;
}

static void server_quit_early(struct run *r)
{
	fail(r, &r->slots[0], 1, "server exited early", "server program (pid %ld) exited 0 "
	     "before its clients were done (a server that daemonizes cannot be measured)",
	     (long)r->slots[0].ch.pid);
}

/* A program server that exited 0 while its clients ran: fine if they all
 * succeeded (a server of one connection), else the cause of their
 * failure. */
static void server_quit_judged(struct run *r)
{
	if (!r->server_quit || r->fail_rank != 1)
		return;
	r->fail_rank = 0;
	server_quit_early(r);
}

/* Judges a reaped worker, after reading what it wrote before it died. */
static void on_exit_status(struct run *r, struct slot *s)
{
	char desc[128], status[160];
	int st = s->ch.status;

	s->t_end = clock_now_ns();
	if (s->prog)	/* all it printed, before its figures are read */
		outlog_drain(&s->out);
	if (s->prog && s != r->slots && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		program_client_done(r, s);
	if (s->prog && s == r->slots) {
		/* its CPU for cpu_us_per_msg: the whole process, as wait4 saw it */
		s->res->cpu_ns = clock_rusage_ns(&s->ch.ru);
		if (pattern_info(r->p->pattern)->receiver_times && r->clients_started &&
		    (s->ch.signalled_by_us || (WIFEXITED(st) && WEXITSTATUS(st) == 0)))
			program_receiver_done(r, s);
		/* one that serves a single connection ends with its client: it
		 * is only to blame if a client fails after (server_quit_judged) */
		if (!s->ch.signalled_by_us && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			if (r->clients_started && !r->fail_rank)
				r->server_quit = 1;
			else
				server_quit_early(r);
		}
	}
	if (s->ch.report_fd >= 0)
		read_reports(r, s);
	spawn_describe_status(st, desc, sizeof(desc));
	if (s->remote && remote_ssh_failed(&s->ch, s->log, s->ch.signalled_by_us ?
					   1 + !!*r->ctx->interrupted : 0, status, sizeof(status)))
		fail(r, s, 2, "ssh failed", "%s (ssh pid %ld): %s", s->name, (long)s->ch.pid, status);
	else if (spawn_crashed(&s->ch))
		fail(r, s, 2, desc, "%s (pid %ld) %s", s->name, (long)s->ch.pid, desc);
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0 && !s->ch.signalled_by_us) {
		if (s->res->error[0])
			short_status(s->res, status, sizeof(status));
		fail(r, s, 1, s->res->error[0] ? status : desc, "%s (pid %ld) %s%s%s",
		     s->name, (long)s->ch.pid, desc, s->res->error[0] ? ": " : "", s->res->error);
	}
}

/* Signals every worker still running.  One that has already died is
 * judged first, so that its own crash is not taken for our signal. */
static void signal_all(struct run *r, int sig)
{
	for (unsigned i = 0; i < r->nslots; i++) {
		struct slot *s = &r->slots[i];
		if (!s->started || s->ch.reaped)
			continue;
		if (spawn_reap(&s->ch))
			on_exit_status(r, s);
		else
			spawn_signal(&s->ch, sig);
	}
}

static const char *waiting_for(struct run *r, char *buf, size_t len)
{
	unsigned ready = 0;

	if (!r->clients_started)
		return "the server to listen";
	for (unsigned i = 1; i < r->nslots; i++)
		ready += r->slots[i].res && r->slots[i].res->ready;
	if (!r->go_sent) {
		snprintf(buf, len, "clients to connect and warm up (%u of %u ready)", ready,
			 r->nslots - 1);
		return buf;
	}
	if (receiver_owes(r))
		return program_times_itself(r->p->server_prog) ? "the receiver program to print "
		       "its result: figures" : "the receiver program to exit (it is timed to its "
		       "exit: its result: has no seconds or rate)";
	return "results";
}

/* The descriptors to wait on: each running worker's report pipe (until its
 * end of file) and pidfd (until it is reaped), owner[i] the slot of pfd[i].
 * Returns how many. */
static nfds_t poll_set(struct run *r, struct pollfd *pfd, struct slot **owner)
{
	nfds_t n = 0;

	for (unsigned i = 0; i < r->nslots; i++) {
		struct slot *s = &r->slots[i];
		if (!s->started)
			continue;
		/* a remote worker's ssh, reaped, past the SIGKILL round: its
		 * report pipe may be held by the run's ssh master (a session's
		 * descriptors are passed to it) until a stalled connection
		 * times out, 15 s on; what it had is read, the rest is lost */
		if (s->remote && s->ch.reaped && s->ch.report_fd >= 0 &&
		    r->kill_at == UINT64_MAX) {
			read_reports(r, s);
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
static int poll_ms(const struct run *r, uint64_t now, uint64_t deadline)
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
static int wait_workers(struct run *r, uint64_t deadline)
{
	struct pollfd pfd[2 * 1025];
	struct slot *owner[2 * 1025];
	uint64_t now = clock_now_ns();
	nfds_t n = poll_set(r, pfd, owner);

	if (!n)
		return 0;
	if (poll(pfd, n, poll_ms(r, now, deadline)) < 0 && errno != EINTR)
		fail(r, NULL, 3, "poll failed", "poll: %s", strerror(errno));
	/* exits first, so a crash is seen before the errors it causes in peers;
	 * without pidfds any exit means every worker is looked at (spawn.h) */
	int exited = spawn_exits_pending();
	for (nfds_t i = 0; i < n; i++)
		if (pfd[i].fd == owner[i]->ch.pidfd && (pfd[i].revents || exited) &&
		    spawn_reap(&owner[i]->ch))
			on_exit_status(r, owner[i]);
	for (nfds_t i = 0; i < n; i++)
		if (pfd[i].fd == owner[i]->ch.report_fd && pfd[i].revents)
			read_reports(r, owner[i]);
		else if (pfd[i].fd == owner[i]->out.fd && pfd[i].revents)
			outlog_read(&owner[i]->out);
	return 1;
}

/* The clients once a program server is ready (our server's `listen` line
 * starts them as it is read); the start signal once every client is. */
static void start_when_ready(struct run *r)
{
	/* a program server is ready when its socket listens (seen in /proc/net,
	 * without a connection) or its output says so */
	if (r->p->server_prog && !r->clients_started && !r->fail_rank && r->slots[0].started &&
	    !r->slots[0].ch.reaped && program_server_ready(r->p, &r->addr,
							outlog_match(&r->slots[0].out, 0) != NULL))
		start_clients(r);
	if (r->clients_started && !r->go_sent && !r->fail_rank) {
		unsigned ready = 0;	/* program clients started on their own */
		for (unsigned i = 1; i < r->nslots; i++)
			ready += r->slots[i].started && (r->slots[i].prog || r->slots[i].res->ready);
		if (ready == r->nslots - 1)
			send_go(r);
	}
}

/* When every client is done: a program server serves until we stop it
 * (SIGTERM, then SIGKILL after a grace, neither a failure); our server
 * ends by itself, unless a program client made fewer connections. */
static void stop_server_when_done(struct run *r)
{
	unsigned done = 0;

	if (!r->clients_started || r->killing || r->slots[0].ch.reaped)
		return;
	for (unsigned i = 1; i < r->nslots; i++)
		done += r->slots[i].ch.reaped;
	uint64_t t = clock_now_ns();
	if (done == r->nslots - 1 && !r->stop_at) {
		if (receiver_owes(r))
			return;
		r->stop_at = t + GRACE_NS;
		if (r->p->server_prog)
			spawn_signal(&r->slots[0].ch, SIGTERM);
	} else if (r->stop_at && t >= r->stop_at) {
		if (r->p->server_prog)
			spawn_signal(&r->slots[0].ch, SIGKILL);
		else if (r->p->client_prog)
			fail(r, &r->slots[0], 1, "server still waiting", "our server still "
			     "waits for connections after every program client exited: a client "
			     "made fewer connections than expected");
		r->stop_at = UINT64_MAX;
	}
}

/* An interrupt or the deadline is a failure; on the first failure every
 * worker gets SIGTERM, and SIGKILL once the grace is over. */
static void stop_on_failure(struct run *r, uint64_t deadline)
{
	uint64_t now = clock_now_ns();
	char buf[128];

	if (*r->ctx->interrupted)
		fail(r, NULL, 3, "interrupted", "interrupted by a signal while waiting for %s",
		     waiting_for(r, buf, sizeof(buf)));
	else if (now >= deadline)
		fail(r, r->p->server_prog && (!r->clients_started || receiver_owes(r)) ?
		     &r->slots[0] : NULL, 3, "timeout",
		     "timeout after %.3g s waiting for %s",
		     (double)r->ctx->plan->m->timeout_ns / 1e9, waiting_for(r, buf, sizeof(buf)));
	if (r->fail_rank && !r->killing) {
		if (r->start_wr >= 0) {	/* the unstarted see end of file and stop */
			close(r->start_wr);
			r->start_wr = -1;
		}
		signal_all(r, SIGTERM);
		r->killing = 1;
		r->kill_at = now + GRACE_NS;
	} else if (r->killing && now >= r->kill_at) {
		signal_all(r, SIGKILL);
		r->kill_at = UINT64_MAX;
	}
}

/* One pass of the event loop; 1 while anything is still running. */
static int step(struct run *r, uint64_t deadline)
{
	if (!wait_workers(r, deadline))
		return 0;
	start_when_ready(r);
	stop_server_when_done(r);
	stop_on_failure(r, deadline);
	if (r->ctx->tick)
		r->ctx->tick(r->ctx->tick_arg);
	return 1;
}

static void check_complete(struct run *r)
{
	for (unsigned i = 0; i < r->nslots && !r->fail_rank; i++) {
		struct slot *s = &r->slots[i];
		if (s->prog || !s->started)
			continue;	/* judged by its exit and its output */
		if (!s->res->ended || !s->res->has_result)
			fail(r, s, 1, "incomplete report", "%s (pid %ld) exited 0 without a complete "
			     "result record", s->name, (long)s->ch.pid);
	}
}

static void finish_slots(struct run *r)
{
	struct stat st;

	for (unsigned i = 0; i < r->nslots; i++) {
		struct slot *s = &r->slots[i];
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
static void remove_leftovers(struct run *r)
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
	struct run r = { .ctx = ctx, .p = p, .out = out, .start_rd = -1, .start_wr = -1 };
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
		fail(&r, NULL, 2, "ssh failed", "%s", unreached);
	} else if (pipe2(pipefd, O_CLOEXEC) < 0) {
		fail(&r, NULL, 1, "pipe failed", "start pipe: %s", strerror(errno));
	} else {
		r.start_rd = pipefd[0];
		r.start_wr = pipefd[1];
		start_server(&r);
	}
	while (step(&r, deadline))
		;
	server_quit_judged(&r);
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
