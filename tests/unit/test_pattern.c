/*
 * Unit tests for base/pattern.c, the pattern table, and the worker side's
 * registry (workers/pattern_ops.c): every pattern has an entry and ops,
 * the names round-trip with vocab.h's, and the table says what the code
 * that reads it relies on (what comes back, who times it, which file and
 * which metrics, what a transport must give).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pattern.h"
#include "pattern_ops.h"
#include "transport.h"
#include "vocab.h"

static void test_names_round_trip(void **state)
{
	(void)state;
	for (int p = 0; p < PAT__COUNT; p++) {
		const struct pattern_info *pi = pattern_info((enum pattern)p);
		assert_int_equal(pi->id, p);
		assert_string_equal(pi->name, pattern_names[p]);
		assert_ptr_equal(pattern_find(pattern_names[p]), pi);
	}
	assert_null(pattern_find("ping"));
	assert_null(pattern_find(""));
	assert_null(pattern_find("Stream"));
	assert_string_equal(pattern_info(PATTERN_DEFAULT)->name, "pingpong");
}

static void test_every_pattern_has_ops(void **state)
{
	(void)state;
	for (int p = 0; p < PAT__COUNT; p++) {
		const struct pattern_ops *ops = pattern_ops_of((enum pattern)p);
		assert_non_null(ops);
		assert_int_equal(ops->pattern, p);
		assert_true(ops->serve && ops->warmup && ops->drive && ops->result && ops->client_line);
		/* a receiver that times the window says its rate by hand */
		assert_int_equal(ops->server_line != NULL, pattern_info((enum pattern)p)->receiver_times);
	}
	/* echo checks every reply; pingpong's are the server's own bytes */
	assert_true(pattern_ops_of(pattern_find("echo")->id)->check_reply != NULL);
	assert_true(pattern_ops_of(pattern_find("pingpong")->id)->check_reply == NULL);
	assert_true(pattern_ops_of(pattern_find("stream")->id)->check_reply == NULL);
	assert_true(pattern_ops_of(pattern_find("pipeline")->id)->check_reply ==
		    pattern_ops_of(pattern_find("echo")->id)->check_reply);
}

/* The flags as the code reads them: one way means no reply, no round
 * trips, the receiver's timeline; else replies, and a window (inflight)
 * with each client's histogram of round trips, or none (pipeline: its
 * writer never waits, so no round trip is timed and the connection must
 * take a writer and a reader at once). */
static void test_flags_agree(void **state)
{
	(void)state;
	for (int p = 0; p < PAT__COUNT; p++) {
		const struct pattern_info *pi = pattern_info((enum pattern)p);
		unsigned duplex = !pi->one_way && !pi->windowed ? PATTERN_NEEDS_DUPLEX : 0;
		assert_int_equal(pi->one_way, pi->reply == PATTERN_REPLY_NONE);
		assert_int_equal(pi->needs, pi->one_way ? PATTERN_NEEDS_ONE_WAY
				 : PATTERN_NEEDS_REPLIES | duplex);
		assert_int_equal(pi->files, pi->receiver_times ? PATTERN_FILE_TIMELINE
				 : pi->windowed ? PATTERN_FILE_HIST : 0);
		assert_string_equal(pi->timer, pi->receiver_times ? "receiver" : "client");
		assert_string_equal(pi->sent, pi->one_way ? "messages" : "requests");
		assert_true(matrix_metric_index(pi->rate_metric) >= 0);
		size_t n = 0, rtt = 0;
		for (; pi->table_metrics[n]; n++) {
			assert_true(n < MATRIX_NMETRICS);
			assert_true(matrix_metric_index(pi->table_metrics[n]) >= 0);
			rtt += !strncmp(pi->table_metrics[n], "rtt_", 4);
		}
		assert_true(n > 0);
		/* round trips are what the clients time: no rtt_ column otherwise */
		assert_int_equal(rtt > 0, (pi->files & PATTERN_FILE_HIST) != 0);
	}
}

