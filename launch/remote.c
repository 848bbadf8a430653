/* Workers on other hosts over OpenSSH: see remote.h. */
#include "remote.h"
#include "remote_agent.h"
#include "ssh_cmd.h"
#include "clock.h"
#include "hello.h"
#include "hostfacts.h"
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#define HELLO_TIMEOUT_NS (20ull * 1000000000ull)	/* ConnectTimeout's 10 s, and more */

/* The handshake with each role's host (remote_hello), [0] server, [1]
 * clients; one host serving both is asked once. */
static struct {
	int done, failed;
	char msg[512];
	struct hostfacts facts;
} hello[2];

/* The run's interrupted flag (remote_hello): the waits for a handshake
 * or a master end early when it is set. */
static const volatile sig_atomic_t never;
static const volatile sig_atomic_t *stop = &never;

/* One ssh ControlMaster per remote host for the run (remote_masters_start):
 * [0] the server's host, [1] the clients' (unused when the same). */
#define MUX_MAX_SESSIONS 8	/* sshd's MaxSessions is 10 by default */
static struct {
	struct child ch;
	int up;
	char path[PATH_MAX];
	char log[PATH_MAX];	/* its stderr: what it says when its connection drops */
	int waited;		/* a session we stopped waited for it, this cell */
} mux[2];

static int same_host(const struct host_url *a, const struct host_url *b)
{
	return a && b && !strcmp(a->url, b->url);
}

int remote_cross(const struct matrix *m)
{
	const struct host_url *s = matrix_remote_host(m, 0), *c = matrix_remote_host(m, 1);

	return (s || c) && !same_host(s, c);
}

const char *remote_bind(const struct matrix *m, const struct transport *t, char *buf,
			size_t len)
{
	const struct host_url *s = matrix_remote_host(m, 0);
	const char *host = m->hosts.server_address ? m->hosts.server_address : s ? s->host : NULL;

	if (!host || (!s && !matrix_remote_host(m, 1)))
		return t->default_bind;
	snprintf(buf, len, strchr(host, ':') ? "[%s]:0" : "%s:0", host);
	return buf;
}

/* The ssh sessions a cell of p opens on role's host. */
static unsigned cell_sessions(const struct matrix *m, const struct cell_params *p, int client)
{
	const struct host_url *s = matrix_remote_host(m, 0), *c = matrix_remote_host(m, 1);
	int same = same_host(s, c);

	return (client || same ? p->concurrency : 0) + (!client || same ? 1 : 0);
}

/* The master's control socket for role's host, when it is up and the
 * cell's sessions fit in one connection; else NULL (a connection each). */
static const char *mux_path(const struct matrix *m, const struct cell_params *p, int client)
{
	int i = client && !same_host(matrix_remote_host(m, 0), matrix_remote_host(m, 1));

	if (!mux[i].up || cell_sessions(m, p, client) > MUX_MAX_SESSIONS)
		return NULL;
	if (spawn_reap(&mux[i].ch)) {	/* the connection dropped: ssh goes direct */
		mux[i].up = 0;
		return NULL;
	}
	return mux[i].path;
}

int remote_agent_on(void)
{
	const char *env = getenv("MATRIX_NO_AGENT");

	return !(env && *env && strcmp(env, "0"));
}

