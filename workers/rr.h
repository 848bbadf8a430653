/*
 * rr: request and response, the loops that pingpong and echo share (their
 * files, pingpong.c and echo.c, put them in their ops tables,
 * pattern_ops.h).  What differs between the two is the reply: its size
 * and whether it is the request itself (the pattern's table, pattern.h),
 * and its check (the ops' check_reply).
 *
 * The server answers every request at once, on the connection it came on.
 * The client times every round trip, into its histogram (or its totals,
 * record: totals): serially, or with o->inflight requests outstanding
 * (pipelined on a descriptor, windowed on zmq), paced on a schedule when
 * o->rate is set (pace.h).  Over a lossy transport a request without a
 * reply after o->loss_timeout_ns is lost, never resent.
 */
#ifndef MATRIX_RR_H
#define MATRIX_RR_H

#include "drive.h"
#include "serve.h"
#include "wire.h"

/* The server's loop on one connection (pattern_ops.h's serve). */
void rr_serve(struct conn_job *j);

/* The client's warmup: o->warmup round trips, untimed (lost ones too). */
int rr_warmup(struct client *cl);
/* The client's timed window (pattern_ops.h's drive). */
int rr_drive(struct client *cl);
/* The round trips into the record: messages, requests sent, bytes both
 * ways, the histogram. */
void rr_result(const struct client *cl, struct worker_result *r);
/* "client 1: 10000 round trips in ... s = ... msg/s; rtt mean ..." */
void rr_client_line(const struct wopts *o, const struct worker_result *r);
/* The check of an echo (echo's and pipeline's check_reply): 1 when the
 * reply in cl->resp is not request seq byte for byte, its first min(8,
 * len) bytes against seq, the rest against cl->pattern (the request's
 * bytes but its number). */
int rr_echo_mismatch(const struct client *cl, uint64_t seq);

#endif
