/*
 * test_gnuplot_render: a folder's charts drawn by gnuplot_render
 * (reports/gnuplot.h) in a gnuplot session a processor: each image the same bytes as
 * `gnuplot -c` alone draws, a script that fails, or a gnuplot that dies on
 * one, costs that chart only, named in the error, with no temporary image
 * left; the latency-N charts are found in turn.  Needs gnuplot (make
 * test-deps installs it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "gnuplot.h"
#include "unit.h"

static char dir[256];

/* A chart script as gnuplot_write_scripts writes them: the terminal by
 * the output's extension, data from ARG1, a setting that would leak into
 * the next chart if the session were not reset. */
#define GOOD(title)                                                                          \
	"if (ARGC < 2) { print 'usage'; exit }\n"                                             \
	"if (strstrt(ARG2, '.png') > 0) {\n"                                                  \
	"    set terminal pngcairo noenhanced size 320,240 font 'sans,10'\n"                   \
	"} else {\n"                                                                           \
	"    set terminal svg noenhanced size 320,240 font 'sans,10' background rgb 'white'\n" \
	"}\n"                                                                                  \
	"set output ARG2\n"                                                                    \
	"set datafile separator ','\n"                                                         \
	"set title '" title "'\n"                                                              \
	"plot ARG1 using 1:2 with linespoints title 'y'\n"

/* ... and one whose settings differ from every default, drawn first */
#define ODD                                                                                  \
	"if (strstrt(ARG2, '.png') > 0) {\n"                                                  \
	"    set terminal pngcairo noenhanced size 320,240 font 'sans,10'\n"                   \
	"} else {\n"                                                                           \
	"    set terminal svg noenhanced size 320,240 font 'sans,10' background rgb 'white'\n" \
	"}\n"                                                                                  \
	"set output ARG2\n"                                                                    \
	"set datafile separator ','\n"                                                         \
	"set logscale y\n set grid\n set key left\n set border 3\n"                            \
	"f(x) = 2 * x\n"                                                                       \
	"set multiplot layout 2,1\n"                                                           \
	"plot ARG1 using 1:(f($2)) with points\n"                                              \
	"plot ARG1 using 1:2 with lines\n"                                                     \
	"unset multiplot\n"

static int setup(void **state)
{
	(void)state;
	unsetenv("MATRIX_CHARTS");	/* both formats, whatever the driver set */
	if (unit_tmpdir(dir, sizeof(dir), "test_gnuplot_render") < 0)
		return -1;
	char plots[300];
	snprintf(plots, sizeof(plots), "%s/plots", dir);
	if (mkdir(plots, 0755) < 0)
		return -1;
	unit_write_file(dir, "summary.csv", "1,2\n2,4\n3,9\n");
	unit_write_file(dir, "ratios.csv", "1,1\n2,3\n");
	unit_write_file(dir, "hist.csv", "1,5\n2,7\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return unit_remove_tree(dir);
}

static int exists(const char *name)
{
	char p[400];
	struct stat st;

	snprintf(p, sizeof(p), "%s/plots/%s", dir, name);
	return stat(p, &st) == 0;
}

/* no .NAME.PID.tmp.EXT left in plots/ */
static void no_temporary_left(void)
{
	char p[300];
	DIR *d;
	struct dirent *e;

	snprintf(p, sizeof(p), "%s/plots", dir);
	assert_non_null(d = opendir(p));
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			fail_msg("left behind: plots/%s", e->d_name);
	closedir(d);
}

/* `cd dir && gnuplot -c plots/NAME.gp DATA OUT`: the chart drawn alone */
static void draw_alone(const char *name, const char *data, const char *out)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot -c plots/%s.gp %s %s 2>/dev/null", dir,
		 name, data, out);
	assert_int_equal(system(cmd), 0);
}

static void same_file(const char *a, const char *b)
{
	char pa[400], pb[400];
	struct stat sa, sb;

	snprintf(pa, sizeof(pa), "%s/%s", dir, a);
	snprintf(pb, sizeof(pb), "%s/%s", dir, b);
	assert_int_equal(stat(pa, &sa), 0);
	assert_int_equal(stat(pb, &sb), 0);
	char *x = unit_slurp(pa), *y = unit_slurp(pb);
	if (sa.st_size != sb.st_size || memcmp(x, y, (size_t)sa.st_size))
		fail_msg("%s and %s differ (%lld and %lld bytes)", a, b, (long long)sa.st_size,
			 (long long)sb.st_size);
	free(x);
	free(y);
}

