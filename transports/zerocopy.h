/*
 * zerocopy: a stream socket's sends with MSG_ZEROCOPY (tcp, tcp6; matrix
 * `zerocopy: true`), with the kernel's completions reaped, so that a
 * sender pays what a zero-copy sender really pays.
 *
 * With SO_ZEROCOPY on the socket, a send(MSG_ZEROCOPY) pins the caller's
 * pages instead of copying them: the buffer must not be written again
 * until the kernel says it is done with it.  It says so on the socket's
 * error queue (recvmsg(MSG_ERRQUEUE)): a struct sock_extended_err of
 * origin SO_EE_ORIGIN_ZEROCOPY whose ee_info..ee_data is a range of send
 * ids (every successful send call takes the next id, from 0), its
 * ee_code SO_EE_CODE_ZEROCOPY_COPIED when the kernel copied the data
 * after all (always over loopback: a looped packet is copied when it is
 * delivered, Documentation/networking/msg_zerocopy.rst).  The kernel
 * merges consecutive ranges into one notification, so there are at most
 * as many notifications as sends.
 *
 * A struct zc_sender is a pool of send buffers over one socket: each
 * message goes from the next buffer, which zc_acquire hands out only
 * once every send of it has completed (waiting for completions, in poll()
 * for POLLERR, or in a spin when the socket is non-blocking: poll: busy).
 *
 * Call order: zc_sender_init (SO_ZEROCOPY, the pool); per message
 * zc_acquire (the buffer to write the message into), then zc_send;
 * zc_drain before the buffers may be freed or the socket closed (every
 * completion in); zc_sender_release.  The socket stays the caller's.
 * Errors: -1 with errno (ENOBUFS: the kernel's limit on pinned memory or
 * notifications, net.core.optmem_max and RLIMIT_MEMLOCK, with nothing of
 * ours outstanding; EPIPE: the connection ended with sends outstanding).
 */
#ifndef MATRIX_ZEROCOPY_H
#define MATRIX_ZEROCOPY_H

#include <stddef.h>
#include <stdint.h>

/* Ids outstanding at most (sends not yet completed, partial ones
 * included): past it zc_send waits for completions. */
#define ZC_RING 4096u

struct zc_sender {
	int fd;
	int busy;		/* fd is non-blocking: wait in a spin */
	size_t size;		/* each buffer's bytes */
	unsigned nbuf, cur;	/* cur: the buffer zc_acquire last gave */
	unsigned char *block;	/* nbuf buffers of size bytes */
	unsigned *pending;	/* per buffer: its sends not yet completed */
	uint16_t *owner;	/* id % ZC_RING -> its buffer; ZC_DONE when completed */
	uint32_t next_id;	/* the id of the next successful send */
	uint32_t oldest;	/* the oldest id not yet completed */
	uint64_t sends;		/* send calls with MSG_ZEROCOPY that sent bytes */
	uint64_t completions;	/* notifications reaped */
	uint64_t copied;	/* of them, marked SO_EE_CODE_ZEROCOPY_COPIED */
};
#define ZC_DONE UINT16_MAX

/* Buffers in the pool for messages of size bytes: about 4 MiB of them
 * (a loopback socket's send buffer and more), 4 to 256. */
unsigned zc_pool_buffers(size_t size);

/* SO_ZEROCOPY on fd and a pool of zc_pool_buffers(size) buffers, each a
 * copy of the len bytes at fill.  0, or -1 with "setsockopt SO_ZEROCOPY:
 * reason" or "out of memory" in err. */
int zc_sender_init(struct zc_sender *z, int fd, int busy, size_t size, const unsigned char *fill,
		   char *err, size_t errlen);

/* The next buffer, free (every send from it completed): NULL with errno. */
unsigned char *zc_acquire(struct zc_sender *z);

/* Sends the len bytes (at most size) of the buffer zc_acquire gave last,
 * all of them, each call with MSG_ZEROCOPY.  0, or -1 with errno. */
int zc_send(struct zc_sender *z, size_t len);

/* Waits until every send has completed.  0, or -1 with errno. */
int zc_drain(struct zc_sender *z);

/* The counters back to 0 (after the warmup's drain). */
void zc_counters_reset(struct zc_sender *z);

void zc_sender_release(struct zc_sender *z);

#endif
