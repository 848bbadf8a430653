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

void timeline_merge(struct timeline *dst, const struct timeline *src)
{
	for (size_t i = 0; i < src->len; i++)
		timeline_add(dst, i, src->msgs[i], src->bytes[i]);
	dst->overflow |= src->overflow;
}

void timeline_release(struct timeline *tl)
{
	free(tl->msgs);
	free(tl->bytes);
	memset(tl, 0, sizeof(*tl));
}
