/*
 * Unit tests for workers/wire.c: escaping, a result record written by the
 * worker side and read back by the runner side through a real pipe (every
 * field it carries), and a hand-written record decoded line by line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "wire.h"
#include "arrays.h"

static void test_escape_round_trip(void **state)
{
	const char *in[] = { "", "plain", "a b=c%d", "line\nbreak\ttab", "\xc3\xa9t\xc3\xa9",
			     "connect 127.0.0.1:1: Connection refused" };
	char esc[512], back[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(in); i++) {
		wire_escape(in[i], esc, sizeof(esc));
		assert_null(strpbrk(esc, " =\n\t"));
		wire_unescape(esc, back, sizeof(back));
		assert_string_equal(back, in[i]);
	}
	wire_escape("a b", esc, sizeof(esc));
	assert_string_equal(esc, "a%20b");
}

/* Reads every line from fd into r. */
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
	assert_int_equal(rd.len, 0);
	wire_reader_release(&rd);
}

static void test_record_round_trip(void **state)
{
	struct worker_result out, in;
	struct hist *h = malloc(sizeof(*h));
	uint64_t tm[3] = { 5, 0, 7 }, tb[3] = { 500, 0, 700 }, tc[3] = { 40, 0, 90 };
	int p[2];

	(void)state;
	assert_non_null(h);
	hist_init(h);
	for (uint64_t v = 1; v < 5000000; v = v * 3 + 1)
		hist_record(h, v);
	hist_record(h, 1ull << 41);	/* overflow */
	worker_result_init(&out);
	out.role = ROLE_SERVER;
	out.messages = 12;
	out.bytes = 1200;
	out.sent_messages = 3;
	out.sent_bytes = 300;
	out.start_ns = 1000;
	out.end_ns = 999999999999ull;
	out.cpu_ns = 77;
	out.mismatches = 5;
	out.last_send_ns = 11;
	out.t0_ns = 18446744073709551615ull;	/* the largest value survives */
	out.lost = 4;
	out.zc_sends = 300;
	out.zc_completions = 12;
	out.zc_copied = 11;
	out.duplicated = 6;
	out.reordered = 8;
	out.sndbuf = 212992;
	out.rcvbuf = 4096;
	out.nodelay = 1;
	out.hist = h;
	out.tl_messages = tm;
	out.tl_bytes = tb;
	out.tl_len = 3;
	out.tl_cpu_ns = tc;
	out.tl_has_cpu = 1;
	out.has_reverse = 1;
	out.rev_messages = 41;
	out.rev_bytes = 4100;
	out.rev_end_ns = 123456789;

	assert_int_equal(pipe(p), 0);
	assert_int_equal(wire_write_hello(p[1], ROLE_SERVER), 0);
	assert_int_equal(wire_write_listen(p[1], "/tmp/a dir/s.sock"), 0);
	assert_int_equal(wire_write_result(p[1], &out), 0);
	close(p[1]);
	worker_result_init(&in);
	read_all(p[0], &in);
	close(p[0]);

	assert_int_equal(in.version, WIRE_VERSION);
	assert_int_equal(in.role, ROLE_SERVER);
	assert_int_equal(in.pid, getpid());
	assert_string_equal(in.address, "/tmp/a dir/s.sock");
	assert_true(in.has_result);
	assert_true(in.ended);
	assert_int_equal(in.messages, 12);
	assert_int_equal(in.bytes, 1200);
	assert_int_equal(in.sent_messages, 3);
	assert_int_equal(in.sent_bytes, 300);
	assert_int_equal(in.start_ns, 1000);
	assert_int_equal(in.end_ns, 999999999999ull);
	assert_int_equal(in.cpu_ns, 77);
	assert_int_equal(in.mismatches, 5);
	assert_int_equal(in.last_send_ns, 11);
	assert_int_equal(in.t0_ns, 18446744073709551615ull);
	assert_int_equal(in.lost, 4);
	assert_int_equal(in.zc_sends, 300);
	assert_int_equal(in.zc_completions, 12);
	assert_int_equal(in.zc_copied, 11);
	assert_int_equal(in.duplicated, 6);
	assert_int_equal(in.reordered, 8);
	assert_int_equal(in.sndbuf, 212992);
	assert_int_equal(in.rcvbuf, 4096);
	assert_int_equal(in.nodelay, 1);
	assert_non_null(in.hist);
	assert_int_equal(in.hist->count, h->count);
	assert_int_equal(in.hist->overflow, 1);
	assert_int_equal(in.hist->min, h->min);
	assert_int_equal(in.hist->max, h->max);
	assert_memory_equal(in.hist->buckets, h->buckets, sizeof(h->buckets));
	assert_int_equal(hist_percentile(in.hist, 0.5), hist_percentile(h, 0.5));
	assert_true(in.hist->sum == h->sum);
	assert_int_equal(in.tl_len, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(in.tl_messages[i], tm[i]);
		assert_int_equal(in.tl_bytes[i], tb[i]);
		assert_int_equal(in.tl_cpu_ns[i], tc[i]);
	}
	assert_true(in.tl_has_cpu);
	assert_true(in.has_reverse);
	assert_int_equal(in.rev_messages, 41);
	assert_int_equal(in.rev_bytes, 4100);
	assert_int_equal(in.rev_end_ns, 123456789);
	assert_string_equal(in.error, "");
	worker_result_release(&in);
	free(h);
}

