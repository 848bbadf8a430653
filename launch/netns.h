/*
 * netns: `topology: netns: true` (matrix.h): the server and the clients in
 * two network namespaces of the runner's, joined by an emulated link.
 *
 *   netns_sweep()            at every `matrix run` start: namespaces named
 *                            matrix-PID-s / matrix-PID-c whose PID runs no
 *                            process that started before the namespace was
 *                            made (a runner killed by SIGKILL; its pid
 *                            reused since), or is this process's own
 *                            (before netns_open made any), are removed,
 *                            each with a line on stderr; never by the
 *                            process's name (a runner may run as another)
 *   netns_open(n, m, err)    checks the privileges (root, or CAP_NET_ADMIN and
 *                            CAP_SYS_ADMIN), makes matrix-PID-s and
 *                            matrix-PID-c (`ip netns add`), a TUN device
 *                            `mxlink` in each (10.77.0.1 in -s, peer
 *                            10.77.0.2 in -c, and fd77::1/64, fd77::2/64
 *                            when the kernel has IPv6; lo up), and forks the link
 *                            process (link.h) that carries every packet
 *                            between the two devices; or, with netem, a
 *                            veth pair mxlink with those addresses
 *   netns_apply(n, p, err)   before each cell repetition: the cell's link
 *                            (plan.h cell_link) for the link process, sent
 *                            every time: the link process flushes both
 *                            directions first (link.h; with netem the
 *                            qdiscs are deleted and added again, netem.h),
 *                            so no packet of one repetition reaches the
 *                            next; an error once the
 *                            link process has ended, and for an IPv6 cell
 *                            when the devices have no IPv6 address
 *   netns_close(n)           stops the link process (its TUN devices go with
 *                            it) and removes both namespaces (`ip netns del`)
 *
 * The link: the kernel's tc netem on a veth pair (netem.h) where the
 * kernel has sch_netem (tried at netns_open), else our own (MATRIX_LINK=
 * user forces it; netem, a kernel module, is missing from many kernels,
 * this project's CI VM's among them): a TUN device in each namespace and
 * a process of ours that emulates the same link on any kernel with TUN.
 * That process's own cost (a read and a write per packet, a wake-up per
 * due packet) is in every figure: the 0ms cell of a sweep shows it.
 *
 * The addresses exist only inside the namespaces: no packet ever leaves
 * them.  ip runs by fork+exec (posix_spawnp, an argv, no shell), its
 * stderr kept for the message when it fails.  Our workers enter their
 * namespace themselves (`matrix worker --netns NAME`, worker_args.h).
 */
#ifndef MATRIX_NETNS_H
#define MATRIX_NETNS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "meta.h"
#include "plan.h"

#define NETNS_SERVER_ADDR "10.77.0.1"
#define NETNS_CLIENT_ADDR "10.77.0.2"
#define NETNS_SERVER_ADDR6 "fd77::1"	/* a ULA /64 on both devices */
#define NETNS_CLIENT_ADDR6 "fd77::2"
#define NETNS_DEV "mxlink"

struct netns {
	int on;				/* namespaces made, link process running */
	char name[2][32];		/* [0] server's, [1] clients' */
	pid_t link_pid;			/* the link process (link.h) */
	int ctl;			/* its control socket */
	int netem;			/* the kernel's netem on a veth pair (netem.h),
					 * not the link process */
	char no_netem[512];		/* why not, when not */
	int applied;			/* `link` is in place */
	struct cell_link link;
	uint64_t flushed;		/* packets the last netns_apply's flush dropped */
	char no_ipv6[160];		/* why the devices have no IPv6 address, "" */
	char link_ended[256];		/* the link process ended: how (netns_apply) */
};

/* Removes the namespaces of runners that are gone (see above); quiet when
 * there are none or this process may not remove them. */
void netns_sweep(void);
/* Makes everything for m (nothing when m has no topology: n->on stays 0).
 * 0, or -1 with a message in err ("FILE:LINE:COL: topology: netns needs
 * ...", or the failing command and its stderr) and nothing left made. */
int netns_open(struct netns *n, const struct matrix *m, char *err, size_t errlen);
/* 0, or -1 with err; nothing to do when !n->on. */
int netns_apply(struct netns *n, const struct cell_params *p, char *err, size_t errlen);
/* The descriptor a cell repetition polls (POLLIN) to learn at once that
 * the link process ended (its end of the control socket closed); -1
 * without a link, or once netns_link_lost said it ended. */
int netns_link_fd(const struct netns *n);
/* When netns_link_fd polled ready: 1 with err ("the link process (pid N)
 * crashed: SIGKILL: no packet crosses the link any more") once the link
 * process has ended, reaped; every later netns_apply fails with the same.
 * 0 while it runs; nothing to do when n is NULL or !n->on. */
int netns_link_lost(struct netns *n, char *err, size_t errlen);
/* The link process's CPU time so far (user and system, ns: its
 * CLOCK_PROCESS_CPUTIME_ID, read from the runner) into *ns: 0, or -1 when
 * there is no link process (no topology, or it ended). */
int netns_cpu_ns(const struct netns *n, uint64_t *ns);
/* Idempotent; safe on a struct never opened (zeroed). */
void netns_close(struct netns *n);
/* The name of this runner's namespace for role ("server", "client"),
 * matrix-PID-s or matrix-PID-c, into buf: what netns_open makes and
 * netns_of says, for those who have no struct netns (a program's argv). */
void netns_name(const char *role, char *buf, size_t len);
/* fopen(path, "re") as namespace ns sees it (a /proc/net file: the
 * sockets of that namespace), the runner back in its own at once; NULL
 * with errno. */
FILE *netns_fopen(const char *ns, const char *path);
/* The namespace a worker of role ("server", "client") enters; NULL without
 * a topology (n NULL or off). */
const char *netns_of(const struct netns *n, const char *role);
/* The server's --bind: on the link for an IP transport under a topology
 * ([fd77::1]:0 when dflt is an IPv6 one, "[...", else 10.77.0.1:0), else
 * dflt. */
const char *netns_bind(const struct netns *n, const char *dflt);
/* meta.csv: topology, netns_server, netns_client, the addresses, the emulator. */
void netns_meta(const struct netns *n, struct meta *m);

#endif
