/*
 * plan_sockopt: the socket options of a cell (matrix sndbuf, rcvbuf,
 * congestion, mss; transport.h's transport_opts), checked before any
 * runs.  Each refusal is "FILE:LINE:COL: message" at the value to blame,
 * as plan_check.h's are; nothing is clamped, and what the kernel will do
 * to a request (double a buffer, cap it at a sysctl) is said, never
 * hidden.
 *
 *   plan_check_sockopts          every cell: which transports take each
 *                                option (sndbuf, rcvbuf: the socket ones;
 *                                congestion, mss: tcp and tcp6), mss in
 *                                88..32767, no program of the user's
 *   plan_check_sockopts_machine  the cells selected, here: congestion one
 *                                this kernel offers (its list named), a
 *                                datagram that fits the send buffer the
 *                                kernel will grant
 *   plan_sockbuf_cap             a buffer request above net.core.wmem_max
 *                                or rmem_max: the warning's text
 */
#ifndef MATRIX_PLAN_SOCKOPT_H
#define MATRIX_PLAN_SOCKOPT_H

#include <stddef.h>
#include <stdint.h>

#include "cell_params.h"
#include "matrix.h"

/* Where the kernel lists its congestion controls; tests point the plan
 * elsewhere with MATRIX_CONGESTION_FILE. */
#define PLAN_CONGESTION_FILE "/proc/sys/net/ipv4/tcp_available_congestion_control"

/* 0, or -1 with "FILE:LINE:COL: ..." in err. */
int plan_check_sockopts(const struct matrix *m, const size_t *choice,
			const struct cell_params *p, char *err, size_t errlen);
int plan_check_sockopts_machine(const struct matrix *m, const size_t *choice,
				const struct cell_params *p, char *err, size_t errlen);

/* The size the kernel grants a request of asked bytes for key ("sndbuf"
 * or "rcvbuf"): twice the request, the request first cut to the sysctl's
 * cap (net.core.wmem_max, rmem_max) when it is above; *cap the cap (0
 * when unreadable: then twice the request). */
uint64_t plan_sockbuf_granted(const char *key, uint64_t asked, uint64_t *cap);

/* 1 with the warning in msg when a request of asked bytes for key is
 * above its cap ("sndbuf 8MiB is above net.core.wmem_max (212992): the
 * kernel grants at most 425984; raise it with sysctl -w
 * net.core.wmem_max=8388608"); else 0. */
int plan_sockbuf_cap(const char *key, uint64_t asked, char *msg, size_t len);

#endif
