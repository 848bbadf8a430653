/*
 * netem: the kernel's emulated link for `topology: netns` (netns.h), where
 * the kernel has sch_netem: a veth pair `mxlink` between the two
 * namespaces, a netem qdisc on each end (each way the whole link, as the
 * user-space link of link.h gives it), every command iproute2's:
 *
 *   ip -n S link add mxlink type veth peer name mxlink netns C
 *   ip -n NS addr add 10.77.0.1/24 dev mxlink       (10.77.0.2/24 in C)
 *   ip -n NS addr add fd77::1/64 dev mxlink nodad   (fd77::2/64 in C)
 *   ip -n NS link set mxlink up; ip -n NS link set lo up
 *   tc -n NS qdisc add dev mxlink root netem limit 4096 [delay TIME
 *      [JITTER]] [loss random PERCENT] [rate RATE]          (tc-netem(8))
 *
 * and before each repetition `tc -n NS qdisc del dev mxlink root` then the
 * add again, on both ends: a qdisc deleted drops what it holds (the flush
 * link.h does), and a new one starts with an empty queue.  No distribution
 * is named: netem then draws the jitter uniformly, as link.h does; a rate
 * counts skb->len, the IP packet and its 14-byte Ethernet header, as
 * link.h's LINK_RATE_OVERHEAD does.
 *
 *   netem_open(ns, err)       the veth pair and the qdiscs (no delay): 0,
 *                             or -1 with why (tc's "Specified qdisc kind is
 *                             unknown" where sch_netem is missing) and the
 *                             veth pair removed again
 *   netem_apply(ns, l, err)   the link l in place of the one before, both ends
 */
#ifndef MATRIX_NETEM_H
#define MATRIX_NETEM_H

#include <stddef.h>

#include "plan.h"

#define NETEM_LIMIT "4096"	/* packets, as link.h's LINK_QUEUE */

/* `tc ARGS` that puts l on the root of mxlink in namespace ns. */
struct netem_cmd {
	const char *argv[24];		/* NULL-terminated, without "tc" */
	char ns[32], delay[32], jitter[32], loss[32], rate[32];
};

/* The arguments of `tc -n NS qdisc add dev mxlink root netem ...` for l,
 * into c (pure: unit-tested). */
void netem_cmd_build(struct netem_cmd *c, const char *ns, const struct cell_link *l);

/* ns[0] the server's namespace, ns[1] the clients'. */
int netem_open(const char ns[2][32], char *err, size_t errlen);
int netem_apply(const char ns[2][32], const struct cell_link *l, char *err, size_t errlen);

#endif
