/*
 * Unit tests for reports/: ratio pairing, the summary.md pivot of a golden
 * run folder (tests/data/golden, expected page tests/data/golden-summary.md),
 * and gnuplot quoting of hostile text.
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

#include "gnuplot.h"
#include "gnuplot_style.h"
#include "markdown.h"
#include "report.h"
#include "summary.h"
#include "unit.h"
#include "units.h"

/* A copy of the golden folder in a temp dir. */
static char *golden_copy(void)
{
	static char dir[] = "/tmp/matrix-golden.XXXXXX";
	const char *files[] = { "matrix.yaml", "results.csv", "meta.csv" };

	strcpy(dir, "/tmp/matrix-golden.XXXXXX");
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < 3; i++) {
		char from[256], to[256], *text;
		snprintf(from, sizeof(from), "tests/data/golden/%s", files[i]);
		snprintf(to, sizeof(to), "%s/%s", dir, files[i]);
		text = unit_slurp(from);
		FILE *f = fopen(to, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
		free(text);
	}
	return dir;
}

static void remove_tree(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_golden_cells_and_pairs(void **state)
{
	struct report r;
	char err[512], *dir = golden_copy();

	(void)state;
	if (report_load(&r, dir, NULL, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(r.ndims, 4);
	assert_string_equal(r.dimnames[1], "transport");
	assert_int_equal(r.ncells, 4);
	/* cell 2: one repetition of three failed; cell 4: all failed */
	assert_int_equal(r.cells[1].failed, 1);
	assert_string_equal(r.cells[1].status, "ok, 1 of 3 failed (timeout)");
	assert_float_equal(r.cells[1].st[0].median, 950, 1e-9);
	/* an older results.csv, without `lost` or `rtt_samples`: no loss to tell */
	assert_true(isnan(r.cells[0].lost) && isnan(r.cells[0].rtt_samples));
	assert_string_equal(r.cells[3].status, "timeout (all 3)");
	assert_int_equal(r.cells[3].st[0].n, 0);
	assert_true(isnan(r.cells[3].st[0].median));
	/* cell 3 (500, 550, 900) is noisy in msgs_per_s; cell 1 is not */
	assert_true(r.cells[2].noisy[0]);
	assert_false(r.cells[0].noisy[0]);
	/* two ratio definitions, each pairing unix with tcp at equal size */
	assert_int_equal(r.ndefs, 2);
	assert_string_equal(r.defs[1].name, "UNIX/TCP p50");
	assert_int_equal(r.npairs, 4);
	assert_int_equal(r.pairs[0].num->number, 1);
	assert_int_equal(r.pairs[0].den->number, 3);
	assert_float_equal(r.pairs[0].ratio, 1100.0 / 550, 1e-9);
	/* 3 and 3 repetitions: each side [min, max] at 1 - 2/8, so the ratio's
	 * interval is [1000 / 900, 1200 / 500] at (3/4)^2 at least */
	assert_float_equal(r.pairs[0].lo, 1000.0 / 900, 1e-12);
	assert_float_equal(r.pairs[0].hi, 1200.0 / 500, 1e-12);
	assert_float_equal(r.pairs[0].level, 0.5625, 1e-12);
	assert_true(isnan(r.pairs[1].ratio));	/* 2 vs 4: tcp side failed */
	assert_true(isnan(r.pairs[1].level));
	assert_float_equal(r.defs[0].geomean, 2, 1e-9);
	assert_int_equal(r.defs[0].npairs, 1);
	report_release(&r);
	remove_tree(dir);
}

/*
 * 0 when got and want are the same text; else 1 and, in msg, the first line
 * where they differ, each side cut to 200 bytes from a little before the
 * first differing byte: one short line, which a driver reading TAP line by
 * line sees (cmocka cuts a longer message at 1,023 bytes, and with it the
 * newline the "not ok" line needs).
 */
static int first_difference(const char *got, const char *want, char *msg, size_t len)
{
	size_t i = 0, from = 0;
	unsigned line = 1;

	while (got[i] && got[i] == want[i]) {
		if (got[i] == '\n') {
			line++;
			from = i + 1;
		}
		i++;
	}
	if (got[i] == want[i])
		return 0;
	size_t col = i - from + 1;
	if (i - from > 100)
		from = i - 100;
	int ng = (int)strcspn(got + from, "\n"), nw = (int)strcspn(want + from, "\n");
	snprintf(msg, len, "line %u, column %zu: expected '%.*s'%s, got '%.*s'%s", line, col,
		 nw < 200 ? nw : 200, want + from, nw > 200 ? "..." : "",
		 ng < 200 ? ng : 200, got + from, ng > 200 ? "..." : "");
	return 1;
}

static void test_golden_markdown_page(void **state)
{
	struct report r;
	char err[512], path[512], msg[600], *dir = golden_copy();

	(void)state;
	assert_int_equal(report_load(&r, dir, NULL, err, sizeof(err)), 0);
	/* the writers in the order `matrix report` calls them (cli/cmd_report.c, cmd_report_build) */
	if (summary_write_csv(&r, err, sizeof(err)) < 0 ||
	    summary_write_ratios(&r, err, sizeof(err)) < 0 ||
	    markdown_write(&r, err, sizeof(err)) < 0 ||
	    gnuplot_write_scripts(&r, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	report_release(&r);
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	char *got = unit_slurp(path), *want = unit_slurp("tests/data/golden-summary.md");
	int differs = first_difference(got, want, msg, sizeof(msg));
	/* the pivot: a row per size, a column per transport, then the ratio,
	 * whose interval at 3 and 3 is [1000 / 900, 1200 / 500] at 56.25% or
	 * more, a lower bound shown rounded down */
	int pivot = strstr(got, "| size | unix | tcp | UNIX/TCP |\n|---|---:|---:|---:|\n"
			   "| 16B | 1.10k (1.00k–1.20k) msg/s | 550 (500–900) msg/s ~ | 2.00× (1.11–2.40, ≥56%) |\n"
			   "| 1KiB | 950 (900–1000) msg/s (2/3 ok) | failed: timeout (all 3) | - |\n") != NULL;
	free(got);
	free(want);
	remove_tree(dir);
	if (differs)
		fail_msg("summary.md differs from tests/data/golden-summary.md at %s", msg);
	assert_true(pivot);
}

static void test_report_options(void **state)
{
	struct report r;
	struct report_opts o = { .nratios = 1, .ratios = { "tcp/unix" }, .metric = "rtt_p50_us" };
	char err[512], *dir = golden_copy();

	(void)state;
	assert_int_equal(report_load(&r, dir, &o, err, sizeof(err)), 0);
	assert_int_equal(r.ndefs, 1);
	assert_string_equal(r.defs[0].name, "tcp/unix");
	assert_string_equal(matrix_metrics[r.defs[0].metric], "rtt_p50_us");
	assert_float_equal(r.pairs[0].ratio, 22.0 / 11, 1e-9);
	report_release(&r);

	o.metric = "rtt_p5O_us";
	assert_int_equal(report_load(&r, dir, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--metric rtt_p5O_us: unknown metric; did you mean 'rtt_p50_us'?"));
	o.metric = NULL;
	o.ratios[0] = "udp/tcp";
	assert_int_equal(report_load(&r, dir, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--ratio udp/tcp:"));
	o.ratios[0] = "size:16/1024";
	assert_int_equal(report_load(&r, dir, &o, err, sizeof(err)), 0);
	assert_int_equal(r.npairs, 2);	/* unix 16 vs 1K, tcp 16 vs 1K */
	report_release(&r);
	assert_int_equal(report_load(&r, "/nonexistent/run", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/run"));
	remove_tree(dir);
}

/*
 * A hand-made run folder: a pingpong cell whose program clients printed
 * msgs_per_s in rep 1 and rtt_mean_us in reps 1 and 2 (rep 3 timed from
 * spawn to exit: measured_by process, no RTT), and a stream cell measured
 * by matrix's own workers.  cpu_us_per_rtt is a column or not (with_rtt_cpu).
 */
static char *provenance_folder(int with_rtt_cpu)
{
	static char dir[] = "/tmp/matrix-printed.XXXXXX";
	char csv[1024];

	strcpy(dir, "/tmp/matrix-printed.XXXXXX");
	assert_non_null(mkdtemp(dir));
	unit_write_file(dir, "matrix.yaml", "name: printed\nrepeat: 3\nmatrix:\n"
		   "  pattern: [pingpong, stream]\n  transport: unix\n  count: 100\n");
	snprintf(csv, sizeof(csv),
		 "cell,pattern,transport,count,rep,status,msgs_per_s,rtt_mean_us,rtt_p50_us,"
		 "mib_per_s%s,measured_by,printed_metrics\n"
		 "1,pingpong,unix,100,1,ok,100,10,9,0.1%s,printed,msgs_per_s;rtt_mean_us\n"
		 "1,pingpong,unix,100,2,ok,110,11,10,0.1%s,printed,rtt_mean_us\n"
		 "1,pingpong,unix,100,3,ok,120,,,0.1%s,process,\n"
		 "2,stream,unix,100,1,ok,1000,,,1%s,worker,\n"
		 "2,stream,unix,100,2,ok,1100,,,1.1%s,worker,\n",
		 with_rtt_cpu ? ",cpu_us_per_rtt" : "", with_rtt_cpu ? ",5" : "",
		 with_rtt_cpu ? ",5" : "", with_rtt_cpu ? ",5" : "", with_rtt_cpu ? "," : "",
		 with_rtt_cpu ? "," : "");
	unit_write_file(dir, "results.csv", csv);
	return dir;
}

static char *report_page(const char *dir, struct report *r)
{
	char err[512], path[512];

	if (report_load(r, dir, NULL, err, sizeof(err)) < 0 || markdown_write(r, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	return unit_slurp(path);
}

/* Figures the programs printed are marked apart, with a key in the header;
 * built-in ones are not. */
static void test_printed_figures_marked(void **state)
{
	struct report r;
	char *dir = provenance_folder(1), *page = report_page(dir, &r);
	int msgs = matrix_metric_index("msgs_per_s"), mean = matrix_metric_index("rtt_mean_us");

	(void)state;
	assert_string_equal(r.cells[0].measured_by, "mixed");	/* printed, printed, process */
	assert_string_equal(r.cells[1].measured_by, "worker");
	assert_int_equal(r.cells[0].printed[msgs], 1);
	assert_int_equal(r.cells[0].printed[mean], 2);
	assert_int_equal(r.cells[0].printed[matrix_metric_index("rtt_p50_us")], 0);
	assert_int_equal(r.cells[1].printed[msgs], 0);
	assert_false(r.before_stream_fix);
	assert_false(report_stale_stream_rates(&r));
	/* the two repetitions that did not print msgs_per_s timed it from
	 * outside the process: marked too (test_marks.c) */
	assert_int_equal(r.cells[0].outside[msgs], 2);
	assert_int_equal(r.cells[0].outside[mean], 0);
	report_release(&r);
	if (!strstr(page, "| pingpong | 110 (100–120) msg/s ᵖ ʷ |\n") ||
	    !strstr(page, "| pingpong | 10.5 (10.0–11.0) µs ᵖ |\n") ||
	    !strstr(page, "| pingpong | 9.50 (9.00–10.00) µs |\n") ||
	    !strstr(page, "| stream | 1.05k (1.00k–1.10k) msg/s |\n"))
		fail_msg("marks of printed figures wrong in:\n%s", page);
	assert_non_null(strstr(page, "\n`ᵖ`: figures the programs printed themselves"));
	assert_null(strstr(page, "predates"));	/* it has cpu_us_per_rtt */
	free(page);
	remove_tree(dir);
}

/* Before cpu_us_per_rtt was a column, stream rates were timed from the
 * receiver's first read: the page says so when it has stream figures.
 * (tests/data/golden has no cpu_us_per_rtt but no stream either: its page,
 * test_golden_markdown_page, has no such line.) */
static void test_older_stream_rates_noted(void **state)
{
	struct report r;
	char err[512], *dir = provenance_folder(0), *page = report_page(dir, &r);

	(void)state;
	assert_true(r.before_stream_fix);
	assert_true(report_stale_stream_rates(&r));
	report_release(&r);
	assert_non_null(strstr(page, "\n**This run folder predates the fixed stream rate** (its "
			       "results.csv has no `cpu_us_per_rtt` column): its stream msgs_per_s "
			       "and mib_per_s were timed from the receiver's first read"));
	assert_true(strstr(page, "predates") < strstr(page, "Each figure is the median"));
	free(page);
	remove_tree(dir);
	/* the same rows with the column: timed the new way, no line */
	dir = provenance_folder(1);
	page = report_page(dir, &r);
	assert_false(r.before_stream_fix || report_stale_stream_rates(&r));
	report_release(&r);
	assert_null(strstr(page, "predates"));
	free(page);
	remove_tree(dir);
	dir = golden_copy();
	if (report_load(&r, dir, NULL, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_true(r.before_stream_fix && !report_stale_stream_rates(&r));
	report_release(&r);
	remove_tree(dir);
}

/* A cell whose timed window (median elapsed_s of its successful
 * repetitions) is under 100 ms is marked ‡ after each figure, with a key in
 * the header; failed repetitions do not count, and a cell at 100 ms or more
 * (or without elapsed_s, as in tests/data/golden's cells of 1 s) is not. */
static void test_short_window_marked(void **state)
{
	static char dir[] = "/tmp/matrix-short.XXXXXX";
	struct report r;
	char *page;

	(void)state;
	strcpy(dir, "/tmp/matrix-short.XXXXXX");
	assert_non_null(mkdtemp(dir));
	unit_write_file(dir, "matrix.yaml", "name: short\nrepeat: 3\nmatrix:\n"
		   "  transport: unix\n  size: [10, 20, 30]\n  count: 100\n");
	unit_write_file(dir, "results.csv",
		   "cell,transport,size,count,rep,status,elapsed_s,msgs_per_s\n"
		   "1,unix,10,100,1,ok,0.05,100\n"
		   "2,unix,20,100,1,ok,0.2,100\n"
		   "3,unix,30,100,1,ok,0.01,100\n"
		   "1,unix,10,100,2,ok,0.09,100\n"
		   "2,unix,20,100,2,timeout,0.001,\n"
		   "3,unix,30,100,2,ok,0.1,100\n"
		   "1,unix,10,100,3,ok,0.5,100\n"
		   "2,unix,20,100,3,ok,0.05,100\n"
		   "3,unix,30,100,3,ok,0.3,100\n");
	page = report_page(dir, &r);
	assert_float_equal(r.cells[0].window_s, 0.09, 1e-12);	/* 0.05 0.09 0.5 */
	assert_true(r.cells[0].short_window);
	assert_float_equal(r.cells[1].window_s, 0.125, 1e-12);	/* 0.2 0.05, the timeout left out */
	assert_false(r.cells[1].short_window);
	assert_float_equal(r.cells[2].window_s, 0.1, 1e-12);	/* 0.01 0.1 0.3: not under */
	assert_false(r.cells[2].short_window);
	report_release(&r);
	if (!strstr(page, "| 10B | 100 (100–100) msg/s ‡ |\n") ||
	    !strstr(page, "| 20B | 100 (100–100) msg/s (2/3 ok) |\n") ||
	    !strstr(page, "| 30B | 100 (100–100) msg/s |\n"))
		fail_msg("short-window marks wrong in:\n%s", page);
	assert_non_null(strstr(page, "\n`‡`: the cell's timed window (the median `elapsed_s` of "
			       "its successful repetitions) is under 100 ms"));
	free(page);
	remove_tree(dir);
	/* no short cell, no key */
	page = report_page(golden_copy(), &r);
	assert_false(r.cells[0].short_window);
	assert_float_equal(r.cells[0].window_s, 1, 1e-12);
	remove_tree(r.dir);
	report_release(&r);
	assert_null(strstr(page, "‡"));
	free(page);
}

static void test_gnuplot_quote(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(gnuplot_quote("plain", out, sizeof(out)), 0);
	assert_string_equal(out, "'plain'");
	assert_int_equal(gnuplot_quote("it's", out, sizeof(out)), 0);
	assert_string_equal(out, "'it'.\"'\".'s'");
	assert_int_equal(gnuplot_quote("x`touch /tmp/pwned`y", out, sizeof(out)), 0);
	assert_string_equal(out, "'x`touch /tmp/pwned`y'");
	assert_int_equal(gnuplot_quote("a' . system('id') . '", out, sizeof(out)), 0);
	assert_string_equal(out, "'a'.\"'\".' . system('.\"'\".'id'.\"'\".') . '.\"'\"");
	/* '' at a string's start or end is no ' to gnuplot */
	assert_int_equal(gnuplot_quote("'start", out, sizeof(out)), 0);
	assert_string_equal(out, "\"'\".'start'");
	assert_int_equal(gnuplot_quote("end'", out, sizeof(out)), 0);
	assert_string_equal(out, "'end'.\"'\"");
	assert_int_equal(gnuplot_quote("''", out, sizeof(out)), 0);
	assert_string_equal(out, "\"'\".\"'\"");
	assert_int_equal(gnuplot_quote("line\nbreak", out, sizeof(out)), -1);
	assert_int_equal(gnuplot_quote("cr\r", out, sizeof(out)), -1);
	assert_int_equal(gnuplot_quote("tab\t", out, sizeof(out)), -1);
	assert_int_equal(gnuplot_quote("", out, sizeof(out)), 0);
	assert_string_equal(out, "''");
	assert_int_equal(gnuplot_quote("toolong", out, 5), -1);
}

static void test_human_units(void **state)
{
	char buf[64];

	(void)state;
	/* the interval as it is, at the median's scale and precision, never a
	 * symmetric "± half-width" */
	units_format_metric_ci("msgs_per_s", 10006, 9700, 10800, buf, sizeof(buf));
	assert_string_equal(buf, "10.0k (9.7k–10.8k) msg/s");
	units_format_metric_ci("msgs_per_s", 2.5e6, NAN, NAN, buf, sizeof(buf));
	assert_string_equal(buf, "2.50M msg/s");
	units_format_metric_ci("rtt_p50_us", 54.7, 53.1, 61.1, buf, sizeof(buf));
	assert_string_equal(buf, "54.7 (53.1–61.1) µs");
	units_format_metric_ci("rtt_p99_us", 1142.8, 1000, 1856, buf, sizeof(buf));
	assert_string_equal(buf, "1.14 (1.00–1.86) ms");
	units_format_metric_ci("mib_per_s", 0.19, 0.188, 0.192, buf, sizeof(buf));
	assert_string_equal(buf, "0.190 (0.188–0.192) MiB/s");
	/* the console's progress uses the same: 1.05M, never 1048.1k */
	units_format_metric("msgs_per_s", 1048100, buf, sizeof(buf));
	assert_string_equal(buf, "1.05M msg/s");
	units_format_metric_ci("msgs_per_s", NAN, NAN, NAN, buf, sizeof(buf));
	assert_string_equal(buf, "-");
	/* the unit and the decimals from the rounded figure, never the raw one */
	units_format_metric("rtt_p50_us", 99.958, buf, sizeof(buf));
	assert_string_equal(buf, "100 µs");
	units_format_metric("rtt_p50_us", 99.94, buf, sizeof(buf));
	assert_string_equal(buf, "99.9 µs");
	units_format_metric("rtt_p50_us", 999.7, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 ms");
	units_format_metric("msgs_per_s", 999600, buf, sizeof(buf));
	assert_string_equal(buf, "1.00M msg/s");
	units_format_metric("msgs_per_s", 999.6, buf, sizeof(buf));
	assert_string_equal(buf, "1.00k msg/s");
	units_format_metric("rtt_p50_us", 9.996, buf, sizeof(buf));
	assert_string_equal(buf, "10.0 µs");
	units_format_metric("mib_per_s", 0.9996, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 MiB/s");
	/* bits per second, as iperf3 says them */
	units_format_bits(125.0 * 1048576 * 8, buf, sizeof(buf));
	assert_string_equal(buf, "1.05 Gbit/s");
	units_format_bits(999.6e6, buf, sizeof(buf));
	assert_string_equal(buf, "1.00 Gbit/s");
	units_format_bits(84e6, buf, sizeof(buf));
	assert_string_equal(buf, "84.0 Mbit/s");
	units_format_bits(512, buf, sizeof(buf));
	assert_string_equal(buf, "512 bit/s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_cells_and_pairs),
		cmocka_unit_test(test_golden_markdown_page),
		cmocka_unit_test(test_report_options),
		cmocka_unit_test(test_printed_figures_marked),
		cmocka_unit_test(test_older_stream_rates_noted),
		cmocka_unit_test(test_short_window_marked),
		cmocka_unit_test(test_gnuplot_quote),
		cmocka_unit_test(test_human_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
