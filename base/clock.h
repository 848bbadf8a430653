/*
 * clock: the one clock matrix measures with, and CPU time.
 *
 * clock_now_ns() is CLOCK_MONOTONIC in nanoseconds: it never jumps, and its
 * readings are comparable between processes on one host (the workers'
 * timestamps and the runner's deadlines use it).  clock_cpu_ns() is the
 * user + system CPU this process has used; clock_rusage_ns() the same of a
 * struct rusage (a reaped child's, from wait4).  clock_resolution_ns() is
 * the monotonic clock's resolution (clock_getres; 1 µs if it cannot say).
 * clock_spin(ns) busy-waits ns nanoseconds on the monotonic clock, reading
 * it in a loop (the vDSO: no syscall, no sleep), and returns at once for 0:
 * a fixed cost of CPU time that a test can inject (the `spin` key).
 */
#ifndef MATRIX_CLOCK_H
#define MATRIX_CLOCK_H

#include <stdint.h>
#include <time.h>
#include <sys/resource.h>

/* Inline: a round trip reads it twice. */
static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t clock_resolution_ns(void);
uint64_t clock_cpu_ns(void);
uint64_t clock_rusage_ns(const struct rusage *ru);
void clock_spin(uint64_t ns);

#endif
