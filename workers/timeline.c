/* Per-interval counts of a stream receiver: see timeline.h. */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

size_t timeline_index(uint64_t now_ns, uint64_t t0_ns, uint64_t interval_ns)
{
	if (now_ns <= t0_ns || !interval_ns)
		return 0;
	uint64_t i = (now_ns - t0_ns) / interval_ns;
	return i > TIMELINE_MAX ? TIMELINE_MAX : (size_t)i;
}

void timeline_add(struct timeline *tl, size_t idx, uint64_t msgs, uint64_t bytes)
{
	if (idx >= TIMELINE_MAX) {
		tl->overflow = 1;
		return;
	}
	if (idx >= tl->cap) {
		size_t cap = tl->cap ? tl->cap : 64;
		while (cap <= idx)
			cap *= 2;
		uint64_t *m = realloc(tl->msgs, cap * sizeof(*m));
		if (!m) {
			tl->overflow = 1;
			return;
		}
		tl->msgs = m;
		uint64_t *b = realloc(tl->bytes, cap * sizeof(*b));
		if (!b) {
			tl->overflow = 1;
			return;
		}
		tl->bytes = b;
		memset(m + tl->cap, 0, (cap - tl->cap) * sizeof(*m));
		memset(b + tl->cap, 0, (cap - tl->cap) * sizeof(*b));
		tl->cap = cap;
	}
	tl->msgs[idx] += msgs;
	tl->bytes[idx] += bytes;
	if (idx + 1 > tl->len)
		tl->len = idx + 1;
}

/* auto: the interval after this one, 1-5-10: x5 from 10^k, else x2 */
static uint64_t next_interval(uint64_t ns)
{
	uint64_t x = ns;

	while (x % 10 == 0)
		x /= 10;
	return x == 1 ? ns * 5 : ns * 2;
}

/* auto: the next interval, its counts merged into it in place */
static void coarsen(struct timeline *tl)
{
	uint64_t next = next_interval(tl->interval_ns), f = next / tl->interval_ns;

	for (size_t k = 1; k < tl->len; k++) {
		size_t j = (size_t)(k / f);
		tl->msgs[j] += tl->msgs[k];
		tl->bytes[j] += tl->bytes[k];
		tl->msgs[k] = tl->bytes[k] = 0;
	}
	tl->len = tl->len ? (size_t)((tl->len - 1) / f + 1) : 0;
	tl->interval_ns = next;
}

void timeline_count(struct timeline *tl, uint64_t interval_ns, uint64_t now_ns, uint64_t t0_ns,
		    uint64_t msgs, uint64_t bytes)
{
	if (!tl->interval_ns) {
		tl->autosize = !interval_ns;
		tl->interval_ns = interval_ns ? interval_ns : TIMELINE_AUTO_FIRST_NS;
	}
	size_t idx = timeline_index(now_ns, t0_ns, tl->interval_ns);
	while (tl->autosize && idx >= TIMELINE_AUTO_LEN) {
		coarsen(tl);
		idx = timeline_index(now_ns, t0_ns, tl->interval_ns);
	}
	timeline_add(tl, idx, msgs, bytes);
}

void timeline_merge(struct timeline *dst, const struct timeline *src)
{
	if (!dst->interval_ns) {
		dst->interval_ns = src->interval_ns;
		dst->autosize = src->autosize;
	}
	while (dst->autosize && src->interval_ns > dst->interval_ns)
		coarsen(dst);
	uint64_t f = src->interval_ns && dst->interval_ns > src->interval_ns
		     ? dst->interval_ns / src->interval_ns : 1;
	for (size_t i = 0; i < src->len; i++)
		timeline_add(dst, (size_t)(i / f), src->msgs[i], src->bytes[i]);
	dst->overflow |= src->overflow;
}

void timeline_release(struct timeline *tl)
{
	free(tl->msgs);
	free(tl->bytes);
	memset(tl, 0, sizeof(*tl));
}