static void test_each_pattern(void **state)
{
	const struct pattern_info *pp = pattern_find("pingpong"), *ec = pattern_find("echo");
	const struct pattern_info *st = pattern_find("stream");

	(void)state;
	assert_int_equal(pp->reply, PATTERN_REPLY_SIZED);
	assert_false(pp->one_way);
	assert_false(pp->receiver_times);
	assert_string_equal(pp->rate_metric, "msgs_per_s");
	assert_string_equal(pp->table_metrics[0], "msgs_per_s");
	assert_string_equal(pp->table_metrics[1], "mib_per_s");	/* sizes vary: bytes too */
	assert_string_equal(pp->table_metrics[5], "cpu_us_per_rtt");
	assert_null(pp->table_metrics[6]);

	assert_int_equal(ec->reply, PATTERN_REPLY_REQUEST);
	assert_false(ec->one_way);
	assert_false(ec->receiver_times);
	assert_string_equal(ec->rate_metric, "msgs_per_s");

	assert_int_equal(st->reply, PATTERN_REPLY_NONE);
	assert_true(st->one_way);
	assert_true(st->receiver_times);
	assert_string_equal(st->rate_metric, "sent_msgs_per_s");
	assert_string_equal(st->table_metrics[1], "mib_per_s");
	assert_string_equal(st->table_metrics[2], "sent_msgs_per_s");
	assert_string_equal(st->table_metrics[3], "cpu_us_per_msg");
	assert_null(st->table_metrics[4]);

	/* the answer's bytes: the request's (echo), response_size, none */
	assert_int_equal(pattern_reply_size(ec, 10, 20), 10);
	assert_int_equal(pattern_reply_size(pp, 10, 20), 20);
	assert_int_equal(pattern_reply_size(st, 10, 20), 0);

	const struct pattern_info *pl = pattern_find("pipeline");
	assert_int_equal(pl->reply, PATTERN_REPLY_REQUEST);
	assert_false(pl->one_way || pl->receiver_times || pl->windowed);
	assert_string_equal(pl->rate_metric, "msgs_per_s");
	assert_int_equal(pl->files, 0);
	assert_true(pattern_named_untimed("pipeline") && pattern_named_untimed("stream"));
	assert_false(pattern_named_untimed("echo") || pattern_named_untimed("nonesuch"));
	char names[64];
	pattern_list_windowed(names, sizeof(names));
	assert_string_equal(names, "pingpong and echo");
}

/* A transport says what it cannot give: every one does pingpong, echo and
 * stream; pipeline all but udp (a lost echo would be waited for), zmq
 * (no descriptor; a socket is one thread's) and shm (no descriptor). */
static void test_transport_does(void **state)
{
	struct transport one_way_only = { .name = "fake", .cannot = PATTERN_NEEDS_REPLIES };
	struct transport replies_only = { .name = "fake", .cannot = PATTERN_NEEDS_ONE_WAY };

	(void)state;
	for (size_t i = 0; i < transport_count(); i++)
		for (int p = 0; p < PAT__COUNT; p++) {
			const char *n = transport_at(i)->name;
			int no = p == (int)pattern_find("pipeline")->id &&
				 (!strcmp(n, "udp") || !strcmp(n, "zmq") || !strcmp(n, "shm") ||
				  !strcmp(n, "mq"));
			assert_int_equal(transport_does(transport_at(i), (enum pattern)p), !no);
		}
	for (int p = 0; p < PAT__COUNT; p++) {
		int one_way = pattern_info((enum pattern)p)->one_way;
		assert_int_equal(transport_does(&one_way_only, (enum pattern)p), one_way);
		assert_int_equal(transport_does(&replies_only, (enum pattern)p), !one_way);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_round_trip),
		cmocka_unit_test(test_every_pattern_has_ops),
		cmocka_unit_test(test_flags_agree),
		cmocka_unit_test(test_each_pattern),
		cmocka_unit_test(test_transport_does),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
