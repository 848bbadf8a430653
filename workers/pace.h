/*
 * pace: the schedule of a paced client (`rate:`), one per connection.
 *
 * Request i (0-based, counted in the timed window) is due at
 *     start_ns + i * 10^9 / rate  nanoseconds,
 * computed from i each time (no sum of rounded periods to drift).  The
 * client sends request i once it is due, and at once when that time has
 * passed: a client behind schedule sends without waiting, as fast as its
 * window (inflight) lets it, so it catches up only by what the window
 * holds, never with a burst beyond it.  Each round trip's latency counts
 * from its due time, not from when it could be sent: a server that stalls
 * shows in every request scheduled during the stall (the coordinated
 * omission a closed loop hides; README "Fixed-rate latency").
 *
 *   struct pace pc = { .rate = o->rate };
 *   pace_setup();                     once, before the window (timer slack)
 *   pc.start_ns = clock_now_ns();     the window's start
 *   uint64_t due = pace_wait(&pc, i); send request i; rtt = now - due
 *
 * pace_wait sleeps in clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), or,
 * with busy set (poll: busy), spins on the clock without sleeping.
 */
#ifndef MATRIX_PACE_H
#define MATRIX_PACE_H

#include <stdint.h>

struct pace {
	uint64_t rate;		/* per second; 0: unpaced (pace_due is start_ns) */
	uint64_t start_ns;	/* CLOCK_MONOTONIC, the timed window's start */
	int busy;		/* spin instead of sleeping */
};

/* The process's timer slack to 1 ns (PR_SET_TIMERSLACK), so that a sleep
 * ends when asked, not up to 50 µs later; a refusal is ignored (the sleeps
 * are then a little late, which the latencies, counted from the schedule,
 * show). */
void pace_setup(void);

/* When request i is due. */
uint64_t pace_due(const struct pace *p, uint64_t i);

/* Waits until request i is due (returns at once when it is) and returns
 * its due time. */
uint64_t pace_wait(const struct pace *p, uint64_t i);

#endif
