/* The runner's end of the remote agents: see remote_agent.h. */
#include "remote_agent.h"
#include "agent_rec.h"
#include "clock.h"
#include "hello.h"
#include "placement.h"
#include "ssh_cmd.h"
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/wait.h>

#define AGENT_HELLO_NS (20ull * 1000000000ull)	/* as the handshake's */
/* SIGKILL written to the agent, no exit and no byte from it since: the
 * session is stuck */
#define AGENT_KILL_NS (5ull * 1000000000ull)
#define AGENT_PEND_MAX (64u << 20)	/* report bytes waiting for room in a pipe */
#define AGENT_PEND_HOST (256u << 20)	/* and in all of a host's workers' */
#define AGENT_PROCS 2100

enum { HOST_NONE, HOST_UP, HOST_LOST };

static struct agent_host {
	int state;
	struct child ch;		/* the ssh */
	char log[PATH_MAX];		/* its stderr */
	struct agent_dec dec;
	struct agent_buf out;		/* records not yet written to its stdin */
	const struct host_url *u;
	int killed;			/* we ended the session: its workers' ends are ours */
	char tmp[PATH_MAX];		/* the agent's private folder there ("" none) */
	uint64_t queued, written;	/* bytes of records queued, written to its stdin */
	uint64_t heard_at;		/* when its stdout last brought bytes */
	size_t pend;			/* report bytes its workers' pend hold */
	uint32_t last_seq;		/* of the last agent_spawn */
	uint32_t fail_seq;		/* the repetition whose start of it failed; 0 none */
	unsigned gen, fail_gen;		/* agent_tmp's count of repetitions, the failed one's */
	int tmp_fresh;			/* its next call is the first repetition's */
	char why[400];			/* why that start failed */
} host[2];

static const struct matrix *mat;
static const volatile sig_atomic_t never;
static const volatile sig_atomic_t *stopflag = &never;	/* the run's interrupted flag */

enum { GONE_EXIT, GONE_SPAWN, GONE_LOST };

static struct aproc {
	int used, host;
	uint32_t seq;
	unsigned slot;
	struct child *ch;
	int report_wr, log_fd;
	struct agent_buf pend;
	int exit_in, gone, status, by_us;
	struct rusage ru;
	uint64_t kill_end;		/* h->queued after its SIGKILL record; 0 none */
	uint64_t kill_at;		/* when that record was all written; 0 not yet */
	char msg[512];
} procs[AGENT_PROCS];

/* ---- the sessions ---- */

static void host_end(int i, const char *why, int kill_now);

static void host_lost(int i, const char *why)
{
	host_end(i, why, why != NULL);
}

static void post(struct aproc *p)
{
	uint64_t one = 1;

	if (p->report_wr >= 0)
		close(p->report_wr);
	p->report_wr = -1;
	spawn_post_exit(p->ch, p->status, &p->ru);
	ssize_t n = write(p->ch->pidfd, &one, sizeof(one));	/* an eventfd takes it */

	(void)n;
}

/* Host i's session is over: its ssh reaped (SIGKILL now, or after a
 * second to end by itself and say why; what its agent still writes read
 * and dropped meanwhile), every worker of it ended with why
 * or else ssh's last line. */
static void host_end(int i, const char *why, int kill_now)
{
	struct agent_host *h = &host[i];
	char msg[512] = "";

	if (h->state != HOST_UP)
		return;
	for (int ms = 0; !spawn_reap(&h->ch); ms++) {
		char junk[65536];	/* an agent blocked on its stdout sees our EOF */
		while (h->ch.report_fd >= 0 && read(h->ch.report_fd, junk, sizeof(junk)) > 0)
			;
		if (ms == 1000 || (kill_now && !ms))
			spawn_signal(&h->ch, SIGKILL);
		usleep(1000);
	}
	if (why)
		snprintf(msg, sizeof(msg), "%s", why);
	else
		ssh_log_last_line(h->log, msg, sizeof(msg));
	if (!strncmp(msg, "Killed by signal", 16))
		*msg = '\0';
	if (!*msg)
		snprintf(msg, sizeof(msg), "the agent's ssh session ended (%s) and said nothing",
			 WIFEXITED(h->ch.status) ? "exit status" : "killed");
	for (size_t k = 0; k < AGENT_PROCS; k++) {
		struct aproc *p = &procs[k];
		if (!p->used || p->host != i || p->exit_in)
			continue;
		p->exit_in = 1;
		p->gone = GONE_LOST;
		p->by_us = h->killed;
		p->status = 255 << 8;
		snprintf(p->msg, sizeof(p->msg), "%s", msg);
		if (!agent_buf_size(&p->pend))
			post(p);	/* else once the pipe took the rest (agent_pump) */
	}
	spawn_release(&h->ch);
	agent_dec_release(&h->dec);
	agent_buf_release(&h->out);
	h->state = HOST_LOST;
	h->killed = 0;
}

