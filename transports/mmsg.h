/*
 * mmsg: a batch of datagrams in one system call (matrix `batch: N`, udp
 * and unix_dgram stream cells): sendmmsg of up to N messages, recvmmsg
 * of up to N, on a descriptor connection (fdio.h's conn: c->fd read,
 * c->wfd written, c->busy and c->recv_timeout_ns as fdio.h says).
 *
 * A struct mmsg_batch holds N buffers of size bytes and the headers that
 * point at them; the caller writes each message into mmsg_buf(b, i) (its
 * own sequence number stamped in each: payload.h) and sends the first k.
 *
 *   mmsg_init      N buffers of size bytes, each a copy of fill (NULL:
 *                  left as they are: a receiver's).  0, or -1 (ENOMEM).
 *   mmsg_send      sends messages 0..k-1, all of them: a sendmmsg that
 *                  sent fewer is made again for the rest; EINTR retried,
 *                  and on a busy connection EAGAIN, in a spin.  Each
 *                  message goes whole (EMSGSIZE when the kernel took
 *                  another length).  0, or -1 with errno.
 *   mmsg_recv      up to N messages (recvmmsg, MSG_WAITFORONE: it waits
 *                  for the first only); how many, or -1 with errno:
 *                  EAGAIN when none came within the receive timeout
 *                  (SO_RCVTIMEO, or c->recv_timeout_ns on a busy one).
 *   mmsg_result    message i of the last receive, as fd_msg_result says
 *                  (fdio.h): 0 a message of exactly size bytes, 1 the
 *                  end-of-stream message, 2 a late "ok" of the datagram
 *                  handshake (dgram.h: not data, skip it), -1 errno
 *                  EMSGSIZE for another length.
 *   mmsg_release   frees what init allocated.
 */
#ifndef MATRIX_MMSG_H
#define MATRIX_MMSG_H

#include <stddef.h>

#include "transport.h"

struct mmsghdr;
struct iovec;

struct mmsg_batch {
	unsigned n;
	size_t size;
	unsigned char *block;	/* n buffers of size bytes */
	struct mmsghdr *hdr;
	struct iovec *iov;
};

int mmsg_init(struct mmsg_batch *b, unsigned n, size_t size, const unsigned char *fill);
void mmsg_release(struct mmsg_batch *b);

static inline unsigned char *mmsg_buf(const struct mmsg_batch *b, unsigned i)
{
	return b->block + (size_t)i * b->size;
}

int mmsg_send(struct conn *c, struct mmsg_batch *b, unsigned k);
int mmsg_recv(struct conn *c, struct mmsg_batch *b);
int mmsg_result(const struct mmsg_batch *b, unsigned i);

#endif
