/*
 * Unit tests for cell/aggregate.c: result records of one cell repetition,
 * made by hand, and the row of figures aggregate_row() makes of them.  Every
 * expected figure is worked out by hand in the comment beside it; every
 * input figure is distinct, so a figure taken from the wrong record or the
 * wrong side shows.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "aggregate.h"
#include "arrays.h"
#include "transport.h"
#include "unit.h"

#define STARTED "2024-05-06T07:08:09Z"


static struct cell make_cell(enum pattern pat, const char *transport, int allow_loss)
{
	struct cell c = { .number = 7 };

	c.p.pattern = pat;
	c.p.transport = transport_find(transport);
	assert_non_null(c.p.transport);
	c.p.allow_loss = allow_loss;
	return c;
}

/* An ok outcome of n clients; every figure zero, socket figures unknown. */
static void outcome_init(struct cell_outcome *o, struct worker_result *clients, unsigned n)
{
	memset(o, 0, sizeof(*o));
	o->ok = 1;
	strcpy(o->status, "ok");
	worker_result_init(&o->server);
	for (unsigned i = 0; i < n; i++)
		worker_result_init(&clients[i]);
	o->clients = clients;
	o->nclients = n;
}

static void record(struct hist *h, uint64_t ns, unsigned times)
{
	while (times--)
		hist_record(h, ns);
}

