/*
 * test_prog_timeline: a program's timeline: lines (issue 13): the named
 * captures found as PCRE2 numbers them (base/matrix_timeline.c), the loader's
 * errors, every matching line collected from the output (outlog_collect),
 * and the lines turned into timeline.csv rows (cell/prog_timeline.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "matrix.h"
#include "outlog.h"
#include "prog_timeline.h"
#include "unit.h"

/* ---- the named captures ---- */

/* re taken: the text as it is, and the groups time index messages rate
 * as PCRE2 numbers them */
static void rewrites(const char *re, int t, int i, int m, int r)
{
	struct program_timeline tl = { 0 };
	char why[256] = "";
	size_t at = 99;
	char *out = matrix_timeline_regex(re, &tl, &at, why, sizeof(why));

	if (!out)
		fail_msg("%s: %s at %zu", re, why, at);
	assert_string_equal(out, re);
	assert_int_equal(tl.time_group, t);
	assert_int_equal(tl.index_group, i);
	assert_int_equal(tl.messages_group, m);
	assert_int_equal(tl.rate_group, r);
	free(out);
}

static void test_captures_rewritten(void **state)
{
	(void)state;
	/* source 001's receiver line */
	rewrites("^\\[(?<time>[0-9]+)s\\] window=(?<messages>[0-9]+) msgs", 1, 0, 2, 0);
	/* an escaped '(' is no group, nor is one in a bracket expression */
	rewrites("^\\((?<index>[0-9]+)\\) [(]x[)] (?<rate>[0-9.]+)", 0, 1, 0, 2);
	/* "[]()]": a ']' first is one of the set; classes inside brackets */
	rewrites("[]()]+ [^)(]* [[:digit:](]+ (?<time>[0-9]+) (?<messages>[0-9]+)", 1, 0, 2, 0);
	/* nested and plain groups count as PCRE2 counts them */
	rewrites("(a|b) ((?<time>[0-9]+)(ms|s)) ((x)(?<messages>[0-9]+))", 3, 0, 7, 0);
	rewrites("(?<rate>[0-9.]+)/s at (?<time>[0-9.]+)", 2, 0, 0, 1);
	/* PCRE2: a group that captures nothing, \d, the other name forms */
	rewrites("^(?:x)(?<time>\\d+) (?'messages'\\d+)", 1, 0, 2, 0);
	rewrites("^(x)?(?P<index>\\d+) (?<rate>\\d+(\\.\\d+)?)", 0, 2, 0, 3);
}

/* re refused: the reason has `msg`, at offset `at` */
static void refuses(const char *re, const char *msg, size_t want_at)
{
	struct program_timeline tl = { 0 };
	char why[256] = "";
	size_t at = 999;
	char *out = matrix_timeline_regex(re, &tl, &at, why, sizeof(why));

	if (out)
		fail_msg("%s: accepted as %s", re, out);
	if (!strstr(why, msg))
		fail_msg("%s: '%s' lacks '%s'", re, why, msg);
	assert_int_equal(at, want_at);
}

static void test_capture_errors(void **state)
{
	(void)state;
	/* what PCRE2 does not compile: its message, at its offset */
	refuses("(?<time>1)(?<rate>2)\\", "does not compile: \\ at end of pattern at offset", 21);
	refuses("a(?<time>1", "does not compile: missing closing parenthesis", 10);
	refuses("(?<tme>1)(?<messages>2)", "unknown capture name 'tme'; did you mean 'time'?", 3);
	refuses("(?<time>1)(?<bytes>2)", "unknown capture name 'bytes'", 13);
	refuses("(?<time>1) (?<time>2) (?<messages>3)", "two named subpatterns have the same name",
		19);
	refuses("(?<messages>1) (?<time", "syntax error in subpattern name", 22);
	refuses("(?<time 1) (?<messages>2)", "syntax error in subpattern name", 7);
	/* both of a pair: at the later one's name */
	refuses("(?<index>1) ((?<time>2)) (?<messages>3)", "give (?<time>...) or (?<index>...), not both", 16);
	refuses("(?<time>1) (?<rate>2) (?<messages>3)", "give (?<messages>...) or (?<rate>...), not both", 25);
	/* neither: at the end */
	refuses("(?<messages>1) x", "needs a (?<time>...) or a (?<index>...) capture", 16);
	refuses("(?<time>1) x", "needs a (?<messages>...) or a (?<rate>...) capture", 12);
	/* a named capture inside brackets or after a backslash is not one */
	refuses("[(?<time>1)] (?<messages>2)", "needs a (?<time>...) or a (?<index>...)", 27);
	refuses("\\(?<time>1) (?<messages>2)", "unmatched closing parenthesis", 10);
}

