/* Whether a cell can run: the checks and refusals, each said at the
 * value to blame.  See plan_check.h. */
#include "plan_check.h"
#include "matrix_command.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fdio.h"
#include "plan_sockopt.h"
#include "units.h"

/* The position to blame for a cell problem: the named key's value when the
 * matrix sets it, else the first dimension's key. */
static struct srcpos blame(const struct matrix *m, const size_t *choice, const char *key)
{
	const struct mvalue *v = plan_cell_value(m, choice, key);

	if (v)
		return v->pos;
	return m->ndims ? m->dims[0].pos : (struct srcpos){ 1, 1 };
}

#define CELL_ERR(key, ...) do { \
	struct srcpos at_ = blame(m, choice, key); \
	int n_ = snprintf(err, errlen, "%s:%d:%d: ", m->path, at_.line, at_.col); \
	if (n_ > 0 && (size_t)n_ < errlen) \
		snprintf(err + n_, errlen - (size_t)n_, __VA_ARGS__); \
	return -1; \
} while (0)

/* The figures a program prints must mean something in the cell: a
 * server's (a stream receiver's count and time) only in stream cells; a
 * stream sender's: what it sent (sent_msgs_per_s, messages, seconds). */
static int check_program_figures(const struct matrix *m, const struct cell_params *p,
				 char *err, size_t errlen)
{
	const struct program *pr = p->client_prog;
	const struct pattern_info *pi = pattern_info(p->pattern);

	if (p->server_prog && p->server_prog->nserver_results && !pi->receiver_times) {
		struct srcpos at_ = p->server_prog->server_results[0].pos;
		snprintf(err, errlen, "%s:%d:%d: result: program %s's server figures count in stream "
			 "cells only (a receiver's); in a %s cell the clients measure", m->path,
			 at_.line, at_.col, p->server_prog->name, pattern_names[p->pattern]);
		return -1;
	}
	for (size_t i = 0; pr && pi->receiver_times && i < pr->nresults; i++) {
		int fig = pr->results[i].metric;
		if (fig == PROGRAM_MESSAGES || fig == PROGRAM_SECONDS ||
		    !strcmp(matrix_metrics[fig], "sent_msgs_per_s"))
			continue;
		snprintf(err, errlen, "%s:%d:%d: result: %s of program %s's client is not a stream "
			 "sender's figure (a sender prints sent_msgs_per_s, or messages and seconds; "
			 "the receiver measures the rest)", m->path, pr->results[i].pos.line,
			 pr->results[i].pos.col, matrix_metrics[fig], pr->name);
		return -1;
	}
	return 0;
}