/* The agent's hello in what its stdout brought: lines before it (a shell's
 * greeting) skipped, then its `agent tmp=` line (h->tmp), what follows
 * fed to the decoder.  1 once both came, 0 not yet, -1 with why (another
 * wire version, too much before it, no tmp line after it). */
static int hello_in(struct agent_host *h, struct agent_buf *b, int *hello_seen, char *why,
		    size_t whylen)
{
	struct hostfacts facts;
	int version;

	for (;;) {
		char *p = b->p + b->off, *nl = agent_buf_size(b) ? memchr(p, '\n', agent_buf_size(b))
					      : NULL;
		if (!nl)
			break;
		*nl = '\0';
		if (*hello_seen && strncmp(p, "agent tmp=", 10)) {
			snprintf(why, whylen, "no `agent tmp=` line after its hello");
			return -1;
		}
		if (*hello_seen) {
			wire_unescape(p + 10, h->tmp, sizeof(h->tmp));
			agent_buf_consume(b, (size_t)(nl + 1 - p));
			return agent_dec_feed(&h->dec, b->p + b->off, agent_buf_size(b), why,
					      whylen) < 0 ? -1 : 1;
		}
		if (!strncmp(p, "hello ", 6)) {
			if (hello_parse(p, &version, &facts, why, whylen) < 0)
				return -1;
			if (version != WIRE_VERSION) {
				snprintf(why, whylen, "its matrix agent speaks wire version %d, this "
					 "matrix speaks version %d", version, WIRE_VERSION);
				return -1;
			}
			*hello_seen = 1;
		}
		agent_buf_consume(b, (size_t)(nl + 1 - p));
	}
	if (agent_buf_size(b) > 65536) {
		snprintf(why, whylen, "no hello line from `matrix agent` in its first 64 KiB");
		return -1;
	}
	return 0;
}

/* Waits for host i's hello (AGENT_HELLO_NS at most, or the interrupt):
 * 0, or -1 with why. */
static int hello_wait(int i, char *why, size_t whylen)
{
	struct agent_host *h = &host[i];
	struct agent_buf b = { 0 };
	uint64_t end = clock_now_ns() + AGENT_HELLO_NS;
	char buf[8192];
	int got = 0, seen = 0;

	while (!got && clock_now_ns() < end && !*stopflag) {
		struct pollfd p = { .fd = h->ch.report_fd, .events = POLLIN };
		poll(&p, 1, 100);
		ssize_t n = read(h->ch.report_fd, buf, sizeof(buf));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			snprintf(why, whylen, "ended before its hello");
			got = -1;
		} else if (n > 0 && agent_buf_add(&b, buf, (size_t)n, 1u << 20) < 0) {
			snprintf(why, whylen, "out of memory for its hello");
			got = -1;
		} else if (n > 0) {
			got = hello_in(h, &b, &seen, why, whylen);
		}
	}
	if (!got)
		snprintf(why, whylen, *stopflag ? "interrupted" : "no hello from `matrix agent` in %llu s",
			 AGENT_HELLO_NS / 1000000000ull);
	agent_buf_release(&b);
	return got == 1 ? 0 : -1;
}

#define next_seq(seq) ((seq) == UINT32_MAX ? 1 : (seq) + 1)	/* as remote_spawn's */

/* Host i's start failed for repetition seq: why on stderr and kept for
 * its workers' rows. */
static void start_failed(int i, uint32_t seq, const char *why)
{
	struct agent_host *h = &host[i];
	snprintf(h->why, sizeof(h->why), "%.399s", why);
	fprintf(stderr, "matrix: hosts: matrix agent on %s: %s\n", h->u->url, why);
	h->fail_seq = seq;
	h->fail_gen = h->gen;
}

