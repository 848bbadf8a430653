/*
 * seqwin: a lossy stream receiver's record of the sequence numbers it
 * has seen, to tell a new datagram from a duplicate and a late one, in
 * memory that does not grow with the count.
 *
 * A sliding window of SEQWIN_SIZE sequence numbers ending at the highest
 * one seen so far (newest), one bit each (a ring of SEQWIN_SIZE / 8
 * bytes, 128 KiB).  A number inside the window is judged exactly: new
 * (ahead of newest, which moves the window), reordered (behind newest,
 * not seen before) or a duplicate.  A number that falls behind the window
 * (SEQWIN_SIZE or more behind newest) cannot be told apart: it is
 * SEQ_TOO_OLD, which the receiver counts as a duplicate (not received),
 * so that a figure is never overstated; on loopback a datagram would have
 * to be overtaken by a million others (the whole socket buffer holds a
 * few thousand at most sizes).
 */
#ifndef MATRIX_SEQWIN_H
#define MATRIX_SEQWIN_H

#include <stdint.h>

#define SEQWIN_SIZE ((uint64_t)1 << 20)	/* sequence numbers; a power of two */

struct seqwin {
	unsigned char *bits;	/* SEQWIN_SIZE bits: number n is bit n % SEQWIN_SIZE */
	uint64_t newest;	/* the highest number seen; valid once any */
	int any;
};

enum seq_verdict { SEQ_NEW, SEQ_REORDERED, SEQ_DUPLICATE, SEQ_TOO_OLD };

/* 0, or -1 (errno ENOMEM). */
int seqwin_init(struct seqwin *w);
/* Records number n, and says what it was. */
enum seq_verdict seqwin_add(struct seqwin *w, uint64_t n);
void seqwin_release(struct seqwin *w);

#endif
