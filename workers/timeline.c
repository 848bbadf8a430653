/* Per-interval counts of a stream receiver: see timeline.h. */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

size_t timeline_index(uint64_t now_ns, uint64_t t0_ns, uint64_t interval_ns)
{
	if (now_ns <= t0_ns || !interval_ns)
		return 0;
	uint64_t i = (now_ns - t0_ns) / interval_ns;
	return i > TIMELINE_MAX ? TIMELINE_MAX : (size_t)i;
}

/* Room for interval idx in every array: 0, or -1 (overflow set). */
static int timeline_grow(struct timeline *tl, size_t idx)
{
	size_t cap = tl->cap ? tl->cap : 64;
	uint64_t **arr[] = { &tl->msgs, &tl->bytes, &tl->cpu };

	while (cap <= idx)
		cap *= 2;
	for (size_t k = 0; k < 3; k++) {
		uint64_t *a = realloc(*arr[k], cap * sizeof(*a));
		if (!a) {
			tl->overflow = 1;
			return -1;
		}
		*arr[k] = a;
	}
	for (size_t k = 0; k < 3; k++)
		memset(*arr[k] + tl->cap, 0, (cap - tl->cap) * sizeof(uint64_t));
	tl->cap = cap;
	return 0;
}

static void timeline_add_cpu(struct timeline *tl, size_t idx, uint64_t ns)
{
	if (idx >= TIMELINE_MAX || (idx >= tl->cap && timeline_grow(tl, idx) < 0)) {
		tl->overflow = 1;
		return;
	}
	tl->cpu[idx] += ns;
	tl->has_cpu = 1;
	if (idx + 1 > tl->len)
		tl->len = idx + 1;
}

void timeline_add(struct timeline *tl, size_t idx, uint64_t msgs, uint64_t bytes)
{
	if (idx >= TIMELINE_MAX) {
		tl->overflow = 1;
		return;
	}
	if (idx >= tl->cap && timeline_grow(tl, idx) < 0)
		return;
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
		tl->cpu[j] += tl->cpu[k];
		tl->msgs[k] = tl->bytes[k] = tl->cpu[k] = 0;
	}
	tl->len = tl->len ? (size_t)((tl->len - 1) / f + 1) : 0;
	tl->cpu_idx = (size_t)(tl->cpu_idx / f);
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
	if (tl->cpu_clock && !tl->has_cpu) {	/* the first count: the mark */
		tl->cpu_mark = tl->cpu_clock(tl->cpu_ctx);
		tl->cpu_idx = idx;
		tl->has_cpu = 1;
	} else if (tl->cpu_clock && idx != tl->cpu_idx) {
		uint64_t c = tl->cpu_clock(tl->cpu_ctx);
		timeline_add_cpu(tl, tl->cpu_idx, c > tl->cpu_mark ? c - tl->cpu_mark : 0);
		tl->cpu_mark = c;
		tl->cpu_idx = idx;
	}
	timeline_add(tl, idx, msgs, bytes);
}

void timeline_cpu_close(struct timeline *tl)
{
	if (!tl->cpu_clock || !tl->has_cpu)
		return;
	uint64_t c = tl->cpu_clock(tl->cpu_ctx);
	timeline_add_cpu(tl, tl->cpu_idx, c > tl->cpu_mark ? c - tl->cpu_mark : 0);
	tl->cpu_mark = c;
}

uint64_t timeline_thread_cpu_ns(void *ctx)
{
	struct timespec ts;

	if (clock_gettime(ctx ? *(clockid_t *)ctx : CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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
	for (size_t i = 0; i < src->len; i++) {
		timeline_add(dst, (size_t)(i / f), src->msgs[i], src->bytes[i]);
		if (src->has_cpu && i / f < dst->cap)
			dst->cpu[i / f] += src->cpu[i];
	}
	dst->has_cpu |= src->has_cpu;
	dst->overflow |= src->overflow;
}

void timeline_release(struct timeline *tl)
{
	free(tl->msgs);
	free(tl->bytes);
	free(tl->cpu);
	memset(tl, 0, sizeof(*tl));
}