/* Where programs may take part, and with which placeholders. */
static int check_programs(const struct matrix *m, const size_t *choice,
			  const struct cell_params *p, char *err, size_t errlen)
{
	const struct transport *t = p->transport;
	const struct pattern_info *pi = pattern_info(p->pattern);
	int takes = transport_takes_programs(t), on_unix = plan_program_family(p) == AF_UNIX;

	if (!p->server_prog && !p->client_prog)
		return 0;
	if (!takes)
		CELL_ERR(p->server_prog ? "server" : "client", "programs run over tcp, tcp6 or unix, "
			 "not %s (and over zmq when server and client are both programs)", t->name);
	if (takes == TAKES_PROGRAM_PAIRS && (!p->server_prog || !p->client_prog))
		CELL_ERR(p->server_prog ? "client" : "server", "over %s a program pairs only with "
			 "a program: our %s adds an acknowledged end to the stream, which program %s "
			 "does not speak; make both server and client programs", t->name,
			 p->server_prog ? "client" : "server",
			 (p->server_prog ? p->server_prog : p->client_prog)->name);
	if (takes == TAKES_PROGRAM_PAIRS && !pi->one_way)
		CELL_ERR("pattern", "programs take part in %s cells of pattern stream only "
			 "(PUSH/PULL)", t->name);
	for (int k = 0; k < 2; k++) {
		const struct program *pr = k ? p->client_prog : p->server_prog;
		size_t n = 0;
		char **w = !pr ? NULL : matrix_program_command(pr, k, t->name, &n);
		char has[256];
		if (pr && !w) {
			matrix_program_transports(pr, k, has, sizeof has);
			CELL_ERR("transport", "program %s's %s: has a command for %s, not for %s "
				 "(add %s: to its mapping, or exclude {transport: %s, %s: %s})",
				 pr->name, k ? "client" : "server", has, t->name, t->name, t->name,
				 k ? "client" : "server", pr->name);
		}
		for (size_t i = 0; i < n; i++) {
			const char *bad = on_unix ? (matrix_word_uses(w[i], "host") ? "{host}" :
						     matrix_word_uses(w[i], "port") ? "{port}" : NULL)
					: matrix_word_uses(w[i], "path") ? "{path}" : NULL;
			if (bad)
				CELL_ERR(k ? "client" : "server", "program %s uses %s, which a %s%s cell "
					 "does not have", pr->name, bad, t->name,
					 takes == TAKES_PROGRAM_PAIRS ? on_unix ? " (endpoint ipc)" :
					 " (endpoint tcp)" : "");
		}
	}
	if (p->server_prog && p->spin_ns)
		CELL_ERR("spin", "spin is a busy-wait of matrix's own server; program %s cannot "
			 "be made to spin", p->server_prog->name);
	if (p->client_prog && p->rate)
		CELL_ERR("rate", "rate paces matrix's own client; program %s cannot be paced "
			 "(its requests leave when it sends them)", p->client_prog->name);
	/* who records: the client's round trips, a stream receiver's timeline */
	const struct program *recorder = pi->receiver_times ? p->server_prog : p->client_prog;
	if (p->record == REC_TOTALS && recorder)
		CELL_ERR("record", "record: totals is what matrix's own %s keeps; program %s "
			 "measures as it does", pi->timer, recorder->name);
	const struct program *pr = p->server_prog ? p->server_prog : p->client_prog;
	const char *role = p->server_prog ? "server" : "client";
	if (p->poll == POLL_BUSY)
		CELL_ERR("poll", "poll: busy makes matrix's own workers spin; program %s waits its own "
			 "way and cannot be made to: a half-spinning cell would measure neither "
			 "(exclude {poll: busy, %s: %s})", pr->name, role, pr->name);
	if (p->busy_poll_ns)
		CELL_ERR("busy_poll", "busy_poll is set on matrix's own workers' sockets; program %s "
			 "opens its own (exclude {busy_poll: %s, %s: %s})", pr->name,
			 plan_cell_value(m, choice, "busy_poll")->text, role, pr->name);
	if (p->server_prog && pi->receiver_times && p->duration_ns)
		CELL_ERR("duration", "a program receiver runs for a count: {count} is what it "
			 "receives");
	return check_program_figures(m, p, err, errlen);
}

/* The cell's placement on the CPUs this runner may use: a machine's
 * limit, like its memory, so checked for the cells selected only. */
static int check_placement(const struct matrix *m, const size_t *choice,
			   const struct cell_params *p, const cpu_set_t *cpus, char *err,
			   size_t errlen)
{
	struct placement place;
	char why[256];

	/* a remote role's CPUs are its host's: checked against the facts of
	 * its handshake once they are known (launch/remote.h), here read only */
	if ((matrix_remote_host(m, 0) || matrix_remote_host(m, 1)) && p->cpu &&
	    placement_parse(p->cpu, &place, why, sizeof(why)) < 0)
		CELL_ERR("cpu", "cpu: %s", why);
	else if ((matrix_remote_host(m, 0) || matrix_remote_host(m, 1)))
		return 0;
	if (plan_resolve_placement(cpus, p, &place, why, sizeof(why)) < 0)
		CELL_ERR("cpu", "cpu: %s", why);
	return 0;
}

/* poll: uring: fdio's ring carries every transfer of a byte stream of
 * descriptors from one thread (fdio.h); the kernel's own refusal is the
 * machine's (plan_check_machine). */