static void test_pingpong_two_clients(void **state)
{
	struct cell c = make_cell(PAT_PINGPONG, "tcp", 0);
	struct worker_result cl[2];
	struct cell_outcome o;
	struct result_row row;
	struct hist h1, h2;

	(void)state;
	outcome_init(&o, cl, 2);
	/* client 1: 900 round trips of 100 + 100 bytes from t = 1 s to 3 s */
	cl[0].start_ns = 1000000000;
	cl[0].end_ns = 3000000000;
	cl[0].messages = cl[0].sent_messages = 900;
	cl[0].bytes = 180000;
	cl[0].sent_bytes = 90000;
	cl[0].cpu_ns = 500000;
	cl[0].sndbuf = 111111;
	cl[0].rcvbuf = 444444;
	cl[0].nodelay = 1;
	cl[0].mss = 988;
	strcpy(cl[0].congestion, "reno");
	/* client 2: 100 round trips from t = 1.5 s to 5 s */
	cl[1].start_ns = 1500000000;
	cl[1].end_ns = 5000000000;
	cl[1].messages = cl[1].sent_messages = 100;
	cl[1].bytes = 20000;
	cl[1].sent_bytes = 10000;
	cl[1].cpu_ns = 750000;
	cl[1].sndbuf = 555555;
	cl[1].mss = 1000;
	strcpy(cl[1].congestion, "cubic");
	/* the server's own window is no pingpong figure */
	o.server.start_ns = 500000000;
	o.server.end_ns = 6000000000;
	o.server.messages = 999;
	o.server.cpu_ns = 250000;
	o.server.sndbuf = 333333;
	o.server.rcvbuf = 222222;
	o.server.nodelay = 0;
	strcpy(o.server.congestion, "reno;bbr");	/* its connections' */
	o.clients_ru.ru_utime.tv_sec = 1;
	o.clients_ru.ru_utime.tv_usec = 250000;
	o.clients_ru.ru_stime.tv_usec = 500000;
	o.clients_ru.ru_nvcsw = 10;
	o.clients_ru.ru_nivcsw = 20;
	o.clients_ru.ru_maxrss = 5000;
	o.server_ru.ru_utime.tv_usec = 125000;
	o.server_ru.ru_stime.tv_usec = 250000;
	o.server_ru.ru_nvcsw = 300;
	o.server_ru.ru_nivcsw = 4000;
	o.server_ru.ru_maxrss = 7000;
	o.wall_s = 6.5;
	/* 1000 RTTs over both clients: ranks 1, 2..500, 501..900 | 901..990,
	 * 991..999, 1000 */
	hist_init(&h1);
	record(&h1, 1000, 1);
	record(&h1, 2000, 499);
	record(&h1, 4000, 400);
	hist_init(&h2);
	record(&h2, 8000, 90);
	record(&h2, 16000, 9);
	record(&h2, 64000, 1);
	cl[0].hist = &h1;
	cl[1].hist = &h2;

	aggregate_row(&c, 2, &o, STARTED, &row);
	assert_int_equal(row.cell, 7);
	assert_int_equal(row.rep, 2);
	assert_true(row.ok);
	assert_false(row.skipped);
	assert_string_equal(row.status, "ok");
	assert_string_equal(row.error, "");
	assert_string_equal(row.started_at, STARTED);
	assert_string_equal(row.measured_by, "worker");
	EXPECT(row.elapsed_s, 4.0);		/* earliest start 1 s .. latest end 5 s */
	EXPECT(row.messages, 1000);
	EXPECT(row.bytes, 200000);
	EXPECT(row.msgs_per_s, 250);		/* 1000 / 4 */
	EXPECT(row.mib_per_s, 0.0476837158203125);	/* 200000 / 2^20 / 4 */
	EXPECT(row.sent_messages, 1000);
	EXPECT(row.sent_msgs_per_s, 250);
	EXPECT(row.sent_mib_per_s, 0.02384185791015625);	/* 100000 / 2^20 / 4 */
	EXPECT(row.cpu_us_per_rtt, 1.5);	/* (250 + 500 + 750) us / 1000 round trips */
	EXPECT(row.cpu_us_per_msg, 0.75);	/* the same / 2000 messages, each way */
	EXPECT(row.client_cpu_s, 1.75);		/* 1.25 + 0.5 */
	EXPECT(row.server_cpu_s, 0.375);	/* 0.125 + 0.25 */
	EXPECT(row.ctx_switches, 4330);		/* 10 + 20 + 300 + 4000 */
	EXPECT(row.max_rss_kib, 7000);
	EXPECT(row.sndbuf, 111111);		/* the first client's */
	EXPECT(row.rcvbuf, 222222);		/* the server's */
	EXPECT(row.nodelay, 1);			/* the first client's */
	EXPECT(row.mss, 988);			/* the first client's */
	/* every connection's, each name once: the clients', then the server's */
	assert_string_equal(row.congestion, "reno;cubic;bbr");
	EXPECT(row.wall_s, 6.5);
	EXPECT(row.rtt_samples, 1000);
	EXPECT(row.rtt_min_us, 1.0);
	EXPECT(row.rtt_mean_us, 3.527);		/* 3527000 ns / 1000 */
	/* bucket midpoints: [2000, 2007], [4000, 4015], [8000, 8031], [16000, 16063] */
	EXPECT(row.rtt_p50_us, 2.003);
	EXPECT(row.rtt_p90_us, 4.007);
	EXPECT(row.rtt_p99_us, 8.015);
	EXPECT(row.rtt_p999_us, 16.031);
	EXPECT(row.rtt_max_us, 64.0);
	EXPECT_NAN(row.lost);			/* tcp loses nothing: no loss columns */
	EXPECT_NAN(row.duplicated);
	EXPECT_NAN(row.reordered);
}

/* record: totals: clients' totals-only histograms give the mean, min and
 * max of all their round trips and no percentile (NaN: empty, not 0);
 * one totals client among full ones is enough to leave them empty. */
static void test_totals_have_no_percentiles(void **state)
{
	struct cell c = make_cell(PAT_PINGPONG, "tcp", 0);
	struct worker_result cl[2];
	struct cell_outcome o;
	struct result_row row;
	struct hist h1, h2;

	(void)state;
	outcome_init(&o, cl, 2);
	for (unsigned i = 0; i < 2; i++) {
		cl[i].start_ns = 1000000000;
		cl[i].end_ns = 2000000000;
		cl[i].messages = cl[i].sent_messages = 2;
	}
	hist_init(&h1);
	hist_record_totals(&h1, 1000);
	hist_record_totals(&h1, 3000);
	hist_init(&h2);
	hist_record(&h2, 8000);
	hist_record(&h2, 4000);
	cl[0].hist = &h1;
	cl[1].hist = &h2;
	aggregate_row(&c, 1, &o, STARTED, &row);
	assert_true(row.ok);
	EXPECT(row.rtt_samples, 4);
	EXPECT(row.rtt_mean_us, 4.0);
	EXPECT(row.rtt_min_us, 1.0);
	EXPECT(row.rtt_max_us, 8.0);
	EXPECT_NAN(row.rtt_p50_us);
	EXPECT_NAN(row.rtt_p90_us);
	EXPECT_NAN(row.rtt_p99_us);
	EXPECT_NAN(row.rtt_p999_us);
	EXPECT(row.msgs_per_s, 4);
}