/* ---- the loader ---- */

static int load(struct matrix *m, const char *timeline, const char *server, char *err,
		size_t errlen)
{
	char yaml[2048];

	snprintf(yaml, sizeof(yaml), "name: t\n"
		 "programs:\n"
		 "  rx:\n"
		 "%s"
		 "    client: [./cli]\n"
		 "    timeline:\n"
		 "%s"
		 "matrix:\n"
		 "  pattern: stream\n"
		 "  transport: tcp\n", server, timeline);
	return matrix_load_buffer(m, "p.yaml", yaml, strlen(yaml), err, errlen);
}

static void test_timeline_loaded(void **state)
{
	struct matrix m;
	char err[512];

	(void)state;
	if (load(&m, "      regex: '^\\[(?<time>[0-9]+)ms\\] rate=(?<rate>[0-9.]+)k'\n"
		     "      time: ms\n"
		     "      rate: k/s\n"
		     "      interval: 250ms\n", "    server: [./srv, \"{port}\"]\n", err,
		 sizeof(err)) < 0)
		fail_msg("%s", err);
	const struct program_timeline *tl = &matrix_program(&m, "rx")->timeline;
	assert_string_equal(tl->regex, "^\\[(?<time>[0-9]+)ms\\] rate=(?<rate>[0-9.]+)k");
	assert_int_equal(tl->time_group, 1);
	assert_int_equal(tl->rate_group, 2);
	assert_float_equal(tl->time_scale, 1e-3, 1e-15);
	assert_float_equal(tl->rate_scale, 1e3, 1e-9);
	assert_int_equal(tl->interval_ns, 250000000);
	assert_int_equal(tl->pos.line, 6);
	matrix_release(&m);
	/* defaults: seconds, messages per second; no interval needed with time */
	if (load(&m, "      regex: 'at (?<time>[0-9.]+) got (?<messages>[0-9]+)'\n",
		 "    server: [./srv]\n", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	tl = &matrix_program(&m, "rx")->timeline;
	assert_float_equal(tl->time_scale, 1, 0);
	assert_float_equal(tl->rate_scale, 1, 0);
	assert_int_equal(tl->interval_ns, 0);
	matrix_release(&m);
}

static void load_fails(const char *timeline, const char *server, const char *want)
{
	struct matrix m;
	char err[512];

	if (load(&m, timeline, server, err, sizeof(err)) == 0) {
		matrix_release(&m);
		fail_msg("accepted: %s", timeline);
	}
	if (strncmp(err, want, strlen(want)))
		fail_msg("got    %s\nwanted %s", err, want);
}

static void test_timeline_errors(void **state)
{
	const char *srv = "    server: [./srv]\n";

	(void)state;
	/* the character at fault, in a single-quoted or plain scalar */
	load_fails("      regex: '^(?<tme>[0-9]+) (?<messages>[0-9]+)'\n", srv,
		   "p.yaml:7:19: timeline: regex: unknown capture name 'tme'; did you mean 'time'?");
	load_fails("      regex: ^(?:x)(?<time>1)(?<massages>2)\n", srv,
		   "p.yaml:7:33: timeline: regex: unknown capture name 'massages'");
	/* double-quoted: the scalar's own place */
	load_fails("      regex: \"\\\\((?<tme>1)\"\n", srv,
		   "p.yaml:7:14: timeline: regex: unknown capture name 'tme'");
	load_fails("      regex: '(?<time>[0-9]+'\n      messages: x\n", srv,
		   "p.yaml:8:7: timeline: unknown key 'messages'");
	load_fails("      regex: '(?<time>[0-9]+ (?<messages>[0-9]+)'\n", srv,
		   "p.yaml:7:14: timeline: regex: does not compile: missing closing parenthesis "
		   "at offset 34");
	load_fails("      regex: '(?<index>[0-9]+) (?<messages>[0-9]+)'\n", srv,
		   "p.yaml:6:5: timeline: (?<index>...) needs interval:");
	load_fails("      regex: '(?<time>[0-9]+) (?<messages>[0-9]+)'\n      time: min\n", srv,
		   "p.yaml:8:13: timeline: time: unknown unit 'min' (known: ns, us, ms, s)");
	load_fails("      regex: '(?<time>[0-9]+) (?<messages>[0-9]+)'\n      rate: k/s\n", srv,
		   "p.yaml:8:7: timeline: rate: is the unit of (?<rate>...), which the regex does not have");
	load_fails("      regex: '(?<time>[0-9]+) (?<rate>[0-9]+)'\n      rate: kb/s\n", srv,
		   "p.yaml:8:13: timeline: rate: unknown unit 'kb/s' (known: /s, k/s, M/s)");
	load_fails("      regex: '(?<index>[0-9]+) (?<messages>[0-9]+)'\n      interval: 0s\n",
		   srv, "p.yaml:8:17: timeline: interval: must be above 0");
	load_fails("      regex: '(?<index>[0-9]+) (?<messages>[0-9]+)'\n      interval: soon\n",
		   srv, "p.yaml:8:17: timeline: interval: ");
	load_fails("      intervall: 1s\n", srv,
		   "p.yaml:7:7: timeline: unknown key 'intervall'; did you mean 'interval'?");
	load_fails("      time: s\n", srv, "p.yaml:7:7: timeline: missing regex:");
	load_fails("      regex: [a, b]\n", srv, "p.yaml:7:14: regex: expected a scalar, not a list");
	load_fails("      regex:\n", srv, "p.yaml:7:7: timeline: regex: no value");
	/* a timeline reads the server's output */
	load_fails("      regex: '(?<time>[0-9]+) (?<messages>[0-9]+)'\n", "",
		   "p.yaml:5:5: programs: rx: timeline: reads the server's output, and rx has no server:");
	/* not a mapping */
	struct matrix m;
	char err[512];
	const char *y = "name: t\nprograms:\n  rx:\n    server: [./s]\n    timeline: x\n"
			"matrix:\n  pattern: stream\n";
	assert_int_equal(matrix_load_buffer(&m, "p.yaml", y, strlen(y), err, sizeof(err)), -1);
	assert_string_equal(err, "p.yaml:5:15: timeline: expected a mapping {regex: ..., time: ..., "
			    "rate: ..., interval: ...}");
}

/* ---- every matching line, collected ---- */

static char path[64];

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_prog_timeline.%ld", (long)getpid());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void test_every_line_collected(void **state)
{
	const char *ready[] = { "^listening" };
	struct outlog o;
	char err[256];

	(void)state;
	int wr = outlog_open(&o, path, err, sizeof(err));
	assert_true(wr >= 0);
	assert_int_equal(outlog_watch(&o, ready, 1, 1, err, sizeof(err)), 0);
	assert_int_equal(outlog_collect(&o, "^\\[([0-9.]+)s\\] (x)?window=([0-9x]+)", 1, 3, err,
					sizeof(err)), 0);
	const char *a = "listening\n[1s] window=0 msgs\nnoise [2s] window=5\n[2s] win";
	const char *b = "dow=7 msgs\n[2.5s] window=x\n[3s] xwindow=12";	/* last: no newline */
	unit_feed(&o, wr, a, strlen(a));
	unit_feed(&o, wr, b, strlen(b));
	close(wr);
	outlog_drain(&o);
	assert_non_null(outlog_match(&o, 0));		/* the first-match regexes still */
	assert_int_equal(o.npoints, 4);
	assert_float_equal(o.points[0].v[0], 1, 0);
	assert_float_equal(o.points[0].v[1], 0, 0);
	assert_float_equal(o.points[1].v[0], 2, 0);	/* across two reads */
	assert_float_equal(o.points[1].v[1], 7, 0);
	assert_true(o.points[1].read_ns >= o.points[0].read_ns && o.points[0].read_ns > 0);
	assert_float_equal(o.points[2].v[0], 2.5, 0);
	assert_true(isnan(o.points[2].v[1]));		/* no number: NaN */
	assert_float_equal(o.points[3].v[1], 12, 0);	/* the line without its newline */
	outlog_close(&o);
	/* a group the regex does not have */
	wr = outlog_open(&o, path, err, sizeof(err));
	assert_int_equal(outlog_collect(&o, "a(b)", 1, 2, err, sizeof(err)), -1);
	assert_string_equal(err, "regex 'a(b)' has no group 2");
	close(wr);
	outlog_close(&o);
}

static void test_collect_cap(void **state)
{
	enum { MORE = 7 };
	struct outlog o;
	char err[256], line[256], last[256] = "";
	size_t n = 0, cap = 1 << 16;
	char *text = malloc(cap);

	(void)state;
	assert_non_null(text);
	int wr = outlog_open(&o, path, err, sizeof(err));
	assert_int_equal(outlog_collect(&o, "^t=([0-9]+) n=([0-9]+)$", 1, 2, err, sizeof(err)), 0);
	for (unsigned i = 0; i < OUTLOG_MAX_POINTS + MORE; i++) {
		int k = snprintf(line, sizeof(line), "t=%u n=%u\n", i, 2 * i);
		if (n + (size_t)k > cap) {
			unit_feed(&o, wr, text, n);
			n = 0;
		}
		memcpy(text + n, line, (size_t)k);
		n += (size_t)k;
	}
	unit_feed(&o, wr, text, n);
	free(text);
	close(wr);
	outlog_drain(&o);
	assert_int_equal(o.npoints, OUTLOG_MAX_POINTS);
	assert_int_equal(o.points_dropped, MORE);
	assert_float_equal(o.points[OUTLOG_MAX_POINTS - 1].v[1], 2.0 * (OUTLOG_MAX_POINTS - 1), 0);
	outlog_close(&o);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		snprintf(last, sizeof(last), "%s", line);
	fclose(f);
	assert_string_equal(last, "[matrix: timeline cut at 100000 lines; 7 more matching lines "
			    "dropped]\n");
}

/* ---- lines to rows ---- */

#define S 1000000000ull
#define BASE (1000 * S)		/* the receiver's spawn on the runner's clock */

static struct outlog_point pt(double x, double y, uint64_t read_ns)
{
	return (struct outlog_point){ { x, y }, read_ns };
}

static void row_is(const struct prog_tl_row *r, double start, double len, uint64_t msgs)
{
	assert_float_equal(r->start_s, start, 1e-9);
	assert_float_equal(r->interval_s, len, 1e-9);
	assert_float_equal(r->covered_s, len, 1e-9);
	assert_int_equal(r->messages, msgs);
}

static void test_source_001_lines(void **state)
{
	/* "[Ns] window=W msgs" from a receiver whose clock starts 0.05 s after
	 * its spawn, lines read 1 ms (one of them 0.2 ms) after they end; its
	 * first sender spawns 4.5 s after it, the last exits at 7.2 s */
	struct program_timeline tl = { .time_group = 1, .messages_group = 2, .time_scale = 1,
				       .rate_scale = 1 };
	const double win[] = { 0, 0, 0, 0, 0, 300, 200, 40, 0, 0 };
	struct outlog_point p[10];
	struct prog_tl_row rows[10];
	struct prog_tl_clock clk = { BASE, BASE + 4500000000ull, BASE + 8100000000ull };

	(void)state;
	for (int i = 0; i < 10; i++)
		p[i] = pt(i + 1, win[i], BASE + 50000000ull + (uint64_t)(i + 1) * S +
			  (i == 6 ? 200000 : 1000000));
	size_t n = prog_timeline_rows(&tl, p, 10, &clk, rows);
	/* time 0 is at 0.0502 s after the spawn: -4.4498 s from the first sender */
	assert_int_equal(n, 5);
	row_is(&rows[0], 4 - 4.4498, 1, 0);	/* empty, but ends after the senders start */
	row_is(&rows[1], 5 - 4.4498, 1, 300);
	row_is(&rows[2], 6 - 4.4498, 1, 200);
	row_is(&rows[3], 7 - 4.4498, 1, 40);
	row_is(&rows[4], 8 - 4.4498, 1, 0);	/* starts before the last sender exits */
	/* (10 s was empty and after it: dropped) */
}

static void test_rates_indexes_and_bad_lines(void **state)
{
	/* (?<index>) of 100 ms intervals with (?<rate>) in k/s; the index
	 * starts anywhere: the read stamps place it */
	struct program_timeline tl = { .index_group = 1, .rate_group = 2, .time_scale = 1,
				       .rate_scale = 1e3, .interval_ns = 100000000 };
	struct outlog_point p[] = {
		pt(41, 12.5, BASE + 200000000), pt(42, NAN, BASE + 300000000),
		pt(42, 2.25, BASE + 300000000), pt(42, 9, BASE + 300000000),	/* not later */
		pt(44, 1.004, BASE + 500000000), pt(43.5, 1, BASE + 500000000),
	};
	struct prog_tl_row rows[6];
	struct prog_tl_clock clk = { BASE, BASE + 100000000, 0 };

	(void)state;
	size_t n = prog_timeline_rows(&tl, p, 6, &clk, rows);
	assert_int_equal(n, 3);
	row_is(&rows[0], 0, 0.1, 1250);		/* 12.5 k/s x 0.1 s */
	row_is(&rows[1], 0.1, 0.1, 225);
	row_is(&rows[2], 0.3, 0.1, 100);	/* 43 is missing: a gap */
	/* a program that stops 70 ms into interval 45 prints it then: that
	 * early line does not pull the clock (and every interval) back */
	struct outlog_point q[] = {
		pt(41, 10, BASE + 200000000), pt(42, 10, BASE + 300000000),
		pt(43, 10, BASE + 400000000), pt(44, 3, BASE + 430000000),
	};
	n = prog_timeline_rows(&tl, q, 4, &clk, rows);
	assert_int_equal(n, 4);
	row_is(&rows[0], 0, 0.1, 1000);
	row_is(&rows[3], 0.3, 0.1, 300);
	/* alone, it is all there is to place the clock by */
	n = prog_timeline_rows(&tl, &q[3], 1, &clk, rows);
	assert_int_equal(n, 1);
	row_is(&rows[0], 0.23, 0.1, 300);
}

static void test_first_interval_and_spawn(void **state)
{
	/* ms on a clock that started long ago: the first interval is
	 * interval: long; an interval is never before the receiver's spawn */
	struct program_timeline tl = { .time_group = 1, .messages_group = 2, .time_scale = 1e-3,
				       .rate_scale = 1, .interval_ns = 500000000 };
	struct outlog_point p[] = {
		pt(5e6 + 300, 10, BASE + 300000000), pt(5e6 + 550, 20, BASE + 550000000),
		pt(5e6 + 600, 30, BASE + 600000000),
	};
	struct prog_tl_row rows[3];
	struct prog_tl_clock clk = { BASE, BASE + 200000000, BASE + 580000000 };

	(void)state;
	size_t n = prog_timeline_rows(&tl, p, 3, &clk, rows);
	assert_int_equal(n, 3);
	row_is(&rows[0], -0.2, 0.3, 10);	/* 500 ms from -0.2+0.3-0.5: cut at the spawn */
	row_is(&rows[1], 0.1, 0.25, 20);	/* irregular: from the line before */
	row_is(&rows[2], 0.35, 0.05, 30);	/* has messages: kept after the last exit */
	/* without interval: the first interval runs from the clock's zero:
	 * here, all the way back to the spawn */
	tl.interval_ns = 0;
	n = prog_timeline_rows(&tl, p, 3, &clk, rows);
	assert_int_equal(n, 3);
	row_is(&rows[0], -0.2, 0.3, 10);
	/* no lines, no rows */
	assert_int_equal(prog_timeline_rows(&tl, p, 0, &clk, rows), 0);
}

static void test_rate_on_an_epoch_clock(void **state)
{
	/* (?<time>) in seconds on a clock that started long before (the
	 * epoch, the boot), (?<rate>) per second, no interval:: the first
	 * interval runs from the receiver's spawn, not from the clock's zero
	 * (100/s over 1e6 s was 1e8 messages) */
	const double E = 1e6;
	struct program_timeline tl = { .time_group = 1, .rate_group = 2, .time_scale = 1,
				       .rate_scale = 1 };
	struct outlog_point p[] = {
		pt(E + 1, 100, BASE + S + 1000000), pt(E + 2, 300, BASE + 2 * S + 1000000),
	};
	struct prog_tl_row rows[2];
	struct prog_tl_clock clk = { BASE, BASE + S / 2, BASE + 3 * S };

	(void)state;
	size_t n = prog_timeline_rows(&tl, p, 2, &clk, rows);
	/* time E is at -0.499 s from the first sender, the spawn at -0.5 */
	assert_int_equal(n, 2);
	row_is(&rows[0], -0.5, 1.001, 100);	/* 100/s over [spawn, E + 1] */
	row_is(&rows[1], 0.501, 1, 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captures_rewritten),
		cmocka_unit_test(test_capture_errors),
		cmocka_unit_test(test_timeline_loaded),
		cmocka_unit_test(test_timeline_errors),
		cmocka_unit_test_setup_teardown(test_every_line_collected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_cap, setup, teardown),
		cmocka_unit_test(test_source_001_lines),
		cmocka_unit_test(test_rates_indexes_and_bad_lines),
		cmocka_unit_test(test_first_interval_and_spawn),
		cmocka_unit_test(test_rate_on_an_epoch_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