/* Host i's session started and greeted for repetition seq: HOST_UP, or
 * HOST_LOST with the reason on stderr (no new try in that repetition). */
static void host_start(int i, uint32_t seq)
{
	static struct spawn_argv a;
	struct agent_host *h = &host[i];
	char *words[] = { "matrix", "agent", NULL }, err[512] = "";
	int logfd;

	a = (struct spawn_argv){ .argc = 0 };
	ssh_cmd_argv(mat, h->u, NULL, words, &a);
	h->state = HOST_LOST;
	logfd = open(h->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (logfd < 0)
		snprintf(err, sizeof(err), "%.300s: %s", h->log, strerror(errno));
	else if (a.overflow)
		snprintf(err, sizeof(err), "its ssh command is too long");
	if (*err || spawn_start_flags(&h->ch, a.argv, -1, logfd, SPAWN_STDIO, NULL, err,
				      sizeof(err)) < 0) {
		if (logfd >= 0)
			close(logfd);
		start_failed(i, seq, err);
		return;
	}
	close(logfd);
	fcntl(h->ch.stdin_wr, F_SETFL, O_NONBLOCK);
	h->dec = (struct agent_dec){ .in = { 0 } };
	h->out = (struct agent_buf){ 0 };
	h->queued = h->written = 0;
	h->fail_seq = 0;
	h->state = HOST_UP;
	if (hello_wait(i, err, sizeof(err)) < 0) {
		char msg[600], last[256];
		ssh_log_last_line(h->log, last, sizeof(last));
		snprintf(msg, sizeof(msg), "%.150s%s%.150s", err, *last ? ": " : "", last);
		start_failed(i, seq, msg);
		h->killed = 1;
		snprintf(msg, sizeof(msg), "matrix agent on %.150s: %s", h->u->url, h->why);
		host_lost(i, msg);
	}
}

void agent_hosts_start(const struct matrix *m, const char *sockdir,
		       const volatile sig_atomic_t *stop, const struct host_url *s,
		       const struct host_url *c)
{
	mat = m;
	stopflag = stop ? stop : &never;
	memset(host, 0, sizeof(host));
	host[0].u = s;
	host[1].u = c && !(s && !strcmp(s->url, c->url)) ? c : NULL;
	for (int i = 0; i < 2; i++)
		if (host[i].u) {
			snprintf(host[i].log, sizeof(host[i].log), "%s/agent-%d.log", sockdir, i);
			host[i].gen = host[i].tmp_fresh = 1;
			host_start(i, next_seq(0));
		}
}

void agent_hosts_stop(void)
{
	for (int i = 0; i < 2; i++) {
		struct agent_host *h = &host[i];
		if (h->state == HOST_UP) {
			close(h->ch.stdin_wr);	/* the agent ends its workers, then itself */
			h->ch.stdin_wr = -1;
			h->killed = 1;
			host_end(i, "the run ended", 0);
		}
		if (h->log[0])
			unlink(h->log);
		memset(h, 0, sizeof(*h));
	}
}

/* Writes what host i has queued, as far as its stdin takes it now. */
static void host_flush(int i)
{
	struct agent_host *h = &host[i];

	while (h->state == HOST_UP && agent_buf_size(&h->out)) {
		ssize_t n = write(h->ch.stdin_wr, h->out.p + h->out.off, agent_buf_size(&h->out));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			host_lost(i, NULL);
			return;
		}
		agent_buf_consume(&h->out, (size_t)n);
		h->written += (uint64_t)n;
	}
}

void agent_flush(void)
{
	for (int i = 0; i < 2; i++)
		host_flush(i);
}

static void queue(struct aproc *p, enum agent_rec_type type, const void *data, size_t len)
{
	struct agent_host *h = &host[p->host];

	if (h->state != HOST_UP)
		return;
	size_t before = agent_buf_size(&h->out);
	if (agent_rec_put(&h->out, type, p->seq, p->slot, data, len) < 0)
		host_lost(p->host, "cannot queue a record for the agent (out of memory)");
	else
		h->queued += agent_buf_size(&h->out) - before;
}

/* ---- the workers ---- */

/* n bytes off the front of p's pend, and off its host's count. */
static void pend_drop(struct aproc *p, size_t n)
{
	size_t *total = &host[p->host].pend;

	n = n < agent_buf_size(&p->pend) ? n : agent_buf_size(&p->pend);
	agent_buf_consume(&p->pend, n);
	*total -= n < *total ? n : *total;
}

