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
 *                   (nothing when c->fd is -1): busy: fd and wfd
 *                   O_NONBLOCK, c->busy set, c->recv_timeout_ns =
 *                   o->recv_timeout_ns when lossy; busy_poll_ns: SO_BUSY_POLL
 *                   (µs) on fd.
 *                   0, or -1 with "setsockopt SO_BUSY_POLL 50us: reason".
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
 */
#ifndef MATRIX_FDIO_H
#define MATRIX_FDIO_H

#include <stddef.h>
#include <sys/types.h>

#include "transport.h"

void fd_conn_set(struct conn *c, int fd, const char *name);
int fd_conn_poll(struct conn *c, const struct transport_opts *o, int lossy, char *err,
		 size_t errlen);

int fd_send_all(struct conn *c, const void *buf, size_t len);
int fd_recv_all(struct conn *c, void *buf, size_t len);
ssize_t fd_recv_some(struct conn *c, void *buf, size_t cap);
void fd_close(struct conn *c);

int fd_msg_send(struct conn *c, const void *buf, size_t len);
int fd_msg_recv(struct conn *c, void *buf, size_t len);
ssize_t fd_msg_recv_some(struct conn *c, void *buf, size_t cap);
void fd_msg_close(struct conn *c);
int fd_msg_result(ssize_t n, size_t len);

#endif
