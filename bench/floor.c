/*
 * bench/floor: the floor `make bench` measures matrix against: two
 * processes (fork) and the smallest loop that moves the bytes, nothing
 * else.  Not part of ./matrix; built by `make bench` (-O2, the project's
 * warnings).
 *
 *   pingpong  the client writes SIZE bytes, the server reads SIZE bytes and
 *             writes SIZE back; each round trip is timed with
 *             clock_gettime(CLOCK_MONOTONIC) into a preallocated array;
 *             prints the p50 round trip and the round trips per second
 *   stream    the client writes SIZE-byte messages back to back, then shuts
 *             its side down (shm: a closed flag; mq: an empty message);
 *             the server reads with a buffer of max(SIZE, 64 KiB)
 *             (matrix's stream receiver reads as much, workers/stream.c
 *             STREAM_READ_MIN; mq: one message a call) and counts bytes:
 *             msgs/s and MiB/s at the receiver, from the first byte after
 *             the warmup to the last
 *
 * Transports: tcp (127.0.0.1, TCP_NODELAY unless --nodelay 0), unix (a
 * stream socketpair) and udp (127.0.0.1, pingpong only; a lost datagram
 * fails the run after 1 s).  --busy: both descriptors non-blocking and
 * every read and write retried in a spin (never sleeps in the kernel).
 * Beside the sockets (bench/floor_ipc.c, whose header has the details):
 *   shm  an anonymous MAP_SHARED mapping made before the fork, one
 *        single-producer single-consumer byte ring (256 KiB) per
 *        direction, head and tail C11 atomics on cache lines of their own
 *        (acquire/release); the payload memcpy'd in and out, wrapping; a
 *        stream's receiver takes what is there up to its buffer, as a
 *        read(2) does.  --busy: a waiting side spins on the ring (the
 *        CPU's pause), never sleeps; otherwise it sleeps in FUTEX_WAIT on
 *        a 32-bit sequence word (shared futex ops), and the other side
 *        makes the FUTEX_WAKE syscall only when the sleeper's waiter flag
 *        is up
 *   mq   POSIX message queues, one per direction, made O_CREAT|O_EXCL
 *        under a unique name and unlinked at once (nothing is left), one
 *        SIZE-byte message per mq_send/mq_receive; --busy: O_NONBLOCK and
 *        a spin on EAGAIN.  A SIZE above /proc/sys/fs/mqueue/msgsize_max
 *        is refused (exit 2, the limit named)
 * --cpu same: both processes on the first CPU of the allowed set; split:
 * the server on the first, the client on the second (sched_setaffinity);
 * none (default): not placed.
 *
 * Output on stdout, one "METRIC VALUE" a line: rtt_p50_us, rtt_mean_us and
 * msgs_per_s (pingpong), msgs_per_s and mib_per_s (stream).  Exit 0, or 1
 * with the reason on stderr; 2 for a bad option.  Every process ends within
 * --timeout seconds (alarm; with --busy over udp a lost datagram spins
 * until then; a shm or mq side whose peer died waits as long).
 */
#include "floor.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

void fail(const char *what)
{
	fprintf(stderr, "floor: %s: %s\n", what, strerror(errno));
	exit(1);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Reads exactly len bytes (a datagram: one of len bytes); 0 at EOF before
 * any byte, -1 on error. */
static int read_full(int fd, unsigned char *p, size_t len, int busy)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);
		if (n > 0) {
			got += (size_t)n;
		} else if (n == 0) {
			if (got == 0)
				return 0;
			errno = EPIPE;
			return -1;
		} else if (!(busy && errno == EAGAIN) && errno != EINTR) {
			return -1;
		}
	}
	return 1;
}

static int write_full(int fd, const unsigned char *p, size_t len, int busy)
{
	size_t put = 0;

	while (put < len) {
		ssize_t n = write(fd, p + put, len - put);
		if (n >= 0)
			put += (size_t)n;
		else if (!(busy && errno == EAGAIN) && errno != EINTR)
			return -1;
	}
	return 0;
}

