/*
 * Unit tests for launch/link.c's arithmetic (link_due): how long a packet
 * takes through an emulated link of topology: netns, in ns: its time on
 * the wire at `rate`, then `delay` +- `jitter`, in order, or lost with
 * probability `loss` (millionths of a percent).
 */
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "link.h"
#include "netem.h"

#define MS 1000000ull
#define T0 (1000 * MS)		/* a clock far from 0 */

static void test_no_link_is_at_once(void **state)
{
	struct cell_link l = { 0 };
	struct link_wire w = { 0 };
	uint64_t seed = 1;

	(void)state;
	for (uint64_t i = 0; i < 1000; i++)
		assert_int_equal(link_due(&l, &w, 1500, T0 + i, &seed), T0 + i);
}

/* 986 bytes of IP packet at 8 Mbit/s are 1 ms on the wire (1000 B with
 * the 14 B Ethernet header netem counts on a veth); the next packet waits
 * for the wire; an idle wire starts afresh */
static void test_rate_is_wire_time_in_turn(void **state)
{
	struct cell_link l = { .rate_bps = 8000000 };
	struct link_wire w = { 0 };
	uint64_t seed = 1;

	(void)state;
	assert_int_equal(link_due(&l, &w, 986, T0, &seed), T0 + MS);
	assert_int_equal(link_due(&l, &w, 986, T0, &seed), T0 + 2 * MS);
	assert_int_equal(link_due(&l, &w, 486, T0 + MS / 2, &seed), T0 + 2 * MS + MS / 2);
	assert_int_equal(link_due(&l, &w, 986, T0 + 10 * MS, &seed), T0 + 11 * MS);
	l.rate_bps = 1000000000;	/* 1gbit: 64 B are 78 B, 624 ns */
	assert_int_equal(link_due(&l, &w, 64, T0 + 20 * MS, &seed), T0 + 20 * MS + 624);
	/* a full 1500 B packet: 1514 B, 12112 ns */
	assert_int_equal(link_due(&l, &w, 1500, T0 + 30 * MS, &seed), T0 + 30 * MS + 12112);
}

/* the delay comes after the wire, and does not hold the wire */
static void test_delay_after_the_wire(void **state)
{
	struct cell_link l = { .delay_ns = 2 * MS };
	struct link_wire w = { 0 };
	uint64_t seed = 1;

	(void)state;
	assert_int_equal(link_due(&l, &w, 64, T0, &seed), T0 + 2 * MS);
	assert_int_equal(link_due(&l, &w, 64, T0 + 1, &seed), T0 + 2 * MS + 1);
	l.rate_bps = 8000000;
	assert_int_equal(link_due(&l, &w, 986, T0 + 10 * MS, &seed), T0 + 13 * MS);
	assert_int_equal(link_due(&l, &w, 986, T0 + 10 * MS, &seed), T0 + 14 * MS);
}

/* delay 1 ms, jitter 0.5 ms: uniform in [0.5, 1.5] ms, both ends reached,
 * mean 1 ms */
static void test_jitter_is_uniform_around_the_delay(void **state)
{
	struct cell_link l = { .delay_ns = MS, .jitter_ns = MS / 2 };
	struct link_wire w = { 0 };
	uint64_t seed = 7, lo = UINT64_MAX, hi = 0;
	double sum = 0;
	const int n = 20000;

	(void)state;
	for (int i = 0; i < n; i++) {
		uint64_t now = T0 + (uint64_t)i * 10 * MS;	/* apart: no packet ahead */
		uint64_t d = link_due(&l, &w, 64, now, &seed) - now;
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		sum += (double)d;
	}
	if (lo < MS / 2 || hi > MS + MS / 2)
		fail_msg("travel times %llu..%llu ns, outside 0.5..1.5 ms", (unsigned long long)lo,
			 (unsigned long long)hi);
	if (lo > MS / 2 + MS / 100 || hi < MS + MS / 2 - MS / 100)
		fail_msg("travel times %llu..%llu ns: not spread over 0.5..1.5 ms",
			 (unsigned long long)lo, (unsigned long long)hi);
	if (sum / n < 0.98 * MS || sum / n > 1.02 * MS)
		fail_msg("mean travel time %.0f ns, not 1 ms", sum / n);
}