/* udp pingpong: 1000 requests sent, 950 answered in 2 s, 50 lost. */
static void lossy_pingpong(int allow_loss, struct result_row *row)
{
	struct cell c = make_cell(PAT_PINGPONG, "udp", allow_loss);
	struct worker_result cl[1];
	struct cell_outcome o;

	outcome_init(&o, cl, 1);
	cl[0].start_ns = 1000000000;
	cl[0].end_ns = 3000000000;
	cl[0].sent_messages = 1000;
	cl[0].sent_bytes = 100000;
	cl[0].messages = 950;
	cl[0].bytes = 190000;
	cl[0].lost = 50;
	cl[0].cpu_ns = 95000;
	aggregate_row(&c, 1, &o, STARTED, row);
}

static void test_pingpong_lost_requests(void **state)
{
	struct result_row row;

	(void)state;
	lossy_pingpong(1, &row);
	assert_true(row.ok);
	assert_string_equal(row.status, "ok");
	EXPECT(row.elapsed_s, 2.0);
	EXPECT(row.messages, 950);		/* round trips, not requests */
	EXPECT(row.msgs_per_s, 475);		/* 950 / 2, not the 1000 sent */
	EXPECT(row.mib_per_s, 0.09059906005859375);	/* 190000 / 2^20 / 2 */
	EXPECT(row.sent_messages, 1000);
	EXPECT(row.sent_msgs_per_s, 500);	/* 1000 / 2 */
	EXPECT(row.sent_mib_per_s, 0.0476837158203125);	/* 100000 / 2^20 / 2 */
	EXPECT(row.cpu_us_per_rtt, 0.1);	/* 95 us / 950 */
	EXPECT(row.cpu_us_per_msg, 0.05);	/* 95 us / 1900 messages */
	EXPECT(row.lost, 50);
	EXPECT(row.duplicated, 0);
	EXPECT(row.reordered, 0);

	/* the same loss where none is allowed: not ok, figures kept */
	lossy_pingpong(0, &row);
	assert_false(row.ok);
	assert_string_equal(row.status, "loss: 50 of 1000 lost");
	assert_string_equal(row.error, "50 of 1000 requests lost; set allow_loss: true to "
			    "accept loss");
	EXPECT(row.msgs_per_s, 475);
	EXPECT(row.lost, 50);
}

/* udp stream: two senders of 1000-byte messages, 600 + 400 sent from
 * t = 1 s to 3 s; the receiver got 900 from its first read at 1.1 s to its
 * last at 3.6 s, 3 duplicated, 7 reordered. */
static void lossy_stream(int allow_loss, struct result_row *row)
{
	struct cell c = make_cell(PAT_STREAM, "udp", allow_loss);
	struct worker_result cl[2];
	struct cell_outcome o;

	outcome_init(&o, cl, 2);
	cl[0].start_ns = 1000000000;
	cl[0].end_ns = 2000000000;
	cl[0].sent_messages = 600;
	cl[0].sent_bytes = 600000;
	cl[0].cpu_ns = 300000;
	cl[0].last_send_ns = 1999000000;
	cl[1].start_ns = 1200000000;
	cl[1].end_ns = 3000000000;
	cl[1].sent_messages = 400;
	cl[1].sent_bytes = 400000;
	cl[1].cpu_ns = 150000;
	cl[1].last_send_ns = 2999000000;
	o.server.start_ns = 1100000000;
	o.server.end_ns = 3600000000;
	o.server.messages = 900;
	o.server.bytes = 900000;
	o.server.duplicated = 3;
	o.server.reordered = 7;
	o.server.cpu_ns = 540000;
	aggregate_row(&c, 3, &o, STARTED, row);
}

