/* The shared byte ring: see shm_ring.h. */
#include "shm_ring.h"

#include <string.h>

void shm_ring_init(struct shm_ring *r, uint64_t cap)
{
	memset(r, 0, sizeof(*r));
	r->cap = cap;
}

void shm_end_init(struct shm_end *e, struct shm_ring *r, unsigned char *data, uint64_t cap,
		  int producer)
{
	e->r = r;
	e->data = data;
	e->cap = cap;
	e->producer = producer;
	e->pos = atomic_load_explicit(producer ? &r->head : &r->tail, memory_order_relaxed);
	e->peer = atomic_load_explicit(producer ? &r->tail : &r->head, memory_order_acquire);
}

/* n bytes between buf and the data at ring index at, in two pieces where
 * they wrap */
static void copy_in(struct shm_end *e, uint64_t at, const unsigned char *buf, size_t n)
{
	size_t off = (size_t)(at & (e->cap - 1)), first = e->cap - off;

	if (first >= n) {
		memcpy(e->data + off, buf, n);
	} else {
		memcpy(e->data + off, buf, first);
		memcpy(e->data, buf + first, n - first);
	}
}

static void copy_out(struct shm_end *e, uint64_t at, unsigned char *buf, size_t n)
{
	size_t off = (size_t)(at & (e->cap - 1)), first = e->cap - off;

	if (first >= n) {
		memcpy(buf, e->data + off, n);
	} else {
		memcpy(buf, e->data + off, first);
		memcpy(buf + first, e->data, n - first);
	}
}

size_t shm_ring_write(struct shm_end *e, const void *buf, size_t len)
{
	uint64_t room = e->cap - (e->pos - e->peer);

	if (room < len) {
		e->peer = atomic_load_explicit(&e->r->tail, memory_order_acquire);
		room = e->cap - (e->pos - e->peer);
	}
	if (room > e->cap)	/* a tail ahead of head: never, unless the peer is broken */
		room = 0;
	size_t n = len < room ? len : (size_t)room;
	if (!n)
		return 0;
	copy_in(e, e->pos, buf, n);
	e->pos += n;
	atomic_store_explicit(&e->r->head, e->pos, memory_order_release);
	return n;
}

size_t shm_ring_read(struct shm_end *e, void *buf, size_t len)
{
	uint64_t have = e->peer - e->pos;

	if (have < len) {
		e->peer = atomic_load_explicit(&e->r->head, memory_order_acquire);
		have = e->peer - e->pos;
	}
	if (have > e->cap)	/* more than the ring holds: a broken peer */
		have = e->cap;
	size_t n = len < have ? len : (size_t)have;
	if (!n)
		return 0;
	copy_out(e, e->pos, buf, n);
	e->pos += n;
	atomic_store_explicit(&e->r->tail, e->pos, memory_order_release);
	return n;
}

uint64_t shm_ring_used(struct shm_end *e)
{
	uint64_t head = e->producer ? e->pos : atomic_load_explicit(&e->r->head,
								     memory_order_acquire);
	uint64_t tail = e->producer ? atomic_load_explicit(&e->r->tail, memory_order_acquire)
				    : e->pos;

	return head - tail;
}