/* record: totals: a histogram of totals only goes out as its hist line
 * alone (totals=1, no buckets) and reads back whole, where a full one
 * with the same count and no buckets would not add up; a buckets line
 * after a totals one is malformed. */
static void test_totals_record_round_trip(void **state)
{
	struct worker_result out, in;
	struct hist h;
	char err[256];
	int p[2];

	(void)state;
	hist_init(&h);
	h.totals = 1;
	for (uint64_t v = 1000; v <= 5000; v += 1000)
		hist_record_totals(&h, v);
	assert_int_equal(h.buckets[hist_index(1000)], 0);
	worker_result_init(&out);
	out.role = ROLE_CLIENT;
	out.messages = 5;
	out.hist = &h;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(wire_write_hello(p[1], ROLE_CLIENT), 0);
	assert_int_equal(wire_write_result(p[1], &out), 0);
	close(p[1]);
	worker_result_init(&in);
	read_all(p[0], &in);
	close(p[0]);
	assert_true(in.ended);
	assert_non_null(in.hist);
	assert_true(in.hist->totals);
	assert_int_equal(in.hist->count, 5);
	assert_int_equal(in.hist->min, 1000);
	assert_int_equal(in.hist->max, 5000);
	assert_true(in.hist->sum == 15000);
	worker_result_release(&in);

	worker_result_init(&in);
	assert_int_equal(wire_apply(&in, "hist count=2 overflow=0 min=1 max=2 sum=3 totals=1",
				    err, sizeof(err)), 0);
	assert_int_equal(wire_apply(&in, "buckets 1:1,2:1", err, sizeof(err)), -1);
	worker_result_release(&in);
}

