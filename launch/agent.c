/* `matrix agent`, the remote end of a run: see agent.h. */
#include "agent.h"
#include "agent_rec.h"
#include "hello.h"
#include "placement.h"
#include "spawn.h"
#include "stale.h"
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

#define AGENT_MAX_WORKERS 2100	/* a server and 1024 clients, twice over */

/* A worker of ours: its process, the write end of its start pipe, the
 * read end of its log pipe (-1 once closed). */
static struct aworker {
	int used;
	uint32_t seq;
	unsigned slot;
	struct child ch;
	int ctl_wr, log_rd;
} work[AGENT_MAX_WORKERS];

static char self[PATH_MAX];
static struct agent_buf outb;

/* One record to stdout, whole; -1 when it cannot go (the session is gone). */
static int send_rec(enum agent_rec_type type, uint32_t seq, unsigned slot, const void *data,
		    size_t len)
{
	if (agent_rec_put(&outb, type, seq, slot, data, len) < 0)
		return -1;
	while (agent_buf_size(&outb)) {
		ssize_t n = write(1, outb.p + outb.off, agent_buf_size(&outb));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			agent_buf_consume(&outb, agent_buf_size(&outb));
			return -1;
		}
		agent_buf_consume(&outb, (size_t)n);
	}
	return 0;
}

static struct aworker *find(uint32_t seq, unsigned slot)
{
	for (size_t i = 0; i < AGENT_MAX_WORKERS; i++)
		if (work[i].used && work[i].seq == seq && work[i].slot == slot)
			return &work[i];
	return NULL;
}

/* What *fd has, as records of type; at end of file (or an error) the fd
 * is closed and -1.  all: until it would block; else one read.  -1 when
 * stdout failed. */
static int forward(struct aworker *w, int *fd, enum agent_rec_type type, int all)
{
	static char buf[65536];
	ssize_t n;

	while (*fd >= 0) {
		n = read(*fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0) {
			close(*fd);
			*fd = -1;
			return 0;
		}
		if (send_rec(type, w->seq, w->slot, buf, (size_t)n) < 0)
			return -1;
		if (!all)
			return 0;
	}
	return 0;
}

static void forget(struct aworker *w)
{
	if (w->ctl_wr >= 0)
		close(w->ctl_wr);
	if (w->log_rd >= 0)
		close(w->log_rd);
	spawn_release(&w->ch);
	memset(w, 0, sizeof(*w));
}

/* A reaped worker: what its pipes still hold, then its exit. */
static int exited(struct aworker *w)
{
	char st[160];
	size_t n;

	if (forward(w, &w->ch.report_fd, AGENT_REPORT, 1) < 0 ||
	    forward(w, &w->log_rd, AGENT_LOG, 1) < 0)
		return -1;
	n = agent_exit_format(w->ch.status, &w->ch.ru, st, sizeof(st));
	int rc = send_rec(AGENT_EXIT, w->seq, w->slot, st, n);
	forget(w);
	return rc;
}

/* The CPUs of list into *set, each one this host has and lets us use:
 * 0, or -1 with why. */
