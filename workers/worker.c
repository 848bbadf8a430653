/* The command line of `matrix worker server|client`: usage, options into
 * a struct wopts, the checks of their combination, then the server or the
 * client.  See worker.h for the wire behaviour, options.h for the
 * settings, server.h and client.h for the two sides. */
#include "worker.h"
#include "client.h"
#include "fdio.h"
#include "hello.h"
#include "knobs.h"
#include "matrix.h"
#include "options.h"
#include "pattern.h"
#include "server.h"
#include "transport.h"
#include "units.h"
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/socket.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: matrix worker server|client [options]\n"
"       matrix worker --hello   (prints the wire version and this host's facts)\n"
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
"      --interval DUR       timeline interval of a stream server (default 1s), or\n"
"                           auto: 20 to 100 intervals, however long it runs\n"
"  -c, --connections N      server: connections to serve, then exit (default 1)\n"
"  -b, --bind ADDR          server: HOST:PORT or socket path (default 127.0.0.1:0)\n"
"      --spin DUR           server, a test aid: busy-wait DUR before each answer\n"
"                           (pingpong, echo) or after each message (stream); default 0\n"
"  -a, --connect ADDR       client: the server's address\n"
"      --id N               client number, for messages\n"
"      --report-fd FD       write the wire protocol to FD (default: stdout)\n"
"      --control-fd FD      wait for the start byte on FD (default: start at once)\n"
"      --stdio              started over ssh: report on stdout, start byte on stdin;\n"
"                           dies at stdin's end of file or with its parent\n"
"      --timeout DUR        give up after DUR (default 300s)\n"
"      --loss-timeout DUR   lossy transports: a reply later than this is lost (100ms)\n"
"      --endpoint tcp|ipc   zmq: where the server binds (default tcp)\n"
"      --rate N             client: N requests (stream: messages) a second on a\n"
"                           fixed schedule, latency counted from it (20000, 20k/s)\n"
"      --record full|totals totals: no histogram (client), no timeline (receiver)\n"
"      --poll block|busy|uring  busy: spin on non-blocking descriptors, never\n"
"                           sleep waiting for a message; uring: each transfer\n"
"                           through an io_uring (default block)\n"
"      --busy-poll DUR      SO_BUSY_POLL on each connection's socket, whole\n"
"                           microseconds (default 0: not set)\n"
"      --wake futex|eventfd shm, block: a sleeping side waits on a futex (default)\n"
"                           or on an eventfd (poll, then read)\n"
"      --direction one|bidir  stream: bidir also sends a stream back, server to\n"
"                           client, counted at the client (default one); the\n"
"                           server sends --duration, or --count over --connections\n"
"      --sndbuf SIZE        SO_SNDBUF on each connection's socket (and the listening\n"
"                           one), before connect and listen; the kernel doubles it\n"
"      --rcvbuf SIZE        SO_RCVBUF likewise (default for both: not set)\n"
"      --congestion NAME    tcp, tcp6: TCP_CONGESTION (reno, cubic, bbr...)\n"
"      --mss N              tcp, tcp6: TCP_MAXSEG before connect and listen (88-32767)\n"
"      --zerocopy BOOL      tcp, tcp6 stream client: MSG_ZEROCOPY sends, completions\n"
"                           reaped (default false)\n"
"      --batch N            udp, unix_dgram stream: sendmmsg/recvmmsg of up to N\n"
"                           messages a call, 1 to 1024 (default 1: send/recv)\n"
"      --netns NAME         run in network namespace NAME (/run/netns/NAME), as\n"
"                           `matrix run` does under topology: netns\n"
"  -h, --help\n", MATRIX_DEFAULT_WARMUP);
}

/* --wake (c 'W': futex|eventfd) and --direction ('V': one|bidir) into o. */
static int parse_two_words(int c, const char *arg, struct wopts *o, char *why, size_t wl)
{
	const char *no = c == 'W' ? "futex" : "one", *yes = c == 'W' ? "eventfd" : "bidir";

	if (strcmp(arg, no) && strcmp(arg, yes)) {
		snprintf(why, wl, "expected %s or %s", no, yes);
		return -1;
	}
	if (c == 'W')
		o->topts.wake_eventfd = !strcmp(arg, yes);
	else
		o->bidir = !strcmp(arg, yes);
	return 0;
}

/* --poll (c 'P') and --busy-poll ('B') into o. */
static int parse_poll(int c, const char *arg, struct transport_opts *o, char *why, size_t wl)
{
	if (c == 'P') {
		if (strcmp(arg, "block") && strcmp(arg, "busy") && strcmp(arg, "uring")) {
			snprintf(why, wl, "expected block, busy or uring");
			return -1;
		}
		o->busy = !strcmp(arg, "busy");
		o->uring = !strcmp(arg, "uring");
		return 0;
	}
	if (units_parse_duration(arg, &o->busy_poll_ns, why, wl) < 0)
		return -1;
	if (o->busy_poll_ns % 1000 || o->busy_poll_ns / 1000 > INT32_MAX) {
		snprintf(why, wl, "whole microseconds, at most %dus", INT32_MAX);
		return -1;
	}
	return 0;
}

