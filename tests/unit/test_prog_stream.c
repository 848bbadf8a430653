/*
 * Unit tests for programs in stream cells: a program receiver's and
 * program senders' figures (cell/aggregate.c, cell/program.c), made
 * from hand-made records, with every expected figure worked out beside it.
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
#include "program.h"
#include "transport.h"
#include "unit.h"

#define STARTED "2024-05-06T07:08:09Z"

static struct program_result recv_figs[] = {
	{ .metric = PROGRAM_MESSAGES, .regex = "received ([0-9]+)", .scale = 1 },
	{ .metric = PROGRAM_SECONDS, .regex = "in ([0-9.]+) ms", .scale = 1e-3 },
};
static struct program receiver = {
	.name = "recv", .ready = "listening", .server_results = recv_figs, .nserver_results = 2,
};
static struct program silent_receiver = { .name = "quiet" };
static struct program_result send_figs[] = {
	{ .metric = PROGRAM_MESSAGES, .regex = "sent ([0-9]+)", .scale = 1 },
	{ .metric = PROGRAM_SECONDS, .regex = "in ([0-9.]+) s", .scale = 1 },
};
static struct program sender = { .name = "send", .results = send_figs, .nresults = 2 };

/* A stream cell of 1000 messages of 100 bytes from 2 senders (500 each). */
static struct cell stream_cell(const struct program *srv, const struct program *cli)
{
	struct cell c = { .number = 3 };

	c.p.pattern = PAT_STREAM;
	c.p.transport = transport_find("tcp");
	c.p.count = 1000;
	c.p.size = 100;
	c.p.concurrency = 2;
	c.p.server_prog = srv;
	c.p.client_prog = cli;
	return c;
}

/* An ok outcome: 2 senders that each sent 500 messages from t = 1 s to
 * 2 s, nothing printed yet. */
static void outcome(struct cell_outcome *o, struct worker_result *cl, double *printed)
{
	memset(o, 0, sizeof(*o));
	o->ok = 1;
	strcpy(o->status, "ok");
	worker_result_init(&o->server);
	for (unsigned i = 0; i < 2; i++) {
		worker_result_init(&cl[i]);
		cl[i].start_ns = 1000000000;
		cl[i].end_ns = 2000000000;
		cl[i].messages = cl[i].sent_messages = 500;
		cl[i].sent_bytes = 50000;
	}
	o->clients = cl;
	o->nclients = 2;
	o->printed = printed;
	for (size_t i = 0; i < 2 * PROGRAM_NFIGURES; i++)
		printed[i] = NAN;
	for (size_t i = 0; i < PROGRAM_NFIGURES; i++)
		o->server_printed[i] = NAN;
}

/* The receiver printed its count and time: the row's rates are those. */
static void test_receiver_printed(void **state)
{
	struct cell c = stream_cell(&receiver, NULL);
	struct worker_result cl[2];
	double printed[2 * PROGRAM_NFIGURES];
	struct cell_outcome o;
	struct result_row row;
	const char *found[] = { "1000", "500" };	/* "received 1000 in 500 ms" */
	char err[256];

	(void)state;
	outcome(&o, cl, printed);
	assert_int_equal(program_server_printed(&receiver, found, o.server_printed, err,
						sizeof(err)), 0);
	EXPECT(o.server_printed[PROGRAM_SECONDS], 0.5);
	/* spawned its first sender at 0.9 s, stopped by us: no exit time */
	program_server_figures(&c.p, 900000000, 0, &(struct rusage){ 0 }, o.server_printed,
			       &o.server);
	aggregate_row(&c, 1, &o, STARTED, &row);
	assert_true(row.ok);
	EXPECT(row.messages, 1000);
	EXPECT(row.bytes, 100000);
	EXPECT(row.elapsed_s, 0.5);
	EXPECT(row.msgs_per_s, 2000);			/* 1000 / 0.5 s */
	EXPECT(row.mib_per_s, 100000 / 1048576.0 / 0.5);
	EXPECT(row.sent_msgs_per_s, 1000);		/* 1000 in 1 s: the senders' own */
	assert_string_equal(row.measured_by, "receiver=printed;senders=worker");
	assert_string_equal(row.printed_metrics, "msgs_per_s;mib_per_s");

	/* a count short of what was sent fails the delivery check */
	found[0] = "990";
	program_server_printed(&receiver, found, o.server_printed, err, sizeof(err));
	program_server_figures(&c.p, 900000000, 0, &(struct rusage){ 0 }, o.server_printed,
			       &o.server);
	aggregate_row(&c, 1, &o, STARTED, &row);
	assert_false(row.ok);
	assert_string_equal(row.status, "lost: 990 of 1000 received");
	EXPECT(row.msgs_per_s, 1980);

	/* nothing printed for a regex: no result */
	found[1] = NULL;
	assert_int_equal(program_server_printed(&receiver, found, o.server_printed, err,
						sizeof(err)), -1);
	assert_string_equal(err, "printed nothing that matches the seconds regex 'in ([0-9.]+) ms'");
}

/* A receiver that prints nothing is timed whole-process, from its first
 * sender's spawn to its exit; its count is what the senders sent (it
 * exited 0 saying it had it all), so nothing is left to check. */
