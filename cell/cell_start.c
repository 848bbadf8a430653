/* Starting a repetition's workers: see cell_start.h. */
#include "cell_start.h"
#include "clock.h"
#include "netns.h"
#include "remote.h"
#include "worker_args.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void common_args(struct cell_rep *r, struct spawn_argv *a, const char *role)
{
	const struct matrix *m = r->ctx->plan->m;

	worker_args_common(a, r->ctx->self_exe, r->p, program_cell_warmup(r->p, m->warmup),
			   m->timeout_ns + 2 * CELL_GRACE_NS, role);
	worker_args_netns(a, netns_of(r->ctx->net, role));
}

/* The descriptor a worker writes its output to: its log file, or for a
 * program of the user's a pipe we read (outlog.h: capped, and watched for
 * its `ready:` or `result:` regexes).  -1 with a message in err. */
static int open_log(struct cell_rep *r, struct cell_slot *s, char *err, size_t errlen)
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
		if (fd >= 0 && outlog_watch(&s->out, re, n, s->first_fig, err, errlen) < 0) {
			close(fd);
			outlog_close(&s->out);
			fd = -1;
		}
		return fd;
	}
	fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		snprintf(err, errlen, "cannot create %.400s: %s", s->log, strerror(errno));
	return fd;
}

/* A program server's timeline: lines in a stream cell, every one kept
 * (outlog_collect).  0, or -1 with a message in err. */
static int watch_timeline(struct cell_rep *r, struct cell_slot *s, char *err, size_t errlen)
{
	const struct program_timeline *tl = s->prog ? &s->prog->timeline : NULL;

	if (s != r->slots || !tl || !tl->regex || !pattern_info(r->p->pattern)->receiver_times)
		return 0;
	r->out->has_prog_tl = 1;
	return outlog_collect(&s->out, tl->regex, tl->time_group ? tl->time_group : tl->index_group,
			      tl->messages_group ? tl->messages_group : tl->rate_group, err, errlen);
}

/* The CPUs a worker may run on (cpu:), NULL when it is not placed. */
static const cpu_set_t *slot_cpus(const struct cell_rep *r, const struct cell_slot *s)
{
	if (r->place.mode == PLACE_NONE)
		return NULL;
	return s == r->slots ? &r->place.server : &r->place.clients;
}

static int start_slot(struct cell_rep *r, struct cell_slot *s, struct spawn_argv *a)
{
	char err[512];
	int logfd;

	if (a->overflow) {
		cell_rep_fail(r, NULL, 1, "command too long", "%s: more than %d words or %zu bytes",
			      s->name, SPAWN_MAX_ARGS - 1, sizeof(a->store));
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
		cell_rep_fail(r, NULL, 1, "log", "%s", err);
		return -1;
	}
	s->res = s == r->slots ? &r->out->server : &r->out->clients[s - r->slots - 1];
	worker_result_init(s->res);
	wire_reader_init(&s->rd);
	s->t_start = clock_now_ns();
	s->remote = !s->prog && matrix_remote_host(r->ctx->plan->m, s != r->slots);
	struct remote_tag tag = { r->ctx->cell->number, r->ctx->rep, (unsigned)(s - r->slots) };
	if ((s->remote ? remote_spawn(&s->ch, r->ctx->plan->m, r->p, s != r->slots, &tag, a,
				      slot_cpus(r, s), logfd, err, sizeof(err))
	     : spawn_start_flags(&s->ch, a->argv, s->prog ? -1 : r->start_rd, logfd,
				 s->prog ? SPAWN_PROGRAM : 0, slot_cpus(r, s), err, sizeof(err))) < 0) {
		close(logfd);
		outlog_close(&s->out);
		unlink(s->log);
		cell_rep_fail(r, NULL, 1, s->prog ? "program failed to start" : "spawn failed",
			      "%s: %s", s->name, err);
		return -1;
	}
	close(logfd);
	s->started = 1;
	return 0;
}