/* jitter larger than the delay: the travel time never goes below 0, so a
 * packet never leaves before it was taken, nor sooner than its time on
 * the wire */
static void test_jitter_never_before_off_the_wire(void **state)
{
	struct cell_link l = { .jitter_ns = 5 * MS };
	struct link_wire w = { 0 };
	uint64_t seed = 3;
	int at_once = 0;

	(void)state;
	for (int i = 0; i < 2000; i++) {
		uint64_t now = T0 + (uint64_t)i * 20 * MS;
		uint64_t t = link_due(&l, &w, 64, now, &seed);
		assert_true(t >= now && t <= now + 5 * MS);
		at_once += t == now;
	}
	assert_true(at_once > 500);	/* half the draws are below 0 */
	l.rate_bps = 8000000;		/* 986 B: off the wire 1 ms after */
	memset(&w, 0, sizeof(w));
	for (int i = 0; i < 2000; i++) {
		uint64_t now = T0 + (uint64_t)i * 20 * MS;
		uint64_t t = link_due(&l, &w, 986, now, &seed);
		if (t < now + MS || t > now + 6 * MS)
			fail_msg("packet %d: due %lld ns after it was taken, 1 ms on the wire",
				 i, (long long)(t - now));
	}
}

/* with jitter a packet taken later may be due before one taken earlier
 * (netem reorders so); never without jitter, nor with a rate (netem: the
 * last packet queued is the reference); never before it was taken */
static void test_jitter_reorders_unless_rate(void **state)
{
	struct cell_link l = { .delay_ns = MS, .jitter_ns = MS };
	uint64_t seed = 11;

	(void)state;
	for (int k = 0; k < 3; k++) {
		struct link_wire w = { 0 };
		uint64_t last = 0;
		int overtakes = 0;
		if (k == 1)
			l.jitter_ns = 0;
		if (k == 2) {
			l.jitter_ns = MS;
			l.rate_bps = 10000000000ull;	/* 10gbit: 64 B are 51 ns */
		}
		for (int i = 0; i < 5000; i++) {
			uint64_t now = T0 + (uint64_t)i * 1000;	/* 1 us apart, 2 ms of jitter */
			uint64_t t = link_due(&l, &w, 64, now, &seed);
			assert_true(t >= now);
			overtakes += t < last;
			last = t;
		}
		if (k == 0 && overtakes < 1000)
			fail_msg("jitter 1 ms, 1 us apart: %d of 5000 overtake the one before", overtakes);
		if (k > 0 && overtakes)
			fail_msg("%s: %d of 5000 overtake the one before", k == 1 ? "no jitter" :
				 "jitter with a rate", overtakes);
	}
}

/* loss in millionths of a percent: 0 none, 100% every one, 10% one in ten;
 * a lost packet does not take the wire */
static void test_loss_probability(void **state)
{
	struct cell_link l = { .loss = 0 };
	struct link_wire w = { 0 };
	uint64_t seed = 5;
	int lost = 0;
	const int n = 100000;

	(void)state;
	for (int i = 0; i < n; i++)
		lost += link_due(&l, &w, 64, T0, &seed) == UINT64_MAX;
	assert_int_equal(lost, 0);
	l.loss = 100 * 1000000ull;
	l.rate_bps = 8000000;
	for (int i = 0; i < 1000; i++)
		assert_true(link_due(&l, &w, 1000, T0, &seed) == UINT64_MAX);
	assert_int_equal(w.last_due, 0);
	l.loss = 10 * 1000000ull;	/* 10% */
	l.rate_bps = 0;
	lost = 0;
	for (int i = 0; i < n; i++)
		lost += link_due(&l, &w, 64, T0, &seed) == UINT64_MAX;
	if (lost < n / 10 - n / 100 || lost > n / 10 + n / 100)
		fail_msg("10%%: %d of %d lost", lost, n);
	l.loss = 500000;		/* 0.5% */
	lost = 0;
	for (int i = 0; i < n; i++)
		lost += link_due(&l, &w, 64, T0, &seed) == UINT64_MAX;
	if (lost < 400 || lost > 600)
		fail_msg("0.5%%: %d of %d lost", lost, n);
}

