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
	assert_int_equal(outlog_watch(&o, re, 2, err, sizeof(err)), 0);
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
	assert_int_equal(outlog_watch(&o, re, 3, err, sizeof(err)), 0);
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

/* The reverse of a regex (base/matrix.h), and the first match of each
 * regex in a line as outlog finds it with it: the leftmost, its groups
 * as regexec on the whole line gives them; and the loader's refusals. */
static void test_reverse_search_finds_the_first_match(void **state)
{
	static const char *const pairs[][2] = {
		{ "a(bc|d)*$", "^(cb|d)*a" }, { "\\<x[]a-]y{2,3}\\'", "\\`y{2,3}[]a-]x\\>" },
		{ "(ab|c)|d+e", "(ba|c)|ed+" }, { "\\.[0-9]+", "[0-9]+\\." }, { "", "" },
		{ "ok :-\\)", "\\)-: ko" },
	};
	const char *re[] = { "v=([0-9]+)", "^(ab|a)(bc|c)?$", "b$|^ab", "(x+x+)+y", "a\\)b" };
	char out[64], err[256], why[512];
	struct outlog o;

	(void)state;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		matrix_regex_reverse(pairs[i][0], out);
		assert_string_equal(out, pairs[i][1]);
	}
	int wr = outlog_open(&o, path, err, sizeof(err));
	assert_true(wr >= 0);
	assert_int_equal(outlog_watch(&o, re, 5, err, sizeof(err)), 0);
	const char *text = "v v=7 v=8\nabc\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxy xy\nxa)b\n";
	unit_feed(&o, wr, text, strlen(text));
	close(wr);
	outlog_drain(&o);
	assert_string_equal(outlog_match(&o, 0), "7");		/* the leftmost */
	assert_string_equal(outlog_match(&o, 1), "ab");		/* longest, group 1 first */
	assert_string_equal(outlog_match(&o, 2), "ab");		/* "b$" is not on line 2 */
	assert_string_equal(outlog_match(&o, 3), "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	assert_string_equal(outlog_match(&o, 4), "a)b");		/* an escaped ')' */
	outlog_close(&o);
	assert_int_equal(matrix_regex_check("^(a*)*\\1$", why, sizeof(why)), -1);
	assert_int_equal(matrix_regex_check("(^a|b?)+", why, sizeof(why)), -1);
	assert_int_equal(matrix_regex_check("a(a|^b){0,2}a", why, sizeof(why)), -1);
	/* glibc reads an unopened ')' as the character; the reverse would end
	 * a group with it */
	assert_int_equal(matrix_regex_check("ok :-)", why, sizeof(why)), -1);
	assert_int_equal(matrix_regex_check("[)](a)\\)", why, sizeof(why)), 0);
	assert_int_equal(matrix_regex_check("[\\1]|(a+|b)*c|\\<x$", why, sizeof(why)), 0);
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
		cmocka_unit_test_setup_teardown(test_reverse_search_finds_the_first_match, setup,
						teardown),
		cmocka_unit_test(test_runner_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