/* The socket options (transport.h): --sndbuf, --rcvbuf, --congestion, --mss. */
enum { OPT_SNDBUF = 0x1801, OPT_RCVBUF, OPT_CONGESTION, OPT_MSS };

static int parse_sockopt(int c, const char *arg, struct transport_opts *o, char *why, size_t wl)
{
	uint64_t v;

	if (c == OPT_CONGESTION) {
		if (!*arg || strlen(arg) >= sizeof(o->congestion)) {
			snprintf(why, wl, "a name of 1 to %zu characters", sizeof(o->congestion) - 1);
			return -1;
		}
		snprintf(o->congestion, sizeof(o->congestion), "%s", arg);
		return 0;
	}
	if (units_parse_size(arg, &v, why, wl) < 0)
		return -1;
	if (c == OPT_MSS ? v < MATRIX_MIN_MSS || v > MATRIX_MAX_MSS : !v || v > MATRIX_MAX_SOCKBUF) {
		snprintf(why, wl, "must be between %llu and %llu", c == OPT_MSS ? MATRIX_MIN_MSS : 1ull,
			 c == OPT_MSS ? MATRIX_MAX_MSS : MATRIX_MAX_SOCKBUF);
		return -1;
	}
	*(c == OPT_SNDBUF ? &o->sndbuf : c == OPT_RCVBUF ? &o->rcvbuf : &o->mss) = (int)v;
	return 0;
}

/* --zerocopy ('Z') and --batch ('M'): the stream's system calls. */
static int parse_stream_knob(int c, const char *arg, struct wopts *o, char *why, size_t wl)
{
	uint64_t v;

	if (c == 'Z')
		return units_parse_bool(arg, &o->zerocopy, why, wl);
	if (units_parse_count(arg, &v, why, wl) < 0)
		return -1;
	if (!v || v > 1024) {
		snprintf(why, wl, "must be between 1 and 1024 (UIO_MAXIOV)");
		return -1;
	}
	o->batch = (unsigned)v;
	return 0;
}

/* Where --zerocopy and --batch apply: 0, or 2 after saying why. */
static int check_stream_knobs(const struct wopts *o)
{
	const struct transport *t = o->t;
	int tcp = (t->family == AF_INET || t->family == AF_INET6) && t->socktype == SOCK_STREAM;

	if (o->zerocopy && (!tcp || !pattern_info(o->pattern)->one_way || o->role != ROLE_CLIENT)) {
		fprintf(stderr, "matrix worker: --zerocopy is a stream client's, over tcp or tcp6\n");
		return 2;
	}
	if (o->batch > 1 && (t->socktype != SOCK_DGRAM || !pattern_info(o->pattern)->one_way)) {
		fprintf(stderr, "matrix worker: --batch applies to stream over udp or unix_dgram\n");
		return 2;
	}
	return 0;
}