static void test_stream_lossy_counts_the_receiver(void **state)
{
	struct result_row row;

	(void)state;
	lossy_stream(1, &row);
	assert_true(row.ok);
	assert_string_equal(row.status, "ok");
	EXPECT(row.elapsed_s, 2.6);		/* the senders' start 1 s .. last read 3.6 s */
	EXPECT(row.messages, 900);
	EXPECT(row.bytes, 900000);
	EXPECT(row.msgs_per_s, 900 / 2.6);	/* every timed message, first read too */
	EXPECT(row.mib_per_s, 900000 / 1048576.0 / 2.6);
	EXPECT(row.sent_messages, 1000);
	EXPECT(row.sent_msgs_per_s, 500);	/* 1000 / (3 s - 1 s) */
	EXPECT(row.sent_mib_per_s, 0.476837158203125);	/* 10^6 / 2^20 / 2 */
	EXPECT(row.cpu_us_per_msg, 1.1);	/* (540 + 300 + 150) us / 900 */
	EXPECT_NAN(row.cpu_us_per_rtt);		/* no round trips in a stream */
	EXPECT(row.lost, 100);			/* 1000 - 900 */
	EXPECT(row.duplicated, 3);
	EXPECT(row.reordered, 7);
	EXPECT_NAN(row.rtt_samples);		/* no RTTs in a stream */
	EXPECT_NAN(row.rtt_p50_us);

	lossy_stream(0, &row);
	assert_false(row.ok);
	assert_string_equal(row.status, "loss: 100 of 1000 lost");
	assert_string_equal(row.error, "100 of 1000 messages lost; set allow_loss: true to "
			    "accept loss");
	EXPECT(row.msgs_per_s, 900 / 2.6);
}

/* tcp stream, one sender: 1000 messages of 64 bytes, t = 2 s .. 4 s, the
 * last send begun at 3.9 s.  The receiver got the CPU late (its first read
 * at 3.5 s brought the backlog) and read the last message at last_read. */
static void reliable_stream(uint64_t received, uint64_t last_read, struct result_row *row)
{
	struct cell c = make_cell(PAT_STREAM, "tcp", 0);
	struct worker_result cl[1];
	struct cell_outcome o;

	outcome_init(&o, cl, 1);
	cl[0].start_ns = 2000000000;
	cl[0].end_ns = 4000000000;
	cl[0].sent_messages = 1000;
	cl[0].sent_bytes = 64000;
	cl[0].last_send_ns = 3900000000;
	o.server.start_ns = 3500000000;
	o.server.end_ns = last_read;
	o.server.messages = received;
	o.server.bytes = received * 64;
	aggregate_row(&c, 1, &o, STARTED, row);
}

static void test_stream_reliable_must_deliver_all(void **state)
{
	struct result_row row;

	(void)state;
	reliable_stream(1000, 4500000000, &row);
	assert_true(row.ok);
	assert_string_equal(row.status, "ok");
	/* the window opens at the senders' start, not at the late first read:
	 * 1000 / (4.5 s - 2 s), not 1000 / (4.5 s - 3.5 s) */
	EXPECT(row.msgs_per_s, 400);
	EXPECT(row.sent_msgs_per_s, 500);	/* 1000 / 2 */
	EXPECT_NAN(row.lost);
	EXPECT_NAN(row.duplicated);
	EXPECT_NAN(row.reordered);

	reliable_stream(990, 4500000000, &row);
	assert_false(row.ok);
	assert_string_equal(row.status, "lost: 990 of 1000 received");
	assert_string_equal(row.error, "the receiver got 990 of the 1000 messages the senders "
			    "sent, over tcp, which should lose none");
	EXPECT(row.messages, 990);
	EXPECT(row.msgs_per_s, 396);		/* 990 / 2.5 */
}

/* direction: bidir: the reverse stream counted at the clients, timed from
 * the earliest sender's start to their last read of it, and every message
 * the server sent back must have come; a one-way cell's rev_* are NaN. */
