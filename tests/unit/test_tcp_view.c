/*
 * Unit tests of the kernel's view of TCP connections (TCP_INFO): the wire
 * record's tcp lines (written and read back, hand-written ones, malformed
 * ones refused) and the row's tcp_* figures aggregate_row() makes of them:
 * which ends count (a stream's senders; both ends of a round trip), sums
 * and medians as the metric table says, and empty for other transports.
 * Every input figure is distinct, so a figure taken from the wrong end or
 * combined the wrong way shows.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "aggregate.h"
#include "arrays.h"
#include "transport.h"
#include "vocab.h"
#include "wire.h"
#include "unit.h"

static struct tcp_view view(int64_t retrans, int64_t rtt, int64_t rttvar, int64_t cwnd,
			    int64_t rate, int64_t bytes_retrans, int64_t mss)
{
	return (struct tcp_view){ { [TCPV_RETRANS] = retrans, [TCPV_RTT_US] = rtt,
				    [TCPV_RTTVAR_US] = rttvar, [TCPV_CWND] = cwnd,
				    [TCPV_DELIVERY_RATE] = rate,
				    [TCPV_BYTES_RETRANS] = bytes_retrans, [TCPV_MSS] = mss } };
}

static void read_all(int fd, struct worker_result *r)
{
	struct wire_reader rd;
	char *line, err[256];
	long n;

	wire_reader_init(&rd);
	while ((n = wire_reader_fill(&rd, fd)) > 0)
		while (wire_reader_next(&rd, &line) == 1) {
			if (wire_apply(r, line, err, sizeof(err)) < 0)
				fail_msg("%s", err);
			free(line);
		}
	assert_int_equal(n, 0);
	wire_reader_release(&rd);
}

/* A server's record with three connections' views goes out and comes back
 * field by field; an unknown field (-1) is left out and stays unknown. */
static void test_tcp_lines_round_trip(void **state)
{
	struct tcp_view tv[3] = {
		view(0, 11, 5, 10, 4000000000, 0, 65483),
		view(7, 1200, 300, 44, 123456789012, 9000, 1448),
		view(1, 2, 3, 4, 5, 6, -1),
	};
	struct worker_result out, in;
	int p[2];

	(void)state;
	worker_result_init(&out);
	out.role = ROLE_SERVER;
	out.messages = 3;
	out.tcp = tv;
	out.ntcp = 3;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(wire_write_result(p[1], &out), 0);
	close(p[1]);
	worker_result_init(&in);
	read_all(p[0], &in);
	close(p[0]);
	assert_true(in.ended);
	assert_int_equal(in.messages, 3);
	assert_int_equal(in.ntcp, 3);
	for (size_t i = 0; i < 3; i++)
		for (int k = 0; k < TCPV__COUNT; k++)
			assert_int_equal(in.tcp[i].v[k], tv[i].v[k]);
	worker_result_release(&in);
	assert_null(in.tcp);
	assert_int_equal(in.ntcp, 0);
}

/* Lines as a worker writes them, by hand: keys in any order, unknown keys
 * ignored, missing ones unknown; a value that is no count is refused. */
static void test_tcp_lines_by_hand(void **state)
{
	struct worker_result r;
	char err[256];

	(void)state;
	worker_result_init(&r);
	assert_int_equal(wire_apply(&r, "result role=client messages=1", err, sizeof(err)), 0);
	assert_int_equal(wire_apply(&r, "tcp mss=65483 rtt_us=17 retrans=2 cwnd=10 rttvar_us=8 "
				    "delivery_rate=31000000000 bytes_retrans=130966 pacing=9",
				    err, sizeof(err)), 0);
	assert_int_equal(wire_apply(&r, "tcp rtt_us=40", err, sizeof(err)), 0);
	assert_int_equal(wire_apply(&r, "tcp", err, sizeof(err)), 0);
	assert_int_equal(wire_apply(&r, "end", err, sizeof(err)), 0);
	assert_int_equal(r.ntcp, 3);
	assert_int_equal(r.tcp[0].v[TCPV_RETRANS], 2);
	assert_int_equal(r.tcp[0].v[TCPV_RTT_US], 17);
	assert_int_equal(r.tcp[0].v[TCPV_RTTVAR_US], 8);
	assert_int_equal(r.tcp[0].v[TCPV_CWND], 10);
	assert_int_equal(r.tcp[0].v[TCPV_DELIVERY_RATE], 31000000000);
	assert_int_equal(r.tcp[0].v[TCPV_BYTES_RETRANS], 130966);
	assert_int_equal(r.tcp[0].v[TCPV_MSS], 65483);
	assert_int_equal(r.tcp[1].v[TCPV_RTT_US], 40);
	assert_int_equal(r.tcp[1].v[TCPV_RETRANS], -1);
	for (int k = 0; k < TCPV__COUNT; k++)
		assert_int_equal(r.tcp[2].v[k], -1);
	const char *bad[] = { "tcp retrans=-1", "tcp rtt_us=12us", "tcp cwnd=",
			      "tcp mss=99999999999999999999", "tcp mss=9223372036854775808" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		assert_int_equal(wire_apply(&r, bad[i], err, sizeof(err)), -1);
		assert_non_null(strstr(err, "malformed report line"));
	}
	assert_int_equal(r.ntcp, 3);
	worker_result_release(&r);
}