static int check_uring(const struct matrix *m, const size_t *choice,
		       const struct cell_params *p, char *err, size_t errlen)
{
	const struct transport *t = p->transport;

	if (p->poll != POLL_URING)
		return 0;
	if (!fd_takes_uring(t))
		CELL_ERR("poll", "poll: uring moves a byte stream's reads and writes through io_uring "
			 "(tcp, tcp6, unix, pipe); transport %s %s (exclude {poll: uring, transport: "
			 "%s})", t->name, t->family ?
			 "sends messages, one datagram a call" : "has no descriptor of its own", t->name);
	if (p->inflight > 1)
		CELL_ERR("poll", "poll: uring runs one transfer at a time; inflight %u drives its "
			 "descriptor with poll() (exclude {poll: uring, inflight: %u})", p->inflight,
			 p->inflight);
	if (p->pattern == PAT_PIPELINE)
		CELL_ERR("poll", "poll: uring gives a connection one ring, used from one thread; "
			 "pipeline's client writes and reads from two (exclude {poll: uring, pattern: "
			 "pipeline})");
	if (p->server_prog || p->client_prog)
		CELL_ERR("poll", "poll: uring is how matrix's own workers move bytes; program %s "
			 "does its own I/O", p->server_prog ? p->server_prog->name :
			 p->client_prog->name);
	return 0;
}

/* topology: netns: what crosses the emulated link: our own workers over an IP
 * transport (tcp, tcp6, udp, zmq's tcp endpoint). */
static int check_topology(const struct matrix *m, const size_t *choice,
			  const struct cell_params *p, char *err, size_t errlen)
{
	int family = plan_program_family(p);

	if (!m->topology.netns)
		return 0;
	if (family != AF_INET && family != AF_INET6)
		CELL_ERR(family == AF_UNIX && transport_takes_programs(p->transport) ==
			 TAKES_PROGRAM_PAIRS ? "endpoint" : "transport",
			 "%s%s does not cross the emulated link of topology: netns: its address is a "
			 "path in the file system, not on the link; use tcp, udp or zmq with "
			 "endpoint tcp (or exclude it)", p->transport->name,
			 family == AF_UNIX && p->transport->family != AF_UNIX ? " (endpoint ipc)" : "");
	return 0;
}

/* Why a cell cannot run with m's hosts (a path transport across hosts, a
 * program, a cpu: placement): the key to blame, with why; NULL when it
 * can. */
/* 1 when the server and the clients run on one host (the same remote one). */
static int roles_on_one_host(const struct matrix *m)
{
	const struct host_url *s = matrix_remote_host(m, 0), *c = matrix_remote_host(m, 1);

	return s && c && !strcmp(s->url, c->url);
}

static const char *remote_refusal(const struct matrix *m, const struct cell_params *p, char *why,
				  size_t whylen)
{
	const char *no_agent = getenv("MATRIX_NO_AGENT");	/* launch/remote.h */
	int agent = !(no_agent && *no_agent && strcmp(no_agent, "0"));

	if (!matrix_remote_host(m, 0) && !matrix_remote_host(m, 1))
		return NULL;
	/* both roles on one remote host: its agent's private folder holds the
	 * paths (not zmq's ipc yet) */
	if (!p->transport->default_bind && (!agent || !roles_on_one_host(m) ||
					    !strcmp(p->transport->name, "zmq"))) {
		snprintf(why, whylen, "transport %s does not cross hosts (hosts: has a remote role): "
			 "%s; tcp, tcp6 and udp do%s", p->transport->name,
			 !strcmp(p->transport->name, "zmq") ? "zmq over ssh hosts is not there yet"
			 : "its socket path or pipe exists on one machine only",
			 strcmp(p->transport->name, "zmq") && agent ? ", and it runs with both roles "
			 "on one remote host" : "");
		return "transport";
	}
	if (p->server_prog || p->client_prog) {
		snprintf(why, whylen, "programs of your own run on this machine only: not yet with "
			 "a remote host (hosts:)");
		return p->server_prog ? "server" : "client";
	}
	if (p->cpu && strcmp(p->cpu, "none") && !agent) {
		snprintf(why, whylen, "cpu: %s places workers on this machine's CPUs; a remote "
			 "role's placement needs its host's agent, and MATRIX_NO_AGENT is set", p->cpu);
		return "cpu";
	}
	/* same and split pick CPUs of one machine: with two, name each one's */
	if (p->cpu && (!strcmp(p->cpu, "same") || !strcmp(p->cpu, "split")) &&
	    !roles_on_one_host(m)) {
		snprintf(why, whylen, "cpu: %s picks CPUs of one machine, and the server and the "
			 "clients run on two (hosts:): name each one's, server=LIST;clients=LIST",
			 p->cpu);
		return "cpu";
	}
	return NULL;
}

