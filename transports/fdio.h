/*
 * fdio: send, recv and close for transports whose connection is a
 * descriptor: struct conn's fd is read, its wfd written (the same socket,
 * or two FIFOs).  Each function keeps the contract of transport.h, so a
 * transport puts it in its ops table as it is.  They retry on EINTR and
 * set errno on failure; none of them prints anything.
 *
 * Busy polling (c->busy, set by fd_conn_poll): every send and receive
 * below retries at once, in a spin, a call that would block (EAGAIN on
 * the non-blocking descriptors); a receive gives up with EAGAIN once
 * c->recv_timeout_ns (when not 0) has passed since its first EAGAIN.  In
 * blocking mode the only cost is a test on the error path.
 *
 *   fd_conn_poll    the polling o asks for on a descriptor connection
 *                   (nothing when c->fd is -1): uring: c->ring (below,
 *                   "io_uring for PEER: reason" when it cannot); busy: fd and wfd
 *                   O_NONBLOCK, c->busy set, c->recv_timeout_ns =
 *                   o->recv_timeout_ns when lossy; busy_poll_ns: SO_BUSY_POLL
 *                   (µs) on fd.
 *                   0, or -1 with "setsockopt SO_BUSY_POLL 50us: reason".
 *
 * io_uring (c->ring, set by fd_conn_poll when o->uring: `poll: uring`):
 * fd_send_all, fd_recv_all and fd_recv_some move the bytes through the
 * connection's own ring (liburing; a queue of 4, one transfer at a time):
 * each call of theirs becomes an IORING_OP_SEND or IORING_OP_RECV (on
 * sockets; IORING_OP_READ or IORING_OP_WRITE on FIFOs) and one
 * io_uring_submit_and_wait, looped over partial transfers and EINTR
 * exactly as the read() and write() path is, with the same results (the
 * end of the stream, EPROTO).  The descriptors stay blocking: the wait
 * sleeps in io_uring_enter.  The _inline forms below never look at
 * c->ring: a loop that calls them must not run on a ring's connection.
 * fd_close ends the ring.  A connection's ring is used from one thread.
 *   fd_takes_uring  1 when t's connections can have a ring: a byte stream
 *                   whose send, recv and recv_some are fdio's (tcp, tcp6,
 *                   unix, pipe); 0 for messages and transports without a
 *                   descriptor.
 *   fd_uring_probe  whether this kernel sets up a ring for this process
 *                   (io_uring_queue_init, once a process): 0, or -1 with
 *                   why ("this kernel has no io_uring", "io_uring is
 *                   disabled here (sysctl kernel.io_uring_disabled = 2 ...").
 *
 * A connection on one descriptor:
 *   fd_conn_set(c, fd, name)  c->fd = c->wfd = fd, one stream, c->peer =
 *                             name (cut at 120 bytes), no handle.  From
 *                             here c owns fd: the transport's close
 *                             closes it.
 *
 * Byte streams (tcp, unix, pipe), one message = len bytes of the stream:
 *   fd_send_all     writes all len bytes to wfd, looping over partial
 *                   writes: 0, or -1.
 *   fd_recv_all     reads exactly len bytes from fd: 0; 1 when the stream
 *                   ended before the message's first byte (the peer closed
 *                   between messages); -1, errno EPROTO when it ended inside
 *                   the message.
 *   fd_recv_some    one read() of at most cap bytes: its length, 0 at the
 *                   end of the stream, -1.
 *   fd_close        closes wfd (unless it is fd) and fd; both become -1.
 *   fd_send_all_inline, fd_recv_all_inline  fd_send_all and fd_recv_all
 *                   themselves, inline, for a loop that knows its
 *                   transport's ops are those two (a round trip's): the
 *                   common case (one call moves the whole message) is the
 *                   system call and a compare; the rest (partial transfers,
 *                   EINTR, a busy spin, the end of the stream) is
 *                   fd_send_rest and fd_recv_rest, out of line, given what
 *                   the first call returned (n).
 *
 * The system calls (fd_sys_read, fd_sys_write): glibc's read() and write()
 * in a process with threads (every server) wrap the call in pthread
 * cancellation's enable and disable, two atomic exchanges and some 30
 * instructions a call; nothing in matrix cancels a thread, so the hot path
 * makes the call itself (x86-64 and arm64; syscall(2) elsewhere), errno
 * set as read() sets it.  Under AddressSanitizer read() and write()
 * themselves, whose interceptors check the buffer.
 *
 * Messages (udp, unix_dgram, unix_seqpacket), one send() or recv() each;
 * a zero-length message ends a stream:
 *   fd_msg_send     one send() of len bytes to wfd: 0, or -1 (errno
 *                   EMSGSIZE when the kernel took another length).
 *   fd_msg_recv     one message of exactly len bytes from fd: 0; 1 for the
 *                   end-of-stream message; -1 (EMSGSIZE for another length).
 *   fd_msg_recv_some  one message of at most cap bytes: its length, 0 for
 *                   the end-of-stream message, -1 (EMSGSIZE when longer).
 *                   Both receives skip a late "ok" of the datagram
 *                   handshake (dgram.h): it is not data.
 *   fd_msg_close    sends the end-of-stream message (waiting for room like
 *                   any message), then two more without waiting (udp may
 *                   lose one), then fd_close.
 *   fd_msg_result      one received message's length n (0: the end-of-stream
 *                   message, -1: an error) as recv() returns it for a
 *                   message of exactly len bytes: 0, 1 at the end, -1 with
 *                   errno (EMSGSIZE for another length).  For transports
 *                   that receive their messages their own way (zmq).
 *   fd_recv_exact   exactly len bytes of a byte stream by calls of some (a
 *                   recv_some that retries EINTR itself), as fd_recv_all
 *                   returns them: 0; 1 at an end before the first byte; -1
 *                   (EPROTO for an end inside the message).  For byte
 *                   streams without a plain descriptor's fast path (the
 *                   io_uring path, shm).
 */
