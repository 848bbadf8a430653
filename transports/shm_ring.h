/*
 * shm_ring: a single-producer single-consumer byte ring in memory that two
 * processes share (the shm transport's, one per direction).  Pure
 * arithmetic and copies, no system calls: waiting for bytes or for room is
 * the caller's (shm.c: a futex, or a spin).
 *
 * The control block (struct shm_ring) and the data (cap bytes, a power of
 * two) both live in the shared mapping.  head counts every byte ever
 * written, tail every byte ever read; each is written by one side only
 * (release) and read by the other (acquire), on a cache line of its own.
 * Payload bytes are really copied in and out with memcpy, in two pieces
 * where they wrap at the end of the data.
 *
 * Each side holds a struct shm_end: its own index (pos) and the last value
 * it saw of the other's (peer), so that it reads the other's cache line
 * only when what it saw does not suffice.
 *
 *   shm_ring_init     the control block of an empty ring of cap bytes,
 *                     before it is shared
 *   shm_end_init      a side's view of ring r with data at data
 *   shm_ring_write    copies up to len bytes in, as many as there is room
 *                     for: the count (0: the ring is full)
 *   shm_ring_read     copies up to len bytes out, as many as there are:
 *                     the count (0: the ring is empty)
 *   shm_ring_used     bytes written and not yet read, as the end sees it now
 *
 * The other fields (futex words, waiting flags, closed, gone) belong to
 * the waiting protocol, described in shm.c; the ring sets them to 0.
 */
#ifndef MATRIX_SHM_RING_H
#define MATRIX_SHM_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define SHM_LINE 64

struct shm_ring {
	_Alignas(SHM_LINE) _Atomic uint64_t head;	/* the producer's */
	_Alignas(SHM_LINE) _Atomic uint64_t tail;	/* the consumer's */
	/* the consumer sleeps on data_seq when the ring is empty, the producer
	 * on space_seq when it is full; *_waiting: someone does (shm.c) */
	_Alignas(SHM_LINE) _Atomic uint32_t data_seq;
	_Atomic uint32_t data_waiting;
	_Alignas(SHM_LINE) _Atomic uint32_t space_seq;
	_Atomic uint32_t space_waiting;
	_Alignas(SHM_LINE) _Atomic uint32_t closed;	/* producer: no more bytes come */
	_Atomic uint32_t gone;				/* consumer: it reads no more */
	uint64_t cap;					/* set before sharing; a power of two */
};

struct shm_end {
	struct shm_ring *r;
	unsigned char *data;
	uint64_t cap;		/* a private copy: the peer cannot change it */
	uint64_t pos;		/* head (producer) or tail (consumer): this side's */
	uint64_t peer;		/* the other index, as last seen */
	int producer;
};

void shm_ring_init(struct shm_ring *r, uint64_t cap);
void shm_end_init(struct shm_end *e, struct shm_ring *r, unsigned char *data, uint64_t cap,
		  int producer);
size_t shm_ring_write(struct shm_end *e, const void *buf, size_t len);
size_t shm_ring_read(struct shm_end *e, void *buf, size_t len);
uint64_t shm_ring_used(struct shm_end *e);

#endif
