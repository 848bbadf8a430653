/* Descriptor I/O shared by the descriptor transports: see fdio.h. */
#include "fdio.h"
#include "clock.h"
#include "dgram.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

void fd_conn_set(struct conn *c, int fd, const char *name)
{
	c->fd = c->wfd = fd;
	c->handle = NULL;
	c->ring = NULL;
	c->streams = 1;
	snprintf(c->peer, sizeof(c->peer), "%.120s", name);
}

static int nonblocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static int sockopt(int fd, int opt, const char *name, int val, const char *shown, char *err,
		   size_t errlen)
{
	if (setsockopt(fd, SOL_SOCKET, opt, &val, sizeof(val)) == 0)
		return 0;
	snprintf(err, errlen, "setsockopt %s %s: %s", name, shown, strerror(errno));
	return -1;
}


/* ---- poll: uring ---- */

/* The queue's depth: one transfer is in flight at a time. */
#define FD_RING_DEPTH 4

struct fd_ring {
	struct io_uring ring;
	int sock;	/* fd and wfd are sockets: IORING_OP_RECV / SEND, else READ / WRITE */
};

/* Why the kernel would not set up a ring (-err from io_uring_queue_init). */
static void ring_why(int err, char *why, size_t wl)
{
	char v[16] = "";
	FILE *f;

	if (err == ENOSYS) {
		snprintf(why, wl, "this kernel has no io_uring (io_uring_setup: %s)", strerror(err));
		return;
	}
	if (err == EPERM && (f = fopen("/proc/sys/kernel/io_uring_disabled", "r"))) {
		if (!fgets(v, sizeof(v), f))
			v[0] = 0;
		fclose(f);
		v[strcspn(v, "\n")] = 0;
	}
	if (!strcmp(v, "1"))
		snprintf(why, wl, "io_uring is disabled here for processes outside the group "
			 "kernel.io_uring_group (sysctl kernel.io_uring_disabled = 1): io_uring_setup: %s",
			 strerror(err));
	else if (v[0] && strcmp(v, "0"))
		snprintf(why, wl, "io_uring is disabled here (sysctl kernel.io_uring_disabled = %s; "
			 "0 allows it): io_uring_setup: %s", v, strerror(err));
	else if (err == EPERM)
		snprintf(why, wl, "io_uring_setup: %s (kernel.io_uring_disabled is %s: a seccomp "
			 "filter or the container's policy refuses it)", strerror(err),
			 v[0] ? v : "not there");
	else
		snprintf(why, wl, "io_uring_setup: %s", strerror(err));
}

int fd_takes_uring(const struct transport *t)
{
	return t->send == fd_send_all && t->recv == fd_recv_all && t->recv_some == fd_recv_some &&
	       !t->lossy;
}

int fd_uring_probe(char *why, size_t wl)
{
	static int probed, err;	/* one probe a process: the plan asks per cell */
	struct io_uring r;

	if (!probed) {
		int rc = io_uring_queue_init(FD_RING_DEPTH, &r, 0);
		if (rc == 0)
			io_uring_queue_exit(&r);
		err = rc < 0 ? -rc : 0;
		probed = 1;
	}
	if (!err)
		return 0;
	ring_why(err, why, wl);
	return -1;
}

