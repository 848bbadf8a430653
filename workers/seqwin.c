/* The sliding window of sequence numbers: see seqwin.h. */
#include "seqwin.h"

#include <stdlib.h>
#include <string.h>

#define BIT(n) ((n) % SEQWIN_SIZE)

static int test_bit(const struct seqwin *w, uint64_t n)
{
	return w->bits[BIT(n) / 8] >> (BIT(n) % 8) & 1;
}

static void set_bit(struct seqwin *w, uint64_t n)
{
	w->bits[BIT(n) / 8] |= (unsigned char)(1u << (BIT(n) % 8));
}

static void clear_bit(struct seqwin *w, uint64_t n)
{
	w->bits[BIT(n) / 8] &= (unsigned char)~(1u << (BIT(n) % 8));
}

int seqwin_init(struct seqwin *w)
{
	w->bits = calloc(SEQWIN_SIZE / 8, 1);
	w->newest = 0;
	w->any = 0;
	return w->bits ? 0 : -1;
}

enum seq_verdict seqwin_add(struct seqwin *w, uint64_t n)
{
	if (!w->any || n > w->newest) {
		/* the window moves up to n: the numbers it uncovers are unseen */
		/* counted down, not up to n: n may be UINT64_MAX */
		if (w->any && n - w->newest >= SEQWIN_SIZE)
			memset(w->bits, 0, SEQWIN_SIZE / 8);
		else
			for (uint64_t d = w->any ? n - w->newest : 0; d; d--)
				clear_bit(w, n - d + 1);
		w->newest = n;
		w->any = 1;
		set_bit(w, n);
		return SEQ_NEW;
	}
	if (w->newest - n >= SEQWIN_SIZE)
		return SEQ_TOO_OLD;
	if (test_bit(w, n))
		return SEQ_DUPLICATE;
	set_bit(w, n);
	return SEQ_REORDERED;
}

void seqwin_release(struct seqwin *w)
{
	free(w->bits);
	w->bits = NULL;
}