/* The larger of a cell's request and reply: what a window of inflight
 * requests holds of each. */
static uint64_t window_message(const struct cell_params *p)
{
	uint64_t reply = pattern_reply_size(pattern_info(p->pattern), p->size, p->response_size);

	return p->size > reply ? p->size : reply;
}

/* 1 when a window of p's requests is more than its transport holds. */
static int window_too_big(const struct cell_params *p)
{
	const struct transport *t = p->transport;

	return t->max_window && p->inflight > 1 &&
	       window_message(p) * p->inflight > t->max_window;
}

/* direction: bidir: a stream both ways at once over one connection, which
 * matrix's own workers on a reliable stream socket do (each end a sender
 * thread beside its receiver); nothing else. */
static int check_direction(const struct matrix *m, const size_t *choice,
			   const struct cell_params *p, char *err, size_t errlen)
{
	const struct transport *t = p->transport;

	if (p->direction != DIR_BIDIR)
		return 0;
	if (!pattern_info(p->pattern)->one_way)	/* stream: nothing comes back yet */
		CELL_ERR("direction", "direction: bidir applies to pattern stream only, not %s "
			 "(its replies already come back)", pattern_names[p->pattern]);
	if (t->lossy || t->multiplexes ||
	    (t->socktype != SOCK_STREAM && t->socktype != SOCK_SEQPACKET))
		CELL_ERR("direction", "direction: bidir runs over tcp, tcp6, unix or "
			 "unix_seqpacket (a reliable stream socket each way), not %s", t->name);
	if (p->server_prog || p->client_prog)
		CELL_ERR("direction", "direction: bidir is what matrix's own workers do; program "
			 "%s sends one way", (p->server_prog ? p->server_prog : p->client_prog)->name);
	return 0;
}

/* zerocopy: and batch: (issue 29), the stream senders' system calls (the
 * one pattern of one way, pattern.h):
 * MSG_ZEROCOPY on a tcp or tcp6 socket, sendmmsg/recvmmsg on a udp or
 * unix_dgram one; both of matrix's own workers, in stream cells only.
 * Their defaults (false, 1) are what every cell does, so allowed
 * anywhere. */