static struct cell make_cell(enum pattern pat, const char *transport)
{
	struct cell c = { .number = 3 };

	c.p.pattern = pat;
	c.p.transport = transport_find(transport);
	assert_non_null(c.p.transport);
	return c;
}

/* An ok outcome of n clients, each with one message sent and received. */
static void outcome_init(struct cell_outcome *o, struct worker_result *cl, unsigned n)
{
	memset(o, 0, sizeof(*o));
	o->ok = 1;
	strcpy(o->status, "ok");
	worker_result_init(&o->server);
	for (unsigned i = 0; i < n; i++) {
		worker_result_init(&cl[i]);
		cl[i].start_ns = 1000;
		cl[i].end_ns = 2000;
		cl[i].messages = cl[i].sent_messages = 1;
	}
	o->clients = cl;
	o->nclients = n;
}

/* pingpong: both ends of each connection send, so all four ends count:
 * sums of retransmits, bytes and rates, medians (of an even number, the
 * mean of the middle two) of RTT, its variation, cwnd and MSS; a field
 * one end lacks is the others'. */
static void test_pingpong_takes_both_ends(void **state)
{
	struct cell c = make_cell(PAT_PINGPONG, "tcp");
	struct worker_result cl[2];
	struct tcp_view c1 = view(1, 10, 3, 10, 1000, 100, 65483),
			c2 = view(2, 30, 5, 20, 2000, 200, 65483),
			srv[2] = { view(4, 20, 4, 40, 4000, 400, 1448),
				   view(8, 70, 9, 80, 8000, 800, -1) };
	struct cell_outcome o;
	struct result_row row;

	(void)state;
	outcome_init(&o, cl, 2);
	cl[0].tcp = &c1, cl[0].ntcp = 1;
	cl[1].tcp = &c2, cl[1].ntcp = 1;
	o.server.tcp = srv, o.server.ntcp = 2;
	o.server.messages = 2;
	aggregate_row(&c, 1, &o, "2024-01-01T00:00:00Z", &row);
	assert_true(row.ok);
	EXPECT(row.tcp_retrans, 15);			/* 1 + 2 + 4 + 8 */
	EXPECT(row.tcp_rtt_us, 25);			/* 10 20 | 30 70: (20 + 30) / 2 */
	EXPECT(row.tcp_rttvar_us, 4.5);			/* 3 4 | 5 9 */
	EXPECT(row.tcp_cwnd, 30);			/* 10 20 | 40 80 */
	EXPECT(row.tcp_delivery_rate, 15000);		/* 1000 + 2000 + 4000 + 8000 */
	EXPECT(row.tcp_bytes_retrans, 1500);
	EXPECT(row.tcp_mss, 65483);			/* 1448 65483 65483: the middle one */
	EXPECT(aggregate_row_figure(&row, "tcp_cwnd"), 30);	/* a figure by name too */
}

/* stream: the senders' ends only (the clients'); the receiver's view of
 * its connections (it sends nothing but ACKs) is not taken. */
