/*
 * test_outlog: a program's output through outlog (cell/outlog.h): the
 * log keeps the first OUTLOG_CAP bytes and a marker, and the regexes find
 * their first match anywhere, past the cap, across reads, in long lines;
 * and procinfo's judgement of a runner (base/procinfo.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "matrix.h"
#include "outlog.h"
#include "procinfo.h"
#include "unit.h"

static char path[64];

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_outlog.%ld", (long)getpid());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void test_cap_marker_and_late_match(void **state)
{
	static char noise[3 << 20];
	const char *re[] = { "^avg ([0-9.]+) us$", "^ready$" };
	struct outlog o;
	char err[256], tail[128];

	(void)state;
	int wr = outlog_open(&o, path, err, sizeof(err));
	assert_true(wr >= 0);
	assert_int_equal(outlog_watch(&o, re, 2, 2, err, sizeof(err)), 0);
	memset(noise, 'y', sizeof(noise));
	for (size_t i = 1; i < sizeof(noise); i += 2)
		noise[i] = i % 1000 == 1 ? '\0' : '\n';	/* NULs do not end the text */
	unit_feed(&o, wr, noise, sizeof(noise));
	assert_null(outlog_match(&o, 0));
	unit_feed(&o, wr, "not avg 1 us\navg 4", 18);	/* split across two reads */
	unit_feed(&o, wr, "2.5 us\nready", 12);
	close(wr);
	assert_int_equal(outlog_read(&o), 0);	/* end of file */
	outlog_drain(&o);			/* the last line, without newline */
	assert_string_equal(outlog_match(&o, 0), "42.5");
	assert_string_equal(outlog_match(&o, 1), "ready");
	outlog_close(&o);

	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	int n = snprintf(tail, sizeof(tail), "[matrix: log cut at 1 MiB; %zu more bytes dropped]\n",
			 sizeof(noise) + 30 - OUTLOG_CAP);
	assert_int_equal(st.st_size, OUTLOG_CAP + (size_t)n);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, OUTLOG_CAP, SEEK_SET);
	assert_non_null(fgets(err, sizeof(err), f));
	assert_string_equal(err, tail);
	fclose(f);
}

/* A line is matched on its first OUTLOG_LINE bytes: what comes later in
 * it is kept in the log, never matched; the next line is matched again. */
static void test_long_line_and_first_match(void **state)
{
	static char line[3 * OUTLOG_LINE];
	const char *re[] = { "v=([0-9]+)", "w=([0-9]+)", "^x+z$" };
	struct outlog o;
	char err[256];

	(void)state;
	int wr = outlog_open(&o, path, err, sizeof(err));
	assert_true(wr >= 0);
	assert_int_equal(outlog_watch(&o, re, 3, 3, err, sizeof(err)), 0);
	memset(line, 'x', sizeof(line));
	memcpy(line + 100, "w=3", 3);				/* in its first bytes */
	memcpy(line + sizeof(line) - 8, "v=7 v=8\n", 8);	/* at the end of a 12 KiB line */
	unit_feed(&o, wr, line, sizeof(line));
	memset(line, 'x', OUTLOG_LINE);
	memcpy(line + OUTLOG_LINE - 2, "z\n", 2);		/* OUTLOG_LINE - 1 bytes and a newline */
	unit_feed(&o, wr, line, OUTLOG_LINE);
	unit_feed(&o, wr, "v=9\n", 4);
	close(wr);
	outlog_drain(&o);
	assert_string_equal(outlog_match(&o, 0), "9");
	assert_string_equal(outlog_match(&o, 1), "3");
	assert_non_null(outlog_match(&o, 2));
	outlog_close(&o);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, sizeof(line) + OUTLOG_LINE + 4);	/* under the cap: all */
}

/* ready: keeps its first match, a result: figure its last: a program
 * that prints running totals is read at its final one, and a later line
 * whose group took no part leaves "" (not the earlier figure). */
