/*
 * bench/floor_ipc.c: the floor's shm and mq loops (bench/floor.c's header
 * comment documents them; floor.h the calls).
 *
 * shm: one anonymous MAP_SHARED mapping, made before the fork, holding two
 * single-producer single-consumer byte rings (client to server, server to
 * client) of RING bytes.  A ring's head (bytes written, the producer's)
 * and tail (bytes read, the consumer's) are C11 atomics on cache lines of
 * their own, published with release and read with acquire; each side keeps
 * the last value it saw of the other's index and reloads it only when the
 * ring looks full (or empty).  Payload bytes are memcpy'd in and out,
 * wrapping at the end.  A write copies what fits and waits for room for the
 * rest, a read takes what is there up to its buffer (read(2)'s shape).
 * --busy: a waiting side spins with the CPU's pause.  Otherwise (block) it
 * sleeps on a futex: per waiting direction a 32-bit sequence word and a
 * waiter flag; the sleeper sets the flag, fences and checks the ring once
 * more before FUTEX_WAIT on the word it read; the other side, after
 * publishing, fences and makes the FUTEX_WAKE syscall only when it sees the
 * flag (so a side that never sleeps costs the other no syscall).  Shared
 * (not PRIVATE) futex ops: two processes.  The end of the stream (and of a
 * pingpong) is the producer's closed flag.
 *
 * mq: two POSIX message queues (client to server, server to client), each
 * made O_CREAT|O_EXCL under a name of this process's, at most
 * /proc/sys/fs/mqueue/msg_max messages of SIZE bytes, and unlinked as soon
 * as it is open (the fork hands the descriptors on), so nothing is left
 * whatever happens next.  mq_send/mq_receive, one message a call; --busy:
 * O_NONBLOCK and a spin on EAGAIN.  A zero-length message is the end.
 * SIZE above /proc/sys/fs/mqueue/msgsize_max is refused (the kernel would
 * refuse it to an unprivileged user and let root past it).
 */
#include "floor.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <mqueue.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING (256u * 1024)	/* bytes a ring holds: a power of two */
#define LINE 64
#define MQ_MSGSIZE_MAX "/proc/sys/fs/mqueue/msgsize_max"
#define MQ_MSG_MAX "/proc/sys/fs/mqueue/msg_max"

#if defined(__x86_64__) || defined(__i386__)
#define cpu_pause() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_pause() __asm__ __volatile__("yield" ::: "memory")
#else
#define cpu_pause() ((void)0)
#endif

#define LOAD(p, mo) atomic_load_explicit((p), memory_order_##mo)
#define STORE(p, v, mo) atomic_store_explicit((p), (v), memory_order_##mo)

/* Where one side sleeps: the futex word and the flag that says so. */
struct waitq {
	_Alignas(LINE) _Atomic uint32_t seq;
	_Atomic uint32_t waiting;
};

struct ring {
	_Alignas(LINE) _Atomic uint64_t head;	/* bytes written: the producer's */
	_Atomic uint32_t closed;		/* the producer is done */
	_Alignas(LINE) _Atomic uint64_t tail;	/* bytes read: the consumer's */
	struct waitq data;			/* the consumer waits for bytes */
	struct waitq room;			/* the producer waits for room */
	_Alignas(LINE) unsigned char buf[RING];
};

/* This process's side: the ring it writes and the one it reads, with the
 * last tail (of tx) and head (of rx) it saw; or its two queues. */
static struct {
	const struct opts *o;
	struct ring *tx, *rx;
	uint64_t tx_tail, rx_head;
	mqd_t qtx, qrx;
} me;

static struct ring *rings;	/* [0] client to server, [1] server to client */
static mqd_t queues[2];

static void futex(_Atomic uint32_t *w, int op, uint32_t val)
{
	if (syscall(SYS_futex, w, op, val, NULL, NULL, 0) < 0 && errno != EAGAIN &&
	    errno != EINTR)
		fail(op == FUTEX_WAIT ? "futex wait" : "futex wake");
}

/* After publishing: wakes the other side if it sleeps on q. */
static inline void notify(struct waitq *q)
{
	atomic_thread_fence(memory_order_seq_cst);
	if (LOAD(&q->waiting, relaxed)) {
		atomic_fetch_add_explicit(&q->seq, 1, memory_order_seq_cst);
		futex(&q->seq, FUTEX_WAKE, 1);
	}
}