/* The link process between two datagram socketpairs standing for its TUN
 * devices (one packet a datagram, as a TUN device reads): dev[0][0] is
 * the server's side as the test sees it, dev[1][0] the clients'. */
struct linkproc {
	pid_t pid;
	int dev[2][2], ctl;
};

static void link_start(struct linkproc *lp)
{
	int c[2];

	for (int i = 0; i < 2; i++)
		assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
					    lp->dev[i]), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, c), 0);
	lp->pid = fork();
	assert_true(lp->pid >= 0);
	if (lp->pid == 0) {
		close(c[0]);
		link_main(lp->dev[0][1], lp->dev[1][1], c[1]);
	}
	close(c[1]);
	close(lp->dev[0][1]);
	close(lp->dev[1][1]);
	lp->ctl = c[0];
}

/* l in place, as netns_apply does it: the packets its flush dropped */
static uint64_t link_apply(struct linkproc *lp, struct cell_link l)
{
	struct link_ack ack = { 0 };
	struct pollfd pf = { .fd = lp->ctl, .events = POLLIN };

	assert_int_equal(write(lp->ctl, &l, sizeof(l)), sizeof(l));
	assert_int_equal(poll(&pf, 1, 30000), 1);	/* a hang guard, not a measure */
	assert_int_equal(read(lp->ctl, &ack, sizeof(ack)), sizeof(ack));
	assert_int_equal(ack.k, 'k');
	return ack.flushed;
}

