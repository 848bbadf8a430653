/* Batches of datagrams, sendmmsg and recvmmsg: see mmsg.h. */
#include "mmsg.h"
#include "clock.h"
#include "dgram.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

int mmsg_init(struct mmsg_batch *b, unsigned n, size_t size, const unsigned char *fill)
{
	memset(b, 0, sizeof(*b));
	b->n = n;
	b->size = size;
	b->block = n && size <= SIZE_MAX / n ? malloc((size_t)n * size) : NULL;
	b->hdr = calloc(n, sizeof(*b->hdr));
	b->iov = calloc(n, sizeof(*b->iov));
	if (!b->block || !b->hdr || !b->iov) {
		mmsg_release(b);
		errno = ENOMEM;
		return -1;
	}
	for (unsigned i = 0; i < n; i++) {
		if (fill)
			memcpy(mmsg_buf(b, i), fill, size);
		b->iov[i] = (struct iovec){ .iov_base = mmsg_buf(b, i), .iov_len = size };
		b->hdr[i].msg_hdr.msg_iov = &b->iov[i];
		b->hdr[i].msg_hdr.msg_iovlen = 1;
	}
	return 0;
}

void mmsg_release(struct mmsg_batch *b)
{
	free(b->block);
	free(b->hdr);
	free(b->iov);
	b->block = NULL;
	b->hdr = NULL;
	b->iov = NULL;
}

int mmsg_send(struct conn *c, struct mmsg_batch *b, unsigned k)
{
	unsigned done = 0;

	while (done < k) {
		int n = sendmmsg(c->wfd, b->hdr + done, k - done, 0);
		if (n < 0) {
			if (errno == EINTR || (errno == EAGAIN && c->busy))
				continue;
			return -1;
		}
		for (int i = 0; i < n; i++)
			if (b->hdr[done + (unsigned)i].msg_len != b->size) {
				errno = EMSGSIZE;
				return -1;
			}
		done += (unsigned)n;
	}
	return 0;
}

int mmsg_recv(struct conn *c, struct mmsg_batch *b)
{
	uint64_t since = 0;

	for (unsigned i = 0; i < b->n; i++)
		b->hdr[i].msg_hdr.msg_flags = 0;
	for (;;) {
		int n = recvmmsg(c->fd, b->hdr, b->n, MSG_WAITFORONE, NULL);
		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN || !c->busy)
			return -1;
		if (c->recv_timeout_ns) {	/* busy: the spin gives up as SO_RCVTIMEO would */
			uint64_t now = clock_now_ns();
			if (!since)
				since = now;
			else if (now - since >= c->recv_timeout_ns)
				return -1;
		}
	}
}

int mmsg_result(const struct mmsg_batch *b, unsigned i)
{
	const struct mmsghdr *h = &b->hdr[i];
	size_t oklen = strlen(DGRAM_OK);

	if (h->msg_len == 0)
		return 1;
	if (h->msg_len == oklen && b->size >= oklen && !memcmp(mmsg_buf(b, i), DGRAM_OK, oklen))
		return 2;
	if (h->msg_len != b->size || (h->msg_hdr.msg_flags & MSG_TRUNC)) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}