static int is_socket(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

static int ring_open(struct conn *c, char *err, size_t errlen)
{
	struct fd_ring *r = calloc(1, sizeof(*r));
	char why[256];
	int rc;

	if (!r) {
		snprintf(err, errlen, "io_uring for %s: %s", c->peer, strerror(ENOMEM));
		return -1;
	}
	if ((rc = io_uring_queue_init(FD_RING_DEPTH, &r->ring, 0)) < 0) {
		ring_why(-rc, why, sizeof(why));
		snprintf(err, errlen, "io_uring for %s: %s", c->peer, why);
		free(r);
		return -1;
	}
	r->sock = is_socket(c->fd) && is_socket(c->wfd);
	c->ring = r;
	return 0;
}

static void ring_close(struct conn *c)
{
	if (!c->ring)
		return;
	io_uring_queue_exit(&c->ring->ring);
	free(c->ring);
	c->ring = NULL;
}

/* One transfer through c's ring: a receive from fd (rx) or a send to wfd
 * of at most len bytes, submitted and waited for: what read() or write()
 * would return, errno set on -1 (EINTR: the caller asks again). */
static ssize_t ring_io(struct conn *c, int rx, void *buf, size_t len)
{
	struct fd_ring *r = c->ring;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
	struct io_uring_cqe *cqe;
	int rc;

	if (!sqe) {	/* never: one transfer at a time in a ring of FD_RING_DEPTH */
		errno = EBUSY;
		return -1;
	}
	if (r->sock && rx)
		io_uring_prep_recv(sqe, c->fd, buf, len, 0);
	else if (r->sock)
		io_uring_prep_send(sqe, c->wfd, buf, len, 0);
	else if (rx)
		io_uring_prep_read(sqe, c->fd, buf, (unsigned)len, (__u64)-1);
	else
		io_uring_prep_write(sqe, c->wfd, buf, (unsigned)len, (__u64)-1);
	/* a signal may cut the wait: asking again submits what the kernel has
	 * not taken yet (nothing, once it has) and waits on */
	while ((rc = io_uring_submit_and_wait(&r->ring, 1)) == -EINTR)
		;
	while (rc >= 0 && (rc = io_uring_wait_cqe(&r->ring, &cqe)) == -EINTR)
		;
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	rc = cqe->res;
	io_uring_cqe_seen(&r->ring, cqe);
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	return rc;
}

static int ring_send_all(struct conn *c, const char *p, size_t len)
{
	while (len) {
		/* a transfer's length is an unsigned int: a larger message goes in parts */
		ssize_t n = ring_io(c, 0, (void *)p, len > 1u << 30 ? 1u << 30 : len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static ssize_t ring_recv_some(struct conn *c, void *buf, size_t cap)
{
	ssize_t n;

	while ((n = ring_io(c, 1, buf, cap > 1u << 30 ? 1u << 30 : cap)) < 0 && errno == EINTR)
		;
	return n;
}

int fd_conn_poll(struct conn *c, const struct transport_opts *o, int lossy, char *err,
		 size_t errlen)
{
	if (c->fd < 0)
		return 0;
	if (o->uring && ring_open(c, err, errlen) < 0)
		return -1;
	if (o->busy_poll_ns) {
		char us[32];
		uint64_t v = o->busy_poll_ns / 1000;
		snprintf(us, sizeof(us), "%lluus", (unsigned long long)v);
		/* SO_PREFER_BUSY_POLL and SO_BUSY_POLL_BUDGET are left alone: they
		 * steer epoll's busy polling with deferred interrupts, which a
		 * read() here does not use, and need CAP_NET_ADMIN where
		 * SO_BUSY_POLL does not */
		if (sockopt(c->fd, SO_BUSY_POLL, "SO_BUSY_POLL", v > INT32_MAX ? INT32_MAX : (int)v,
			    us, err, errlen) < 0)
			return -1;
	}
	if (!o->busy)
		return 0;
	if (nonblocking(c->fd) < 0 || (c->wfd != c->fd && nonblocking(c->wfd) < 0)) {
		snprintf(err, errlen, "O_NONBLOCK on %s: %s", c->peer, strerror(errno));
		return -1;
	}
	c->busy = 1;
	c->recv_timeout_ns = lossy ? o->recv_timeout_ns : 0;
	return 0;
}

enum io_call { IO_READ, IO_WRITE, IO_RECV, IO_SEND };

static inline ssize_t io(struct conn *c, enum io_call call, void *buf, size_t len)
{
	switch (call) {
	case IO_READ: return fd_sys_read(c->fd, buf, len);
	case IO_WRITE: return fd_sys_write(c->wfd, buf, len);
	case IO_RECV: return recv(c->fd, buf, len, MSG_TRUNC);
	default: return send(c->wfd, buf, len, 0);
	}
}

/* A call on c that failed (n < 0, errno), made again while it fails with
 * EINTR, and on a busy connection while it would block (EAGAIN), in a
 * spin: its last result.  A busy receive gives up (-1, EAGAIN) once
 * c->recv_timeout_ns, when set, has passed since its first EAGAIN.  Out
 * of line: in blocking mode the common path never comes here. */
static __attribute__((noinline)) ssize_t call_again(struct conn *c, enum io_call call, void *buf,
						    size_t len, ssize_t n)
{
	int rx = call == IO_READ || call == IO_RECV;
	uint64_t since = 0, now;

	for (;;) {
		if (errno == EAGAIN && c->busy && rx && c->recv_timeout_ns) {
			now = clock_now_ns();
			if (!since)
				since = now;
			else if (now - since >= c->recv_timeout_ns) {
				errno = EAGAIN;
				return -1;
			}
		} else if (errno != EINTR && (errno != EAGAIN || !c->busy)) {
			return n;
		}
		if ((n = io(c, call, buf, len)) >= 0)
			return n;
	}
}

/* The rest of a message of len bytes at buf after a first write() or
 * read() that returned n (not all of it): partial transfers, EINTR, busy
 * spins, and for a read the end of the stream.  Out of line, so that the
 * common case (one call moves the whole message) stays a few instructions. */
__attribute__((noinline)) int fd_send_rest(struct conn *c, const char *p, size_t len, ssize_t n)
{
	for (;;) {
		if (n < 0 && (n = call_again(c, IO_WRITE, (void *)p, len, n)) < 0)
			return -1;
		p += n;
		len -= (size_t)n;
		if (!len)
			return 0;
		n = fd_sys_write(c->wfd, p, len);
	}
}

__attribute__((noinline)) int fd_recv_rest(struct conn *c, char *p, size_t len, ssize_t n)
{
	size_t got = 0;

	if (!len)
		return 0;
	for (;;) {
		if (n < 0 && (n = call_again(c, IO_READ, p + got, len - got, n)) < 0)
			return -1;
		if (n == 0) {
			if (got == 0)
				return 1;
			errno = EPROTO;
			return -1;
		}
		got += (size_t)n;
		if (got == len)
			return 0;
		n = fd_sys_read(c->fd, p + got, len - got);
	}
}

int fd_send_all(struct conn *c, const void *buf, size_t len)
{
	if (c->ring)
		return ring_send_all(c, buf, len);
	return fd_send_all_inline(c, buf, len);
}

int fd_recv_all(struct conn *c, void *buf, size_t len)
{
	if (c->ring)
		return fd_recv_exact(c, buf, len, ring_recv_some);
	return fd_recv_all_inline(c, buf, len);
}

ssize_t fd_recv_some(struct conn *c, void *buf, size_t cap)
{
	if (c->ring)
		return ring_recv_some(c, buf, cap);
	ssize_t n = fd_sys_read(c->fd, buf, cap);

	return n < 0 ? call_again(c, IO_READ, buf, cap, n) : n;
}

void fd_close(struct conn *c)
{
	ring_close(c);
	if (c->wfd >= 0 && c->wfd != c->fd)
		close(c->wfd);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = c->wfd = -1;
}

int fd_msg_send(struct conn *c, const void *buf, size_t len)
{
	ssize_t n = send(c->wfd, buf, len, 0);

	if (n < 0)
		n = call_again(c, IO_SEND, (void *)buf, len, n);
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

/* One message into buf; its length, 0 for the end-of-stream message.  A
 * datagram server answers a hello it sees twice (its first "ok" may have
 * been lost) from the client's own socket: such a late "ok" is not data
 * (no message starts with those 8 bytes: as a sequence number they are
 * about 8e18) and is skipped. */
static inline int late_ok(const void *buf, size_t cap, ssize_t n)
{
	return n == (ssize_t)strlen(DGRAM_OK) && cap >= strlen(DGRAM_OK) &&
	       !memcmp(buf, DGRAM_OK, strlen(DGRAM_OK));
}

static ssize_t msg_recv(struct conn *c, void *buf, size_t cap)
{
	ssize_t n = recv(c->fd, buf, cap, MSG_TRUNC);

	while (n < 0 || late_ok(buf, cap, n)) {	/* out of the common path */
		if (n < 0 && (n = call_again(c, IO_RECV, buf, cap, n)) < 0)
			return -1;
		if (!late_ok(buf, cap, n))
			break;
		n = recv(c->fd, buf, cap, MSG_TRUNC);
	}
	if (n > (ssize_t)cap) {
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}

int fd_recv_exact(struct conn *c, void *buf, size_t len,
		  ssize_t (*some)(struct conn *c, void *buf, size_t cap))
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = some(c, p + got, len - got);
		if (n < 0)
			return -1;
		if (n == 0) {
			if (got == 0)
				return 1;
			errno = EPROTO;
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}

int fd_msg_result(ssize_t n, size_t len)
{
	if (n < 0)
		return -1;
	if (n == 0)
		return 1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

int fd_msg_recv(struct conn *c, void *buf, size_t len)
{
	return fd_msg_result(msg_recv(c, buf, len), len);
}

ssize_t fd_msg_recv_some(struct conn *c, void *buf, size_t cap)
{
	return msg_recv(c, buf, cap);
}

void fd_msg_close(struct conn *c)
{
	/* the end-of-stream message, waiting for room like any message (a full
	 * AF_UNIX receiver queue must not swallow it); udp may lose it, so two
	 * more follow, and its receiver also ends on a long silence */
	for (int i = 0; i < 3 && c->wfd >= 0; i++) {
		ssize_t n;
		n = send(c->wfd, "", 0, i ? MSG_DONTWAIT : 0);
		if (n < 0 && !i)	/* busy: the first waits for room in a spin */
			n = call_again(c, IO_SEND, "", 0, n);
		if (n < 0)
			break;
	}
	fd_close(c);
}