int remote_spawn(struct child *ch, const struct matrix *m, const struct cell_params *p, int client,
		 const struct remote_tag *tag, const struct spawn_argv *worker,
		 const cpu_set_t *cpus, int log_fd, char *err, size_t errlen)
{
	static struct spawn_argv a;
	static unsigned last_cell, last_rep;
	static uint32_t seq;
	char *words[SPAWN_MAX_ARGS + 1];
	int n = 0;

	if (remote_agent_on()) {
		if (!seq || tag->cell != last_cell || tag->rep != last_rep)
			seq = seq == UINT32_MAX ? 1 : seq + 1;	/* a new repetition */
		last_cell = tag->cell;
		last_rep = tag->rep;
		return agent_spawn(ch, client && !same_host(matrix_remote_host(m, 0),
							    matrix_remote_host(m, 1)),
				   seq, tag->slot, worker, cpus, log_fd, err, errlen);
	}
	if (cpus) {	/* plan_check refuses it: a last guard */
		snprintf(err, errlen, "cpu: with a remote role needs the agent (MATRIX_NO_AGENT is set)");
		return -1;
	}

	for (; n < worker->argc; n++)
		words[n] = worker->argv[n];
	words[n++] = "--stdio";
	words[n] = NULL;
	a = (struct spawn_argv){ .argc = 0 };
	mux[0].waited = mux[1].waited = 0;	/* a new cell */
	ssh_cmd_argv(m, matrix_remote_host(m, client), mux_path(m, p, client), words, &a);
	if (worker->overflow || a.overflow) {
		snprintf(err, errlen, "the ssh command is too long");
		return -1;
	}
	return spawn_start_flags(ch, a.argv, -1, log_fd, SPAWN_STDIO, NULL, err, errlen);
}

int remote_spawn_failed(const struct child *ch, char *msg, size_t len)
{
	int spawn;

	return ch->ops && agent_child_failed(ch, 0, &spawn, msg, len) && spawn;
}

int remote_ssh_failed(const struct child *ch, const char *log, int ours, char *msg, size_t len)
{
	int spawn;

	if (ch->ops)
		return agent_child_failed(ch, ours, &spawn, msg, len) && !spawn;
	if (!ch->reaped || !WIFEXITED(ch->status) || WEXITSTATUS(ch->status) != 255)
		return 0;
	ssh_log_last_line(log, msg, len);
	if (!strncmp(msg, "Killed by signal", 16))	/* ours: ssh says so */
		*msg = '\0';
	/* a session of a master says nothing when the master's connection
	 * drops: the master does, as it ends; waited for a second, or once a
	 * cell 0.5 s for a session we stopped after a failure (the failure
	 * may be the drop, seen first by a peer), not after an interrupt */
	for (int i = 0; i < 2 && !*msg; i++) {
		int limit = !ours ? 1000 : ours == 1 && !mux[i].waited ? 500 : 0;
		for (int ms = 0; mux[i].up && ms < limit && !spawn_reap(&mux[i].ch); ms += 10)
			usleep(10000);
		mux[i].waited |= ours != 0;
		if (mux[i].log[0] && (mux[i].ch.reaped || !mux[i].up))
			ssh_log_last_line(mux[i].log, msg, len);
	}
	if (!*msg && ours)
		return 0;
	if (!*msg)
		snprintf(msg, len, "ssh exited 255 and said nothing: the remote worker was killed "
			 "by a signal, or the connection was lost");
	return 1;
}

/* ---- the handshake ---- */

/* Reads what fd has into buf (keeping the last cap-1 bytes); 0 at end of
 * file or error, 1 while open. */
static int take(int fd, char *buf, size_t cap, size_t *len)
{
	char tmp[4096];
	ssize_t n;

	while ((n = read(fd, tmp, sizeof(tmp))) > 0) {
		if ((size_t)n >= cap)
			n = (ssize_t)cap - 1;
		if (*len + (size_t)n >= cap) {	/* keep the end */
			size_t drop = *len + (size_t)n - (cap - 1);
			memmove(buf, buf + drop, *len - drop);
			*len -= drop;
		}
		memcpy(buf + *len, tmp, (size_t)n);
		*len += (size_t)n;
		buf[*len] = '\0';
	}
	return n < 0 && (errno == EAGAIN || errno == EINTR);
}

/* How a handshake ended early (hello_run's *cut). */
enum { HELLO_SLOW = 1, HELLO_STOPPED };

/* Waits for ch (the handshake's ssh) and reads its stdout and stderr
 * (ep) into out and errs; SIGKILL when it takes longer than
 * HELLO_TIMEOUT_NS (*cut HELLO_SLOW) or the run is interrupted
 * (HELLO_STOPPED).  Once ssh is reaped, a second at most for what its
 * pipes still hold: a child of ssh's (a ProxyCommand, a ControlPersist
 * master) may keep them open for ever. */
