/*
 * link: the link process of `topology: netns` (netns.h), a user-space
 * netem between two TUN devices.
 *
 * Every IP packet the server's namespace sends to the clients' (read from
 * its TUN device) is written into the other device once due, and back:
 *   rate     the packet takes len * 8 / rate on the wire, after the packets
 *            before it in its direction (a FIFO; 0: no limit)
 *   delay    then it travels `delay`, plus a uniform draw in [-jitter,
 *            +jitter] (never below 0); a packet never overtakes the one
 *            before it in its direction (no reordering)
 *   loss     a packet is dropped with that probability
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

/* The link process's answer to a struct cell_link on ctl. */
struct link_ack {
	char k;				/* 'k' */
	uint64_t flushed;		/* packets the flush before it dropped */
};

/* One direction's wire, between packets. */
struct link_wire {
	uint64_t wire_free;		/* rate: when the wire is free again (ns) */
	uint64_t last_due;		/* no packet leaves before the one ahead of it */
};

/* The arithmetic of the list above, pure (unit-tested): when a packet of
 * len bytes taken at now (ns) is due out of the link l, UINT64_MAX when
 * it is lost; advances w and the generator *seed.  Jitter never makes a
 * packet leave before it is off the wire (its travel time is >= 0). */
uint64_t link_due(const struct cell_link *l, struct link_wire *w, size_t len, uint64_t now,
		  uint64_t *seed);

/* The link process's body: never returns (_exit). fd[0] the server's TUN
 * device, fd[1] the clients'. */
__attribute__((noreturn)) void link_main(int fd_server, int fd_client, int ctl);

#endif