#ifndef MATRIX_FDIO_H
#define MATRIX_FDIO_H

#include <errno.h>
#include <stddef.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "transport.h"

#if defined(__SANITIZE_ADDRESS__)
#define FDIO_LIBC_IO 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FDIO_LIBC_IO 1
#endif
#endif

#ifdef FDIO_LIBC_IO
static inline ssize_t fd_sys_read(int fd, void *buf, size_t len)
{
	return read(fd, buf, len);
}

static inline ssize_t fd_sys_write(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len);
}
#else
/* The system call nr(a, b, c): its result, or -errno. */
static inline long fd_syscall3(long nr, long a, long b, long c)
{
#if defined(__x86_64__)
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory", "cc");
	return x0;
#else
	long ret = syscall(nr, a, b, c);

	return ret < 0 ? -errno : ret;
#endif
}

static inline ssize_t fd_sys_read(int fd, void *buf, size_t len)
{
	long n = fd_syscall3(SYS_read, fd, (long)buf, (long)len);

	if (n < 0) {
		errno = (int)-n;
		return -1;
	}
	return n;
}

static inline ssize_t fd_sys_write(int fd, const void *buf, size_t len)
{
	long n = fd_syscall3(SYS_write, fd, (long)buf, (long)len);

	if (n < 0) {
		errno = (int)-n;
		return -1;
	}
	return n;
}
#endif

int fd_send_rest(struct conn *c, const char *p, size_t len, ssize_t n);
int fd_recv_rest(struct conn *c, char *p, size_t len, ssize_t n);

static inline int fd_send_all_inline(struct conn *c, const void *buf, size_t len)
{
	ssize_t n = fd_sys_write(c->wfd, buf, len);

	return n == (ssize_t)len ? 0 : fd_send_rest(c, buf, len, n);
}

static inline int fd_recv_all_inline(struct conn *c, void *buf, size_t len)
{
	ssize_t n = fd_sys_read(c->fd, buf, len);

	return n == (ssize_t)len && len ? 0 : fd_recv_rest(c, buf, len, n);
}

void fd_conn_set(struct conn *c, int fd, const char *name);
int fd_conn_poll(struct conn *c, const struct transport_opts *o, int lossy, char *err,
		 size_t errlen);
int fd_takes_uring(const struct transport *t);
int fd_uring_probe(char *why, size_t wl);

int fd_send_all(struct conn *c, const void *buf, size_t len);
int fd_recv_all(struct conn *c, void *buf, size_t len);
ssize_t fd_recv_some(struct conn *c, void *buf, size_t cap);
void fd_close(struct conn *c);

int fd_msg_send(struct conn *c, const void *buf, size_t len);
int fd_msg_recv(struct conn *c, void *buf, size_t len);
ssize_t fd_msg_recv_some(struct conn *c, void *buf, size_t cap);
void fd_msg_close(struct conn *c);
int fd_msg_result(ssize_t n, size_t len);
int fd_recv_exact(struct conn *c, void *buf, size_t len,
		  ssize_t (*some)(struct conn *c, void *buf, size_t cap));

#endif