/* The CPUs this process may run on: the first two, -1 when absent. */
static void allowed_cpus(int *first, int *second)
{
	cpu_set_t set;

	*first = *second = -1;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		fail("sched_getaffinity");
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		if (*first < 0)
			*first = c;
		else if (*second < 0)
			*second = c;
	}
}

static void place(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		fail("sched_setaffinity");
}

static void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		fail("fcntl O_NONBLOCK");
}

static struct sockaddr_in loopback(void)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static int bound_socket(int type, struct sockaddr_in *a)
{
	socklen_t al = sizeof(*a);
	int fd = socket(AF_INET, type, 0);

	*a = loopback();
	if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof(*a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)a, &al) < 0)
		fail("socket on 127.0.0.1");
	return fd;
}

/* The two connected ends: fds[0] the client's, fds[1] the server's. */
static void connect_pair(const struct opts *o, int fds[2])
{
	struct sockaddr_in a, b;
	int one = 1;

	if (o->transport == UNIX) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) < 0)
			fail("socketpair");
		return;
	}
	if (o->transport == UDP) {
		fds[0] = bound_socket(SOCK_DGRAM, &a);
		fds[1] = bound_socket(SOCK_DGRAM, &b);
		if (connect(fds[0], (struct sockaddr *)&b, sizeof(b)) < 0 ||
		    connect(fds[1], (struct sockaddr *)&a, sizeof(a)) < 0)
			fail("udp connect");
		return;
	}
	int l = bound_socket(SOCK_STREAM, &a);
	if (listen(l, 1) < 0)
		fail("listen");
	fds[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fds[0] < 0 || connect(fds[0], (struct sockaddr *)&a, sizeof(a)) < 0)
		fail("tcp connect");
	fds[1] = accept(l, NULL, NULL);
	if (fds[1] < 0)
		fail("accept");
	close(l);
	for (int i = 0; i < 2 && o->nodelay; i++)
		if (setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
			fail("TCP_NODELAY");
}

/* The server of a pingpong: a message in, the same bytes back, to EOF. */
static void serve_pingpong(const struct opts *o, int fd)
{
	unsigned char *buf = malloc(o->size);
	int r;

	if (!buf)
		fail("malloc");
	while ((r = read_full(fd, buf, o->size, o->busy)) > 0)
		if (write_full(fd, buf, o->size, o->busy) < 0)
			fail("server write");
	if (r < 0 && errno != ECONNRESET)
		fail("server read");
	free(buf);
}

/* The receiver of a stream: reads to EOF, and writes "msgs_per_s X\n
 * mib_per_s Y\n" to out. */
static void serve_stream(const struct opts *o, int fd, FILE *out)
{
	size_t cap = o->size > READ_MIN ? o->size : READ_MIN;
	unsigned char *buf = malloc(cap);
	uint64_t total = 0, warm = o->warmup * o->size, t0 = 0, t1 = 0, at0 = 0;

	if (!buf)
		fail("malloc");
	for (;;) {
		ssize_t n = read(fd, buf, cap);
		if (n == 0)
			break;
		if (n < 0) {
			if ((o->busy && errno == EAGAIN) || errno == EINTR)
				continue;
			fail("server read");
		}
		total += (uint64_t)n;
		if (total <= warm)
			continue;
		t1 = now_ns();
		if (!t0) {
			t0 = t1;
			at0 = total;
		}
	}
	free(buf);
	report_stream(o, out, total, at0, t0, t1);
}

