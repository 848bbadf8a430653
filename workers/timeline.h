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

struct timeline {
	uint64_t *msgs, *bytes;	/* [len] per interval */
	size_t len, cap;
	int overflow;
};

/* The interval a time falls in: (now - t0) / interval_ns, 0 before t0. */
size_t timeline_index(uint64_t now_ns, uint64_t t0_ns, uint64_t interval_ns);

void timeline_add(struct timeline *tl, size_t idx, uint64_t msgs, uint64_t bytes);
/* Adds src's counts into dst, interval by interval; overflow carries over. */
void timeline_merge(struct timeline *dst, const struct timeline *src);
void timeline_release(struct timeline *tl);

#endif