static void test_one_session_draws_what_each_alone_draws(void **state)
{
	char err[8192] = "";

	(void)state;
	unit_write_file(dir, "plots/throughput.gp", ODD);
	unit_write_file(dir, "plots/rtt.gp", GOOD("rtt"));
	unit_write_file(dir, "plots/ratios.gp", GOOD("ratios"));
	unit_write_file(dir, "plots/latency-1.gp", GOOD("one"));
	unit_write_file(dir, "plots/latency-2.gp", GOOD("two"));
	unit_write_file(dir, "plots/latency-4.gp", GOOD("four: not after a gap"));
	if (gnuplot_render(dir, err, sizeof(err)) != 0)
		fail_msg("gnuplot_render: %s", err);
	static const char *const drawn[] = { "throughput", "rtt", "ratios", "latency-1",
					     "latency-2" };
	for (size_t i = 0; i < sizeof(drawn) / sizeof(drawn[0]); i++) {
		const char *data = !strcmp(drawn[i], "ratios")		 ? "ratios.csv"
				   : !strncmp(drawn[i], "latency", 7) ? "hist.csv"
									: "summary.csv";
		char alone[64], got[64];
		for (int png = 0; png < 2; png++) {
			snprintf(alone, sizeof(alone), "alone.%s", png ? "png" : "svg");
			snprintf(got, sizeof(got), "plots/%s.%s", drawn[i], png ? "png" : "svg");
			draw_alone(drawn[i], data, alone);
			same_file(got, alone);
		}
	}
	assert_false(exists("latency-4.svg"));
	assert_false(exists("cpu.svg"));
	assert_false(exists("gnuplot.log"));
	no_temporary_left();
}

static void test_a_failing_chart_costs_itself_only(void **state)
{
	char err[8192] = "";

	(void)state;
	/* fails in its second panel, in multiplot mode */
	unit_write_file(dir, "plots/throughput.gp", ODD "set multiplot layout 2,1\nplot x\n"
							 "plot sin(\n");
	unit_write_file(dir, "plots/rtt.gp", GOOD("rtt"));
	/* gnuplot itself ends on this one, so the session dies mid-way */
	unit_write_file(dir, "plots/cpu.gp", "exit gnuplot\n");
	unit_write_file(dir, "plots/ratios.gp", GOOD("ratios"));
	assert_int_equal(gnuplot_render(dir, err, sizeof(err)), -1);
	if (!strstr(err, "gnuplot failed on ") || !strstr(err, "/plots/throughput.gp (svg)") ||
	    !strstr(err, "see ") || !strstr(err, "plots/gnuplot.log"))
		fail_msg("err: %s", err);
	assert_false(exists("throughput.svg"));
	assert_false(exists("throughput.png"));
	assert_false(exists("cpu.svg"));
	assert_false(exists("cpu.png"));
	assert_true(exists("rtt.svg"));
	assert_true(exists("rtt.png"));
	assert_true(exists("ratios.svg"));
	assert_true(exists("ratios.png"));
	assert_true(exists("gnuplot.log"));
	draw_alone("ratios", "ratios.csv", "alone.svg");
	same_file("plots/ratios.svg", "alone.svg");
	no_temporary_left();
}

static void test_one_chart_and_its_own_log(void **state)
{
	char err[8192] = "";

	(void)state;
	unit_write_file(dir, "plots/history.gp", GOOD("history"));
	unit_write_file(dir, "plots/bad.gp", "exit gnuplot\n");
	assert_int_equal(gnuplot_render_chart(dir, "history", "summary.csv", err, sizeof(err)), 0);
	draw_alone("history", "summary.csv", "alone.png");
	same_file("plots/history.png", "alone.png");
	assert_false(exists("history.log"));
	assert_int_equal(gnuplot_render_chart(dir, "bad", "summary.csv", err, sizeof(err)), -1);
	if (!strstr(err, "/plots/bad.gp (svg); see ") || !strstr(err, "/plots/bad.log"))
		fail_msg("err: %s", err);
	assert_false(exists("bad.svg"));
	assert_false(exists("bad.png"));
	no_temporary_left();
}

