/*
 * hist: a bounded log-linear histogram of nanosecond values (round-trip
 * times), in the spirit of HdrHistogram.
 *
 * Values below 2^HIST_SUB_BITS ns are kept exactly.  Above, each power of
 * two [2^e, 2^(e+1)) is cut into 2^HIST_SUB_BITS equal buckets, so a bucket
 * is at most 1/128 of its lower bound wide; a percentile is reported as its
 * bucket's midpoint (clamped to the exact min and max), so it is within
 * HIST_REL_ERROR (1/256, about 0.4%) of the true sample value.
 * Values of 2^HIST_MAX_BITS ns (about 18 minutes) and more are counted in
 * `overflow` (and in min/max/sum exactly), never clamped into a bucket.
 * Memory is fixed: HIST_BUCKETS counters, whatever the count.
 *
 * Percentiles use the nearest-rank definition: the smallest recorded value
 * v such that at least ceil(q * count) values are <= v (q in [0,1]; q = 0
 * gives min, q = 1 gives max).
 */
#ifndef MATRIX_HIST_H
#define MATRIX_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_MAX_BITS 40
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS ((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB)
#define HIST_REL_ERROR (1.0 / (2.0 * HIST_SUB))

struct hist {
	uint64_t count;		/* all values, overflow included */
	uint64_t overflow;	/* values >= 2^HIST_MAX_BITS */
	uint64_t min, max;	/* exact; min = UINT64_MAX when empty */
	long double sum;	/* exact enough for the mean of 2^64 ns values */
	int totals;		/* 1: totals only (record: totals): count, overflow,
				 * min, max and sum are kept, the buckets stay empty
				 * and the percentiles are unknown (hist_percentile
				 * gives 0: the caller asks h->totals first) */
	uint64_t buckets[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_record(struct hist *h, uint64_t ns);
/* The same without the bucket: a histogram of totals only (sets totals). */
void hist_record_totals(struct hist *h, uint64_t ns);

/* Add every count of src into dst (min/max/sum/overflow too); totals-only
 * when either is. */
void hist_merge(struct hist *dst, const struct hist *src);

/* Bucket index of a value < 2^HIST_MAX_BITS, and the bucket's range
 * [lo, hi] (inclusive).  Exposed for the wire format and tests. */
size_t hist_index(uint64_t ns);
void hist_bucket_range(size_t idx, uint64_t *lo, uint64_t *hi);

/* Nearest-rank percentile, q in [0,1]; 0 when empty.  A rank that falls in
 * the overflow counts returns max. */
uint64_t hist_percentile(const struct hist *h, double q);
double hist_mean(const struct hist *h);	/* 0 when empty */

/* Add `n` values to bucket idx directly (wire decoding).  Returns -1 when
 * idx is out of range.  min/max/sum/count of the summary are set by the
 * caller from the record, not derived from buckets. */
int hist_add_bucket(struct hist *h, size_t idx, uint64_t n);

#endif
