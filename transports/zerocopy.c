/* MSG_ZEROCOPY sends and their completions: see zerocopy.h. */
#include "zerocopy.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/errqueue.h>
#include <netinet/in.h>

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif

#define ZC_POOL_BYTES (4u << 20)

unsigned zc_pool_buffers(size_t size)
{
	size_t n = size ? (ZC_POOL_BYTES + size - 1) / size : 256;

	return n < 4 ? 4 : n > 256 ? 256 : (unsigned)n;
}

int zc_sender_init(struct zc_sender *z, int fd, int busy, size_t size, const unsigned char *fill,
		   char *err, size_t errlen)
{
	int one = 1;

	memset(z, 0, sizeof(*z));
	z->fd = fd;
	z->busy = busy;
	z->size = size;
	z->nbuf = zc_pool_buffers(size);
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) < 0) {
		snprintf(err, errlen, "setsockopt SO_ZEROCOPY: %s", strerror(errno));
		return -1;
	}
	z->block = size && z->nbuf <= SIZE_MAX / size ? malloc(z->nbuf * size) : NULL;
	z->pending = calloc(z->nbuf, sizeof(*z->pending));
	z->owner = malloc(ZC_RING * sizeof(*z->owner));
	if (!z->block || !z->pending || !z->owner) {
		zc_sender_release(z);
		snprintf(err, errlen, "out of memory for %u zero-copy buffers of %zu bytes", z->nbuf,
			 size);
		return -1;
	}
	for (unsigned i = 0; i < z->nbuf; i++)
		memcpy(z->block + (size_t)i * size, fill, size);
	for (unsigned i = 0; i < ZC_RING; i++)
		z->owner[i] = ZC_DONE;
	z->cur = z->nbuf - 1;	/* the first acquire takes buffer 0 */
	return 0;
}

void zc_sender_release(struct zc_sender *z)
{
	free(z->block);
	free(z->pending);
	free(z->owner);
	z->block = NULL;
	z->pending = NULL;
	z->owner = NULL;
}

void zc_counters_reset(struct zc_sender *z)
{
	z->sends = z->completions = z->copied = 0;
}

/* Ids lo..hi (wrapping) completed: their buffers' counts down, and the
 * oldest outstanding id forward past every completed one. */
static void completed(struct zc_sender *z, uint32_t lo, uint32_t hi)
{
	for (uint32_t id = lo;; id++) {
		uint16_t *o = &z->owner[id % ZC_RING];
		if (*o != ZC_DONE && id - z->oldest < z->next_id - z->oldest) {
			z->pending[*o]--;
			*o = ZC_DONE;
		}
		if (id == hi)
			break;
	}
	while (z->oldest != z->next_id && z->owner[z->oldest % ZC_RING] == ZC_DONE)
		z->oldest++;
}

/* The notifications on the error queue now, without waiting: how many
 * were zero-copy ones, or -1 with errno. */
static int reap(struct zc_sender *z)
{
	int got = 0;

	for (;;) {
		char control[128];
		struct msghdr msg = { .msg_control = control, .msg_controllen = sizeof(control) };
		ssize_t n = recvmsg(z->fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? got : -1;
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			if (!((cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR) ||
			      (cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_RECVERR)))
				continue;
			struct sock_extended_err serr;
			memcpy(&serr, CMSG_DATA(cm), sizeof(serr));
			if (serr.ee_origin != SO_EE_ORIGIN_ZEROCOPY || serr.ee_errno)
				continue;
			z->completions++;
			z->copied += (serr.ee_code & SO_EE_CODE_ZEROCOPY_COPIED) != 0;
			completed(z, serr.ee_info, serr.ee_data);
			got++;
		}
	}
}

/* At least one notification reaped (waiting for it), or -1 with errno. */
static int wait_completion(struct zc_sender *z)
{
	short seen = 0;	/* what the last poll() said */

	for (;;) {
		int got = reap(z);
		if (got != 0)
			return got < 0 ? -1 : 0;
		if (seen & (POLLHUP | POLLNVAL)) {
			errno = EPIPE;	/* nothing will come */
			return -1;
		}
		if (seen & POLLERR) {	/* no notification: the socket's own error */
			int e = 0;
			socklen_t el = sizeof(e);
			if (getsockopt(z->fd, SOL_SOCKET, SO_ERROR, &e, &el) == 0 && e) {
				errno = e;
				return -1;
			}
		}
		if (z->busy)
			continue;
		struct pollfd p = { .fd = z->fd, .events = 0 };	/* POLLERR: the error queue */
		int r = poll(&p, 1, -1);
		if (r < 0 && errno != EINTR)
			return -1;
		seen = r > 0 ? p.revents : 0;
	}
}

unsigned char *zc_acquire(struct zc_sender *z)
{
	z->cur = (z->cur + 1) % z->nbuf;
	while (z->pending[z->cur])
		if (wait_completion(z) < 0)
			return NULL;
	return z->block + (size_t)z->cur * z->size;
}

int zc_send(struct zc_sender *z, size_t len)
{
	const unsigned char *p = z->block + (size_t)z->cur * z->size;

	while (len) {
		if (z->next_id - z->oldest >= ZC_RING && wait_completion(z) < 0)
			return -1;
		ssize_t n = send(z->fd, p, len, MSG_ZEROCOPY);
		if (n < 0) {
			if (errno == EINTR || (errno == EAGAIN && z->busy))
				continue;
			/* pinned memory or notifications over the kernel's limit:
			 * wait for ours to come back, when there are any */
			if (errno == ENOBUFS && z->next_id != z->oldest) {
				if (wait_completion(z) < 0)
					return -1;
				continue;
			}
			return -1;
		}
		z->owner[z->next_id % ZC_RING] = (uint16_t)z->cur;
		z->pending[z->cur]++;
		z->next_id++;
		z->sends++;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int zc_drain(struct zc_sender *z)
{
	while (z->oldest != z->next_id)
		if (wait_completion(z) < 0)
			return -1;
	return 0;
}
