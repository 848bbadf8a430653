/*
 * bench/floor.h: what the floor's two files share: bench/floor.c (the
 * options, the socket loops, main) and bench/floor_ipc.c (the shared-memory
 * ring and the POSIX message queue loops).  The header comment of floor.c
 * documents every transport.
 */
#ifndef FLOOR_H
#define FLOOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define READ_MIN (64u * 1024)	/* workers/stream.c STREAM_READ_MIN */
#define MAX_RATE 500000.0	/* round trips per second a duration run allots */
#define SHM_MAX_RATE 4000000.0	/* the same for shm: a spinning ring passes 10^6 */

enum { PINGPONG, STREAM };
enum { TCP, UNIX, UDP, SHM, MQ };
enum { CPU_NONE, CPU_SAME, CPU_SPLIT };

struct opts {
	int pattern, transport, cpu, busy, nodelay;
	size_t size;
	uint64_t count, warmup;
	double duration, timeout;
};

/* "floor: WHAT: strerror(errno)" on stderr, and exit 1. */
void fail(const char *what);
uint64_t now_ns(void);

/* The round-trip array of a pingpong client: COUNT entries, or what a
 * DURATION run can fill at MAX_RATE (shm: SHM_MAX_RATE); zeroed (touched before the clock
 * starts).  *cap is its length. */
uint64_t *rtt_array(const struct opts *o, uint64_t *cap);
/* Prints rtt_p50_us, rtt_mean_us and msgs_per_s of n round trips (sorts
 * rtt) timed from start to end (ns), and frees rtt. */
void report_pingpong(uint64_t *rtt, uint64_t n, uint64_t start, uint64_t end);
/* The receiver's figures: total bytes in all, at0 of them before the
 * first timed byte at t0, the last at t1; msgs_per_s and mib_per_s to out,
 * or exit 1 when too few were timed. */
void report_stream(const struct opts *o, FILE *out, uint64_t total, uint64_t at0,
		   uint64_t t0, uint64_t t1);

/* shm and mq (floor_ipc.c).  ipc_check at option time: exit 2, the limit
 * named, for a size the transport refuses.  ipc_open before the fork: the
 * mapping, or both queues (created O_EXCL and unlinked at once: the
 * descriptors are inherited).  After the fork the server calls ipc_server
 * (out: where a stream's figures go, NULL for pingpong) and the client
 * ipc_client; each returns when its side is done. */
void ipc_check(const struct opts *o);
void ipc_open(const struct opts *o);
void ipc_server(const struct opts *o, FILE *out);
void ipc_client(const struct opts *o);

#endif