static int check_stream_knobs(const struct matrix *m, const size_t *choice,
			      const struct cell_params *p, char *err, size_t errlen)
{
	const struct transport *t = p->transport;
	int tcp = (t->family == AF_INET || t->family == AF_INET6) && t->socktype == SOCK_STREAM;

	if (p->zerocopy && !tcp)
		CELL_ERR("zerocopy", "zerocopy: true (MSG_ZEROCOPY) applies to transports tcp and "
			 "tcp6, not %s (exclude {transport: %s, zerocopy: true})", t->name, t->name);
	if (p->zerocopy && !pattern_info(p->pattern)->one_way)
		CELL_ERR("zerocopy", "zerocopy: true applies to pattern stream only (a sender's "
			 "writes), not %s (exclude {pattern: %s, zerocopy: true})",
			 pattern_names[p->pattern], pattern_names[p->pattern]);
	if (p->zerocopy && p->client_prog)
		CELL_ERR("zerocopy", "zerocopy: true is matrix's own stream sender's; program %s "
			 "sends its own way (exclude {client: %s, zerocopy: true})", p->client_prog->name,
			 p->client_prog->name);
	if (p->zerocopy && p->poll == POLL_URING)
		CELL_ERR("zerocopy", "zerocopy: true sends with send(MSG_ZEROCOPY) and reaps the "
			 "error queue itself, not through io_uring (exclude {poll: uring, zerocopy: "
			 "true})");
	if (p->batch > 1 && t->socktype != SOCK_DGRAM)
		CELL_ERR("batch", "batch: %u (sendmmsg/recvmmsg) applies to transports udp and "
			 "unix_dgram, not %s (exclude {transport: %s, batch: %u})", p->batch, t->name,
			 t->name, p->batch);
	if (p->batch > 1 && !pattern_info(p->pattern)->one_way)
		CELL_ERR("batch", "batch: %u applies to pattern stream only (a round trip has one "
			 "message in flight), not %s (exclude {pattern: %s, batch: %u})", p->batch,
			 pattern_names[p->pattern], pattern_names[p->pattern], p->batch);
	return 0;
}

/* The links, io_uring, direction, socket options and the stream senders'
 * system calls: each a check of its own, in that order. */
static int check_knobs(const struct matrix *m, const size_t *choice,
		       const struct cell_params *p, char *err, size_t errlen)
{
	return check_topology(m, choice, p, err, errlen) < 0 ||
	       check_uring(m, choice, p, err, errlen) < 0 ||
	       check_direction(m, choice, p, err, errlen) < 0 ||
	       plan_check_sockopts(m, choice, p, err, errlen) < 0 ||
	       check_stream_knobs(m, choice, p, err, errlen) < 0 ? -1 : 0;
}