static void hello_wait(struct child *ch, int ep, char *out, size_t outcap, char *errs,
		       size_t errcap, int *cut)
{
	uint64_t deadline = clock_now_ns() + HELLO_TIMEOUT_NS, left = UINT64_MAX;
	size_t olen = 0, elen = 0;
	int open_out = 1, open_err = 1;

	*cut = 0;
	while ((!spawn_reap(ch) || open_out || open_err) && clock_now_ns() < left) {
		struct pollfd p[3] = { { .fd = open_out ? ch->report_fd : -1, .events = POLLIN },
				       { .fd = open_err ? ep : -1, .events = POLLIN },
				       { .fd = ch->reaped ? -1 : ch->pidfd, .events = POLLIN } };
		if (ch->reaped && left == UINT64_MAX)
			left = clock_now_ns() + 1000000000ull;
		if (!ch->reaped && !*cut && (*stop || clock_now_ns() > deadline)) {
			*cut = *stop ? HELLO_STOPPED : HELLO_SLOW;
			spawn_signal(ch, SIGKILL);
		}
		poll(p, 3, 100);
		spawn_exits_pending();
		if (open_out)
			open_out = take(ch->report_fd, out, outcap, &olen);
		if (open_err)
			open_err = take(ep, errs, errcap, &elen);
	}
}

/* Runs `matrix worker --hello` on u: its stdout and stderr into out and
 * errs, its wait status into *status, *cut as hello_wait's.  0, or -1
 * with err (ssh missing). */
