/*
 * txcpu: a stream sender's CPU per timeline interval, for timeline.csv's
 * tx_cpu_s.  A sampler thread reads the sending thread's CPU clock
 * (pthread_getcpuclockid) as each interval closes, in a timeline of its
 * own (timeline.h: no messages, CPU only) counted from the client's start
 * signal, with the same interval as the receiver's (--interval, or auto:
 * picked the same way), so the runner adds the senders' timelines up at
 * the receiver's intervals.  Off the sending loop: it costs the sender
 * nothing but the sampler's wake-ups (at most TIMELINE_AUTO_LEN per
 * interval length).
 *
 *   struct txcpu s;
 *   txcpu_start(&s, o->interval_ns, clock_now_ns());  on the sending thread
 *   ... the sends ...
 *   txcpu_stop(&s);        the last read; s.tl holds the intervals
 *   timeline_release(&s.tl);
 *
 * txcpu_start: 0, or -1 (no thread: the cell goes on without the figures).
 */
#ifndef MATRIX_TXCPU_H
#define MATRIX_TXCPU_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "timeline.h"

struct txcpu {
	struct timeline tl;
	clockid_t clock;		/* the sending thread's CPU clock */
	uint64_t t0_ns, interval_ns;	/* interval 0: auto */
	uint64_t stop_ns;		/* when txcpu_stop was called */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* on CLOCK_MONOTONIC */
	int stop, started;
};

int txcpu_start(struct txcpu *s, uint64_t interval_ns, uint64_t t0_ns);
void txcpu_stop(struct txcpu *s);

#endif