/* A record as a worker writes it, by hand, decoded line by line. */
static void test_decode_hand_written_record(void **state)
{
	static const char *const lines[] = {
		"hello version=1 role=client pid=4242",
		"ready",
		"result role=client messages=500000 bytes=10000000 sent_messages=500001"
		" sent_bytes=10000020 start_ns=100 end_ns=2000000100 cpu_ns=1500000000"
		" mismatches=2 last_send_ns=499990 t0_ns=50 lost=1 duplicated=3 reordered=9"
		" sndbuf=212992 rcvbuf=425984 nodelay=0 future_key=7",
		"hist count=3 overflow=0 min=9000 max=1532009 sum=1550129",
		"buckets 908:1,910:1",
		"buckets 1851:1",
		"timeline index=0 messages=5 bytes=500",
		"timeline index=1 messages=7 bytes=700",
		"gossip from=the-future",
		"end",
	};
	struct worker_result r;
	char err[256];

	(void)state;
	worker_result_init(&r);
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		if (wire_apply(&r, lines[i], err, sizeof(err)) < 0)
			fail_msg("line %zu: %s", i + 1, err);
	assert_int_equal(r.version, 1);
	assert_int_equal(r.role, ROLE_CLIENT);
	assert_int_equal(r.pid, 4242);
	assert_true(r.ready);
	assert_true(r.has_result);
	assert_true(r.ended);
	assert_int_equal(r.messages, 500000);
	assert_int_equal(r.bytes, 10000000);
	assert_int_equal(r.sent_messages, 500001);
	assert_int_equal(r.sent_bytes, 10000020);
	assert_int_equal(r.start_ns, 100);
	assert_int_equal(r.end_ns, 2000000100);
	assert_int_equal(r.cpu_ns, 1500000000);
	assert_int_equal(r.mismatches, 2);
	assert_int_equal(r.last_send_ns, 499990);
	assert_int_equal(r.t0_ns, 50);
	assert_int_equal(r.lost, 1);
	assert_int_equal(r.duplicated, 3);
	assert_int_equal(r.reordered, 9);
	assert_int_equal(r.sndbuf, 212992);
	assert_int_equal(r.rcvbuf, 425984);
	assert_int_equal(r.nodelay, 0);
	assert_non_null(r.hist);
	assert_int_equal(r.hist->count, 3);
	assert_int_equal(r.hist->overflow, 0);
	assert_int_equal(r.hist->min, 9000);
	assert_int_equal(r.hist->max, 1532009);
	assert_true(r.hist->sum == 1550129);
	/* 9000, 9120 and 1532009 ns: buckets [8960, 9023], [9088, 9151], [1531904, 1540095] */
	assert_int_equal(r.hist->buckets[908], 1);
	assert_int_equal(r.hist->buckets[910], 1);
	assert_int_equal(r.hist->buckets[1851], 1);
	assert_int_equal(hist_percentile(r.hist, 0.5), 9119);
	assert_int_equal(r.tl_len, 2);
	assert_false(r.tl_has_cpu);	/* an older worker's lines: no CPU figures */
	assert_false(r.has_reverse);
	assert_int_equal(r.tl_messages[0], 5);
	assert_int_equal(r.tl_bytes[0], 500);
	assert_int_equal(r.tl_messages[1], 7);
	assert_int_equal(r.tl_bytes[1], 700);
	assert_string_equal(r.error, "");
	worker_result_release(&r);

	/* an error line, its message percent-encoded; then one with no keys */
	worker_result_init(&r);
	assert_int_equal(wire_apply(&r, "error stage=recv message=recv%20127.0.0.1:9%3A%20"
				    "Connection%20refused%0Aagain%25", err, sizeof(err)), 0);
	assert_string_equal(r.error_stage, "recv");
	assert_string_equal(r.error, "recv 127.0.0.1:9: Connection refused\nagain%");
	assert_false(r.has_result);
	assert_int_equal(wire_apply(&r, "error", err, sizeof(err)), 0);
	assert_string_equal(r.error_stage, "worker");
	assert_string_equal(r.error, "unknown error");
	worker_result_release(&r);
}

