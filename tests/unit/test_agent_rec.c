/*
 * test_agent_rec.c: the records between the runner and a remote agent
 * (launch/agent_rec.h): what is put comes back whole, also fed a byte at
 * a time; a truncated record waits (and counts as partial at the end), a
 * bad header, type, tag or length and an oversized record are errors
 * with a reason, never a crash; spawn and exit payloads both ways.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "agent_rec.h"

/* Feeds text to a new decoder: the result of the first agent_dec_next
 * that is not 1 (its records counted in *n), why in why. */
static int decode(const char *text, size_t len, int *n, char *why, size_t whylen)
{
	struct agent_dec d = { .in = { 0 } };
	struct agent_rec rec;
	int got;

	*n = 0;
	*why = '\0';
	if (agent_dec_feed(&d, text, len, why, whylen) < 0) {
		agent_dec_release(&d);
		return -2;
	}
	while ((got = agent_dec_next(&d, &rec, why, whylen)) == 1)
		(*n)++;
	agent_dec_release(&d);
	return got;
}

static void test_round_trip(void **state)
{
	struct agent_buf b = { 0 };
	struct agent_dec d = { .in = { 0 } };
	struct agent_rec rec;
	char why[256];
	const char bytes[] = { 'a', '\n', '\0', 'b' };

	(void)state;
	assert_int_equal(agent_rec_put(&b, AGENT_REPORT, 7, 2, bytes, sizeof(bytes)), 0);
	assert_int_equal(agent_rec_put(&b, AGENT_GO, 4294967295u, 0, NULL, 0), 0);
	assert_int_equal(agent_rec_put(&b, AGENT_EXIT, 1, AGENT_MAX_SLOT, "9 0 0 0 0 0", 11), 0);
	/* a byte at a time: nothing until a record is whole */
	int seen = 0;
	for (size_t i = 0; i < agent_buf_size(&b); i++) {
		assert_int_equal(agent_dec_feed(&d, b.p + b.off + i, 1, why, sizeof(why)), 0);
		int got;
		while ((got = agent_dec_next(&d, &rec, why, sizeof(why))) == 1) {
			if (seen == 0) {
				assert_int_equal(rec.type, AGENT_REPORT);
				assert_int_equal(rec.seq, 7);
				assert_int_equal(rec.slot, 2);
				assert_int_equal(rec.len, sizeof(bytes));
				assert_memory_equal(rec.data, bytes, sizeof(bytes));
			} else if (seen == 1) {
				assert_int_equal(rec.type, AGENT_GO);
				assert_int_equal(rec.seq, 4294967295u);
				assert_int_equal(rec.len, 0);
			} else {
				assert_int_equal(rec.type, AGENT_EXIT);
				assert_int_equal(rec.slot, AGENT_MAX_SLOT);
			}
			seen++;
		}
		assert_int_equal(got, 0);
	}
	assert_int_equal(seen, 3);
	assert_false(agent_dec_partial(&d));
	agent_dec_release(&d);
	agent_buf_release(&b);
}