static void proc_signal(struct child *ch, int sig)
{
	struct aproc *p = ch->ops_arg;
	char num[16];

	if (!p || p->exit_in)
		return;
	if (*stopflag) {	/* the run ends: so does the session, now (nothing
			 * remote outlives it), without waiting on a stalled one */
		host[p->host].killed = 1;
		host_end(p->host, "the run was interrupted", 1);
		return;
	}
	queue(p, AGENT_KILL, num, (size_t)snprintf(num, sizeof(num), "%d", sig));
	if (sig == SIGKILL && !p->kill_end && host[p->host].state == HOST_UP)
		p->kill_end = host[p->host].queued;	/* its clock starts once written */
	host_flush(p->host);
}

static void proc_release(struct child *ch)
{
	struct aproc *p = ch->ops_arg;

	if (!p)
		return;
	if (!p->exit_in) {	/* the agent kills it (its exit record is dropped) */
		queue(p, AGENT_END, NULL, 0);
		host_flush(p->host);
	}
	if (p->report_wr >= 0)
		close(p->report_wr);
	if (p->log_fd >= 0)
		close(p->log_fd);
	pend_drop(p, agent_buf_size(&p->pend));
	agent_buf_release(&p->pend);
	memset(p, 0, sizeof(*p));
	ch->ops_arg = NULL;
}

static const struct child_ops proc_ops = { .signal = proc_signal, .release = proc_release };

/* The spawn record's payload: the CPU list, then the words, each ended
 * by a NUL; 0, or -1 when it is too long. */
static int spawn_payload(const struct spawn_argv *worker, const cpu_set_t *cpus,
			 struct agent_buf *b)
{
	char list[4096] = "";

	if (cpus)
		cpus_format(cpus, list, sizeof(list));
	if (agent_buf_add(b, list, strlen(list) + 1, AGENT_REC_MAX) < 0)
		return -1;
	for (int k = 0; k < worker->argc; k++)
		if (agent_buf_add(b, worker->argv[k], strlen(worker->argv[k]) + 1, AGENT_REC_MAX) < 0)
			return -1;
	return 0;
}

/* A free entry for ch, its pipes and eventfd made: NULL with err. */
static struct aproc *proc_new(struct child *ch, int i, int log_fd, char *err, size_t errlen)
{
	struct aproc *p = NULL;
	int rep[2];

