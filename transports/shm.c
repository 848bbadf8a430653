/* shm: shared memory, a single-producer single-consumer byte ring each way
 * (shm_ring.h) between a server worker and each client worker.  Payload
 * bytes are copied into the ring and out of it (memcpy), as a socket's are
 * copied into the kernel and out: no pointer is passed.
 *
 * Rendezvous: an AF_UNIX stream socket in the private directory, the
 * address.  accept() takes one client, makes an anonymous memfd (no name:
 * nothing can be left in /dev/shm, even after a SIGKILL) holding both
 * rings, maps it and hands the descriptor over with SCM_RIGHTS; connect()
 * receives and maps it.  Each side then closes the memfd; the socket stays
 * open as the liveness check: a peer that is gone without saying so (its
 * socket at end of file or hung up) fails a wait with ECONNRESET (no more
 * bytes) or EPIPE (no room).
 *
 * Each ring is sized for a whole window: a power of two, at least 64 KiB
 * and max(size, reply) x (inflight + 1) (so that a client's inflight
 * requests and their replies never wait on each other), at most
 * SHM_RING_MAX.  A message larger than the ring goes through in pieces.
 *
 * Waiting, block (default): a side that finds no bytes (no room) sleeps
 * on the ring's futex word data_seq (space_seq), shared between processes
 * (no FUTEX_PRIVATE_FLAG), after raising data_waiting (space_waiting); the
 * other side, after it moved bytes, makes the FUTEX_WAKE call only when
 * that flag was up (it takes it down), so a side nobody waits for makes no
 * system call.  The flag's store and the recheck of the ring, and the
 * index's store and the flag's load, are ordered by sequentially
 * consistent operations: either the sleeper sees the bytes, or the mover
 * sees the flag.  A sleep lasts SHM_WAIT_MS at most, then the peer's
 * liveness is checked.  Block means sleep: there is no spin before it.
 * wake: eventfd (opts.wake_eventfd) keeps the flags but sleeps in poll()
 * on an eventfd of its side (and the socket, so a dead peer is seen at
 * once), then reads it; the other side writes it instead of FUTEX_WAKE.
 * The server makes both eventfds and passes them beside the memfd.
 * busy (`poll: busy`): a wait spins on the ring with a CPU pause and never
 * sleeps; every SHM_WAIT_MS or so it checks the peer too.  Both sides of a
 * connection wait the same way (a client whose poll or wake differs from
 * its server's is refused at connect), so a busy side never looks at the
 * flags.
 *
 * The end: close() sets `closed` on the ring it writes (a receive then
 * drains what is left and sees the end: recv 1 before a message, EPROTO
 * inside one, recv_some 0) and `gone` on the ring it reads, and wakes the
 * peer whatever it waits for.  What a closed writer left in a ring stays
 * there for the reader (the mapping lives while either side has it), so a
 * stream's sender needs no finish(). */
#include "transport.h"
#include "clock.h"
#include "fdio.h"
#include "pattern.h"
#include "shm_ring.h"
#include "sockets.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define SHM_RING_MIN (256u * 1024)	/* bench/floor_ipc.c's RING: the same room for a stream */
#define SHM_RING_MAX (64ull * 1024 * 1024)
#define SHM_MAX_SIZE (16ull * 1024 * 1024)
#define SHM_WAIT_MS 100
#define SHM_MAGIC 0x6d61747269787368ull	/* "matrixsh" */
#define SHM_SPINS_PER_CHECK 1024u

/* The mapping: this page, then the client-to-server ring's data, then the
 * server-to-client ring's. */
struct shm_layout {
	uint64_t magic;
	uint64_t cap[2];
	uint32_t busy;			/* the server's poll: the client must wait the same way */
	struct shm_ring ring[2];	/* 0: client to server, 1: server to client */
};
#define SHM_HEAD_LEN 4096u
_Static_assert(sizeof(struct shm_layout) <= SHM_HEAD_LEN, "the control page holds the rings");

