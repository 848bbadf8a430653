/*
 * knobs: the limits of the socket options of `matrix:` (sndbuf, rcvbuf,
 * congestion, mss: README "Socket knobs"), shared by the loader
 * (matrix_knobs.c), the plan's checks (plan_sockopt.h) and the worker's
 * flags.  sndbuf and rcvbuf at most 1 GiB (the kernel doubles an int),
 * mss 88 (TCP_MIN_MSS) to 32767 (TCP_MAXSEG's MAX_TCP_WINDOW), a
 * congestion name at most 15 characters (TCP_CA_NAME_MAX less its NUL).
 */
#ifndef MATRIX_KNOBS_H
#define MATRIX_KNOBS_H

#define MATRIX_MAX_SOCKBUF (1ull << 30)
#define MATRIX_MAX_MSS 32767ull
#define MATRIX_MIN_MSS 88ull
#define MATRIX_MAX_NAME 15

#endif