static void test_errors_and_versions(void **state)
{
	struct worker_result r;
	char err[256];
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(wire_write_error(p[1], "connect", "connect x: Connection refused"), 0);
	close(p[1]);
	worker_result_init(&r);
	read_all(p[0], &r);
	close(p[0]);
	assert_string_equal(r.error_stage, "connect");
	assert_string_equal(r.error, "connect x: Connection refused");
	assert_false(r.ended);

	assert_int_equal(wire_apply(&r, "hello version=99 role=client pid=1", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "wire version 99"));
	assert_int_equal(wire_apply(&r, "result messages=-1", err, sizeof(err)), -1);
	assert_int_equal(wire_apply(&r, "timeline index=5 messages=1 bytes=1", err, sizeof(err)), -1);
	assert_int_equal(wire_apply(&r, "buckets 999999:1", err, sizeof(err)), -1);
	/* a newer worker's lines and keys are ignored */
	assert_int_equal(wire_apply(&r, "gossip x=1", err, sizeof(err)), 0);
	assert_int_equal(wire_apply(&r, "result messages=4 future_key=9", err, sizeof(err)), 0);
	assert_int_equal(r.messages, 4);
	worker_result_release(&r);
}

/* A histogram must hold every sample it counts: a record whose buckets
 * and overflow do not add up to its count is refused at its end. */
static void test_histogram_must_add_up(void **state)
{
	static const char *const counts[] = {
		"hist count=3 overflow=0 min=9000 max=1532009 sum=1550129",	/* 2 in buckets */
		"hist count=1 overflow=0 min=9000 max=9000 sum=9000",		/* 3 in buckets */
		"hist count=3 overflow=1 min=9000 max=1532009 sum=1550129",	/* 2 + 1 = 3: ok */
	};
	struct worker_result r;
	char err[256];

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		worker_result_init(&r);
		assert_int_equal(wire_apply(&r, counts[i], err, sizeof(err)), 0);
		assert_int_equal(wire_apply(&r, i == 1 ? "buckets 908:2,910:1" : "buckets 908:1,910:1",
					    err, sizeof(err)), 0);
		int rc = wire_apply(&r, "end", err, sizeof(err));
		if (i == 2) {
			assert_int_equal(rc, 0);
			assert_true(r.ended);
		} else {
			assert_int_equal(rc, -1);
			assert_false(r.ended);
			assert_string_equal(err, i == 0
				? "malformed histogram: its buckets hold 2 samples and 0 overflowed, "
				  "but it counts 3"
				: "malformed histogram: its buckets hold 3 samples and 0 overflowed, "
				  "but it counts 1");
		}
		worker_result_release(&r);
	}
	/* counts that wrap around 2^64 to the claimed count do not add up */
	worker_result_init(&r);
	assert_int_equal(wire_apply(&r, "hist count=1 overflow=0 min=9000 max=9000 sum=9000",
				    err, sizeof(err)), 0);
	assert_int_equal(wire_apply(&r, "buckets 908:18446744073709551615,910:2", err, sizeof(err)),
			 0);
	assert_int_equal(wire_apply(&r, "end", err, sizeof(err)), -1);
	assert_false(r.ended);
	worker_result_release(&r);
}

static void test_reader_splits_partial_lines(void **state)
{
	struct wire_reader rd;
	char *line;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	wire_reader_init(&rd);
	assert_int_equal(write(p[1], "rea", 3), 3);
	assert_int_equal(wire_reader_fill(&rd, p[0]), 3);
	assert_int_equal(wire_reader_next(&rd, &line), 0);
	assert_int_equal(write(p[1], "dy\nend\nhal", 10), 10);
	assert_int_equal(wire_reader_fill(&rd, p[0]), 10);
	assert_int_equal(wire_reader_next(&rd, &line), 1);
	assert_string_equal(line, "ready");
	free(line);
	assert_int_equal(wire_reader_next(&rd, &line), 1);
	assert_string_equal(line, "end");
	free(line);
	assert_int_equal(wire_reader_next(&rd, &line), 0);
	assert_int_equal(rd.len, 3);
	close(p[0]);
	close(p[1]);
	wire_reader_release(&rd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_round_trip),
		cmocka_unit_test(test_record_round_trip),
		cmocka_unit_test(test_totals_record_round_trip),
		cmocka_unit_test(test_decode_hand_written_record),
		cmocka_unit_test(test_errors_and_versions),
		cmocka_unit_test(test_histogram_must_add_up),
		cmocka_unit_test(test_reader_splits_partial_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