	for (size_t k = 0; k < AGENT_PROCS && !p; k++)
		if (!procs[k].used)
			p = &procs[k];
	if (!p) {
		snprintf(err, errlen, "more than %d remote workers at once", AGENT_PROCS);
		return NULL;
	}
	memset(ch, 0, sizeof(*ch));
	ch->pidfd = ch->report_fd = ch->stdin_wr = -1;
	if (pipe2(rep, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return NULL;
	}
	fcntl(rep[1], F_SETPIPE_SZ, 1 << 20);	/* fewer bytes to hold here */
	/* exit_in until it is whole: a failure here queues no end record
	 * (its tag is not yet set, and the agent never heard of it) */
	*p = (struct aproc){ .used = 1, .host = i, .ch = ch, .report_wr = rep[1], .log_fd = -1,
			     .exit_in = 1 };
	ch->report_fd = rep[0];
	ch->ops = &proc_ops;
	ch->ops_arg = p;
	if ((ch->pidfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		snprintf(err, errlen, "eventfd: %s", strerror(errno));
	else if ((p->log_fd = fcntl(log_fd, F_DUPFD_CLOEXEC, 3)) < 0)
		snprintf(err, errlen, "the log's descriptor (F_DUPFD): %s", strerror(errno));
	if (ch->pidfd < 0 || p->log_fd < 0) {
		spawn_release(ch);
		return NULL;
	}
	p->exit_in = 0;
	return p;
}

int agent_spawn(struct child *ch, int i, uint32_t seq, unsigned slot,
		const struct spawn_argv *worker, const cpu_set_t *cpus, int log_fd, char *err,
		size_t errlen)
{
	struct agent_buf b = { 0 };
	struct aproc *p;

	if (!host[i].u) {
		snprintf(err, errlen, "no agent for this host (its handshake failed)");
		return -1;
	}
	if (host[i].state != HOST_UP && host[i].fail_seq != seq)
		host_start(i, seq);	/* once a repetition: an unreachable host is slow */
	host[i].last_seq = seq;
	if (spawn_payload(worker, cpus, &b) < 0) {
		agent_buf_release(&b);
		snprintf(err, errlen, "the worker's command is too long");
		return -1;
	}
	if (!(p = proc_new(ch, i, log_fd, err, errlen))) {
		agent_buf_release(&b);
		return -1;
	}
	p->seq = seq;
	p->slot = slot;
	if (host[i].state == HOST_UP) {
		queue(p, AGENT_SPAWN, b.p, agent_buf_size(&b));
		host_flush(i);
	}
	agent_buf_release(&b);
	if (host[i].state != HOST_UP && !p->exit_in) {	/* no session to start it in */
		p->exit_in = 1;
		p->gone = GONE_LOST;
		p->status = 255 << 8;
		snprintf(p->msg, sizeof(p->msg), "no session with matrix agent on %.150s: %.300s",
			 host[i].u->url, host[i].fail_seq == seq ? host[i].why : "it ended");
	}
	if (p->exit_in && !ch->posted)
		post(p);
	return 0;
}

const char *agent_tmp(int i)
{
	if (!host[i].u)
		return NULL;
	struct agent_host *h = &host[i];

	h->gen += !h->tmp_fresh;	/* called as each repetition starts, its spawns after */
	h->tmp_fresh = 0;
	if (h->state != HOST_UP && h->fail_gen != h->gen)
		host_start(i, next_seq(h->last_seq));
	return host[i].state == HOST_UP && host[i].tmp[0] ? host[i].tmp : NULL;
}

void agent_go(struct child *ch)
{
	struct aproc *p = ch->ops_arg;

	if (p && !p->exit_in)
		queue(p, AGENT_GO, NULL, 0);
}

int agent_poll_fds(struct pollfd *pfd, int max)
{
	int n = 0;

	for (int i = 0; i < 2; i++) {
		struct agent_host *h = &host[i];
		if (h->state != HOST_UP || n + 3 > max)
			continue;
		pfd[n++] = (struct pollfd){ .fd = h->ch.report_fd, .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = h->ch.pidfd, .events = POLLIN };
		if (agent_buf_size(&h->out))
			pfd[n++] = (struct pollfd){ .fd = h->ch.stdin_wr, .events = POLLOUT };
	}
	return n;
}

static struct aproc *proc_of(int i, const struct agent_rec *rec)
{
	for (size_t k = 0; k < AGENT_PROCS; k++)
		if (procs[k].used && procs[k].host == i && procs[k].seq == rec->seq &&
		    procs[k].slot == rec->slot)
			return &procs[k];
	return NULL;
}

/* Report bytes waiting for p's pipe, into it as far as it takes them. */
static void pend_flush(struct aproc *p)
{
	while (p->report_wr >= 0 && agent_buf_size(&p->pend)) {
		ssize_t n = write(p->report_wr, p->pend.p + p->pend.off, agent_buf_size(&p->pend));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {	/* the cell stopped reading it */
			pend_drop(p, agent_buf_size(&p->pend));
			return;
		}
		pend_drop(p, (size_t)n);
	}
}

static void log_bytes(struct aproc *p, const char *data, size_t len)
{
	while (p->log_fd >= 0 && len) {
		ssize_t n = write(p->log_fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;	/* a full disk loses the log, not the run */
		data += n;
		len -= (size_t)n;
	}
}

/* One record from host i's agent: 0, or -1 with why (a protocol error). */
static int take(int i, const struct agent_rec *rec, char *why, size_t whylen)
{
	struct aproc *p = proc_of(i, rec);
	uint64_t pid;

	if (rec->type < AGENT_STARTED) {
		snprintf(why, whylen, "a %s record comes from the runner, not to it",
			 agent_rec_names[rec->type]);
		return -1;
	}
	if (!p || p->exit_in)	/* a worker we are done with */
		return 0;
	switch (rec->type) {
	case AGENT_STARTED:
		if (agent_decimal(rec->data, rec->len, INT32_MAX, &pid) < 0) {
			snprintf(why, whylen, "a started record without a pid");
			return -1;
		}
		p->ch->pid = (pid_t)pid;
		return 0;
	case AGENT_REPORT:
		if (host[i].pend + rec->len > AGENT_PEND_HOST) {
			snprintf(why, whylen, "more than %u MiB of its workers' reports not read",
				 AGENT_PEND_HOST >> 20);
			return -1;
		}
		if (agent_buf_add(&p->pend, rec->data, rec->len, AGENT_PEND_MAX) < 0) {
			snprintf(why, whylen, "more than %u MiB of report not read", AGENT_PEND_MAX >> 20);
			return -1;
		}
		host[i].pend += rec->len;
		pend_flush(p);
		return 0;
	case AGENT_LOG:
		log_bytes(p, rec->data, rec->len);
		return 0;
	case AGENT_EXIT:
		if (agent_exit_parse(rec->data, rec->len, &p->status, &p->ru, why, whylen) < 0)
			return -1;
		p->exit_in = 1;
		return 0;
	default:	/* AGENT_ERROR */
		agent_plain_text(rec->data, rec->len, p->msg, sizeof(p->msg));
		p->exit_in = 1;
		p->gone = GONE_SPAWN;
		p->status = 127 << 8;
		return 0;
	}
}

/* What host i's agent has sent, taken; its end or a protocol error ends
 * the session. */
static void host_read(int i)
{
	struct agent_host *h = &host[i];
	char buf[65536], why[256], msg[400];
	struct agent_rec rec;
	size_t total = 0;
	int got;

	while (h->state == HOST_UP && total < (4u << 20)) {
		ssize_t n = read(h->ch.report_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			host_lost(i, agent_dec_partial(&h->dec) ? "the agent's output ends inside a "
				  "record" : NULL);
			return;
		}
		total += (size_t)n;
		h->heard_at = clock_now_ns();
		got = agent_dec_feed(&h->dec, buf, (size_t)n, why, sizeof(why));
		while (!got && (got = agent_dec_next(&h->dec, &rec, why, sizeof(why))) == 1)
			got = take(i, &rec, why, sizeof(why)) < 0 ? -1 : 0;
		if (got < 0) {
			snprintf(msg, sizeof(msg), "protocol error from matrix agent on %s: %s",
				 h->u->url, why);
			host_lost(i, msg);
		}
	}
}

/* A SIGKILL asked of p: its clock started once the record was all
 * written; the session lost when neither its exit nor any byte from its
 * agent came within AGENT_KILL_NS of that or of the agent's last byte,
 * or at once when the run is interrupted. */
static void kill_check(struct aproc *p, uint64_t now)
{
	struct agent_host *h = &host[p->host];

	if (p->exit_in || !p->kill_end || h->state != HOST_UP)
		return;
	if (*stopflag) {	/* as proc_signal: no waiting on a stalled session */
		h->killed = 1;
		host_end(p->host, "the run was interrupted", 1);
		return;
	}
	if (!p->kill_at && h->written >= p->kill_end)
		p->kill_at = now;
	uint64_t since = p->kill_at > h->heard_at ? p->kill_at : h->heard_at;
	if (p->kill_at && now > since && now - since > AGENT_KILL_NS) {
		h->killed = 1;
		host_lost(p->host, "no exit from a remote worker and no word from its agent 5 s "
			  "after SIGKILL: the session is stuck (ssh killed)");
	}
}

void agent_pump(void)
{
	for (int i = 0; i < 2; i++) {
		host_flush(i);
		host_read(i);
		if (host[i].state == HOST_UP && spawn_reap(&host[i].ch))
			host_lost(i, NULL);
	}
	uint64_t now = clock_now_ns();	/* after host_read's heard_at */

	for (size_t k = 0; k < AGENT_PROCS; k++) {
		struct aproc *p = &procs[k];
		if (!p->used || p->ch->posted)
			continue;
		kill_check(p, now);
		pend_flush(p);
		if (p->exit_in && !agent_buf_size(&p->pend))
			post(p);
	}
}

int agent_child_failed(const struct child *ch, int ours, int *spawn, char *msg, size_t len)
{
	const struct aproc *p = ch->ops_arg;

	*spawn = 0;
	if (!p || p->gone == GONE_EXIT)
		return 0;
	*spawn = p->gone == GONE_SPAWN;
	if (!*spawn && ours && p->by_us)
		return 0;	/* we ended the session: the failure is said already */
	snprintf(msg, len, "%s", p->msg);
	return 1;
}