struct shm_conn {
	struct shm_end tx, rx;
	void *map;
	size_t maplen;
	int ctl;		/* the rendezvous socket: the peer's liveness */
	int efd[2];		/* wake: eventfd: this side's to sleep on, the peer's
				 * to wake it; -1 with futexes */
	int busy;
	uint64_t last_check;	/* busy: when the peer was last checked */
};

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

static uint64_t next_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p < v && p < (1ull << 62))
		p <<= 1;
	return p;
}

/* The biggest message one way or the other. */
static uint64_t biggest(const struct transport_opts *o)
{
	uint64_t reply = pattern_reply_size(pattern_info(o->pattern), o->size, o->response_size);

	return o->size > reply ? o->size : reply;
}

/* Each ring's size for o; 0 with err set when a window does not fit. */
static uint64_t ring_cap(const struct transport_opts *o, char *err, size_t errlen)
{
	uint64_t m = biggest(o), n = o->inflight > 1 ? o->inflight : 1, want;

	if (n > 1 && m * n > SHM_RING_MAX) {
		snprintf(err, errlen, "shm: inflight %llu x %llu-byte messages does not fit a "
			 "ring of %llu MiB", (unsigned long long)n, (unsigned long long)m,
			 SHM_RING_MAX >> 20);
		return 0;
	}
	want = m * (n + 1);
	if (want < SHM_RING_MIN)
		want = SHM_RING_MIN;
	want = next_pow2(want);
	return want > SHM_RING_MAX ? SHM_RING_MAX : want;
}

static long futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, (uint32_t *)word, op, val, ts, NULL, 0);
}

/* The peer, sleeping on seq, woken: FUTEX_WAKE, or a write to its
 * eventfd. */
static void wake_up(struct shm_conn *s, _Atomic uint32_t *seq, int all)
{
	uint64_t one = 1;

	atomic_fetch_add(seq, 1);
	if (s->efd[1] < 0)
		futex(seq, FUTEX_WAKE, all ? INT_MAX : 1, NULL);
	else if (write(s->efd[1], &one, sizeof(one)) < 0)
		(void)0;	/* EAGAIN: its counter is full, so it is awake anyway */
}

/* After bytes moved: the other side, when it sleeps on seq, is woken. */
static inline void wake(struct shm_conn *s, _Atomic uint32_t *waiting, _Atomic uint32_t *seq)
{
	atomic_thread_fence(memory_order_seq_cst);	/* the index's store before the flag's load */
	if (atomic_load_explicit(waiting, memory_order_relaxed) &&
	    atomic_exchange(waiting, 0))
		wake_up(s, seq, 0);
}