/* Sleeps on q until ready() holds (checked after the flag is up). */
#define SLEEP_UNTIL(q, ready)                                                  \
	do {                                                                   \
		for (;;) {                                                     \
			uint32_t s_ = LOAD(&(q)->seq, acquire);                \
			STORE(&(q)->waiting, 1, relaxed);                      \
			atomic_thread_fence(memory_order_seq_cst);             \
			if (ready)                                             \
				break;                                         \
			futex(&(q)->seq, FUTEX_WAIT, s_);                      \
		}                                                              \
		STORE(&(q)->waiting, 0, relaxed);                              \
	} while (0)

static void ring_write(const unsigned char *p, size_t len)
{
	struct ring *r = me.tx;
	uint64_t h = LOAD(&r->head, relaxed);

	while (len) {
		size_t room = RING - (size_t)(h - me.tx_tail);
		if (!room) {
			me.tx_tail = LOAD(&r->tail, acquire);
			if (h - me.tx_tail == RING) {
				if (me.o->busy)
					cpu_pause();
				else
					SLEEP_UNTIL(&r->room, h - LOAD(&r->tail, acquire) < RING);
			}
			continue;
		}
		size_t n = len < room ? len : room, off = (size_t)h & (RING - 1);
		size_t first = RING - off < n ? RING - off : n;
		memcpy(r->buf + off, p, first);
		memcpy(r->buf, p + first, n - first);
		h += n;
		p += n;
		len -= n;
		STORE(&r->head, h, release);
		if (!me.o->busy)
			notify(&r->data);
	}
}

static void ring_close(void)
{
	STORE(&me.tx->closed, 1, release);
	notify(&me.tx->data);	/* busy or not: a last wake costs nothing */
}

/* What is there, up to max bytes, waiting for at least one; 0 at the end. */
static size_t ring_read(unsigned char *p, size_t max)
{
	struct ring *r = me.rx;
	uint64_t t = LOAD(&r->tail, relaxed);

	while (me.rx_head == t) {
		me.rx_head = LOAD(&r->head, acquire);
		if (me.rx_head != t)
			break;
		if (LOAD(&r->closed, acquire)) {
			me.rx_head = LOAD(&r->head, acquire);
			if (me.rx_head == t)
				return 0;
			break;
		}
		if (me.o->busy)
			cpu_pause();
		else
			SLEEP_UNTIL(&r->data, LOAD(&r->head, acquire) != t || LOAD(&r->closed, acquire));
	}
	size_t avail = (size_t)(me.rx_head - t), n = avail < max ? avail : max;
	size_t off = (size_t)t & (RING - 1), first = RING - off < n ? RING - off : n;
	memcpy(p, r->buf + off, first);
	memcpy(p + first, r->buf, n - first);
	STORE(&r->tail, t + n, release);
	if (!me.o->busy)
		notify(&r->room);
	return n;
}

static void mq_put(const unsigned char *p, size_t len)
{
	while (mq_send(me.qtx, (const char *)p, len, 0) < 0)
		if (!(me.o->busy && errno == EAGAIN) && errno != EINTR)
			fail("mq_send");
}

static size_t mq_get(unsigned char *p, size_t cap)
{
	ssize_t n;

	while ((n = mq_receive(me.qrx, (char *)p, cap, NULL)) < 0)
		if (!(me.o->busy && errno == EAGAIN) && errno != EINTR)
			fail("mq_receive");
	return (size_t)n;
}

static inline void put(const unsigned char *p, size_t len)
{
	if (me.o->transport == SHM)
		ring_write(p, len);
	else
		mq_put(p, len);
}

static void put_end(void)
{
	if (me.o->transport == SHM)
		ring_close();
	else
		mq_put((const unsigned char *)"", 0);
}

/* Some bytes (shm: what is there; mq: one message), 0 at the end. */
static inline size_t get_some(unsigned char *p, size_t cap)
{
	return me.o->transport == SHM ? ring_read(p, cap) : mq_get(p, cap);
}

/* Exactly len bytes: 1; 0 at the end before any. */
static int get_full(unsigned char *p, size_t len)
{
	size_t got = 0, n;

	while (got < len) {
		if (!(n = get_some(p + got, len - got))) {
			if (got == 0)
				return 0;
			errno = EPIPE;
			fail("a message cut short");
		}
		got += n;
	}
	return 1;
}

/* A number from a /proc file, -1 when it cannot be read. */
static long proc_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