static void link_stop(struct linkproc *lp)
{
	int st;

	close(lp->ctl);		/* end of file: it ends */
	assert_int_equal(waitpid(lp->pid, &st, 0), lp->pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(lp->dev[0][0]);
	close(lp->dev[1][0]);
}

/* the next packet out of the clients' side, within the hang guard */
static void expect_packet(struct linkproc *lp, const char *want)
{
	struct pollfd pf = { .fd = lp->dev[1][0], .events = POLLIN };
	char got[64] = "";

	assert_int_equal(poll(&pf, 1, 30000), 1);
	assert_true(read(lp->dev[1][0], got, sizeof(got) - 1) > 0);
	assert_string_equal(got, want);
}

/* a cell's backlog (packets 10 s apart on a 800 bit/s wire) is dropped
 * when the next cell's link comes, counted: the next cell's first packet
 * is its own, at once; the next flush finds nothing */
static void test_new_link_flushes_the_queue(void **state)
{
	struct linkproc lp;
	char pkt[1000] = "old";

	(void)state;
	link_start(&lp);
	assert_int_equal(link_apply(&lp, (struct cell_link){ .rate_bps = 800 }), 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(write(lp.dev[0][0], pkt, sizeof(pkt)), sizeof(pkt));
	/* and two the other way, still in the device's queue or the link's */
	for (int i = 0; i < 2; i++)
		assert_int_equal(write(lp.dev[1][0], pkt, sizeof(pkt)), sizeof(pkt));
	assert_int_equal(link_apply(&lp, (struct cell_link){ 0 }), 7);
	assert_int_equal(write(lp.dev[0][0], "new", 4), 4);
	expect_packet(&lp, "new");
	/* the same link again is a flush too: the second repetition of a cell */
	assert_int_equal(link_apply(&lp, (struct cell_link){ 0 }), 0);
	assert_int_equal(link_apply(&lp, (struct cell_link){ .delay_ns = 3600 * 1000 * MS }), 0);
	assert_int_equal(write(lp.dev[0][0], "late", 5), 5);
	assert_int_equal(link_apply(&lp, (struct cell_link){ 0 }), 1);
	assert_int_equal(write(lp.dev[0][0], "next", 5), 5);
	expect_packet(&lp, "next");
	link_stop(&lp);
}

/* the link process with jitter: every packet out once, some of them
 * before one taken earlier (its queue is ordered by due time) */
static void test_link_process_reorders_with_jitter(void **state)
{
	struct linkproc lp;
	enum { N = 300 };
	int seen[N] = { 0 }, inversions = 0, last = -1;

	(void)state;
	link_start(&lp);
	for (int i = 0; i < 2; i++)	/* the test's ends block: no lost write */
		assert_int_equal(fcntl(lp.dev[i][0], F_SETFL, 0), 0);
	link_apply(&lp, (struct cell_link){ .delay_ns = 20 * MS, .jitter_ns = 20 * MS });
	for (int i = 0; i < N; i++)
		assert_int_equal(write(lp.dev[0][0], &i, sizeof(i)), sizeof(i));
	for (int k = 0; k < N; k++) {
		struct pollfd pf = { .fd = lp.dev[1][0], .events = POLLIN };
		int i = -1;
		assert_int_equal(poll(&pf, 1, 30000), 1);
		assert_int_equal(read(lp.dev[1][0], &i, sizeof(i)), sizeof(i));
		assert_true(i >= 0 && i < N);
		assert_int_equal(seen[i]++, 0);
		inversions += i < last;
		last = i;
	}
	if (inversions < 10)
		fail_msg("%d of %d packets out before one taken earlier", inversions, N);
	link_stop(&lp);
}

/* the tc netem line of a link, as tc-netem(8) spells it, joined by spaces */
static void expect_netem(const struct cell_link l, const char *want)
{
	struct netem_cmd c;
	char got[512] = "";
	size_t o = 0;

	netem_cmd_build(&c, "matrix-1-s", &l);
	for (size_t i = 0; c.argv[i]; i++)
		o += (size_t)snprintf(got + o, sizeof(got) - o, "%s%s", i ? " " : "", c.argv[i]);
	assert_string_equal(got, want);
}

static void test_netem_command_line(void **state)
{
	const char *head = "-n matrix-1-s qdisc add dev mxlink root netem limit 4096";
	char want[512];

	(void)state;
	expect_netem((struct cell_link){ 0 }, head);
	snprintf(want, sizeof(want), "%s delay 2000.000us", head);
	expect_netem((struct cell_link){ .delay_ns = 2 * MS }, want);
	/* jitter needs a delay before it, 0 if need be; sub-µs kept */
	snprintf(want, sizeof(want), "%s delay 0.000us 1.500us", head);
	expect_netem((struct cell_link){ .jitter_ns = 1500 }, want);
	/* loss in millionths of a percent: 0.1% and 100%; rate in bit/s */
	snprintf(want, sizeof(want), "%s delay 1000.000us 100.000us loss random 0.100000%% "
		 "rate 1000000000bit", head);
	expect_netem((struct cell_link){ .delay_ns = MS, .jitter_ns = MS / 10, .loss = 100000,
					 .rate_bps = 1000000000 }, want);
	snprintf(want, sizeof(want), "%s loss random 100.000000%% rate 8bit", head);
	expect_netem((struct cell_link){ .loss = 100000000, .rate_bps = 8 }, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_link_is_at_once),
		cmocka_unit_test(test_rate_is_wire_time_in_turn),
		cmocka_unit_test(test_delay_after_the_wire),
		cmocka_unit_test(test_jitter_is_uniform_around_the_delay),
		cmocka_unit_test(test_jitter_never_before_off_the_wire),
		cmocka_unit_test(test_jitter_reorders_unless_rate),
		cmocka_unit_test(test_loss_probability),
		cmocka_unit_test(test_new_link_flushes_the_queue),
		cmocka_unit_test(test_link_process_reorders_with_jitter),
		cmocka_unit_test(test_netem_command_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
