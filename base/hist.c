/*
 * hist: the log-linear histogram of hist.h.
 *
 * Layout.  A value v >= 2^HIST_SUB_BITS has its top bit at e, so it lies in
 * [2^e, 2^(e+1)); with shift = e - HIST_SUB_BITS, v >> shift is in
 * [HIST_SUB, 2 * HIST_SUB) and the bucket index is
 *
 *	idx = (shift << HIST_SUB_BITS) + (v >> shift)
 *
 * Group g = idx >> HIST_SUB_BITS.  Groups 0 and 1 hold 0 .. 2^(SUB_BITS+1)-1
 * exactly (shift 0: one value per bucket); group g >= 2 holds exponent
 * e = g - 1 + SUB_BITS in buckets 2^(g-1) ns wide.  Taking shift from v | HIST_SUB
 * makes values below HIST_SUB land on shift 0 without a branch.
 */
#include "hist.h"

#include <math.h>
#include <string.h>

#define HIST_LIMIT ((uint64_t)1 << HIST_MAX_BITS)

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

size_t hist_index(uint64_t ns)
{
	unsigned shift = (unsigned)(63 - HIST_SUB_BITS) -
			 (unsigned)__builtin_clzll(ns | HIST_SUB);

	return ((size_t)shift << HIST_SUB_BITS) + (size_t)(ns >> shift);
}

void hist_bucket_range(size_t idx, uint64_t *lo, uint64_t *hi)
{
	size_t group = idx >> HIST_SUB_BITS;
	unsigned shift;

	if (group < 2) {
		*lo = *hi = idx;
		return;
	}
	shift = (unsigned)group - 1;
	*lo = (uint64_t)((idx & (HIST_SUB - 1)) + HIST_SUB) << shift;
	*hi = *lo + ((uint64_t)1 << shift) - 1;
}

/* What both kinds of histogram keep of a value: count, sum, min, max. */
static inline void record_totals(struct hist *h, uint64_t ns)
{
	h->count++;
	h->sum += ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

void hist_record(struct hist *h, uint64_t ns)
{
	record_totals(h, ns);
	if (ns < HIST_LIMIT)
		h->buckets[hist_index(ns)]++;
	else
		h->overflow++;
}

void hist_record_totals(struct hist *h, uint64_t ns)
{
	h->totals = 1;
	record_totals(h, ns);
	if (ns >= HIST_LIMIT)
		h->overflow++;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	size_t i;

	dst->totals |= src->totals;
	dst->count += src->count;
	dst->overflow += src->overflow;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

/*
 * ceil(q * count), at least 1.  q * count is computed in double, so a q the
 * caller meant as 0.07 (stored as 0.07000000000000000666) times 100 gives
 * 7.000000000000001, whose ceiling would be 8; a few ulps are forgiven
 * before rounding up so that p7 of 100 values is the 7th, as intended.
 */
static uint64_t nearest_rank(double q, uint64_t count)
{
	double x = q * (double)count;
	double r = ceil(x - x * 4 * 0x1p-52);

	if (r < 1)
		return 1;
	if (r >= (double)count)
		return count;
	return (uint64_t)r;
}

uint64_t hist_percentile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0, lo, hi, mid;
	size_t i;

	if (h->count == 0)
		return 0;
	if (!(q > 0))		/* q <= 0, or NaN */
		return h->min;
	if (q >= 1)
		return h->max;
	rank = nearest_rank(q, h->count);
	if (rank == 1)		/* the first and last ranks are known exactly */
		return h->min;
	if (rank == h->count)
		return h->max;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_BUCKETS)	/* the rank is among the overflow */
		return h->max;
	hist_bucket_range(i, &lo, &hi);
	mid = lo + (hi - lo) / 2;
	if (mid < h->min)
		return h->min;
	if (mid > h->max)
		return h->max;
	return mid;
}

double hist_mean(const struct hist *h)
{
	if (h->count == 0)
		return 0;
	return (double)(h->sum / h->count);
}

int hist_add_bucket(struct hist *h, size_t idx, uint64_t n)
{
	if (idx >= HIST_BUCKETS)
		return -1;
	h->buckets[idx] += n;
	return 0;
}