void ipc_check(const struct opts *o)
{
	if (o->transport != MQ)
		return;
	long lim = proc_long(MQ_MSGSIZE_MAX);
	if (lim < 0) {
		fprintf(stderr, "floor: mq: cannot read %s: %s\n", MQ_MSGSIZE_MAX, strerror(errno));
		exit(1);
	}
	if (o->size > (size_t)lim) {
		fprintf(stderr, "floor: --size %zu: above the POSIX message queue limit of %ld bytes"
			" (%s; sysctl fs.mqueue.msgsize_max)\n", o->size, lim, MQ_MSGSIZE_MAX);
		exit(2);
	}
}

static void open_queues(const struct opts *o)
{
	long most = proc_long(MQ_MSG_MAX);
	struct mq_attr a = { .mq_maxmsg = most > 0 ? most : 10, .mq_msgsize = (long)o->size };
	char name[64], what[96];

	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "/matrix-floor-%ld-%d", (long)getpid(), i);
		queues[i] = mq_open(name, O_CREAT | O_EXCL | O_RDWR | (o->busy ? O_NONBLOCK : 0),
				    0600, &a);
		snprintf(what, sizeof(what), "mq_open %s (%ld messages of %zu bytes)", name,
			 a.mq_maxmsg, o->size);
		if (queues[i] == (mqd_t)-1)
			fail(what);
		if (mq_unlink(name) < 0)
			fail("mq_unlink");
	}
}

void ipc_open(const struct opts *o)
{
	if (o->transport == MQ) {
		open_queues(o);
		return;
	}
	rings = mmap(NULL, 2 * sizeof(*rings), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (rings == MAP_FAILED)
		fail("mmap of the rings");
	memset(rings, 0, 2 * sizeof(*rings));	/* every page present before the fork */
}

static void take_side(const struct opts *o, int server)
{
	me.o = o;
	if (o->transport == SHM) {
		me.tx = &rings[server];
		me.rx = &rings[!server];
	} else {
		me.qtx = queues[server];
		me.qrx = queues[!server];
	}
}

static void serve_pingpong(void)
{
	unsigned char *buf = malloc(me.o->size);

	if (!buf)
		fail("malloc");
	while (get_full(buf, me.o->size))
		put(buf, me.o->size);
	free(buf);
}

static void serve_stream(FILE *out)
{
	const struct opts *o = me.o;
	size_t cap = o->transport == MQ ? o->size : o->size > READ_MIN ? o->size : READ_MIN;
	unsigned char *buf = malloc(cap);
	uint64_t total = 0, warm = o->warmup * o->size, t0 = 0, t1 = 0, at0 = 0;
	size_t n;

	if (!buf)
		fail("malloc");
	while ((n = get_some(buf, cap)) > 0) {
		total += n;
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

void ipc_server(const struct opts *o, FILE *out)
{
	take_side(o, 1);
	if (o->pattern == PINGPONG)
		serve_pingpong();
	else
		serve_stream(out);
}

static void run_pingpong(void)
{
	const struct opts *o = me.o;
	uint64_t cap, n = 0, *rtt = rtt_array(o, &cap);
	unsigned char *out = malloc(o->size), *in = malloc(o->size);

	if (!out || !in)
		fail("malloc");
	memset(out, 'x', o->size);
	for (uint64_t i = 0; i < o->warmup; i++) {
		put(out, o->size);
		if (!get_full(in, o->size))
			fail("warmup round trip");
	}
	uint64_t start = now_ns(), end = start + (uint64_t)(o->duration * 1e9), t = start;
	while (n < cap && (o->count || t < end)) {
		uint64_t t0 = t;
		put(out, o->size);
		if (!get_full(in, o->size))
			fail("round trip");
		t = now_ns();
		rtt[n++] = t - t0;
	}
	put_end();
	report_pingpong(rtt, n, start, t);
	free(out);
	free(in);
}

static void run_stream(void)
{
	const struct opts *o = me.o;
	unsigned char *out = malloc(o->size);
	uint64_t total = o->warmup + o->count, end = 0;

	if (!out)
		fail("malloc");
	memset(out, 'x', o->size);
	for (uint64_t i = 0; !o->count || i < total; i++) {
		put(out, o->size);
		if (!o->count && i >= o->warmup && (i & 63) == 0) {
			uint64_t t = now_ns();
			if (!end)
				end = t + (uint64_t)(o->duration * 1e9);
			else if (t >= end)
				break;
		}
	}
	put_end();
	free(out);
}

void ipc_client(const struct opts *o)
{
	take_side(o, 0);
	if (o->pattern == PINGPONG)
		run_pingpong();
	else
		run_stream();
}