static void bidir_stream(uint64_t got_back, struct result_row *row)
{
	struct cell c = make_cell(PAT_STREAM, "tcp", 0);
	struct worker_result cl[2];
	struct cell_outcome o;

	c.p.direction = DIR_BIDIR;
	outcome_init(&o, cl, 2);
	for (unsigned i = 0; i < 2; i++) {
		cl[i].start_ns = 2000000000 + i * 1000000;
		cl[i].end_ns = 4000000000;
		cl[i].sent_messages = 500;
		cl[i].sent_bytes = 32000;
		cl[i].last_send_ns = 3900000000;
		cl[i].has_reverse = 1;
		cl[i].rev_messages = i ? got_back - 500 : 500;
		cl[i].rev_bytes = cl[i].rev_messages * 64;
		cl[i].rev_end_ns = i ? 6000000000 : 5000000000;
	}
	o.server.start_ns = 3500000000;
	o.server.end_ns = 4500000000;
	o.server.messages = 1000;
	o.server.bytes = 64000;
	o.server.sent_messages = 1000;
	aggregate_row(&c, 1, &o, STARTED, row);
}

static void test_stream_bidir_counts_the_reverse_at_the_clients(void **state)
{
	struct result_row row;

	(void)state;
	bidir_stream(1000, &row);
	assert_true(row.ok);
	EXPECT(row.messages, 1000);		/* forward: as one way */
	EXPECT(row.msgs_per_s, 400);
	EXPECT(row.rev_messages, 1000);
	EXPECT(row.rev_bytes, 64000);
	EXPECT(row.rev_msgs_per_s, 250);	/* 1000 / (6 s - 2 s) */
	EXPECT(row.rev_mib_per_s, 64000.0 / 1048576.0 / 4.0);
	bidir_stream(990, &row);
	assert_false(row.ok);
	assert_string_equal(row.status, "lost: 990 of 1000 received back");
	reliable_stream(1000, 4500000000, &row);	/* one way */
	EXPECT_NAN(row.rev_messages);
	EXPECT_NAN(row.rev_msgs_per_s);
}

/* A receiver that read its last message before the last send began would
 * be faster than its senders: a clock or a count is wrong, and the row
 * fails its check (but keeps its figures). */
static void test_stream_receiver_faster_than_senders_fails(void **state)
{
	struct result_row row;

	(void)state;
	reliable_stream(1000, 3800000000, &row);
	assert_false(row.ok);
	assert_string_equal(row.status, "check: receiver faster than its senders");
	assert_string_equal(row.error, "the receiver's last read ended 100000.000 µs before the "
			    "last send began, so its rate (555.556 msg/s) would exceed what the "
			    "senders could send: a clock or a count is wrong");
	EXPECT(row.msgs_per_s, 1000 / 1.8);
	/* the last read just after the last send began is right */
	reliable_stream(1000, 3900000001, &row);
	assert_true(row.ok);
}

/* nclients program clients of an echo cell of count 400 (shares of 400 /
 * nclients each) printed these figures. */
static void printed_by(unsigned nclients, const double *rate, const double *mean,
		       const double *p99, const double *max, struct result_row *row)
{
	struct cell c = make_cell(PAT_ECHO, "tcp", 0);
	struct worker_result cl[2];
	struct cell_outcome o;
	double printed[2 * PROGRAM_NFIGURES];

	c.p.count = 400;
	c.p.concurrency = nclients;
	c.p.size = c.p.response_size = 10;
	outcome_init(&o, cl, nclients);
	o.measured_by_process = 1;
	o.printed = printed;
	for (size_t i = 0; i < 2 * PROGRAM_NFIGURES; i++)
		printed[i] = NAN;
	for (unsigned i = 0; i < nclients; i++) {
		cl[i].start_ns = 1000000000;
		cl[i].end_ns = 2000000000;
		cl[i].messages = cl[i].sent_messages = 400 / nclients;
		printed[i * PROGRAM_NFIGURES + matrix_metric_index("msgs_per_s")] = rate[i];
		printed[i * PROGRAM_NFIGURES + matrix_metric_index("rtt_mean_us")] = mean[i];
		printed[i * PROGRAM_NFIGURES + matrix_metric_index("rtt_p99_us")] = p99[i];
		printed[i * PROGRAM_NFIGURES + matrix_metric_index("rtt_max_us")] = max[i];
	}
	aggregate_row(&c, 1, &o, STARTED, row);
}

/* What program clients print means what the built-in figures mean: the
 * rate of all messages over the longest client's window, the mean of all
 * samples, the largest maximum; several clients' percentiles make no
 * percentile of all their samples, so that column stays empty. */