/* --rate and --record: how the client paces and what the workers keep. */
static int parse_measure_opt(int c, const char *arg, struct wopts *o, char *why, size_t wl)
{
	uint64_t v;

	if (c == 'Y') {	/* a plain number is per second, as the runner writes it */
		if (units_parse_count(arg, &v, NULL, 0) < 0 && units_parse_rate(arg, &v, why, wl) < 0)
			return -1;
		if (!v || v > UNITS_MAX_RATE) {
			snprintf(why, wl, "must be between 1/s and 1000M/s");
			return -1;
		}
		o->rate = v;
		return 0;
	}
	for (int k = 0; k < REC__COUNT; k++)
		if (!strcmp(arg, record_names[k])) {
			o->totals = k == REC_TOTALS;
			return 0;
		}
	snprintf(why, wl, "expected full or totals");
	return -1;
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
		if (pattern_find(arg)) {
			o->pattern = pattern_find(arg)->id;
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
	case 'I':	/* auto: 0, the timeline picks it (timeline.h) */
		if (!strcmp(arg, "auto")) {
			o->interval_ns = 0;
			return 0;
		}
		if (units_parse_duration(arg, &o->interval_ns, why, wl) < 0)
			return -1;
		if (!o->interval_ns)
			snprintf(why, wl, "interval must be greater than zero (or auto)");
		return o->interval_ns ? 0 : -1;
	case 'T': return units_parse_duration(arg, &o->timeout_ns, why, wl);
	case 'L': return units_parse_duration(arg, &o->loss_timeout_ns, why, wl);
	case 'S': return units_parse_duration(arg, &o->spin_ns, why, wl);
	case 'Y': case 'O':
		return parse_measure_opt(c, arg, o, why, wl);
	case 'E':
		if (strcmp(arg, "tcp") && strcmp(arg, "ipc")) {
			snprintf(why, wl, "expected tcp or ipc");
			return -1;
		}
		o->topts.endpoint_ipc = !strcmp(arg, "ipc");
		return 0;
	case 'P': case 'B':
		return parse_poll(c, arg, &o->topts, why, wl);
	case 'W': case 'V':
		return parse_two_words(c, arg, o, why, wl);
	case 'b': o->bind = arg; return 0;
	case 'e': o->netns = arg; return 0;
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

static const struct option longopts[] = {
	{ "transport", 1, 0, 't' }, { "pattern", 1, 0, 'p' }, { "size", 1, 0, 's' },
	{ "response-size", 1, 0, 'r' }, { "count", 1, 0, 'n' }, { "duration", 1, 0, 'd' },
	{ "warmup", 1, 0, 'w' }, { "inflight", 1, 0, 'i' }, { "nodelay", 1, 0, 'N' },
	{ "interval", 1, 0, 'I' }, { "connections", 1, 0, 'c' }, { "bind", 1, 0, 'b' },
	{ "connect", 1, 0, 'a' }, { "id", 1, 0, 'D' }, { "report-fd", 1, 0, 'R' },
	{ "control-fd", 1, 0, 'C' }, { "timeout", 1, 0, 'T' }, { "loss-timeout", 1, 0, 'L' },
	{ "endpoint", 1, 0, 'E' }, { "spin", 1, 0, 'S' }, { "poll", 1, 0, 'P' },
	{ "busy-poll", 1, 0, 'B' }, { "rate", 1, 0, 'Y' }, { "record", 1, 0, 'O' },
	{ "stdio", 0, 0, 'X' }, { "netns", 1, 0, 'e' }, { "wake", 1, 0, 'W' },
	{ "direction", 1, 0, 'V' },
	{ "sndbuf", 1, 0, OPT_SNDBUF }, { "rcvbuf", 1, 0, OPT_RCVBUF },
	{ "congestion", 1, 0, OPT_CONGESTION }, { "mss", 1, 0, OPT_MSS },
	{ "zerocopy", 1, 0, 'Z' }, { "batch", 1, 0, 'M' },
	{ "help", 0, 0, 'h' },
	{ 0, 0, 0, 0 }
};

/* The role and the options into o.  -1 when the worker is to run, else
 * the exit status: 0 after --help, 2 for bad usage (said on stderr). */
static int parse_args(int argc, char **argv, struct wopts *o)
{
	char why[256];
	int c;

	if (argc == 2 && !strcmp(argv[1], "--hello"))
		return hello_write(1) < 0 ? 1 : 0;
	if (argc < 2 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			usage(stdout);
			return 0;
		}
		usage(stderr);
		return 2;
	}
	o->role = strcmp(argv[1], "server") ? ROLE_CLIENT : ROLE_SERVER;
	optind = 2;
	while ((c = getopt_long(argc, argv, "t:p:s:r:n:d:w:i:c:b:a:h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		if (c == 'X') {
			o->stdio = 1;
			continue;
		}
		if (c == '?') {
			fprintf(stderr, "matrix worker: see `matrix worker --help`\n");
			return 2;
		}
		if ((c >= OPT_SNDBUF && c <= OPT_MSS ? parse_sockopt(c, optarg, &o->topts, why, sizeof(why))
		     : c == 'Z' || c == 'M' ? parse_stream_knob(c, optarg, o, why, sizeof(why))
		     : parse_opt_value(c, optarg, o, why, sizeof(why))) < 0) {
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
	return -1;
}

/* Fills in the defaults that depend on other options and checks the
 * combination: 0, or 2 for bad usage (said on stderr). */
/* --poll=uring: where fdio's ring can carry every transfer (fdio.h). */
static int check_uring(const struct wopts *o)
{
	const char *why = NULL;

	if (!fd_takes_uring(o->t))
		why = "a byte stream of descriptors (tcp, tcp6, unix, pipe)";
	else if (o->inflight > 1)
		why = "inflight 1 (a window's descriptor is driven by poll)";
	else if (o->pattern == PAT_PIPELINE)
		why = "a pattern other than pipeline (its client has two threads on one connection)";

	if (!o->topts.uring || !why)
		return 0;
	fprintf(stderr, "matrix worker: --poll=uring needs %s; transport %s, pattern %s, "
		"inflight %u\n", why, o->t->name, pattern_names[o->pattern], o->inflight);
	return 2;
}

static int check_opts(struct wopts *o)
{
	if (!o->topts.response_size)
		o->topts.response_size = o->topts.size;
	if (!o->topts.size || !o->topts.response_size || (!o->count && !o->duration_ns)) {
		fprintf(stderr, "matrix worker: size, response size, count, duration and interval "
			"must be greater than zero\n");
		return 2;
	}
	if (!transport_does(o->t, o->pattern)) {
		fprintf(stderr, "matrix worker: transport %s cannot do pattern %s\n", o->t->name,
			pattern_names[o->pattern]);
		return 2;
	}
	if (o->role == ROLE_SERVER && !o->bind) {
		if (!o->t->default_bind) {
			fprintf(stderr, "matrix worker: --bind PATH is required for %s\n", o->t->name);
			return 2;
		}
		o->bind = o->t->default_bind;
	}
	if (o->role == ROLE_CLIENT && o->spin_ns) {
		fprintf(stderr, "matrix worker: --spin is a server option\n");
		return 2;
	}
	if (o->role == ROLE_SERVER && o->rate) {
		fprintf(stderr, "matrix worker: --rate is a client option\n");
		return 2;
	}
	if (o->bidir && (!pattern_info(o->pattern)->one_way || o->t->lossy || o->t->multiplexes ||
			 (o->t->socktype != SOCK_STREAM && o->t->socktype != SOCK_SEQPACKET))) {
		fprintf(stderr, "matrix worker: --direction bidir is for pattern stream over a "
			"reliable stream socket (tcp, tcp6, unix, unix_seqpacket)\n");
		return 2;
	}
	if (o->role == ROLE_CLIENT && !o->connect) {
		fprintf(stderr, "matrix worker: --connect ADDR is required for a client\n");
		return 2;
	}
	if (o->topts.size < o->t->min_size ||
	    (pattern_info(o->pattern)->reply == PATTERN_REPLY_SIZED &&
	     o->topts.response_size < o->t->min_size)) {
		fprintf(stderr, "matrix worker: transport %s needs messages of at least %llu bytes\n",
			o->t->name, (unsigned long long)o->t->min_size);
		return 2;
	}
	if (o->topts.busy_poll_ns && !o->t->family) {
		fprintf(stderr, "matrix worker: --busy-poll sets a socket option; transport %s has "
			"no socket of its own\n", o->t->name);
		return 2;
	}
	if ((o->topts.sndbuf || o->topts.rcvbuf) && !o->t->family) {
		fprintf(stderr, "matrix worker: --sndbuf and --rcvbuf set socket options; transport "
			"%s has no socket of its own\n", o->t->name);
		return 2;
	}
	if ((o->topts.congestion[0] || o->topts.mss) &&
	    (o->t->family == AF_UNIX || !o->t->family || o->t->socktype != SOCK_STREAM)) {
		fprintf(stderr, "matrix worker: --congestion and --mss are tcp's (tcp, tcp6), not "
			"%s's\n", o->t->name);
		return 2;
	}
	if (check_stream_knobs(o))
		return 2;
	if (o->t->max_inflight && o->inflight > o->t->max_inflight) {
		fprintf(stderr, "matrix worker: transport %s allows inflight %u at most\n", o->t->name,
			o->t->max_inflight);
		return 2;
	}
	return check_uring(o);
}

/* --netns NAME: this process into /run/netns/NAME (ip netns's), before
 * any socket; -1 after saying why (fail). */
static int enter_netns(const struct wopts *o)
{
	char path[4200], msg[4400];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", o->netns);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || setns(fd, CLONE_NEWNET) < 0) {
		snprintf(msg, sizeof(msg), "enter network namespace %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		worker_fail(o, "netns", msg);
		return -1;
	}
	close(fd);
	return 0;
}

int worker_main(int argc, char **argv)
{
	struct wopts o = {
		.t = transport_default(), .pattern = PATTERN_DEFAULT,
		.topts = { .nodelay = 1, .size = 1024 }, .count = 10000,
		.warmup = MATRIX_DEFAULT_WARMUP, .interval_ns = 1000000000ull,
		.timeout_ns = 300ull * 1000000000ull, .loss_timeout_ns = 100000000ull,
		.inflight = 1, .connections = 1, .id = 1, .batch = 1,
		.report_fd = 1, .control_fd = -1,
	};
	char why[256];
	int rc;

	if ((rc = parse_args(argc, argv, &o)) >= 0)
		return rc;
	if ((rc = check_opts(&o)) != 0)
		return rc;
	if (o.stdio && hello_stdio(&o.report_fd, &o.control_fd, why, sizeof(why)) < 0) {
		fprintf(stderr, "matrix worker: --stdio: %s\n", why);
		return 1;
	}
	o.topts.pattern = o.pattern;
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
	if (o.netns && enter_netns(&o) < 0)
		return 1;
	return o.role == ROLE_SERVER ? server_run(&o) : client_run(&o);
}
