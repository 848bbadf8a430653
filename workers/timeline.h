/*
 * timeline: a stream receiver's messages and bytes per interval, counted
 * from the start signal (t0).  Interval i covers [t0 + i * interval,
 * t0 + (i + 1) * interval); a message seen before t0 (a clock read just
 * before the signal was noted) counts in interval 0.
 *
 *   struct timeline tl = TIMELINE_INIT;
 *   timeline_add(&tl, timeline_index(now, t0, interval_ns), msgs, bytes);
 *   ...
 *   timeline_merge(&all, &tl);	// connections into one
 *   timeline_release(&tl);
 *
 * With interval 0 ("auto", the matrix sets none) timeline_count() picks
 * the interval itself: it counts in 100 us intervals and, whenever a
 * message falls past the 100th, merges them 5 or 2 at a time (100 us,
 * 500 us, 1 ms, 5 ms, 10 ms, ... 1 s, 5 s, ...), so a repetition of any
 * length ends with 20 to 100 intervals (fewer only when it lasted under
 * 2 ms), in nice units, whatever its count; tl->interval_ns is the one it
 * ended with.  Nothing needs to be known before the stream: a count-based
 * cell's duration is not.
 *
 * CPU per interval: with tl->cpu_clock set (a thread's CPU clock in ns,
 * timeline_thread_cpu_ns, called with tl->cpu_ctx), timeline_count reads it at the first count and
 * whenever a count falls in another interval than the one before, and
 * adds the CPU since the last read to that one before (the interval that
 * just closed); timeline_cpu_close adds the rest at the connection's end.
 * So cpu[i] is the counting thread's CPU from its first timed read on, by
 * interval, and the sum over a connection's intervals is at most that
 * thread's CPU.  has_cpu says the figures are there; merge sums them.
 *
 * The arrays grow as needed (every interval up to the last one seen is
 * there, zero when nothing arrived), up to TIMELINE_MAX intervals; past
 * that, or when memory runs out, `overflow` is set and the counts are no
 * longer whole.  The caller owns the struct; timeline_release frees the
 * arrays and leaves it empty.
 */
#ifndef MATRIX_TIMELINE_H
#define MATRIX_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#define TIMELINE_MAX (1u << 24)
#define TIMELINE_INIT { 0 }
#define TIMELINE_AUTO_FIRST_NS 100000ull	/* auto: the finest interval */
#define TIMELINE_AUTO_LEN 100u			/* auto: the most intervals */

struct timeline {
	uint64_t *msgs, *bytes;	/* [len] per interval */
	uint64_t *cpu;		/* [len] CPU ns per interval (has_cpu) */
	size_t len, cap;
	int overflow;
	int has_cpu;		/* cpu[] was counted (cpu_clock, or merged in) */
	uint64_t (*cpu_clock)(void *ctx);	/* NULL: no CPU per interval */
	void *cpu_ctx;		/* cpu_clock's argument */
	size_t cpu_idx;		/* cpu_clock: the interval of the last read */
	uint64_t cpu_mark;	/* cpu_clock: its value then */
	uint64_t interval_ns;	/* timeline_count: the interval counted in (0: none yet) */
	int autosize;		/* timeline_count: interval picked as it goes */
};

/* The interval a time falls in: (now - t0) / interval_ns, 0 before t0. */
size_t timeline_index(uint64_t now_ns, uint64_t t0_ns, uint64_t interval_ns);

void timeline_add(struct timeline *tl, size_t idx, uint64_t msgs, uint64_t bytes);
/* Counts msgs and bytes seen at now_ns (t0_ns the start signal) in the
 * interval of length interval_ns, or, when interval_ns is 0, in the one
 * the timeline picks (above). */
void timeline_count(struct timeline *tl, uint64_t interval_ns, uint64_t now_ns, uint64_t t0_ns,
		    uint64_t msgs, uint64_t bytes);
/* Adds src's counts into dst, interval by interval; overflow carries over.
 * Timelines of timeline_count() with different auto intervals are added at
 * the longer one (each is a multiple of the shorter ones). */
void timeline_merge(struct timeline *dst, const struct timeline *src);
/* cpu_clock: the CPU since the last read into the interval it was in
 * (the end of a connection's counting); nothing when none was read. */
void timeline_cpu_close(struct timeline *tl);
/* A thread's CPU time, ns: ctx NULL, the calling thread's
 * (CLOCK_THREAD_CPUTIME_ID), else the clock *(clockid_t *)ctx
 * (pthread_getcpuclockid: another thread's). */
uint64_t timeline_thread_cpu_ns(void *ctx);
void timeline_release(struct timeline *tl);

#endif