/* A folder of many charts is drawn by a gnuplot a processor (two here, on
 * two or more): every chart still drawn as alone, the failures of either
 * session each costing its chart only, the first in the folder's order
 * named, and both sessions' messages in the one log. */
static void test_sessions_at_once_draw_every_chart(void **state)
{
	static const char *const good[] = { "rtt", "ratios", "timeline", "latency-1",
					     "latency-3", "latency-4", "latency-5" };
	char err[8192] = "", path[100];

	(void)state;
	unit_write_file(dir, "timeline.csv", "1,3\n2,1\n");
	unit_write_file(dir, "plots/throughput.gp", GOOD("throughput") "plot sin(\n");
	unit_write_file(dir, "plots/cpu.gp", "exit gnuplot\n");
	unit_write_file(dir, "plots/latency-2.gp", GOOD("two") "plot cos(\n");
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(path, sizeof(path), "plots/%s.gp", good[i]);
		unit_write_file(dir, path, ODD);
	}
	assert_int_equal(gnuplot_render(dir, err, sizeof(err)), -1);
	if (!strstr(err, "/plots/throughput.gp (svg); see "))
		fail_msg("err: %s", err);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *data = !strcmp(good[i], "ratios")	     ? "ratios.csv"
				   : !strcmp(good[i], "timeline")   ? "timeline.csv"
				   : !strncmp(good[i], "latency", 7) ? "hist.csv"
								     : "summary.csv";
		char got[64];
		for (int png = 0; png < 2; png++) {
			snprintf(got, sizeof(got), "plots/%s.%s", good[i], png ? "png" : "svg");
			draw_alone(good[i], data, png ? "alone.png" : "alone.svg");
			same_file(got, png ? "alone.png" : "alone.svg");
		}
	}
	static const char *const bad[] = { "throughput", "cpu", "latency-2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (int png = 0; png < 2; png++) {
			snprintf(path, sizeof(path), "%s.%s", bad[i], png ? "png" : "svg");
			assert_false(exists(path));
		}
	char logpath[400];
	snprintf(logpath, sizeof(logpath), "%s/plots/gnuplot.log", dir);
	char *log = unit_slurp(logpath);
	if (!strstr(log, "plots/throughput.gp") || !strstr(log, "plots/latency-2.gp"))
		fail_msg("gnuplot.log lacks a failure: %s", log);
	free(log);
	no_temporary_left();
}

/* MATRIX_CHARTS=svg: the SVGs only; svg,png both; anything else refused */
static void test_svg_only_when_asked(void **state)
{
	char err[8192] = "";

	(void)state;
	unit_write_file(dir, "plots/rtt.gp", GOOD("rtt"));
	setenv("MATRIX_CHARTS", "svg", 1);
	assert_int_equal(gnuplot_formats_check(err, sizeof(err)), 0);
	assert_int_equal(gnuplot_render(dir, err, sizeof(err)), 0);
	assert_true(exists("rtt.svg"));
	assert_false(exists("rtt.png"));
	assert_int_equal(gnuplot_render_chart(dir, "rtt", "summary.csv", err, sizeof(err)), 0);
	assert_false(exists("rtt.png"));
	setenv("MATRIX_CHARTS", "svg,png", 1);
	assert_int_equal(gnuplot_formats_check(err, sizeof(err)), 0);
	assert_int_equal(gnuplot_render(dir, err, sizeof(err)), 0);
	assert_true(exists("rtt.png"));
	setenv("MATRIX_CHARTS", "png", 1);
	assert_int_equal(gnuplot_formats_check(err, sizeof(err)), -1);
	assert_string_equal(err, "MATRIX_CHARTS=png: expected svg (SVG images only) or svg,png "
			    "(both, the default)");
	unsetenv("MATRIX_CHARTS");
	no_temporary_left();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_session_draws_what_each_alone_draws,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_failing_chart_costs_itself_only, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_one_chart_and_its_own_log, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sessions_at_once_draw_every_chart, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_svg_only_when_asked, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