void report_stream(const struct opts *o, FILE *out, uint64_t total, uint64_t at0,
		   uint64_t t0, uint64_t t1)
{
	if (total % o->size || total <= at0 || t1 <= t0) {
		fprintf(stderr, "floor: the stream ended after %llu bytes: too few to time\n",
			(unsigned long long)total);
		exit(1);
	}
	double s = (double)(t1 - t0) / 1e9, bytes = (double)(total - at0);
	fprintf(out, "msgs_per_s %.6g\nmib_per_s %.6g\n", bytes / (double)o->size / s,
		bytes / 1048576.0 / s);
	fflush(out);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t *rtt_array(const struct opts *o, uint64_t *cap)
{
	double rate = o->transport == SHM ? SHM_MAX_RATE : MAX_RATE;

	*cap = o->count ? o->count : (uint64_t)(o->duration * rate) + 1;
	uint64_t *rtt = malloc(*cap * sizeof(*rtt));

	if (!rtt)
		fail("malloc");
	memset(rtt, 0, *cap * sizeof(*rtt));	/* touched before the clock starts */
	return rtt;
}

void report_pingpong(uint64_t *rtt, uint64_t n, uint64_t start, uint64_t end)
{
	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	double el = (double)(end - start) / 1e9;
	printf("rtt_p50_us %.6g\nrtt_mean_us %.6g\nmsgs_per_s %.6g\n",
	       (double)rtt[(n - 1) / 2] / 1e3, el * 1e6 / (double)n, (double)n / el);
	free(rtt);
}

/* The client of a pingpong: warmup round trips, then the timed ones. */
static void run_pingpong(const struct opts *o, int fd)
{
	uint64_t cap, n = 0, *rtt = rtt_array(o, &cap);
	unsigned char *out = malloc(o->size), *in = malloc(o->size);

	if (!out || !in)
		fail("malloc");
	memset(out, 'x', o->size);
	for (uint64_t i = 0; i < o->warmup; i++)
		if (write_full(fd, out, o->size, o->busy) < 0 ||
		    read_full(fd, in, o->size, o->busy) <= 0)
			fail("warmup round trip");
	uint64_t start = now_ns(), end = start + (uint64_t)(o->duration * 1e9), t = start;
	while (n < cap && (o->count || t < end)) {
		uint64_t t0 = t;
		if (write_full(fd, out, o->size, o->busy) < 0 ||
		    read_full(fd, in, o->size, o->busy) <= 0)
			fail("round trip");
		t = now_ns();
		rtt[n++] = t - t0;
	}
	if (o->transport == UDP && write(fd, out, 0) < 0)	/* the server's EOF */
		fail("udp end");
	report_pingpong(rtt, n, start, t);
	free(out);
	free(in);
}

/* The sender of a stream: COUNT messages, or for DURATION, then EOF. */
static void run_stream(const struct opts *o, int fd)
{
	unsigned char *out = malloc(o->size);
	uint64_t total = o->warmup + o->count, end = 0;

	if (!out)
		fail("malloc");
	memset(out, 'x', o->size);
	for (uint64_t i = 0; !o->count || i < total; i++) {
		if (write_full(fd, out, o->size, o->busy) < 0)
			fail("client write");
		if (!o->count && i >= o->warmup && (i & 63) == 0) {
			uint64_t t = now_ns();
			if (!end)
				end = t + (uint64_t)(o->duration * 1e9);
			else if (t >= end)
				break;
		}
	}
	if (shutdown(fd, SHUT_WR) < 0)
		fail("shutdown");
	free(out);
}

static void usage(void)
{
	fputs("usage: floor [--pattern pingpong|stream] [--transport tcp|unix|udp|shm|mq] [--size N]\n"
	      "             [--count N | --duration SECONDS] [--warmup N] [--cpu none|same|split]\n"
	      "             [--busy] [--nodelay 0|1] [--timeout SECONDS]\n", stderr);
	exit(2);
}

static int pick(const char *v, const char *const *names, int n, const char *opt)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v, names[i]))
			return i;
	fprintf(stderr, "floor: --%s: unknown value '%s'\n", opt, v);
	exit(2);
}