static void test_ready_first_result_last(void **state)
{
	const char *re[] = { "^ready (\\d+)$", "^total (\\d+)$", "^rate(?: (\\d+))?$" };
	struct outlog o;
	char err[256];

	(void)state;
	int wr = outlog_open(&o, path, err, sizeof(err));
	assert_true(wr >= 0);
	assert_int_equal(outlog_watch(&o, re, 3, 1, err, sizeof(err)), 0);
	const char *a = "ready 1\ntotal 10\nrate 5\nready 2\n", *b = "total 20\nnoise\nrate\ntotal 35";
	unit_feed(&o, wr, a, strlen(a));
	assert_int_equal(outlog_read(&o), 1);
	assert_string_equal(outlog_match(&o, 1), "10");
	unit_feed(&o, wr, b, strlen(b));
	close(wr);
	outlog_drain(&o);			/* the last line, without newline */
	assert_string_equal(outlog_match(&o, 0), "1");
	assert_string_equal(outlog_match(&o, 1), "35");
	assert_string_equal(outlog_match(&o, 2), "");
	outlog_close(&o);
}

/* The first match of each regex in a line as outlog finds it (PCRE2):
 * the leftmost, its (?<value>) group, else group 1; a catastrophic
 * pattern stops at the match limit (the line not matched, the log says
 * so once) and the next line still matches. */
static void test_first_match_and_the_match_limit(void **state)
{
	const char *re[] = { "v=(\\d+)", "^(ab|a)(bc|c)?$", "b$|^ab", "(x+x+)+y", "a\\)b",
			     "t=(?<value>\\d+(\\.\\d+)?) ms", "^(?:a+)+$|^end (\\d+)" };
	char err[256], why[256], a[5000], log[8192];
	struct outlog o;
	size_t at;

	(void)state;
	int wr = outlog_open(&o, path, err, sizeof(err));
	assert_true(wr >= 0);
	assert_int_equal(outlog_watch(&o, re, 7, 7, err, sizeof(err)), 0);
	const char *text = "v v=7 v=8\nabc\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxy xy\nxa)b\nt=12.5 ms\n";
	unit_feed(&o, wr, text, strlen(text));
	memset(a, 'a', 4000);	/* "(a+)+$" on it: exponential, stopped */
	memcpy(a + 4000, "b\nend 42\n", 10);
	unit_feed(&o, wr, a, strlen(a));
	close(wr);
	outlog_drain(&o);
	assert_string_equal(outlog_match(&o, 0), "7");		/* the leftmost */
	assert_string_equal(outlog_match(&o, 1), "ab");
	assert_string_equal(outlog_match(&o, 2), "ab");		/* "b$" is not on line 2 */
	assert_string_equal(outlog_match(&o, 3), "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	assert_string_equal(outlog_match(&o, 4), "a)b");		/* an escaped ')' */
	assert_string_equal(outlog_match(&o, 5), "12.5");		/* (?<value>), not group 2 */
	assert_string_equal(outlog_match(&o, 6), "42");	/* the line after the stopped one */
	assert_true(o.limited >= 1);
	outlog_close(&o);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	log[fread(log, 1, sizeof(log) - 1, f)] = '\0';
	fclose(f);
	assert_non_null(strstr(log, "[matrix: a regex hit PCRE2's match limit on "));
	assert_null(strstr(strstr(log, "match limit") + 1, "match limit"));	/* once */
	/* what does not compile: PCRE2's message and offset */
	assert_null(matrix_regex_compile("ok :-)", &at, why, sizeof(why)));
	assert_non_null(strstr(why, "unmatched closing parenthesis at offset 5"));
	assert_int_equal(at, 5);
}

static void test_runner_state(void **state)
{
	unsigned long long start;
	char pid[32], ticks[32], boot[64];

	(void)state;
	assert_int_equal(proc_start_time(getpid(), &start), 0);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	snprintf(ticks, sizeof(ticks), "%llu", start);
	proc_boot_id(boot, sizeof(boot));
	assert_int_equal(proc_state_of(pid, ticks, boot), PROC_ALIVE);
	snprintf(ticks, sizeof(ticks), "%llu", start + 1);	/* the pid reused */
	assert_int_equal(proc_state_of(pid, ticks, boot), PROC_GONE);
	snprintf(ticks, sizeof(ticks), "%llu", start);
	assert_int_equal(proc_state_of(pid, ticks, "another-boot"), PROC_GONE);
	assert_int_equal(proc_state_of("", "", ""), PROC_UNKNOWN);	/* an older folder */
	assert_int_equal(proc_state_of("12x", ticks, boot), PROC_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cap_marker_and_late_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_line_and_first_match, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ready_first_result_last, setup, teardown),
		cmocka_unit_test_setup_teardown(test_first_match_and_the_match_limit, setup,
						teardown),
		cmocka_unit_test(test_runner_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
