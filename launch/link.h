/*
 * link: the link process of `topology: netns` (netns.h), a user-space
 * netem between two TUN devices.
 *
 * Every IP packet the server's namespace sends to the clients' (read from
 * its TUN device) is written into the other device once due, and back,
 * as tc netem on each end of a veth would (netem's enqueue: each packet
 * its own time to send, a queue ordered by it):
 *   loss     a packet is dropped with that probability
 *   delay    it is due `delay` after it was taken, plus a uniform draw in
 *            [-jitter, +jitter] (never before it was taken); with jitter a
 *            packet may be due before the one taken before it, and leaves
 *            first (reordering, as netem's)
 *   rate     it is due (len + 14) * 8 / rate after that (len: the IP
 *            packet; LINK_RATE_OVERHEAD), or after the packet
 *            queued before it if that one is due later (netem: the last
 *            packet in the queue is the reference), so with a rate no
 *            packet overtakes another, jitter or not (0: no limit)
 *   queue    at most LINK_QUEUE packets wait per direction; more are dropped
 *            (a full queue drops, as a router's does)
 * Each direction gets the whole link: a delay of 2 ms adds 4 ms to a round
 * trip, as netem on both ends of a veth would.
 *
 * The runner talks to it over ctl (a SOCK_SEQPACKET socketpair): before
 * every cell repetition it writes a struct cell_link; the link process
 * first flushes both directions (every packet still waiting in a queue,
 * and every one already in a TUN device's queue, is dropped: nothing of a
 * repetition reaches the next, nor waits ahead of its packets), starts
 * both wires afresh, puts the new link in place, and then answers a
 * struct link_ack ('k' and how many packets it dropped so).
 * The process ends on SIGTERM, on end of file on ctl, or when its parent
 * dies (PR_SET_PDEATHSIG); its TUN devices disappear with it.
 */
#ifndef MATRIX_LINK_H
#define MATRIX_LINK_H

#include "plan.h"

#define LINK_QUEUE 4096		/* packets waiting per direction */
#define LINK_MTU 1500
/* Bytes a packet counts for at `rate` besides its IP packet: an Ethernet
 * header, as netem's rate counts on a veth (qdisc_pkt_len: skb->len, the
 * frame from its destination MAC on, without the 4 B FCS, the 8 B
 * preamble and the 12 B gap a wire adds, which tc netem's rate counts only
 * with its PACKETOVERHEAD argument). */
#define LINK_RATE_OVERHEAD 14

/* The link process's answer to a struct cell_link on ctl. */
struct link_ack {
	char k;				/* 'k' */
	uint64_t flushed;		/* packets the flush before it dropped */
};

/* One direction's wire, between packets. */
struct link_wire {
	uint64_t last_due;		/* rate: when the last packet queued is due */
};

/* The arithmetic of the list above, pure (unit-tested): when a packet of
 * len bytes taken at now (ns) is due out of the link l, UINT64_MAX when
 * it is lost; advances w and the generator *seed.  Never before now. */
uint64_t link_due(const struct cell_link *l, struct link_wire *w, size_t len, uint64_t now,
		  uint64_t *seed);

/* The link process's body: never returns (_exit). fd[0] the server's TUN
 * device, fd[1] the clients'. */
__attribute__((noreturn)) void link_main(int fd_server, int fd_client, int ctl);

#endif