static double number(const char *v, const char *opt, double min)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || end == v || *end || !(d >= min)) {
		fprintf(stderr, "floor: --%s: '%s' is not a number of at least %g\n", opt, v, min);
		exit(2);
	}
	return d;
}

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "pattern", 1, 0, 'p' }, { "transport", 1, 0, 't' }, { "size", 1, 0, 's' },
		{ "count", 1, 0, 'n' }, { "duration", 1, 0, 'd' }, { "warmup", 1, 0, 'w' },
		{ "cpu", 1, 0, 'c' }, { "busy", 0, 0, 'b' }, { "nodelay", 1, 0, 'N' },
		{ "timeout", 1, 0, 'T' }, { 0, 0, 0, 0 }
	};
	static const char *const pats[] = { "pingpong", "stream" };
	static const char *const tps[] = { "tcp", "unix", "udp", "shm", "mq" };
	static const char *const cpus[] = { "none", "same", "split" };
	int c;

	*o = (struct opts){ .size = 16, .count = 100000, .warmup = 1000, .nodelay = 1,
			    .timeout = 60 };
	while ((c = getopt_long(argc, argv, "p:t:s:n:d:w:c:bN:T:", lo, NULL)) != -1) {
		switch (c) {
		case 'p': o->pattern = pick(optarg, pats, 2, "pattern"); break;
		case 't': o->transport = pick(optarg, tps, 5, "transport"); break;
		case 's': o->size = (size_t)number(optarg, "size", 1); break;
		case 'n': o->count = (uint64_t)number(optarg, "count", 1); o->duration = 0; break;
		case 'd': o->duration = number(optarg, "duration", 0.001); o->count = 0; break;
		case 'w': o->warmup = (uint64_t)number(optarg, "warmup", 0); break;
		case 'c': o->cpu = pick(optarg, cpus, 3, "cpu"); break;
		case 'b': o->busy = 1; break;
		case 'N': o->nodelay = (int)number(optarg, "nodelay", 0) != 0; break;
		case 'T': o->timeout = number(optarg, "timeout", 1); break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (o->transport == UDP && (o->pattern == STREAM || o->size > 65507)) {
		fprintf(stderr, "floor: udp: pingpong only, at most 65507 bytes\n");
		exit(2);
	}
	ipc_check(o);
}

/* The sockets' two ends (fds[0] the client's), before the fork. */
static void open_sockets(const struct opts *o, int fds[2])
{
	connect_pair(o, fds);
	if (o->transport == UDP) {
		struct timeval tv = { 1, 0 };
		for (int i = 0; i < 2; i++)
			if (setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
				fail("SO_RCVTIMEO");
	}
}

static void server(const struct opts *o, int fd, FILE *out)
{
	if (o->transport == SHM || o->transport == MQ) {
		ipc_server(o, out);
		return;
	}
	if (o->busy)
		set_nonblock(fd);
	if (o->pattern == PINGPONG)
		serve_pingpong(o, fd);
	else
		serve_stream(o, fd, out);
}

static void client(const struct opts *o, int fd)
{
	if (o->transport == SHM || o->transport == MQ) {
		ipc_client(o);
		return;
	}
	if (o->busy)
		set_nonblock(fd);
	if (o->pattern == PINGPONG)
		run_pingpong(o, fd);
	else
		run_stream(o, fd);
	close(fd);
}

int main(int argc, char **argv)
{
	struct opts o;
	int fds[2] = { -1, -1 }, res[2], first, second, st;

	parse(argc, argv, &o);
	allowed_cpus(&first, &second);
	if (o.cpu == CPU_SPLIT && second < 0) {
		fprintf(stderr, "floor: --cpu split: only one CPU is allowed here\n");
		return 2;
	}
	if (o.transport == SHM || o.transport == MQ)
		ipc_open(&o);
	else
		open_sockets(&o, fds);
	if (pipe(res) < 0)
		fail("pipe");
	pid_t pid = fork();
	if (pid < 0)
		fail("fork");
	alarm((unsigned)o.timeout);	/* each process: alarms are not inherited */
	if (pid == 0) {	/* the server */
		FILE *out = NULL;
		if (fds[0] >= 0)
			close(fds[0]);
		close(res[0]);
		place(o.cpu == CPU_NONE ? -1 : first);
		if (o.pattern == STREAM && !(out = fdopen(res[1], "w")))
			fail("fdopen");
		server(&o, fds[1], out);
		_exit(0);
	}
	if (fds[1] >= 0)
		close(fds[1]);
	close(res[1]);
	place(o.cpu == CPU_NONE ? -1 : o.cpu == CPU_SAME ? first : second);
	client(&o, fds[0]);
	char buf[256];
	ssize_t n;
	while ((n = read(res[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	if (waitpid(pid, &st, 0) < 0)
		fail("waitpid");
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "floor: the server failed (status %#x)\n", st);
		return 1;
	}
	return 0;
}