static void test_printed_figures_combine_like_builtin_ones(void **state)
{
	const double rate[] = { 1000, 400 }, mean[] = { 10, 30 }, p99[] = { 50, 90 },
		     max[] = { 70, 200 };
	struct result_row row;

	(void)state;
	printed_by(2, rate, mean, p99, max, &row);
	assert_true(row.ok);
	assert_string_equal(row.measured_by, "printed");
	assert_string_equal(row.printed_metrics, "msgs_per_s;rtt_mean_us;rtt_p99_us;rtt_max_us");
	EXPECT(row.msgs_per_s, 800);	/* 400 messages / max(200/1000, 200/400) s */
	EXPECT(row.rtt_mean_us, 20);	/* (200 * 10 + 200 * 30) / 400 */
	EXPECT(row.rtt_max_us, 200);
	EXPECT_NAN(row.rtt_p99_us);	/* not the 70 an average would say */
	EXPECT_NAN(row.rtt_p50_us);	/* never printed */

	printed_by(1, rate, mean, p99, max, &row);
	assert_string_equal(row.measured_by, "printed");
	EXPECT(row.msgs_per_s, 1000);
	EXPECT(row.rtt_mean_us, 10);
	EXPECT(row.rtt_p99_us, 50);	/* one client's percentile stands */
	EXPECT(row.rtt_max_us, 70);
}

/* Each client's start after the release, and the spread; a list too long
 * for its field ends with one ";...". */
static void test_start_offsets(void **state)
{
	static struct worker_result cl[150];
	struct cell c = make_cell(PAT_PINGPONG, "tcp", 0);
	struct cell_outcome o;
	struct result_row row;

	(void)state;
	outcome_init(&o, cl, 3);
	o.release_ns = 1000000000;
	cl[0].start_ns = 1000012500;	/* 12.5 us after the release */
	cl[1].start_ns = 1000002000;
	cl[2].start_ns = 1000140250;
	aggregate_row(&c, 1, &o, STARTED, &row);
	assert_string_equal(row.start_offsets_us, "12.500;2.000;140.250");
	EXPECT(row.start_spread_us, 138.25);

	outcome_init(&o, cl, 150);
	o.release_ns = 1000000000;
	for (unsigned i = 0; i < 150; i++)
		cl[i].start_ns = 1000000000 + 1000000ull * i;	/* i ms: "1000.000" */
	aggregate_row(&c, 1, &o, STARTED, &row);
	size_t len = strlen(row.start_offsets_us);
	assert_true(len < sizeof(row.start_offsets_us));
	assert_string_equal(row.start_offsets_us + len - 4, ";...");
	assert_null(strstr(row.start_offsets_us, ";...;"));
	assert_int_equal(strstr(row.start_offsets_us, "...") - row.start_offsets_us, len - 3);
	EXPECT(row.start_spread_us, 149000);

	o.release_ns = 0;	/* never released: nothing to say */
	aggregate_row(&c, 1, &o, STARTED, &row);
	assert_string_equal(row.start_offsets_us, "");
	EXPECT_NAN(row.start_spread_us);
}

static void test_failed_outcome_has_no_figures(void **state)
{
	struct cell c = make_cell(PAT_PINGPONG, "tcp", 0);
	struct worker_result cl[1];
	struct cell_outcome o;
	struct result_row row;

	(void)state;
	outcome_init(&o, cl, 1);
	o.ok = 0;
	strcpy(o.status, "timeout");
	strcpy(o.error, "client 1 (pid 42) did not finish within 60 s");
	o.wall_s = 60.25;
	cl[0].start_ns = 1000000000;
	cl[0].end_ns = 2000000000;
	cl[0].messages = cl[0].sent_messages = 10;
	o.clients_ru.ru_utime.tv_sec = 3;
	aggregate_row(&c, 4, &o, STARTED, &row);
	assert_false(row.ok);
	assert_int_equal(row.rep, 4);
	assert_string_equal(row.status, "timeout");
	assert_string_equal(row.error, "client 1 (pid 42) did not finish within 60 s");
	assert_string_equal(row.started_at, STARTED);
	assert_string_equal(row.measured_by, "worker");
	EXPECT(row.wall_s, 60.25);
	const double fig[] = {
		row.elapsed_s, row.messages, row.bytes, row.msgs_per_s, row.mib_per_s,
		row.rtt_mean_us, row.rtt_min_us, row.rtt_p50_us, row.rtt_p90_us, row.rtt_p99_us,
		row.rtt_p999_us, row.rtt_max_us, row.rtt_samples, row.sent_messages,
		row.sent_msgs_per_s, row.sent_mib_per_s, row.client_cpu_s, row.server_cpu_s,
		row.cpu_us_per_msg, row.ctx_switches, row.max_rss_kib, row.sndbuf, row.rcvbuf,
		row.nodelay, row.lost, row.duplicated, row.reordered,
	};
	for (size_t i = 0; i < ARRAY_SIZE(fig); i++)
		if (!isnan(fig[i]))
			fail_msg("figure %zu of a failed row is %g, expected NaN", i, fig[i]);
}

