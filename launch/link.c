/* The link process of topology: netns: see link.h. */
#include "link.h"
#include "arrays.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "rng.h"

struct pkt {
	uint64_t due;			/* CLOCK_MONOTONIC ns when it is written out */
	uint64_t seq;			/* taken in this order: ties leave in it */
	size_t len;
	unsigned char data[LINK_MTU + 548];	/* room for a device with a larger MTU */
};

/* One direction: packets read from `in`, written to `out` once due, the
 * earliest due first (with jitter a packet may overtake the one before
 * it, as in netem's time-ordered queue). */
struct dir {
	int in, out;
	struct pkt *q;			/* LINK_QUEUE slots */
	uint16_t heap[LINK_QUEUE];	/* slots in use: a min-heap by (due, seq) */
	uint16_t spare[LINK_QUEUE];	/* slots free: a stack */
	size_t n;
	uint64_t seq;
	struct link_wire w;
};

static struct cell_link cur;	/* the link in place */
static uint64_t seed;

uint64_t link_due(const struct cell_link *l, struct link_wire *w, size_t len, uint64_t now,
		  uint64_t *seed_)
{
	int64_t d = (int64_t)l->delay_ns;

	if (l->loss && rng_next(seed_) % 100000000ull < l->loss)
		return UINT64_MAX;
	if (l->jitter_ns)
		d += (int64_t)(rng_next(seed_) % (2 * l->jitter_ns + 1)) - (int64_t)l->jitter_ns;
	uint64_t t = now + (d > 0 ? (uint64_t)d : 0);	/* never before it was taken */
	if (l->rate_bps) {
		/* netem: the last packet queued is the reference: none
		 * overtakes it, and each takes its time on the wire after */
		if (t < w->last_due)
			t = w->last_due;
		t += (uint64_t)((double)(len + LINK_RATE_OVERHEAD) * 8e9 / (double)l->rate_bps);
		w->last_due = t;
	}
	return t;
}

static int before(const struct dir *d, uint16_t a, uint16_t b)
{
	const struct pkt *x = &d->q[a], *y = &d->q[b];

	return x->due < y->due || (x->due == y->due && x->seq < y->seq);
}

static void swap(uint16_t *a, uint16_t *b)
{
	uint16_t t = *a;

	*a = *b;
	*b = t;
}

/* Slot s (filled) into the heap. */
static void push(struct dir *d, uint16_t s)
{
	size_t i = d->n++;

	d->heap[i] = s;
	for (; i && before(d, d->heap[i], d->heap[(i - 1) / 2]); i = (i - 1) / 2)
		swap(&d->heap[i], &d->heap[(i - 1) / 2]);
}

/* The earliest packet out of the heap, its slot back to the spares. */
static void pop(struct dir *d)
{
	size_t i = 0;

	d->spare[LINK_QUEUE - d->n] = d->heap[0];
	d->heap[0] = d->heap[--d->n];
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < d->n && before(d, d->heap[l], d->heap[m]))
			m = l;
		if (l + 1 < d->n && before(d, d->heap[l + 1], d->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		swap(&d->heap[i], &d->heap[m]);
		i = m;
	}
}

/* Reads every packet waiting on d->in into its queue. */
static void take(struct dir *d)
{
	for (;;) {
		int full = d->n == LINK_QUEUE;
		uint16_t s = full ? 0 : d->spare[LINK_QUEUE - 1 - d->n];
		struct pkt *p = &d->q[s];
		unsigned char spill[sizeof(p->data)];
		ssize_t r = read(d->in, full ? spill : p->data, sizeof(p->data));

		if (r <= 0)
			return;		/* EAGAIN: all taken; anything else: nothing to take */
		if (full)
			continue;	/* a full queue drops */
		p->len = (size_t)r;
		p->due = link_due(&cur, &d->w, p->len, clock_now_ns(), &seed);
		p->seq = d->seq++;
		if (p->due != UINT64_MAX)
			push(d, s);
	}
}

/* Writes the packets due by now; the earliest one still waiting, or 0. */
static uint64_t give(struct dir *d, uint64_t now)
{
	while (d->n && d->q[d->heap[0]].due <= now) {
		struct pkt *p = &d->q[d->heap[0]];

		if (write(d->out, p->data, p->len) < 0 && errno == EAGAIN)
			return now;	/* the device's queue is full: try again at once */
		pop(d);
	}
	return d->n ? d->q[d->heap[0]].due : 0;
}

/* The spare stack full: every slot free. */
static void reset(struct dir *d)
{
	d->n = 0;
	for (size_t i = 0; i < LINK_QUEUE; i++)
		d->spare[i] = (uint16_t)i;
}

/* Drops every packet of d: those in its queue and those waiting on d->in;
 * its wire starts afresh.  How many. */
static uint64_t flush(struct dir *d)
{
	unsigned char spill[sizeof(d->q[0].data)];
	uint64_t n = d->n;

	while (read(d->in, spill, sizeof(spill)) > 0)
		n++;			/* until EAGAIN: the device's queue is empty */
	reset(d);
	memset(&d->w, 0, sizeof(d->w));
	return n;
}

/* A new link from the runner, put in place after a flush of both
 * directions: 0, or -1 when the runner is gone. */
static int control(int ctl, struct dir d[2])
{
	struct cell_link l;
	struct link_ack ack = { .k = 'k' };
	ssize_t r = read(ctl, &l, sizeof(l));

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r != (ssize_t)sizeof(l))
		return -1;
	ack.flushed = flush(&d[0]) + flush(&d[1]);
	cur = l;
	return write(ctl, &ack, sizeof(ack)) == (ssize_t)sizeof(ack) ? 0 : -1;
}

void link_main(int fd_server, int fd_client, int ctl)
{
	static struct pkt qs[2][LINK_QUEUE];
	struct dir d[2] = {
		{ .in = fd_server, .out = fd_client, .q = qs[0] },
		{ .in = fd_client, .out = fd_server, .q = qs[1] },
	};
	const int sigs[] = { SIGINT, SIGHUP, SIGQUIT, SIGPIPE };
	sigset_t none;

	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_IGN);	/* the runner ends it, or its death does */
	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	reset(&d[0]);
	reset(&d[1]);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_TIMERSLACK, 1UL);	/* wake-ups on time, not 50 µs late */
	seed = clock_now_ns() ^ (uint64_t)getpid() << 32;
	for (;;) {
		struct pollfd pf[3] = {
			{ .fd = fd_server, .events = POLLIN }, { .fd = fd_client, .events = POLLIN },
			{ .fd = ctl, .events = POLLIN },
		};
		uint64_t now = clock_now_ns(), next = 0;
		for (int i = 0; i < 2; i++) {
			uint64_t t = give(&d[i], now);
			if (t && (!next || t < next))
				next = t;
		}
		struct timespec ts = { 0, 0 };
		if (next > now)
			ts = (struct timespec){ (time_t)((next - now) / 1000000000ull),
						(long)((next - now) % 1000000000ull) };
		if (ppoll(pf, 3, next ? &ts : NULL, NULL) < 0 && errno != EINTR)
			_exit(1);
		for (int i = 0; i < 2; i++)
			if (pf[i].revents & POLLIN)
				take(&d[i]);
		if (pf[2].revents && control(ctl, d) < 0)
			_exit(0);
	}
}