int plan_check_cell(const struct matrix *m, const size_t *choice, const struct cell_params *p,
		    char *err, size_t errlen)
{
	const struct transport *t = p->transport;
	const struct pattern_info *pi = pattern_info(p->pattern);
	char why[512];
	const char *refused = remote_refusal(m, p, why, sizeof(why));

	if (refused)
		CELL_ERR(refused, "%s", why);
	if (check_programs(m, choice, p, err, errlen) < 0 || check_knobs(m, choice, p, err, errlen) < 0)
		return -1;
	if (p->client_prog && p->duration_ns)
		CELL_ERR("client", "a program client runs for a count: {count} is its share");
	if (!transport_does(t, p->pattern))
		CELL_ERR("transport", "transport %s cannot do pattern %s", t->name,
			 pattern_names[p->pattern]);
	if (p->size > t->max_size)
		CELL_ERR("size", "size %llu is larger than transport %s can carry (%llu bytes); "
			 "nothing is clamped: use a smaller size or exclude the cell",
			 (unsigned long long)p->size, t->name, (unsigned long long)t->max_size);
	if (p->size < t->min_size)
		CELL_ERR("size", "size %llu is smaller than transport %s can carry (at least %llu "
			 "bytes: the message's sequence number)", (unsigned long long)p->size, t->name,
			 (unsigned long long)t->min_size);
	if (pi->reply == PATTERN_REPLY_SIZED && p->response_size < t->min_size)
		CELL_ERR("response_size", "response_size %llu is smaller than transport %s can carry "
			 "(at least %llu bytes)", (unsigned long long)p->response_size, t->name,
			 (unsigned long long)t->min_size);
	if (t->max_inflight && p->inflight > t->max_inflight)
		CELL_ERR("inflight", "transport %s allows inflight %u at most (nothing is resent, "
			 "so replies could not be matched)", t->name, t->max_inflight);
	if (p->response_size > t->max_size)
		CELL_ERR("response_size", "response_size %llu is larger than transport %s can carry",
			 (unsigned long long)p->response_size, t->name);
	/* after the sizes: both within max_size, so no product overflows */
	if (window_too_big(p))
		CELL_ERR("inflight", "inflight %u x %llu-byte messages is more than transport %s "
			 "holds in flight (%llu bytes): use a smaller inflight or size", p->inflight,
			 (unsigned long long)window_message(p), t->name,
			 (unsigned long long)t->max_window);
	if (plan_cell_value(m, choice, "response_size") && pi->reply != PATTERN_REPLY_SIZED)
		CELL_ERR("response_size", "response_size applies to pattern pingpong only "
			 "(echo answers with the request, stream has no answer)");
	if (p->inflight > 1 && !pi->windowed) {
		char names[128];
		pattern_list_windowed(names, sizeof(names));
		CELL_ERR("inflight", "inflight applies to %s, not %s%s", names, pi->name,
			 pi->one_way ? "" : " (its writer never waits for a reply: no window)");
	}
	if (p->count && p->count < p->concurrency)
		CELL_ERR("count", "count %llu is less than concurrency %u: every client needs "
			 "at least one message", (unsigned long long)p->count, p->concurrency);
	if ((pi->files & PATTERN_FILE_TIMELINE) && p->interval_ns &&
	    (p->duration_ns ? p->duration_ns : m->timeout_ns) / p->interval_ns > PLAN_MAX_INTERVALS)
		CELL_ERR("interval", "interval too short: a timeline of more than %u intervals "
			 "(duration, or else timeout, divided by interval)", PLAN_MAX_INTERVALS);
	if (m->timeout_ns > PLAN_MAX_TIMEOUT_NS) {
		struct srcpos at = m->timeout_pos;
		snprintf(err, errlen, "%s:%d:%d: timeout: at most 24h", m->path, at.line, at.col);
		return -1;
	}
	if (p->rate && p->count && (plan_client_share(p, 1) - 1) / p->rate >=
	    m->timeout_ns / 1000000000ull)
		CELL_ERR("rate", "count %llu at rate %llu/s takes %llu s per connection, not less "
			 "than the timeout (%llu s)", (unsigned long long)p->count,
			 (unsigned long long)p->rate,
			 (unsigned long long)((plan_client_share(p, 1) - 1) / p->rate),
			 (unsigned long long)(m->timeout_ns / 1000000000ull));
	if (p->busy_poll_ns && !t->family)
		CELL_ERR("busy_poll", "busy_poll is a socket option (SO_BUSY_POLL); transport %s has "
			 "no socket of its own%s", t->name, !strcmp(t->name, "zmq") ?
			 " (zmq's are libzmq's)" : "");
	if (p->busy_poll_ns % 1000 || p->busy_poll_ns / 1000 > INT32_MAX)
		CELL_ERR("busy_poll", "busy_poll is whole microseconds (SO_BUSY_POLL takes µs), "
			 "at most %dus", INT32_MAX);
	if (p->duration_ns && p->duration_ns >= m->timeout_ns)
		CELL_ERR("duration", "duration must be shorter than the timeout (%llu s)",
			 (unsigned long long)(m->timeout_ns / 1000000000ull));
	return 0;
}

/* ---- bounds: what a plan may ask of the runner and of this machine ---- */

int plan_check_count(const struct matrix *m, char *err, size_t errlen)
{
	uint64_t n = 1;
	int wrapped = 0;
	size_t over = m->ndims, o = 0;
	char lens[256] = "";

	for (size_t d = 0; d < m->ndims; d++) {
		wrapped |= __builtin_mul_overflow(n, (uint64_t)m->dims[d].nvalues, &n);
		if (over == m->ndims && (wrapped || n > PLAN_MAX_CELLS))
			over = d;
		if (o < sizeof(lens))
			o += (size_t)snprintf(lens + o, sizeof(lens) - o, "%s%zu", d ? " x " : "",
					      m->dims[d].nvalues);
	}
	if (over == m->ndims)
		return 0;
	struct srcpos at = m->dims[over].pos;
	snprintf(err, errlen, "%s:%d:%d: matrix: %s%llu cells (%s values), more than the %u a "
		 "plan may have: use fewer values or split the matrix", m->path, at.line, at.col,
		 wrapped ? "more than " : "", wrapped ? (unsigned long long)UINT64_MAX :
		 (unsigned long long)n, lens, PLAN_MAX_CELLS);
	return -1;
}