/* 1 when the peer's end of the socket is gone (end of file, hung up). */
static int peer_gone(struct shm_conn *s)
{
	struct pollfd p = { .fd = s->ctl, .events = POLLIN };
	char c;

	if (poll(&p, 1, 0) <= 0)
		return 0;
	if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
		return 1;
	return (p.revents & POLLIN) && recv(s->ctl, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/* busy: every so many spins, the peer is checked once SHM_WAIT_MS passed. */
static int spin_gone(struct shm_conn *s, unsigned *spins)
{
	cpu_relax();
	if (++*spins % SHM_SPINS_PER_CHECK)
		return 0;
	uint64_t now = clock_now_ns();
	if (now - s->last_check < SHM_WAIT_MS * 1000000ull)
		return 0;
	s->last_check = now;
	return peer_gone(s);
}

/* wake: eventfd: until this side's eventfd is written, the peer's socket
 * ends, or SHM_WAIT_MS pass; the eventfd's count taken.  1 when the wait
 * timed out or the socket has news (the caller checks the peer). */
static int sleep_eventfd(struct shm_conn *s)
{
	struct pollfd p[2] = { { .fd = s->efd[0], .events = POLLIN },
			       { .fd = s->ctl, .events = POLLIN } };
	uint64_t count;
	int n = poll(p, 2, SHM_WAIT_MS);

	if (n > 0 && (p[0].revents & POLLIN) && read(s->efd[0], &count, sizeof(count)) < 0)
		return 0;	/* EAGAIN: taken by nobody else, so only spurious */
	return n == 0 || p[1].revents;
}

/* Sleeps on seq (raising waiting first) unless ready() holds once the
 * flag is up; SHM_WAIT_MS at most.  1 when the peer is gone. */
static int sleep_on(struct shm_conn *s, _Atomic uint32_t *waiting, _Atomic uint32_t *seq,
		    int (*ready)(struct shm_conn *))
{
	static const struct timespec ts = { 0, SHM_WAIT_MS * 1000000l };
	uint32_t v = atomic_load(seq);

	atomic_store(waiting, 1);
	atomic_thread_fence(memory_order_seq_cst);	/* the flag's store before the ring's load */
	if (!ready(s) && (s->efd[0] < 0 ? futex(seq, FUTEX_WAIT, v, &ts) < 0 &&
			  errno == ETIMEDOUT : sleep_eventfd(s)) && peer_gone(s))
		return 1;
	/* awake: the other side need not call FUTEX_WAKE for us (a flag left
	 * up would only cost it a useless call) */
	atomic_store_explicit(waiting, 0, memory_order_relaxed);
	return 0;
}

static int has_bytes(struct shm_conn *s)
{
	return shm_ring_used(&s->rx) > 0 || atomic_load(&s->rx.r->closed);
}

static int has_room(struct shm_conn *s)
{
	return shm_ring_used(&s->tx) < s->tx.cap || atomic_load(&s->tx.r->gone);
}

/* Until the ring we read has bytes or is closed: 0, or -1 (ECONNRESET)
 * when the peer is gone without closing. */
static int wait_bytes(struct shm_conn *s)
{
	struct shm_ring *r = s->rx.r;
	unsigned spins = 0;

	while (!has_bytes(s)) {
		int gone = s->busy ? spin_gone(s, &spins)
				   : sleep_on(s, &r->data_waiting, &r->data_seq, has_bytes);
		if (gone && !has_bytes(s)) {
			errno = ECONNRESET;
			return -1;
		}
	}
	return 0;
}

/* Until the ring we write has room: 0, or -1 (EPIPE) when its reader is
 * gone, closed or not. */
static int wait_room(struct shm_conn *s)
{
	struct shm_ring *r = s->tx.r;
	unsigned spins = 0;

	while (!has_room(s)) {
		int gone = s->busy ? spin_gone(s, &spins)
				   : sleep_on(s, &r->space_waiting, &r->space_seq, has_room);
		if (gone)
			break;
	}
	if (atomic_load(&r->gone) || !has_room(s)) {
		errno = EPIPE;
		return -1;
	}
	return 0;
}

static int shm_send(struct conn *c, const void *buf, size_t len)
{
	struct shm_conn *s = c->handle;
	const unsigned char *p = buf;

	while (len) {
		size_t n = shm_ring_write(&s->tx, p, len);
		if (n) {
			if (!s->busy)	/* busy: nobody sleeps */
				wake(s, &s->tx.r->data_waiting, &s->tx.r->data_seq);
			p += n;
			len -= n;
		} else if (wait_room(s) < 0) {
			return -1;
		}
	}
	return 0;
}

/* Up to cap bytes, at least one unless the stream ended (0): the count,
 * or -1. */
static ssize_t take(struct shm_conn *s, unsigned char *p, size_t cap)
{
	for (;;) {
		size_t n = shm_ring_read(&s->rx, p, cap);
		if (n) {
			if (!s->busy)
				wake(s, &s->rx.r->space_waiting, &s->rx.r->space_seq);
			return (ssize_t)n;
		}
		/* closed (acquire) and still empty: every byte written before
		 * the flag is in sight, so the stream has ended */
		if (atomic_load(&s->rx.r->closed) && !shm_ring_used(&s->rx))
			return 0;
		if (wait_bytes(s) < 0)
			return -1;
	}
}

static ssize_t shm_recv_some(struct conn *c, void *buf, size_t cap)
{
	return take(c->handle, buf, cap);
}

static int shm_recv(struct conn *c, void *buf, size_t len)
{
	return fd_recv_exact(c, buf, len, shm_recv_some);
}

static void shm_close(struct conn *c)
{
	struct shm_conn *s = c->handle;

	if (!s)
		return;
	if (s->tx.r) {	/* the peer is woken whatever it waits for */
		atomic_store(&s->tx.r->closed, 1);
		atomic_store(&s->rx.r->gone, 1);
		wake_up(s, &s->tx.r->data_seq, 1);
		wake_up(s, &s->rx.r->space_seq, 1);
	}
	if (s->map)	/* mapped, but maybe refused before its ends were set */
		munmap(s->map, s->maplen);
	for (int i = 0; i < 2; i++)
		if (s->efd[i] >= 0)
			close(s->efd[i]);
	if (s->ctl >= 0)
		close(s->ctl);
	free(s);
	c->handle = NULL;
	c->fd = c->wfd = -1;
}

/* s's two ends over its mapping; server: it writes ring 1, reads ring 0. */
static void shm_ends(struct shm_conn *s, int server)
{
	struct shm_layout *l = s->map;
	unsigned char *data = (unsigned char *)s->map + SHM_HEAD_LEN;
	unsigned char *d[2] = { data, data + l->cap[0] };

	shm_end_init(&s->tx, &l->ring[!server], d[!server], l->cap[!server], 1);
	shm_end_init(&s->rx, &l->ring[server], d[server], l->cap[server], 0);
}

static struct shm_conn *new_conn(const struct transport_opts *o, struct conn *c, int ctl)
{
	struct shm_conn *s = calloc(1, sizeof(*s));

	c->fd = c->wfd = -1;
	c->handle = s;
	c->streams = 1;
	if (!s) {
		close(ctl);
		return NULL;
	}
	s->ctl = ctl;
	s->efd[0] = s->efd[1] = -1;
	s->busy = o->busy;
	s->last_check = clock_now_ns();
	return s;
}

static int shm_listen(const struct transport_opts *o, const char *path, char *addr,
		      size_t addrlen, char *err, size_t errlen)
{
	if (!ring_cap(o, err, errlen))
		return -1;
	return sock_unix_listen(SOCK_STREAM, NULL, path, addr, addrlen, err, errlen);
}

/* The memfd of two rings of cap bytes, mapped into s.  Its descriptor, or
 * -1 with err set. */
static int make_rings(struct shm_conn *s, uint64_t cap, char *err, size_t errlen)
{
	int mfd = memfd_create("matrix-shm", MFD_CLOEXEC);

	s->maplen = SHM_HEAD_LEN + 2 * cap;
	if (mfd < 0 || ftruncate(mfd, (off_t)s->maplen) < 0) {
		snprintf(err, errlen, "memfd of %zu bytes: %s", s->maplen, strerror(errno));
		if (mfd >= 0)
			close(mfd);
		return -1;
	}
	s->map = mmap(NULL, s->maplen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, mfd, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		snprintf(err, errlen, "mmap %zu bytes: %s", s->maplen, strerror(errno));
		close(mfd);
		return -1;
	}
	struct shm_layout *l = s->map;
	l->magic = SHM_MAGIC;
	l->busy = (uint32_t)s->busy;
	for (int i = 0; i < 2; i++) {
		l->cap[i] = cap;
		shm_ring_init(&l->ring[i], cap);
	}
	shm_ends(s, 1);
	return mfd;
}

/* One byte on ctl carrying the n descriptors fds (n <= SHM_FDS).  0, or
 * -1 with errno. */
#define SHM_FDS 3	/* the memfd; wake: eventfd: the server's and the client's */
static int send_fds(int ctl, const int *fds, int n)
{
	char byte = 'm';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union { struct cmsghdr h; char buf[CMSG_SPACE(SHM_FDS * sizeof(int))]; } u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = CMSG_SPACE((size_t)n * sizeof(int)) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	ssize_t sent;

	memset(u.buf, 0, sizeof(u.buf));
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN((size_t)n * sizeof(int));
	memcpy(CMSG_DATA(h), fds, (size_t)n * sizeof(int));
	do
		sent = sendmsg(ctl, &m, MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	return sent == 1 ? 0 : -1;
}

/* wake: eventfd: the server's and the client's eventfds into s->efd (the
 * server's first) and fds[1], fds[2].  0, or -1 with err set. */
static int make_eventfds(struct shm_conn *s, int *fds, char *err, size_t errlen)
{
	for (int i = 0; i < 2; i++)
		if ((s->efd[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
			snprintf(err, errlen, "eventfd: %s", strerror(errno));
			return -1;
		}
	fds[1] = s->efd[0];
	fds[2] = s->efd[1];
	return 0;
}

static int shm_accept(int lfd, const struct transport_opts *o, struct conn *c, char *err,
		      size_t errlen)
{
	uint64_t cap = ring_cap(o, err, errlen);
	struct conn tmp = { .fd = -1, .wfd = -1 };
	struct shm_conn *s;
	int mfd;

	if (!cap)
		return -1;
	if (sock_accept(lfd, &tmp, err, errlen) < 0)
		return -1;
	if (!(s = new_conn(o, c, tmp.fd))) {
		snprintf(err, errlen, "accept: out of memory");
		return -1;
	}
	snprintf(c->peer, sizeof(c->peer), "shm client");
	if ((mfd = make_rings(s, cap, err, errlen)) < 0) {
		shm_close(c);
		return -1;
	}
	int fds[SHM_FDS] = { mfd, -1, -1 }, n = o->wake_eventfd ? 3 : 1;
	int rc = n > 1 ? make_eventfds(s, fds, err, errlen) : 0;
	if (!rc && (rc = send_fds(s->ctl, fds, n)) < 0)
		snprintf(err, errlen, "send the memfd to the client: %s", strerror(errno));
	close(mfd);	/* the mappings keep it: it has no name to remove */
	if (rc < 0)
		shm_close(c);
	return rc;
}

/* The descriptors that came with the server's byte on ctl into fds: their
 * count (1, or 3 for wake: eventfd), or -1 with err set. */
static int recv_fds(int ctl, int *fds, char *err, size_t errlen)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union { struct cmsghdr h; char buf[CMSG_SPACE(SHM_FDS * sizeof(int))]; } u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	ssize_t n;
	int got = 0;

	do
		n = recvmsg(ctl, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	struct cmsghdr *h = n == 1 ? CMSG_FIRSTHDR(&m) : NULL;
	if (h && h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS &&
	    h->cmsg_len >= CMSG_LEN(sizeof(int))) {
		got = (int)((h->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		memcpy(fds, CMSG_DATA(h), (size_t)got * sizeof(int));
	}
	if (got == 1 || got == 3)
		return got;
	for (int i = 0; i < got; i++)
		close(fds[i]);
	snprintf(err, errlen, "receive the memfd from the server: %s",
		 n < 0 ? strerror(errno) : n == 0 ? "the server closed" :
		 got ? "not 1 or 3 descriptors" : "no descriptor came");
	return -1;
}

/* The server's mapping, checked: 0, or -1 with err set. */
static int map_rings(struct shm_conn *s, int mfd, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(mfd, &st) < 0 || st.st_size < (off_t)SHM_HEAD_LEN) {
		snprintf(err, errlen, "the server's memfd: %s", errno ? strerror(errno) : "too short");
		return -1;
	}
	s->maplen = (size_t)st.st_size;
	s->map = mmap(NULL, s->maplen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, mfd, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		snprintf(err, errlen, "mmap %zu bytes: %s", s->maplen, strerror(errno));
		return -1;
	}
	struct shm_layout *l = s->map;
	uint64_t c0 = l->cap[0], c1 = l->cap[1];
	if (l->magic != SHM_MAGIC || !c0 || !c1 || (c0 & (c0 - 1)) || (c1 & (c1 - 1)) ||
	    c0 > SHM_RING_MAX || c1 > SHM_RING_MAX || SHM_HEAD_LEN + c0 + c1 > s->maplen) {
		snprintf(err, errlen, "the server's memfd holds no shm rings");
		return -1;
	}
	if (l->busy != (uint32_t)s->busy) {
		snprintf(err, errlen, "the shm server %s and this client %s: both take the same poll",
			 l->busy ? "spins (poll: busy)" : "sleeps (poll: block)",
			 s->busy ? "spins" : "sleeps");
		return -1;
	}
	shm_ends(s, 0);
	return 0;
}

static int shm_connect(const struct transport_opts *o, const char *path, struct conn *c,
		       char *err, size_t errlen)
{
	struct conn tmp = { .fd = -1, .wfd = -1 };
	struct shm_conn *s;
	int mfd;

	if (sock_unix_connect(SOCK_STREAM, NULL, path, &tmp, err, errlen) < 0)
		return -1;
	if (!(s = new_conn(o, c, tmp.fd))) {
		snprintf(err, errlen, "connect %.200s: out of memory", path);
		return -1;
	}
	snprintf(c->peer, sizeof(c->peer), "%.100s server", path);
	int fds[SHM_FDS], n = recv_fds(s->ctl, fds, err, errlen);
	if (n < 0) {
		shm_close(c);
		return -1;
	}
	mfd = fds[0];
	if (n == 3) {	/* sleep on the client's, wake the server on its own */
		s->efd[0] = fds[2];
		s->efd[1] = fds[1];
	}
	if ((n == 3) != !!o->wake_eventfd) {
		snprintf(err, errlen, "the shm server wakes with %s and this client with %s: both "
			 "take the same wake", n == 3 ? "eventfd" : "futex",
			 o->wake_eventfd ? "eventfd" : "futex");
		close(mfd);
		shm_close(c);
		return -1;
	}
	errno = 0;
	int rc = map_rings(s, mfd, err, errlen);
	close(mfd);
	if (rc < 0)
		shm_close(c);
	return rc;
}

/* The rings' sizes stand for the socket buffers: what can be in flight. */
static void shm_info(struct conn *c, struct conn_info *ci)
{
	struct shm_conn *s = c->handle;

	ci->sndbuf = s && s->tx.cap <= INT_MAX ? (int)s->tx.cap : -1;
	ci->rcvbuf = s && s->rx.cap <= INT_MAX ? (int)s->rx.cap : -1;
	ci->nodelay = -1;
}

const struct transport transport_shm = {
	.name = "shm",
	.summary = "shared memory: a ring each way per connection (memfd), futex or spin waits",
	.max_size = SHM_MAX_SIZE,
	.max_window = SHM_RING_MAX,
	.options = "wake (futex | eventfd)",
	.default_bind = NULL,
	.family = 0,		/* the socket is only the rendezvous: no plain socket to reach */
	.socktype = 0,
	.cannot = PATTERN_NEEDS_DUPLEX,	/* no descriptor to poll or shut down */
	.listen = shm_listen,
	.accept = shm_accept,
	.connect = shm_connect,
	.send = shm_send,
	.recv = shm_recv,
	.recv_some = shm_recv_some,
	.info = shm_info,
	.close = shm_close,
	.unlisten = sock_unlisten_path,
};