static int cpus_here(const char *list, cpu_set_t *set, char *why, size_t whylen)
{
	cpu_set_t allowed, both;
	char have[256];

	CPU_ZERO(set);
	if (cpus_parse(list, set, why, whylen) < 0)
		return -1;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
		snprintf(why, whylen, "sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	CPU_AND(&both, set, &allowed);
	if (!CPU_EQUAL(&both, set)) {
		cpus_format(&allowed, have, sizeof(have));
		snprintf(why, whylen, "cpu: CPUs %s are not all ones this host has for us (allowed: "
			 "%s)", list, have);
		return -1;
	}
	return 0;
}

/* A spawn record: the worker started, or an error record saying why. */
static int spawn(const struct agent_rec *rec)
{
	char *argv[SPAWN_MAX_ARGS], why[512];
	const char *cpus;
	cpu_set_t set;
	int ctl[2] = { -1, -1 }, log[2] = { -1, -1 };
	struct aworker *w = NULL;

	if (find(rec->seq, rec->slot)) {
		snprintf(why, sizeof(why), "tag %u.%u is in use", (unsigned)rec->seq, rec->slot);
		goto fail;
	}
	if (agent_spawn_words(rec->data, rec->len, &cpus, argv, SPAWN_MAX_ARGS, why,
			      sizeof(why)) < 0 || (*cpus && cpus_here(cpus, &set, why, sizeof(why)) < 0))
		goto fail;
	for (size_t i = 0; i < AGENT_MAX_WORKERS && !w; i++)
		if (!work[i].used)
			w = &work[i];
	if (!w) {
		snprintf(why, sizeof(why), "more than %d workers at once", AGENT_MAX_WORKERS);
		goto fail;
	}
	/* only our end of the log pipe waits for nothing: the worker's
	 * stdout and stderr block as any program's do */
	if (pipe2(ctl, O_CLOEXEC) < 0 || pipe2(log, O_CLOEXEC) < 0 ||
	    fcntl(log[0], F_SETFL, O_NONBLOCK) < 0) {
		snprintf(why, sizeof(why), "pipe: %s", strerror(errno));
		goto fail;
	}
	argv[0] = self;
	if (spawn_start_flags(&w->ch, argv, ctl[0], log[1], 0, *cpus ? &set : NULL, why,
			      sizeof(why)) < 0)
		goto fail;
	close(ctl[0]);
	close(log[1]);
	w->used = 1;
	w->seq = rec->seq;
	w->slot = rec->slot;
	w->ctl_wr = ctl[1];
	w->log_rd = log[0];
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%ld", (long)w->ch.pid);
	return send_rec(AGENT_STARTED, rec->seq, rec->slot, pid, (size_t)n);
fail:
	for (int i = 0; i < 2; i++) {
		if (ctl[i] >= 0)
			close(ctl[i]);
		if (log[i] >= 0)
			close(log[i]);
	}
	return send_rec(AGENT_ERROR, rec->seq, rec->slot, why, strlen(why));
}

/* One record from the runner: 0, or -1 (a record that has no business
 * here, or stdout failed). */
static int handle(const struct agent_rec *rec)
{
	struct aworker *w = rec->type == AGENT_SPAWN ? NULL : find(rec->seq, rec->slot);
	uint64_t sig;

	switch (rec->type) {
	case AGENT_SPAWN:
		return spawn(rec);
	case AGENT_GO:	/* one that ended already has no use for it */
		if (w && w->ctl_wr >= 0 && write(w->ctl_wr, "g", 1) != 1) {
			close(w->ctl_wr);
			w->ctl_wr = -1;
		}
		return 0;
	case AGENT_END:
		if (w)
			spawn_signal(&w->ch, SIGKILL);
		return 0;
	case AGENT_KILL:
		if (agent_decimal(rec->data, rec->len, 64, &sig) < 0 || !sig) {
			fprintf(stderr, "matrix agent: a kill record of no signal number\n");
			return -1;
		}
		if (w)
			spawn_signal(&w->ch, (int)sig);
		return 0;
	default:
		fprintf(stderr, "matrix agent: a %s record comes from the agent, not to it\n",
			agent_rec_names[rec->type]);
		return -1;
	}
}

/* What stdin has: records handled.  1 while open, 0 at its end, -1 on a
 * protocol error. */
static int from_runner(struct agent_dec *d)
{
	char buf[65536], why[256];
	struct agent_rec rec;
	ssize_t n;
	int got;

	do
		n = read(0, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return 0;
	if (agent_dec_feed(d, buf, (size_t)n, why, sizeof(why)) < 0)
		goto bad;
	while ((got = agent_dec_next(d, &rec, why, sizeof(why))) == 1)
		if (handle(&rec) < 0)
			return -1;
	if (got < 0)
		goto bad;
	return 1;
bad:
	fprintf(stderr, "matrix agent: from the runner: %s\n", why);
	return -1;
}

/* The descriptors to wait on: [0] stdin, then each worker's report pipe,
 * log pipe and pidfd; who[i] its worker. */
static nfds_t poll_set(struct pollfd *pfd, struct aworker **who)
{
	nfds_t n = 1;

	pfd[0] = (struct pollfd){ .fd = 0, .events = POLLIN };
	who[0] = NULL;
	for (size_t i = 0; i < AGENT_MAX_WORKERS; i++) {
		struct aworker *w = &work[i];
		int fds[3] = { w->ch.report_fd, w->log_rd, w->ch.pidfd };
		for (int k = 0; w->used && k < 3; k++)
			if (fds[k] >= 0) {
				pfd[n] = (struct pollfd){ .fd = fds[k], .events = POLLIN };
				who[n++] = w;
			}
	}
	return n;
}

/* The loop: until stdin ends (0) or something fails (-1). */
static int serve(void)
{
	static struct pollfd pfd[1 + 3 * AGENT_MAX_WORKERS];
	static struct aworker *who[1 + 3 * AGENT_MAX_WORKERS];
	struct agent_dec d = { .in = { 0 } };
	int rc = 1;

	while (rc > 0) {
		nfds_t n = poll_set(pfd, who);
		if (poll(pfd, n, -1) < 0 && errno != EINTR)
			rc = -1;
		/* without pidfds any exit means every worker is looked at (spawn.h) */
		int any = spawn_exits_pending();
		for (nfds_t i = 1; i < n && rc > 0; i++) {
			struct aworker *w = who[i];
			if (!w->used || (!pfd[i].revents && !(any && pfd[i].fd == w->ch.pidfd)))
				continue;
			if (pfd[i].fd == w->ch.report_fd)
				rc = forward(w, &w->ch.report_fd, AGENT_REPORT, 0) < 0 ? -1 : 1;
			else if (pfd[i].fd == w->log_rd)
				rc = forward(w, &w->log_rd, AGENT_LOG, 0) < 0 ? -1 : 1;
			else if (pfd[i].fd == w->ch.pidfd && spawn_reap(&w->ch))
				rc = exited(w) < 0 ? -1 : 1;
		}
		if (rc > 0 && pfd[0].revents)
			rc = from_runner(&d);
	}
	agent_dec_release(&d);
	return rc;
}

/* The folder for the socket paths and FIFOs of workers of both roles on
 * this host (path transports): $TMPDIR/matrix-agent.XXXXXX, mode 0700,
 * said on the line after the hello (`agent tmp=PATH`, the path escaped as
 * on the wire; `agent tmp=` when none could be made); a guard (spawn.h)
 * removes it with all in it once the agent ends, however.  -1 when
 * stdout failed. */
static int private_folder(void)
{
	static char dir[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	char line[3 * PATH_MAX + 32], esc[3 * PATH_MAX], err[256];

	snprintf(dir, sizeof(dir), "%s/matrix-agent.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "matrix agent: cannot make a private folder %s: %s\n", dir,
			strerror(errno));
		*dir = '\0';
	} else if (spawn_guard_start(dir, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix agent: %s\n", err);
		rmdir(dir);
		*dir = '\0';
	}
	wire_escape(dir, esc, sizeof(esc));
	int n = snprintf(line, sizeof(line), "agent tmp=%s\n", esc);
	for (const char *p = line; n > 0;) {
		ssize_t w = write(1, p, (size_t)n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (int)w;
	}
	return 0;
}

int agent_main(int argc, char **argv)
{
	ssize_t n;
	int rc;

	if (argc > 1) {
		int help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");
		fprintf(help ? stdout : stderr, "%susage: matrix agent\n\nA remote host's end of a "
			"run with hosts:, started by the runner over ssh\nonce per host and run: "
			"reads records on stdin, starts and watches that host's\nworkers, writes "
			"their reports, logs and exits on stdout.  Not for use by hand.\n",
			help ? "" : "matrix agent: no arguments\n");
		return help ? 0 : 2;
	}
	/* sshd's session process, our parent since the remote shell exec'd
	 * us: gone already (re-parented), or when it goes, so do we */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() == 1) {
		fprintf(stderr, "matrix agent: the ssh session ended before the agent started\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	/* the workers run what the remote shell ran (argv[-1]: main's argv[0],
	 * as every command is called from its own name): the binary as the
	 * user named it (hosts: matrix:), else, found in PATH, this one */
	if (strchr(argv[-1], '/') && strlen(argv[-1]) < sizeof(self))
		snprintf(self, sizeof(self), "%s", argv[-1]);
	else if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) <= 0) {
		fprintf(stderr, "matrix agent: cannot find my own executable: %s\n", strerror(errno));
		return 2;
	} else {
		self[n] = '\0';
	}
	if (hello_write(1) < 0 || private_folder() < 0)
		return 0;	/* the session is gone */
	rc = serve();
	spawn_kill_all();	/* every worker, reaped */
	spawn_guard_stop();	/* it removes the folder */
	agent_buf_release(&outb);
	return rc < 0 ? 2 : 0;
}