static int hello_run(const struct matrix *m, const struct host_url *u, char *out, size_t outcap,
		     char *errs, size_t errcap, int *status, int *cut, char *err, size_t errlen)
{
	static struct spawn_argv a;
	char *words[] = { "matrix", "worker", "--hello", NULL };
	int ep[2];
	struct child ch;

	a = (struct spawn_argv){ .argc = 0 };
	ssh_cmd_argv(m, u, NULL, words, &a);
	if (pipe2(ep, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	if (spawn_start_flags(&ch, a.argv, -1, ep[1], SPAWN_STDIO, NULL, err, errlen) < 0) {
		close(ep[0]);
		close(ep[1]);
		if (errno == ENOENT || strstr(err, "not found"))
			snprintf(err, errlen, "hosts: needs ssh (Debian: openssh-client): not found in "
				 "PATH");
		return -1;
	}
	close(ep[1]);
	close(ch.stdin_wr);	/* --hello reads nothing */
	ch.stdin_wr = -1;
	hello_wait(&ch, ep[0], out, outcap, errs, errcap, cut);
	*status = ch.status;
	close(ep[0]);
	spawn_release(&ch);
	return 0;
}

/* The hello line in what the remote command printed: the first line
 * starting "hello " (a shell startup file of the remote user's may print
 * lines before it), cut at its end; else the first line, and 0. */
static int hello_line(char *out, char **line)
{
	for (char *p = out; *p; p += strcspn(p, "\n"), p += *p == '\n')
		if (!strncmp(p, "hello ", 6)) {
			p[strcspn(p, "\n")] = '\0';
			*line = p;
			return 1;
		}
	out[strcspn(out, "\n")] = '\0';
	*line = out;
	return 0;
}

/* hello[i]'s failure: the run goes on, its cells fail with msg. */
static void hello_failed(int i, const struct host_url *u, int status, int cut, const char *exe,
			 const char *line)
{
	char desc[64];

	hello[i].failed = 1;
	spawn_describe_status(status, desc, sizeof(desc));
	if (cut == HELLO_STOPPED) {
		snprintf(hello[i].msg, sizeof(hello[i].msg), "the handshake was interrupted");
		return;	/* the run is */
	}
	if (cut == HELLO_SLOW)
		snprintf(hello[i].msg, sizeof(hello[i].msg), "no answer from `%.200s worker --hello` "
			 "in %llu s (ssh killed)%s%.200s", exe, HELLO_TIMEOUT_NS / 1000000000ull,
			 *line ? ": " : "", line);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 255)
		snprintf(hello[i].msg, sizeof(hello[i].msg), "%s", *line ? line :
			 "ssh exited 255 and said nothing");
	else
		snprintf(hello[i].msg, sizeof(hello[i].msg), "%s worker --hello: %s%s%.400s",
			 exe, desc, *line ? ": " : "", line);
	fprintf(stderr, "matrix: hosts: %s %s: %s; its cells fail with this (status "
		"`ssh failed`)\n", i ? "client" : "server", u->url, hello[i].msg);
}

/* The handshake with u into hello[i]; -1 with err when the run must not
 * start. */
static int hello_host(const struct matrix *m, const struct host_url *u, int i, char *err,
		      size_t errlen)
{
	char out[8192] = "", errs[4096] = "", line[512], why[256], *hl;
	const char *exe = m->hosts.matrix ? m->hosts.matrix : "matrix";
	int status, version, cut;

	if (hello_run(m, u, out, sizeof(out), errs, sizeof(errs), &status, &cut, err, errlen) < 0)
		return -1;
	hello[i].done = 1;
	ssh_last_line(errs, strlen(errs), line, sizeof(line));
	if (cut || !WIFEXITED(status) || WEXITSTATUS(status)) {
		hello_failed(i, u, status, cut, exe, line);
		return 0;
	}
	int found = hello_line(out, &hl);
	if (!found || hello_parse(hl, &version, &hello[i].facts, why, sizeof(why)) < 0 ||
	    version != WIRE_VERSION) {
		if (found && version)
			snprintf(line, sizeof(line), "%d", version);
		else
			snprintf(line, sizeof(line), "none (no `hello version=` line; it printed "
				 "'%.200s')", hl);
		snprintf(err, errlen, "hosts: %s %s: %s there speaks wire version %s, this matrix "
			 "speaks version %d: install the same matrix on both hosts (or point "
			 "hosts: matrix: at it)", i ? "client" : "server", u->url, exe, line,
			 WIRE_VERSION);
		return -1;
	}
	return 0;
}

int remote_hello(const struct matrix *m, const volatile sig_atomic_t *interrupted, char *err,
		 size_t errlen)
{
	const struct host_url *s = matrix_remote_host(m, 0), *c = matrix_remote_host(m, 1);

	stop = interrupted ? interrupted : &never;
	memset(hello, 0, sizeof(hello));
	if (s && hello_host(m, s, 0, err, errlen) < 0)
		return -1;
	if (c && same_host(s, c))
		hello[1] = hello[0];
	else if (c && hello_host(m, c, 1, err, errlen) < 0)
		return -1;
	return 0;
}

int remote_hello_failed(const struct matrix *m, char *msg, size_t len)
{
	for (int i = 0; i < 2; i++)
		if (matrix_remote_host(m, i) && hello[i].failed) {
			snprintf(msg, len, "%s %s: %s", i ? "client" : "server", matrix_remote_host(m, i)->url,
				 hello[i].msg);
			return 1;
		}
	return 0;
}

void remote_meta(struct meta *meta, const struct matrix *m)
{
	static const char *const keys[2][4] = {
		{ "server_kernel", "server_cpu_model", "server_cores", "server_governor" },
		{ "client_kernel", "client_cpu_model", "client_cores", "client_governor" },
	};

	if (!m->hosts.set)
		return;
	for (int i = 0; i < 2; i++) {
		const struct host_url *u = matrix_remote_host(m, i);
		const struct hostfacts *f = &hello[i].facts;
		meta_set(meta, i ? "client_host" : "server_host", "%s", u ? u->url : "local");
		if (!u)
			continue;
		int ok = hello[i].done && !hello[i].failed;
		meta_set(meta, keys[i][0], "%s", ok ? f->kernel : "unknown (no handshake)");
		meta_set(meta, keys[i][1], "%s", ok ? f->cpu_model : "unknown (no handshake)");
		meta_set(meta, keys[i][2], "%s", ok ? f->cores : "unknown (no handshake)");
		meta_set(meta, keys[i][3], "%s", ok ? f->governor : "unknown (no handshake)");
	}
}

/* ---- one connection per host: ssh's ControlMaster ---- */

/* Ends mux[i]'s master, if any: SIGTERM (ssh removes its socket), then
 * SIGKILL after a second. */
static void mux_stop(int i)
{
	if (mux[i].ch.pid <= 0)
		return;
	spawn_signal(&mux[i].ch, SIGTERM);
	for (int ms = 0; !spawn_reap(&mux[i].ch); ms++) {
		if (ms == 1000)
			spawn_signal(&mux[i].ch, SIGKILL);
		usleep(1000);
	}
	spawn_release(&mux[i].ch);
	unlink(mux[i].path);
	unlink(mux[i].log);
	memset(&mux[i], 0, sizeof(mux[i]));
}

/* The master for u into mux[i]: `ssh -M -N` with its control socket in
 * the run's private folder, up once the socket is there.  Nothing on
 * failure: the sessions connect each on their own then. */
static void mux_start(const struct matrix *m, const struct host_url *u, int i,
		      const char *sockdir)
{
	static struct spawn_argv a;
	char *none[] = { NULL }, err[256];
	int logfd;

	snprintf(mux[i].path, sizeof(mux[i].path), "%s/ssh-%d", sockdir, i);
	snprintf(mux[i].log, sizeof(mux[i].log), "%s/ssh-%d.log", sockdir, i);
	logfd = open(mux[i].log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	a = (struct spawn_argv){ .argc = 0 };
	spawn_argv_add(&a, "ssh");
	spawn_argv_add(&a, "-M");
	spawn_argv_add(&a, "-N");
	spawn_argv_add(&a, "-o");
	spawn_argv_add(&a, "ControlPath=%s", mux[i].path);
	/* a ControlPersist of the user's ssh_config would fork the master
	 * into the background: no longer our child, nor ended by us */
	spawn_argv_add(&a, "-o");
	spawn_argv_add(&a, "ControlPersist=no");
	/* then what every session has, no remote command */
	struct spawn_argv rest = { .argc = 0 };
	ssh_cmd_argv(m, u, NULL, none, &rest);
	for (int k = 1; k < rest.argc; k++)
		spawn_argv_add(&a, "%s", rest.argv[k]);
	if (logfd < 0 || a.overflow ||
	    spawn_start_flags(&mux[i].ch, a.argv, -1, logfd, SPAWN_STDIO, NULL, err,
			      sizeof(err)) < 0) {
		if (logfd >= 0)
			close(logfd);
		unlink(mux[i].log);
		mux[i].log[0] = '\0';
		return;
	}
	close(logfd);
	close(mux[i].ch.stdin_wr);	/* -N: reads nothing */
	mux[i].ch.stdin_wr = -1;
	for (uint64_t end = clock_now_ns() + HELLO_TIMEOUT_NS; clock_now_ns() < end && !*stop;) {
		if (access(mux[i].path, F_OK) == 0) {
			mux[i].up = 1;
			return;
		}
		if (spawn_reap(&mux[i].ch))
			break;
		usleep(5000);
	}
	mux_stop(i);
}

int remote_one_host(const struct matrix *m)
{
	return same_host(matrix_remote_host(m, 0), matrix_remote_host(m, 1));
}

const char *remote_sockdir(const struct matrix *m)
{
	return remote_agent_on() && remote_one_host(m) ? agent_tmp(0) : NULL;
}

int remote_go(struct child *ch)
{
	if (ch->ops) {
		agent_go(ch);
		return 0;
	}
	return write(ch->stdin_wr, "g", 1) == 1 ? 0 : -1;
}

void remote_flush(void)
{
	agent_flush();
}

int remote_poll_fds(struct pollfd *pfd, int max)
{
	return agent_poll_fds(pfd, max);
}

void remote_pump(void)
{
	agent_pump();
}

void remote_masters_start(const struct matrix *m, const char *sockdir)
{
	const struct host_url *s = matrix_remote_host(m, 0), *c = matrix_remote_host(m, 1);

	if (remote_agent_on()) {	/* no master: one session per host, its agent's */
		const struct host_url *ok[2] = { hello[0].failed ? NULL : s,
						 hello[1].failed ? NULL : c };
		if (ok[0] || ok[1])
			agent_hosts_start(m, sockdir, stop, ok[0], ok[1]);
		return;
	}

	if (s && !hello[0].failed)
		mux_start(m, s, 0, sockdir);
	if (c && !same_host(s, c) && !hello[1].failed)
		mux_start(m, c, 1, sockdir);
}

void remote_masters_stop(void)
{
	agent_hosts_stop();
	for (int i = 0; i < 2; i++)
		mux_stop(i);
}

/* The CPUs role i's host has for us: local's here, 0 to cores-1 there
 * (its handshake's count of CPUs online).  0, or -1 with why. */
static int host_cpus(const struct matrix *m, int i, const cpu_set_t *local, cpu_set_t *set,
		     char *why, size_t whylen)
{
	const struct host_url *u = matrix_remote_host(m, i);
	char *end;
	long n;

	if (!u) {
		*set = *local;
		return 0;
	}
	n = strtol(hello[i].facts.cores, &end, 10);
	if (!hello[i].done || hello[i].failed || *end || n <= 0) {
		snprintf(why, whylen, "the CPUs of %s are not known (no handshake)", u->url);
		return -1;
	}
	CPU_ZERO(set);
	for (long k = 0; k < n && k < CPU_SETSIZE; k++)
		CPU_SET((int)k, set);
	return 0;
}

int remote_placement(const struct matrix *m, const char *cpu, const cpu_set_t *local,
		     struct placement *out, char *why, size_t whylen)
{
	struct placement pl;
	cpu_set_t set[2], both;
	char have[128], want[512];

	out->mode = PLACE_NONE;
	if (!cpu || placement_parse(cpu, &pl, why, whylen) < 0 || pl.mode == PLACE_NONE)
		return cpu && pl.mode != PLACE_NONE ? -1 : 0;
	for (int i = 0; i < 2; i++)
		if (host_cpus(m, i, local, &set[i], why, whylen) < 0)
			return -1;
	if (pl.mode != PLACE_MAP)	/* one host (plan_check): its CPUs */
		return placement_resolve(&pl, &set[0], out, why, whylen);
	for (int i = 0; i < 2; i++) {
		const cpu_set_t *cpus = i ? &pl.clients : &pl.server;
		CPU_AND(&both, cpus, &set[i]);
		if (CPU_EQUAL(&both, cpus))
			continue;
		cpus_format(cpus, want, sizeof(want));
		cpus_format(&set[i], have, sizeof(have));
		snprintf(why, whylen, "the %s's CPUs %s: its host %s has %s", i ? "clients" : "server",
			 want, matrix_remote_host(m, i) ? matrix_remote_host(m, i)->url : "(local)", have);
		return -1;
	}
	*out = pl;
	return 0;
}

void remote_print_plan(const struct matrix *m, FILE *f)
{
	const struct host_url *s = matrix_remote_host(m, 0), *c = matrix_remote_host(m, 1);
	const char *addr = m->hosts.server_address ? m->hosts.server_address : s ? s->host : NULL;

	if (!m->hosts.set)
		return;
	fprintf(f, "hosts: server %s, clients %s", s ? s->url : "local", c ? c->url : "local");
	if ((s || c) && addr)
		fprintf(f, "; the server binds to %s", addr);
	if (s || c)
		fprintf(f, "; remote binary %s, over ssh", m->hosts.matrix ? m->hosts.matrix : "matrix");
	fputc('\n', f);
}