int cell_start_server(struct cell_rep *r)
{
	struct spawn_argv a = { .argc = 0 };
	const struct cell_params *p = r->p;
	const struct matrix *m = r->ctx->plan->m;
	char why[512];

	/* a remote role's CPUs are its host's, known from its handshake */
	if ((matrix_remote_host(m, 0) || matrix_remote_host(m, 1)) &&
	    remote_placement(m, p->cpu, &r->ctx->plan->cpus, &r->place, why, sizeof(why)) < 0) {
		cell_rep_fail(r, NULL, 1, "cpu", "cpu: %s", why);
		return -1;
	}
	/* a path transport: its socket or FIFO in the private folder of the
	 * host both roles run on (plan_check allows no other remote case) */
	const char *dir = matrix_remote_host(m, 0) ? remote_sockdir(m) : r->ctx->sockdir;
	if (!p->transport->default_bind && !dir) {
		cell_rep_fail(r, NULL, 2, "ssh failed", "no private folder on %s for transport %s's "
			      "paths (see the agent's message above)", matrix_remote_host(m, 0)->url,
			      p->transport->name);
		return -1;
	}
	if (!p->transport->default_bind)
		snprintf(r->addr.path, sizeof(r->addr.path), "%s/c%u-r%u.sock", dir,
			 r->ctx->cell->number, r->ctx->rep);
	snprintf(r->slots[0].name, sizeof(r->slots[0].name), "server");
	if (p->server_prog) {	/* we choose its address and pass it in */
		r->slots[0].prog = p->server_prog;
		if (program_server_addr(p, &r->addr) < 0) {
			cell_rep_fail(r, NULL, 1, "no free port", "no free port on %s",
				      r->addr.host);
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

void cell_start_clients(struct cell_rep *r)
{
	const struct cell_params *p = r->p;

	r->clients_started = 1;
	for (unsigned i = 0; i < p->concurrency; i++) {
		struct spawn_argv a = { .argc = 0 };
		struct cell_slot *s = &r->slots[i + 1];
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

static void send_go(struct cell_rep *r)
{
	char go[1 + 1024];
	size_t n = 0;

	for (unsigned i = 0; i < r->nslots; i++)
		n += !r->slots[i].prog && !r->slots[i].remote;	/* programs do not read it */
	memset(go, 'g', n);
	/* one write: every worker polling the pipe wakes to its byte */
	r->out->release_ns = clock_now_ns();
	for (unsigned i = 0; i < r->nslots; i++)	/* a remote one's own, by its agent */
		if (r->slots[i].remote && remote_go(&r->slots[i].ch) < 0)
			cell_rep_fail(r, &r->slots[i], 1, "start failed", "start byte to ssh: %s",
				      strerror(errno));
	remote_flush();	/* each agent's in one write */
	if (n && write(r->start_wr, go, n) != (ssize_t)n)
		cell_rep_fail(r, NULL, 1, "start failed", "write to start pipe: %s",
			      strerror(errno));
	close(r->start_wr);
	r->start_wr = -1;
	r->go_sent = 1;
}

void cell_start_when_ready(struct cell_rep *r)
{
	/* a program server is ready when its socket listens (seen in /proc/net,
	 * without a connection) or its output says so */
	if (r->p->server_prog && !r->clients_started && !r->fail_rank && r->slots[0].started &&
	    !r->slots[0].ch.reaped && program_server_ready(r->p, &r->addr,
							outlog_match(&r->slots[0].out, 0) != NULL))
		cell_start_clients(r);
	if (r->clients_started && !r->go_sent && !r->fail_rank) {
		unsigned ready = 0;	/* program clients started on their own */
		for (unsigned i = 1; i < r->nslots; i++)
			ready += r->slots[i].started && (r->slots[i].prog || r->slots[i].res->ready);
		if (ready == r->nslots - 1)
			send_go(r);
	}
}