static void test_receiver_whole_process(void **state)
{
	struct cell c = stream_cell(&silent_receiver, &sender);
	struct worker_result cl[2];
	double printed[2 * PROGRAM_NFIGURES];
	struct cell_outcome o;
	struct result_row row;

	(void)state;
	outcome(&o, cl, printed);
	o.measured_by_process = 1;
	program_server_figures(&c.p, 1000000000, 5000000000, &(struct rusage){ 0 },
			       o.server_printed, &o.server);
	cl[1].sent_messages = 499;	/* the senders said they sent 999 */
	aggregate_row(&c, 1, &o, STARTED, &row);
	assert_true(row.ok);
	EXPECT(row.messages, 999);
	EXPECT(row.elapsed_s, 4);			/* 1 s to 5 s */
	EXPECT(row.msgs_per_s, 999 / 4.0);
	assert_string_equal(row.measured_by, "receiver=process;senders=process");
	assert_string_equal(row.printed_metrics, "");
	assert_false(program_times_itself(&silent_receiver));
	assert_true(program_times_itself(&receiver));
	/* a rate times it too (it is stopped once it printed it); a count
	 * alone does not (it must exit by itself) */
	struct program_result fig = { .regex = "([0-9.]+)", .scale = 1 };
	struct program one = { .name = "one", .server_results = &fig, .nserver_results = 1 };
	const char *const timed[] = { "msgs_per_s", "mib_per_s" };
	for (size_t i = 0; i < 2; i++) {
		fig.metric = matrix_metric_index(timed[i]);
		assert_true(program_times_itself(&one));
	}
	fig.metric = PROGRAM_MESSAGES;
	assert_false(program_times_itself(&one));
}

/* Senders' messages and seconds make their sent_msgs_per_s (msgs_per_s
 * in a pingpong cell); the count they print is what they sent. */
static void test_senders_printed(void **state)
{
	struct cell c = stream_cell(NULL, &sender);
	struct worker_result cl[2];
	double printed[2 * PROGRAM_NFIGURES];
	struct cell_outcome o;
	struct result_row row;
	const char *found1[] = { "500", "0.25" }, *found2[] = { "500", "0.5" };
	int sent = matrix_metric_index("sent_msgs_per_s"), rate = matrix_metric_index("msgs_per_s");
	char err[256];

	(void)state;
	outcome(&o, cl, printed);
	o.measured_by_process = 1;
	assert_int_equal(program_client_printed(&c.p, &sender, found1, printed, err, sizeof(err)), 0);
	assert_int_equal(program_client_printed(&c.p, &sender, found2, printed + PROGRAM_NFIGURES,
						err, sizeof(err)), 0);
	EXPECT(printed[sent], 2000);			/* 500 in 0.25 s */
	EXPECT_NAN(printed[rate]);
	for (unsigned i = 0; i < 2; i++)
		program_client_figures(&c.p, i + 1, 1000000000, 3000000000, &(struct rusage){ 0 },
				       printed + i * PROGRAM_NFIGURES, &cl[i]);
	o.server.messages = 1000;	/* our receiver got them all */
	o.server.bytes = 100000;
	o.server.end_ns = 2000000000;
	aggregate_row(&c, 1, &o, STARTED, &row);
	assert_true(row.ok);
	EXPECT(row.sent_msgs_per_s, 2000);		/* 1000 over the longest, 0.5 s */
	EXPECT(row.msgs_per_s, 1000);			/* ours: from 1 s (spawn) to 2 s */
	assert_string_equal(row.measured_by, "receiver=worker;senders=printed");
	assert_string_equal(row.printed_metrics, "sent_msgs_per_s");

	c.p.pattern = PAT_PINGPONG;
	printed[sent] = NAN;
	program_client_printed(&c.p, &sender, found1, printed, err, sizeof(err));
	EXPECT(printed[rate], 2000);
	EXPECT_NAN(printed[sent]);
}

/* The regexes a program's output is watched for: a server's ready: first,
 * its figures in stream cells only; a client's figures. */
static void test_watch(void **state)
{
	struct cell c = stream_cell(&receiver, &sender);
	const char *re[16];
	size_t first = 99;

	(void)state;
	assert_int_equal(program_watch(&c.p, 1, re, 16, &first), 3);
	assert_int_equal(first, 1);
	assert_string_equal(re[0], "listening");
	assert_string_equal(re[2], "in ([0-9.]+) ms");
	assert_int_equal(program_watch(&c.p, 0, re, 16, &first), 2);
	assert_int_equal(first, 0);
	assert_string_equal(re[0], "sent ([0-9]+)");
	c.p.pattern = PAT_ECHO;
	assert_int_equal(program_watch(&c.p, 1, re, 16, &first), 1);
	/* no warmup messages in a stream cell with a program on either side */
	assert_int_equal(program_cell_warmup(&c.p, 100), 100);
	c.p.pattern = PAT_STREAM;
	assert_int_equal(program_cell_warmup(&c.p, 100), 0);
	c.p.server_prog = c.p.client_prog = NULL;
	assert_int_equal(program_cell_warmup(&c.p, 100), 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_receiver_printed),
		cmocka_unit_test(test_receiver_whole_process),
		cmocka_unit_test(test_senders_printed),
		cmocka_unit_test(test_watch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