static void test_stream_takes_the_senders(void **state)
{
	struct cell c = make_cell(PAT_STREAM, "tcp6");
	struct worker_result cl[3];
	struct tcp_view s[3] = { view(5, 60, 6, 30, 300, 50, 65464),
				 view(0, 40, 2, 10, 100, 0, 65464),
				 view(1, 50, 4, 20, 200, 10, 65464) },
			rcv = view(1000, 1, 1, 1000, 1, 1000, 1);
	struct cell_outcome o;
	struct result_row row;

	(void)state;
	outcome_init(&o, cl, 3);
	for (int i = 0; i < 3; i++)
		cl[i].tcp = &s[i], cl[i].ntcp = 1;
	o.server.tcp = &rcv, o.server.ntcp = 1;
	o.server.messages = 3;
	o.server.start_ns = 1500;
	o.server.end_ns = 2500;
	aggregate_row(&c, 1, &o, "2024-01-01T00:00:00Z", &row);
	assert_true(row.ok);
	EXPECT(row.tcp_retrans, 6);		/* 5 + 0 + 1, not the receiver's 1000 */
	EXPECT(row.tcp_rtt_us, 50);		/* 40 50 60 */
	EXPECT(row.tcp_rttvar_us, 4);
	EXPECT(row.tcp_cwnd, 20);
	EXPECT(row.tcp_delivery_rate, 600);
	EXPECT(row.tcp_bytes_retrans, 60);
	EXPECT(row.tcp_mss, 65464);
}

/* Another transport (no tcp lines), a failed repetition and a kernel that
 * gave none of a field: empty (NaN), never 0. */
static void test_no_view_is_empty(void **state)
{
	struct cell c = make_cell(PAT_PINGPONG, "unix");
	struct worker_result cl[1];
	struct tcp_view none = view(-1, -1, -1, -1, -1, -1, -1);
	struct cell_outcome o;
	struct result_row row;

	(void)state;
	outcome_init(&o, cl, 1);
	aggregate_row(&c, 1, &o, "2024-01-01T00:00:00Z", &row);
	assert_true(row.ok);
	EXPECT_NAN(row.tcp_retrans);
	EXPECT_NAN(row.tcp_rtt_us);
	EXPECT_NAN(row.tcp_mss);
	c = make_cell(PAT_PINGPONG, "tcp");
	cl[0].tcp = &none, cl[0].ntcp = 1;
	aggregate_row(&c, 1, &o, "2024-01-01T00:00:00Z", &row);
	EXPECT_NAN(row.tcp_cwnd);
	EXPECT_NAN(row.tcp_delivery_rate);
	struct tcp_view v = view(3, 9, 9, 9, 9, 9, 9);
	cl[0].tcp = &v;
	o.ok = 0;
	strcpy(o.status, "timeout");
	aggregate_row(&c, 1, &o, "2024-01-01T00:00:00Z", &row);
	EXPECT_NAN(row.tcp_retrans);
}

/* The metric table says how each is combined and which way is better. */
static void test_metric_table_rules(void **state)
{
	static const struct { const char *name; enum combine how; enum better b; } want[] = {
		{ "tcp_retrans", COMBINE_SUM, LOWER_IS_BETTER },
		{ "tcp_rtt_us", COMBINE_MEDIAN, LOWER_IS_BETTER },
		{ "tcp_rttvar_us", COMBINE_MEDIAN, LOWER_IS_BETTER },
		{ "tcp_cwnd", COMBINE_MEDIAN, HIGHER_IS_BETTER },
		{ "tcp_delivery_rate", COMBINE_SUM, HIGHER_IS_BETTER },
		{ "tcp_bytes_retrans", COMBINE_SUM, LOWER_IS_BETTER },
		{ "tcp_mss", COMBINE_MEDIAN, HIGHER_IS_BETTER },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		int m = matrix_metric_index(want[i].name);
		assert_true(m >= 0);
		assert_int_equal(metrics[m].combine, want[i].how);
		assert_int_equal(metrics[m].better, want[i].b);
		char key[64];
		snprintf(key, sizeof(key), "tcp_%s", wire_tcp_keys[i]);
		assert_string_equal(key, want[i].name);	/* the wire's keys, in order */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp_lines_round_trip),
		cmocka_unit_test(test_tcp_lines_by_hand),
		cmocka_unit_test(test_pingpong_takes_both_ends),
		cmocka_unit_test(test_stream_takes_the_senders),
		cmocka_unit_test(test_no_view_is_empty),
		cmocka_unit_test(test_metric_table_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