/* hosts: a stream whose receiver is on another host (its clock 1000 s
 * ahead of the senders', or 1 s behind): no figure may subtract one
 * host's timestamp from the other's.  The senders: 1000 messages from
 * t = 2 s to 4 s (the last send begun at 3.9 s) on their clock. */
static void cross_host_stream(uint64_t recv_first, uint64_t recv_last, struct result_row *row)
{
	struct cell c = make_cell(PAT_STREAM, "tcp", 0);
	struct worker_result cl[2];
	struct cell_outcome o;

	outcome_init(&o, cl, 2);
	o.cross_host = 1;
	o.remote_clients = 1;
	o.release_ns = 1000000000;	/* the runner's clock */
	cl[0].start_ns = 2000000000;
	cl[1].start_ns = 2000250000;
	cl[0].end_ns = 4000000000;
	cl[1].end_ns = 3950000000;
	cl[0].sent_messages = cl[1].sent_messages = 500;
	cl[0].last_send_ns = 3900000000;
	o.server.start_ns = recv_first;
	o.server.end_ns = recv_last;
	o.server.messages = 1000;
	o.server.bytes = 64000;
	aggregate_row(&c, 1, &o, STARTED, row);
}

static void test_cross_host_stream_uses_same_host_windows(void **state)
{
	struct result_row row;

	(void)state;
	/* receiver 1003.5 s .. 1004.5 s: its 1 s window is shorter than the
	 * senders' 2 s, which is taken: 1000 / 2 (not 1000 / 1002.5) */
	cross_host_stream(1003500000000ull, 1004500000000ull, &row);
	assert_true(row.ok);
	EXPECT(row.elapsed_s, 2);
	EXPECT(row.msgs_per_s, 500);
	/* the clients' clock is not the runner's: no offsets from the
	 * release; their spread is one host's */
	assert_string_equal(row.start_offsets_us, "");
	EXPECT(row.start_spread_us, 250);
	/* receiver 1002.1 s .. 1004.6 s: its 2.5 s window is the longer */
	cross_host_stream(1002100000000ull, 1004600000000ull, &row);
	EXPECT(row.elapsed_s, 2.5);
	EXPECT(row.msgs_per_s, 400);
	/* a receiver clock 1 s behind: its last read (2.9 s) "before" the
	 * last send (3.9 s) is no check failure across two clocks */
	cross_host_stream(1500000000, 2900000000, &row);
	assert_true(row.ok);
	assert_string_equal(row.status, "ok");
	EXPECT(row.elapsed_s, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingpong_two_clients),
		cmocka_unit_test(test_totals_have_no_percentiles),
		cmocka_unit_test(test_pingpong_lost_requests),
		cmocka_unit_test(test_stream_lossy_counts_the_receiver),
		cmocka_unit_test(test_stream_reliable_must_deliver_all),
		cmocka_unit_test(test_stream_bidir_counts_the_reverse_at_the_clients),
		cmocka_unit_test(test_stream_receiver_faster_than_senders_fails),
		cmocka_unit_test(test_printed_figures_combine_like_builtin_ones),
		cmocka_unit_test(test_start_offsets),
		cmocka_unit_test(test_failed_outcome_has_no_figures),
		cmocka_unit_test(test_cross_host_stream_uses_same_host_windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
