/*
 * Unit tests for runner/results.c: rows written through results_open and
 * results_write into a temp folder, read back with csv_table_load, and every
 * column checked by name against the field it must hold.  Every figure of
 * the row is distinct, so a value in the wrong column shows.
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

#include "csvfile.h"
#include "arrays.h"
#include "plan.h"
#include "results.h"
#include "unit.h"

/* One udp stream cell; every key a dimension, one of each kind of value. */
static const char yaml[] =
	"name: r\n"
	"matrix:\n"
	"  transport: udp\n"
	"  pattern: stream\n"
	"  size: 1KiB\n"
	"  concurrency: 2\n"
	"  count: 1000\n"
	"  interval: 250ms\n"
	"  allow_loss: true\n";

struct fixture {
	char dir[64];
	struct matrix m;
	struct plan pl;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char err[512];

	if (!fx)
		return -1;
	if (unit_tmpdir(fx->dir, sizeof(fx->dir), "test_results") < 0 ||
	    matrix_load_buffer(&fx->m, "r.yaml", yaml, strlen(yaml), err, sizeof(err)) < 0) {
		free(fx);
		return -1;
	}
	if (plan_build(&fx->pl, &fx->m, NULL, 0, err, sizeof(err)) < 0) {
		matrix_release(&fx->m);
		free(fx);
		return -1;
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	int rc = unit_remove_tree(fx->dir);

	plan_release(&fx->pl);
	matrix_release(&fx->m);
	free(fx);
	return rc;
}

/* A row whose every figure is distinct (see results.h for the columns). */
static void fill_row(struct result_row *row)
{
	memset(row, 0, sizeof(*row));
	row->cell = 1;
	row->rep = 2;
	row->ok = 1;
	strcpy(row->status, "ok");
	strcpy(row->error, "a, \"quoted\" detail");
	strcpy(row->started_at, "2024-05-06T07:08:09Z");
	row->elapsed_s = 1.5;
	row->messages = 2;
	row->bytes = 3;
	row->msgs_per_s = 4.25;
	row->mib_per_s = 5.5;
	row->rtt_mean_us = 6.5;
	row->rtt_p50_us = 7.5;
	row->rtt_p90_us = 8.5;
	row->rtt_p99_us = 9.5;
	row->rtt_p999_us = 10.5;
	row->rtt_max_us = 11.5;
	row->client_cpu_s = 12.5;
	row->server_cpu_s = 13.5;
	row->cpu_us_per_msg = 14.5;
	row->ctx_switches = 15;
	row->rtt_min_us = 16.5;
	row->rtt_samples = 17;
	row->sent_messages = 18;
	row->sent_msgs_per_s = 19.5;
	row->sent_mib_per_s = 20.5;
	row->sndbuf = 21;
	row->rcvbuf = 22;
	row->nodelay = 23;
	row->max_rss_kib = 24;
	row->wall_s = 25.5;
	row->lost = 26;
	row->duplicated = 27;
	row->reordered = 28;
	row->measured_by = "printed";
	row->cpu_us_per_rtt = 29.5;
	row->start_spread_us = 30.5;
	strcpy(row->start_offsets_us, "1.250;31.750");
	strcpy(row->printed_metrics, "rtt_mean_us;msgs_per_s");
	row->loadavg_before = 0.25;
	row->loadavg_after = 1.5;
	strcpy(row->repeat_stop, "narrow (4.2%)");
	row->steal_pct = 1.25;
	row->iowait_pct = 0.5;
	row->runnable = 3;
	row->cpu_mhz = NAN;	/* a machine that does not say */
	row->other_cpus = 0.125;
	row->tcp_retrans = 31;
	row->tcp_rtt_us = 32.5;
	row->tcp_rttvar_us = 33.5;
	row->tcp_cwnd = 34;
	row->tcp_delivery_rate = 35000000000;
	row->tcp_bytes_retrans = 36;
	row->tcp_mss = 65483;
	row->rev_messages = 32;
	row->rev_bytes = 33;
	row->rev_msgs_per_s = 34.5;
	row->rev_mib_per_s = 35.5;
	strcpy(row->congestion, "reno");
	row->mss = 988;
	row->zc_sends = 40;
	row->zc_completions = NAN;
	row->zc_copied = 0;
}

static void load(struct csv_table *t, const char *dir, const char *file)
{
	char path[128], err[512];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (csv_table_load(t, path, err, sizeof(err)) < 0)
		fail_msg("%s", err);
}

static void expect_col(const struct csv_table *t, size_t r, const char *name, const char *want)
{
	int c = csv_table_col(t, name);

	if (c < 0)
		fail_msg("no column %s", name);
	if (strcmp(t->rows[r][c], want))
		fail_msg("row %zu column %s is '%s', expected '%s'", r, name, t->rows[r][c], want);
}

static void test_results_columns_by_name(void **state)
{
	static const char *const want[][2] = {
		{ "cell", "1" }, { "transport", "udp" }, { "pattern", "stream" },
		{ "size", "1024" }, { "concurrency", "2" }, { "count", "1000" },
		{ "interval", "0.25" }, { "allow_loss", "true" },
		{ "rep", "2" }, { "status", "ok" }, { "error", "a, \"quoted\" detail" },
		{ "elapsed_s", "1.5" }, { "messages", "2" }, { "bytes", "3" },
		{ "msgs_per_s", "4.25" }, { "mib_per_s", "5.5" }, { "rtt_mean_us", "6.5" },
		{ "rtt_p50_us", "7.5" }, { "rtt_p90_us", "8.5" }, { "rtt_p99_us", "9.5" },
		{ "rtt_p999_us", "10.5" }, { "rtt_max_us", "11.5" }, { "client_cpu_s", "12.5" },
		{ "server_cpu_s", "13.5" }, { "cpu_us_per_msg", "14.5" },
		{ "ctx_switches", "15" }, { "rtt_min_us", "16.5" }, { "rtt_samples", "17" },
		{ "sent_messages", "18" }, { "sent_msgs_per_s", "19.5" },
		{ "sent_mib_per_s", "20.5" }, { "sndbuf", "21" }, { "rcvbuf", "22" },
		{ "nodelay", "23" }, { "max_rss_kib", "24" }, { "wall_s", "25.5" },
		{ "started_at", "2024-05-06T07:08:09Z" }, { "lost", "26" },
		{ "duplicated", "27" }, { "reordered", "28" }, { "measured_by", "printed" },
		{ "cpu_us_per_rtt", "29.5" }, { "start_spread_us", "30.5" },
		{ "start_offsets_us", "1.250;31.750" }, { "printed_metrics", "rtt_mean_us;msgs_per_s" },
		{ "loadavg_before", "0.25" }, { "loadavg_after", "1.5" },
		{ "repeat_stop", "narrow (4.2%)" }, { "placement", "none" },
		{ "steal_pct", "1.25" }, { "iowait_pct", "0.5" }, { "runnable", "3" },
		{ "cpu_mhz", "" }, { "other_cpus", "0.125" },
		{ "tcp_retrans", "31" }, { "tcp_rtt_us", "32.5" }, { "tcp_rttvar_us", "33.5" },
		{ "tcp_cwnd", "34" }, { "tcp_delivery_rate", "3.5e+10" },
		{ "tcp_bytes_retrans", "36" }, { "tcp_mss", "65483" },
		{ "rev_messages", "32" }, { "rev_bytes", "33" }, { "rev_msgs_per_s", "34.5" },
		{ "rev_mib_per_s", "35.5" },
		{ "congestion", "reno" }, { "mss", "988" },
		{ "zc_sends", "40" }, { "zc_completions", "" }, { "zc_copied", "0" },
	};
	struct fixture *fx = *state;
	struct results_writer w;
	struct cell_outcome o;
	struct result_row row;
	struct csv_table t;
	char err[512];

	memset(&o, 0, sizeof(o));
	worker_result_init(&o.server);
	fill_row(&row);
	assert_int_equal(results_open(&w, fx->dir, &fx->pl, err, sizeof(err)), 0);
	assert_int_equal(results_write(&w, &fx->pl.cells[0], &row, &o, err, sizeof(err)), 0);
	/* a failed row: its figures are empty, not zero */
	row.ok = 0;
	strcpy(row.status, "timeout");
	row.msgs_per_s = row.sndbuf = row.lost = row.loadavg_after = NAN;
	assert_int_equal(results_write(&w, &fx->pl.cells[0], &row, &o, err, sizeof(err)), 0);
	assert_int_equal(results_close(&w), 0);

	load(&t, fx->dir, "results.csv");
	/* columns are only ever added at the end: the order is the contract */
	static const char *const header[] = {
		"cell", "transport", "pattern", "size", "concurrency", "count", "interval",
		"allow_loss", "rep", "status", "error", "elapsed_s", "messages", "bytes",
		"msgs_per_s", "mib_per_s", "rtt_mean_us", "rtt_p50_us", "rtt_p90_us",
		"rtt_p99_us", "rtt_p999_us", "rtt_max_us", "client_cpu_s", "server_cpu_s",
		"cpu_us_per_msg", "ctx_switches", "rtt_min_us", "rtt_samples", "sent_messages",
		"sent_msgs_per_s", "sent_mib_per_s", "sndbuf", "rcvbuf", "nodelay",
		"max_rss_kib", "wall_s", "started_at", "lost", "duplicated", "reordered",
		"measured_by", "cpu_us_per_rtt", "start_spread_us", "start_offsets_us",
		"printed_metrics", "loadavg_before", "loadavg_after", "repeat_stop", "placement",
		"steal_pct", "iowait_pct", "runnable", "cpu_mhz", "other_cpus",
		"tcp_retrans", "tcp_rtt_us", "tcp_rttvar_us", "tcp_cwnd", "tcp_delivery_rate",
		"tcp_bytes_retrans", "tcp_mss",
		"rev_messages", "rev_bytes", "rev_msgs_per_s", "rev_mib_per_s",
		"congestion", "mss",
		"zc_sends", "zc_completions", "zc_copied",
	};
	assert_int_equal(t.ncols, ARRAY_SIZE(header));
	for (size_t i = 0; i < t.ncols; i++)
		assert_string_equal(t.header[i], header[i]);
	assert_int_equal(t.nrows, 2);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		expect_col(&t, 0, want[i][0], want[i][1]);
	expect_col(&t, 1, "status", "timeout");
	expect_col(&t, 1, "placement", "none");	/* failed rows say where they ran too */
	expect_col(&t, 1, "msgs_per_s", "");
	expect_col(&t, 1, "sndbuf", "");
	expect_col(&t, 1, "rcvbuf", "22");
	expect_col(&t, 1, "lost", "");
	expect_col(&t, 1, "loadavg_before", "0.25");	/* the load is known all the same */
	expect_col(&t, 1, "loadavg_after", "");		/* unreadable: empty */
	csv_table_release(&t);

	/* a stream row with no timeline lines writes no timeline rows */
	load(&t, fx->dir, "timeline.csv");
	assert_int_equal(t.nrows, 0);
	csv_table_release(&t);
}

static void test_timeline_intervals(void **state)
{
	static const char *const want[][9] = {
		/* cell rep interval_start_s interval_s messages bytes covered_s
		 * rx_cpu_s tx_cpu_s */
		{ "1", "3", "0", "0.25", "100", "102400", "0.25", "0.1", "0.06" },
		{ "1", "3", "0.25", "0.25", "200", "204800", "0.25", "0.2", "0.1" },
		{ "1", "3", "0.5", "0.25", "50", "51200", "0.1", "0.05", "0.03" },
	};
	static const char *const cols[] = {
		"cell", "rep", "interval_start_s", "interval_s", "messages", "bytes", "covered_s",
		"rx_cpu_s", "tx_cpu_s",
	};
	uint64_t tm[3] = { 100, 200, 50 }, tb[3] = { 102400, 204800, 51200 };
	uint64_t rx[3] = { 100000000, 200000000, 50000000 };
	/* two senders: one at the receiver's 250 ms, one at 125 ms (added in
	 * pairs), the second ending an interval early */
	uint64_t tx1[3] = { 50000000, 80000000, 30000000 };
	uint64_t tx2[4] = { 4000000, 6000000, 10000000, 10000000 };
	struct worker_result cl[2];
	struct fixture *fx = *state;
	struct results_writer w;
	struct cell_outcome o;
	struct result_row row;
	struct csv_table t;
	char err[512];

	memset(&o, 0, sizeof(o));
	worker_result_init(&o.server);
	/* the start signal at 10 s, the first timed read at 10.05 s, the last
	 * message at 10.6 s: 0.1 s into the third 250 ms interval */
	o.server.t0_ns = 10000000000ull;
	o.server.start_ns = 10050000000ull;
	o.server.end_ns = 10600000000ull;
	o.server.tl_messages = tm;
	o.server.tl_bytes = tb;
	o.server.tl_len = 3;
	o.server.tl_cpu_ns = rx;
	o.server.tl_has_cpu = 1;
	o.server.tl_interval_ns = 250000000;
	worker_result_init(&cl[0]);
	worker_result_init(&cl[1]);
	cl[0].tl_cpu_ns = tx1;
	cl[0].tl_len = 3;
	cl[0].tl_interval_ns = 250000000;
	cl[1].tl_cpu_ns = tx2;
	cl[1].tl_len = 4;
	cl[1].tl_interval_ns = 125000000;
	cl[0].tl_has_cpu = cl[1].tl_has_cpu = 1;
	o.clients = cl;
	o.nclients = 2;
	fill_row(&row);
	row.rep = 3;
	assert_int_equal(results_open(&w, fx->dir, &fx->pl, err, sizeof(err)), 0);
	assert_int_equal(results_write(&w, &fx->pl.cells[0], &row, &o, err, sizeof(err)), 0);
	/* a failed repetition has no timeline */
	row.ok = 0;
	assert_int_equal(results_write(&w, &fx->pl.cells[0], &row, &o, err, sizeof(err)), 0);
	assert_int_equal(results_close(&w), 0);

	load(&t, fx->dir, "timeline.csv");
	assert_int_equal(t.nrows, 3);
	for (size_t r = 0; r < 3; r++)
		for (size_t i = 0; i < 9; i++)
			expect_col(&t, r, cols[i], want[r][i]);
	csv_table_release(&t);
}

/* The metric table is the one list of metrics: each of its lines is a
 * field of the row (by the line's name), a column of results.csv exactly
 * once, NaN in a row that failed before any figure, and written from its
 * own field. */
static void test_every_metric_is_a_field_and_a_column(void **state)
{
	struct fixture *fx = *state;
	struct results_writer w;
	struct cell_outcome o;
	struct result_row row;
	struct csv_table t;
	const char *cols[512];
	char err[512], want[32];
	size_t n = results_columns(&fx->pl, cols, 512);

	fill_row(&row);
	for (int m = 0; m < MATRIX_NMETRICS; m++) {
		double *f = aggregate_row_field(&row, metrics[m].name);
		size_t seen = 0;
		if (!f)
			fail_msg("metric %s is no field of struct result_row", metrics[m].name);
		for (int k = 0; k < m; k++)
			if (aggregate_row_field(&row, metrics[k].name) == f)
				fail_msg("metrics %s and %s share a field", metrics[k].name,
					 metrics[m].name);
		for (size_t i = 0; i < n; i++)
			seen += !strcmp(cols[i], metrics[m].name);
		if (seen != 1)
			fail_msg("metric %s is %zu columns of results.csv", metrics[m].name, seen);
		*f = 100.25 + m;
	}
	assert_null(aggregate_row_field(&row, "status"));
	assert_true(isnan(aggregate_row_figure(&row, "no_such_figure")));
	memset(&o, 0, sizeof(o));
	worker_result_init(&o.server);
	assert_int_equal(results_open(&w, fx->dir, &fx->pl, err, sizeof(err)), 0);
	assert_int_equal(results_write(&w, &fx->pl.cells[0], &row, &o, err, sizeof(err)), 0);
	assert_int_equal(results_close(&w), 0);
	load(&t, fx->dir, "results.csv");
	for (int m = 0; m < MATRIX_NMETRICS; m++) {
		snprintf(want, sizeof(want), "%.10g", 100.25 + m);
		expect_col(&t, 0, metrics[m].name, want);
	}
	csv_table_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_results_columns_by_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_metric_is_a_field_and_a_column, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_timeline_intervals, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