static void test_truncated(void **state)
{
	struct agent_dec d = { .in = { 0 } };
	struct agent_rec rec;
	char why[256];
	int n;

	(void)state;
	/* the header whole, its payload not: waits, and is partial */
	assert_int_equal(agent_dec_feed(&d, "report 1.0 10\nabc", 17, why, sizeof(why)), 0);
	assert_int_equal(agent_dec_next(&d, &rec, why, sizeof(why)), 0);
	assert_true(agent_dec_partial(&d));
	agent_dec_release(&d);
	/* half a header */
	assert_int_equal(decode("log 1.", 6, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 0);
}

/* Each bad stream: an error with a reason, after the good records before it. */
static void test_bad(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "nope 1.0 0\n", "unknown record type 'nope'" },
		{ "report 0.0 0\n", "bad tag '0.0'" },		/* seq 0 */
		{ "report 1 0\n", "bad tag '1'" },
		{ "report 1.x 0\n", "bad tag" },
		{ "report -1.0 0\n", "bad tag" },
		{ "report 01.0 0\n", "bad tag" },		/* a leading zero */
		{ "report 4294967296.0 0\n", "bad tag" },	/* past 32 bits */
		{ "report 1.4097 0\n", "bad tag" },		/* past AGENT_MAX_SLOT */
		{ "report 1.0 +5\n", "bad record length" },
		{ "report 1.0 5 \n", "bad record length" },
		{ "report 1.0\n", "a record header is" },
		{ "report  1.0 0\n", "bad tag" },
		{ "report 1.0 1048577\n", "a record of 1048577 bytes: at most 1048576" },
		{ "report 1.0 99999999999999999999999\n", "bad record length" },
		{ "reportreportreportreportreportreportreportreportreportreportreport", "longer than" },
	};
	char why[256], text[256];
	int n;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "go 3.1 0\n%s", bad[i].text);
		assert_int_equal(decode(text, strlen(text), &n, why, sizeof(why)), -1);
		assert_int_equal(n, 1);
		if (!strstr(why, bad[i].why))
			fail_msg("'%s': '%s', expected '%s'", bad[i].text, why, bad[i].why);
	}
	/* more bytes waiting than any record: refused at the feed */
	size_t big = AGENT_REC_MAX + 200000;
	char *junk = malloc(big);
	assert_non_null(junk);
	memset(junk, 'x', big);
	assert_int_equal(decode(junk, big, &n, why, sizeof(why)), -2);
	free(junk);
	/* the encoder refuses what the decoder would */
	struct agent_buf b = { 0 };
	assert_int_equal(agent_rec_put(&b, AGENT_LOG, 0, 0, "", 0), -1);
	assert_int_equal(agent_rec_put(&b, AGENT_LOG, 1, AGENT_MAX_SLOT + 1, "", 0), -1);
	assert_int_equal(agent_rec_put(&b, AGENT_NTYPES, 1, 0, "", 0), -1);
	assert_int_equal(agent_rec_put(&b, AGENT_LOG, 1, 0, "", AGENT_REC_MAX + 1), -1);
	assert_int_equal(agent_buf_size(&b), 0);
	agent_buf_release(&b);
}

static void test_spawn_words(void **state)
{
	static const char ok[] = "0,2-3\0/bin/matrix\0worker\0server\0";
	char *argv[4], why[128];
	const char *cpus;

	(void)state;
	assert_int_equal(agent_spawn_words(ok, sizeof(ok) - 1, &cpus, argv, 4, why, sizeof(why)), 0);
	assert_string_equal(cpus, "0,2-3");
	assert_string_equal(argv[0], "/bin/matrix");
	assert_string_equal(argv[2], "server");
	assert_null(argv[3]);
	/* one word too many for argv */
	assert_int_equal(agent_spawn_words("\0a\0b\0c\0d\0", 9, &cpus, argv, 4, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "more than 3 words"));
	assert_int_equal(agent_spawn_words("\0a", 2, &cpus, argv, 4, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "NUL-terminated"));
	assert_int_equal(agent_spawn_words("", 1, &cpus, argv, 4, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "without a command"));
	assert_int_equal(agent_spawn_words("", 0, &cpus, argv, 4, why, sizeof(why)), -1);
}

static void test_exit(void **state)
{
	struct rusage ru = { .ru_utime = { 1, 500000 }, .ru_stime = { 0, 7 }, .ru_maxrss = 2048,
			     .ru_nvcsw = 3, .ru_nivcsw = 4 }, back;
	char buf[160], why[128];
	int status;

	(void)state;
	size_t n = agent_exit_format(11, &ru, buf, sizeof(buf));
	assert_string_equal(buf, "11 1500000 7 2048 3 4");
	assert_int_equal(agent_exit_parse(buf, n, &status, &back, why, sizeof(why)), 0);
	assert_int_equal(status, 11);
	assert_int_equal(back.ru_utime.tv_sec, 1);
	assert_int_equal(back.ru_utime.tv_usec, 500000);
	assert_int_equal(back.ru_maxrss, 2048);
	assert_int_equal(back.ru_nivcsw, 4);
	static const char *const bad[] = { "", "11", "11 1 2 3 4", "11 1 2 3 4 5 6", "11 1 2 3 4 5 ",
					   "65536 0 0 0 0 0", "x 0 0 0 0 0", "1  0 0 0 0 0" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (agent_exit_parse(bad[i], strlen(bad[i]), &status, &back, why, sizeof(why)) != -1)
			fail_msg("'%s' taken as an exit record", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_spawn_words),
		cmocka_unit_test(test_exit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