void plan_read_limits(struct plan_limits *lim)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb;
	struct rlimit rl;
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	memset(lim, 0, sizeof(*lim));
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			lim->mem = kb * 1024;
			lim->mem_what = "available (MemAvailable in /proc/meminfo)";
		}
	if (f)
		fclose(f);
	if (!lim->mem && pages > 0 && page > 0) {
		lim->mem = (uint64_t)pages * (uint64_t)page;
		lim->mem_what = "of physical memory (sysconf)";
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		lim->nofile = rl.rlim_cur;
		lim->nofile_max = rl.rlim_max;
	}
}

static int check_resources(const struct matrix *m, const size_t *choice,
			   const struct cell_params *p, const struct plan_limits *lim,
			   char *err, size_t errlen)
{
	uint64_t mem = plan_cell_memory(p), fds = plan_cell_fds(p);
	char a[32], b[32], c[32];

	if (lim->mem && mem > lim->mem)
		CELL_ERR("size", "size %s with concurrency %u: the workers' message buffers "
			 "need %s, more than the %s %s; use a smaller size or fewer clients",
			 units_format_size(p->size, a, sizeof(a)), p->concurrency,
			 mem == UINT64_MAX ? "more than 16EiB" : units_format_size(mem, b, sizeof(b)),
			 units_format_size(lim->mem, c, sizeof(c)), lim->mem_what);
	if (lim->nofile && fds > lim->nofile)
		CELL_ERR("concurrency", "concurrency %u: the runner needs %llu open files for "
			 "this cell (%s for each of its %u workers, %d for "
			 "itself), over this process's limit of %llu open files (ulimit -n; the hard "
			 "limit is %llu); run it under `ulimit -n %llu` or more, or with fewer clients", p->concurrency,
			 (unsigned long long)fds, p->server_prog || p->client_prog ?
			 "a pidfd and a report pipe, or for a program an output pipe and its log," :
			 "a report pipe and a pidfd", p->concurrency + 1, PLAN_FD_RESERVE,
			 (unsigned long long)lim->nofile, (unsigned long long)lim->nofile_max,
			 (unsigned long long)fds);
	return 0;
}

/* The transport's own limits on this machine, read now (transport.h's
 * limits_now: mq's sysctls and RLIMIT_MSGQUEUE). */
static int check_transport_now(const struct matrix *m, const size_t *choice,
			       const struct cell_params *p, char *err, size_t errlen)
{
	const struct transport *t = p->transport;
	struct transport_opts o = {
		.size = p->size, .response_size = p->response_size, .pattern = p->pattern,
		.inflight = p->inflight, .connections = p->concurrency,
		.busy = p->poll == POLL_BUSY, .uring = p->poll == POLL_URING,
	};
	const char *key = "transport";
	char why[768];

	if (t->limits_now && t->limits_now(&o, &key, why, sizeof(why)) < 0)
		CELL_ERR(key, "transport %s: %s", t->name, why);
	if (p->poll == POLL_URING && fd_uring_probe(why, sizeof(why)) < 0)
		CELL_ERR("poll", "poll: uring: %s", why);
	return 0;
}

int plan_check_machine(const struct matrix *m, const size_t *choice, const struct cell_params *p,
		       const struct plan_limits *lim, const cpu_set_t *cpus, char *err,
		       size_t errlen)
{
	if (check_resources(m, choice, p, lim, err, errlen) < 0 ||
	    check_transport_now(m, choice, p, err, errlen) < 0 ||
	    check_placement(m, choice, p, cpus, err, errlen) < 0 ||
	    plan_check_sockopts_machine(m, choice, p, err, errlen) < 0)
		return -1;
	return 0;
}
