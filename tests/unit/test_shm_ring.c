/*
 * test_shm_ring: the shm transport's byte ring (transports/shm_ring.h):
 * empty, full, a copy that wraps at the end of the data, short writes and
 * reads, and a producer thread against a consumer thread checking every
 * byte of 256 KiB.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <cmocka.h>

#include "shm_ring.h"

struct pair {
	struct shm_ring ring;
	unsigned char data[16];
	struct shm_end tx, rx;
};

static void pair_init(struct pair *p)
{
	memset(p->data, 0xee, sizeof(p->data));
	shm_ring_init(&p->ring, sizeof(p->data));
	shm_end_init(&p->tx, &p->ring, p->data, sizeof(p->data), 1);
	shm_end_init(&p->rx, &p->ring, p->data, sizeof(p->data), 0);
}

static void empty_ring_reads_nothing(void **state)
{
	struct pair p;
	unsigned char buf[4];

	(void)state;
	pair_init(&p);
	assert_int_equal(shm_ring_used(&p.rx), 0);
	assert_int_equal(shm_ring_read(&p.rx, buf, sizeof(buf)), 0);
	assert_int_equal(shm_ring_write(&p.tx, "ab", 2), 2);
	assert_int_equal(shm_ring_used(&p.rx), 2);
	assert_int_equal(shm_ring_used(&p.tx), 2);
	/* a read asks for more than there is: what there is */
	assert_int_equal(shm_ring_read(&p.rx, buf, sizeof(buf)), 2);
	assert_memory_equal(buf, "ab", 2);
	assert_int_equal(shm_ring_read(&p.rx, buf, sizeof(buf)), 0);
	assert_int_equal(shm_ring_used(&p.rx), 0);
}

static void full_ring_takes_nothing(void **state)
{
	struct pair p;
	unsigned char in[20], out[20];

	(void)state;
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i + 1);
	pair_init(&p);
	/* a write of more than the room: as much as fits */
	assert_int_equal(shm_ring_write(&p.tx, in, sizeof(in)), 16);
	assert_int_equal(shm_ring_used(&p.tx), 16);
	assert_int_equal(shm_ring_write(&p.tx, in, 1), 0);
	assert_int_equal(shm_ring_read(&p.rx, out, 3), 3);
	assert_memory_equal(out, in, 3);
	/* the producer's stale view of tail is refreshed when it needs room */
	assert_int_equal(shm_ring_write(&p.tx, in + 16, 4), 3);
	assert_int_equal(shm_ring_used(&p.rx), 16);
	assert_int_equal(shm_ring_read(&p.rx, out, sizeof(out)), 16);
	assert_memory_equal(out, in + 3, 13);
	assert_memory_equal(out + 13, in + 16, 3);
}

static void copies_wrap_at_the_end(void **state)
{
	struct pair p;
	unsigned char in[12], out[12];

	(void)state;
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(0x40 + i);
	pair_init(&p);
	memset(out, 0x11, sizeof(out));
	assert_int_equal(shm_ring_write(&p.tx, out, 10), 10);
	assert_int_equal(shm_ring_read(&p.rx, out, 10), 10);
	/* 6 bytes fit before the end (10..15), the other 6 go to 0..5 */
	assert_int_equal(shm_ring_write(&p.tx, in, 12), 12);
	assert_memory_equal(p.data + 10, in, 6);
	assert_memory_equal(p.data, in + 6, 6);
	assert_int_equal(p.data[6], 0x11);	/* nothing past what was written */
	memset(out, 0, sizeof(out));
	assert_int_equal(shm_ring_read(&p.rx, out, 12), 12);
	assert_memory_equal(out, in, 12);
	assert_int_equal(atomic_load(&p.ring.head), 22);
	assert_int_equal(atomic_load(&p.ring.tail), 22);
}

/* A broken peer's index past the other's: no copy beyond the data. */
static void broken_indices_stay_inside(void **state)
{
	struct pair p;
	unsigned char buf[64];

	(void)state;
	pair_init(&p);
	atomic_store(&p.ring.head, 1000);	/* 1000 bytes "written" into 16 */
	assert_int_equal(shm_ring_read(&p.rx, buf, sizeof(buf)), 16);
	pair_init(&p);
	atomic_store(&p.ring.tail, 5);		/* read ahead of what was written */
	shm_end_init(&p.tx, &p.ring, p.data, sizeof(p.data), 1);
	assert_int_equal(shm_ring_write(&p.tx, buf, 8), 0);
}

/* A producer and a consumer thread, odd chunk sizes through a small
 * ring, every byte checked.  A side that moved nothing yields. */
#define STREAM_LEN (256u * 1024)
struct threaded {
	struct shm_ring ring;
	unsigned char data[256];
	struct shm_end tx, rx;
	int bad;
};

static void *producer(void *arg)
{
	struct threaded *t = arg;
	unsigned char chunk[97];
	size_t sent = 0;

	while (sent < STREAM_LEN) {
		size_t want = 1 + sent % sizeof(chunk);
		if (want > STREAM_LEN - sent)
			want = STREAM_LEN - sent;
		for (size_t i = 0; i < want; i++)
			chunk[i] = (unsigned char)((sent + i) * 131u);
		size_t done = 0;
		while (done < want) {
			size_t n = shm_ring_write(&t->tx, chunk + done, want - done);
			if (!n)
				sched_yield();	/* two spinners on a loaded machine */
			done += n;
		}
		sent += want;
	}
	return NULL;
}

static void threads_move_every_byte(void **state)
{
	struct threaded *t = calloc(1, sizeof(*t));
	unsigned char buf[61];
	size_t got = 0;
	pthread_t th;

	(void)state;
	assert_non_null(t);
	shm_ring_init(&t->ring, sizeof(t->data));
	shm_end_init(&t->tx, &t->ring, t->data, sizeof(t->data), 1);
	shm_end_init(&t->rx, &t->ring, t->data, sizeof(t->data), 0);
	assert_int_equal(pthread_create(&th, NULL, producer, t), 0);
	while (got < STREAM_LEN) {
		size_t n = shm_ring_read(&t->rx, buf, 1 + got % sizeof(buf));
		if (!n)
			sched_yield();
		for (size_t i = 0; i < n; i++)
			if (buf[i] != (unsigned char)((got + i) * 131u))
				t->bad++;
		got += n;
	}
	pthread_join(th, NULL);
	assert_int_equal(t->bad, 0);
	assert_int_equal(shm_ring_used(&t->rx), 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_ring_reads_nothing),
		cmocka_unit_test(full_ring_takes_nothing),
		cmocka_unit_test(copies_wrap_at_the_end),
		cmocka_unit_test(broken_indices_stay_inside),
		cmocka_unit_test(threads_move_every_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
