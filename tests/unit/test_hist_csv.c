/*
 * Unit tests for hist.csv (runner/results.c): a repetition's merged
 * client histograms written through results_write into a temp folder and
 * read back: exact bounds at full resolution, adjacent pairs merged when
 * the buckets would pass HIST_CSV_ROWS, the overflow as a last row, and
 * nothing for a failed repetition.
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
#include "hist.h"
#include "plan.h"
#include "results.h"
#include "unit.h"

static const char yaml[] =
	"name: h\n"
	"matrix:\n"
	"  transport: unix\n"
	"  pattern: pingpong\n"
	"  concurrency: 2\n"
	"  count: 1000\n";

struct fixture {
	char dir[64];
	struct matrix m;
	struct plan pl;
	struct hist h[2];	/* the two clients' */
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char err[512];

	if (!fx)
		return -1;
	if (unit_tmpdir(fx->dir, sizeof(fx->dir), "test_hist_csv") < 0 ||
	    matrix_load_buffer(&fx->m, "h.yaml", yaml, strlen(yaml), err, sizeof(err)) < 0 ||
	    plan_build(&fx->pl, &fx->m, NULL, 0, err, sizeof(err)) < 0) {
		free(fx);
		return -1;
	}
	hist_init(&fx->h[0]);
	hist_init(&fx->h[1]);
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

/* Writes one ok repetition (and a failed one) of the clients' histograms,
 * and reads hist.csv back into t. */
static void write_and_load(struct fixture *fx, struct csv_table *t)
{
	struct worker_result clients[2];
	struct results_writer w;
	struct cell_outcome o;
	struct result_row row;
	char err[512], path[128];

	memset(&o, 0, sizeof(o));
	memset(&row, 0, sizeof(row));
	worker_result_init(&o.server);
	for (size_t i = 0; i < 2; i++) {
		worker_result_init(&clients[i]);
		clients[i].hist = &fx->h[i];
	}
	o.clients = clients;
	o.nclients = 2;
	row.cell = 1;
	row.rep = 2;
	row.ok = 1;
	row.measured_by = "worker";
	strcpy(row.status, "ok");
	assert_int_equal(results_open(&w, fx->dir, &fx->pl, err, sizeof(err)), 0);
	assert_int_equal(results_write(&w, &fx->pl.cells[0], &row, &o, err, sizeof(err)), 0);
	row.ok = 0;	/* a failed repetition: no rows */
	row.rep = 3;
	strcpy(row.status, "timeout");
	assert_int_equal(results_write(&w, &fx->pl.cells[0], &row, &o, err, sizeof(err)), 0);
	assert_int_equal(results_close(&w), 0);
	snprintf(path, sizeof(path), "%s/hist.csv", fx->dir);
	if (csv_table_load(t, path, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(t->ncols, 5);
	static const char *const cols[] = { "cell", "rep", "low_us", "high_us", "count" };
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(t->header[i], cols[i]);
	for (size_t r = 0; r < t->nrows; r++) {
		assert_string_equal(t->rows[r][0], "1");
		assert_string_equal(t->rows[r][1], "2");
	}
}

/* The row [low, high) of t, or -1. */
static long find_row(const struct csv_table *t, const char *low, const char *high)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(t->rows[r][2], low) && !strcmp(t->rows[r][3], high))
			return (long)r;
	return -1;
}

/* The rows add up to the merged count, ascending and disjoint, and their
 * p50 and p99 (nearest rank, the row's midpoint) are within the row's
 * width of the histogram's own. */
static void check_rows(const struct csv_table *t, const struct hist *h)
{
	double sum = 0, last = -1, q[] = { 0.5, 0.99 };

	for (size_t r = 0; r < t->nrows; r++) {
		double lo = atof(t->rows[r][2]), hi = atof(t->rows[r][3]);
		assert_true(lo >= last && hi > lo);
		last = hi;
		sum += atof(t->rows[r][4]);
	}
	assert_true(sum == (double)h->count);
	for (size_t i = 0; i < 2; i++) {
		double rank = ceil(q[i] * sum), seen = 0, want = (double)hist_percentile(h, q[i]) / 1e3;
		for (size_t r = 0; r < t->nrows; r++) {
			double lo = atof(t->rows[r][2]), hi = atof(t->rows[r][3]);
			if ((seen += atof(t->rows[r][4])) < rank)
				continue;
			if (fabs((lo + hi) / 2 - want) > hi - lo)
				fail_msg("p%g: %g from the rows [%g, %g), %g from the histogram",
					 q[i] * 100, (lo + hi) / 2, lo, hi, want);
			break;
		}
	}
}

/* Few buckets: one row each, bounds exact to the ns. */
static void test_hist_rows_full_resolution(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;

	for (uint64_t v = 0; v < 100; v++)
		hist_record(&fx->h[0], v);
	hist_record(&fx->h[1], 5000);	/* [4992, 5024): 32 ns wide */
	hist_record(&fx->h[1], 5001);
	hist_record(&fx->h[1], 12288);	/* [12288, 12352) */
	write_and_load(fx, &t);
	assert_int_equal(t.nrows, 102);
	assert_true(find_row(&t, "0", "0.001") == 0);
	assert_true(find_row(&t, "0.099", "0.1") == 99);
	long r = find_row(&t, "4.992", "5.024");
	assert_true(r == 100);
	assert_string_equal(t.rows[r][4], "2");
	assert_true(find_row(&t, "12.288", "12.352") == 101);
	struct hist all;
	hist_init(&all);
	hist_merge(&all, &fx->h[0]);
	hist_merge(&all, &fx->h[1]);
	check_rows(&t, &all);
	csv_table_release(&t);
}

/* More non-empty buckets than HIST_CSV_ROWS: adjacent pairs merged, the
 * counts kept, the percentiles within the (twice as wide) rows. */
static void test_hist_rows_capped(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;

	/* 0..3071 ns: 256 exact buckets, then 3 octaves and a half of 128 */
	for (uint64_t v = 0; v < 3072; v++)
		hist_record(&fx->h[v % 2], v);
	write_and_load(fx, &t);
	assert_true(t.nrows <= HIST_CSV_ROWS);
	assert_int_equal(t.nrows, 128 + 64 * 3 + 32);
	assert_true(find_row(&t, "0", "0.002") == 0);
	assert_true(find_row(&t, "0.256", "0.26") == 128);	/* 2 ns buckets, paired */
	assert_true(find_row(&t, "3.04", "3.072") == (long)t.nrows - 1);	/* 16 ns, paired */
	assert_string_equal(t.rows[t.nrows - 1][4], "32");
	struct hist all;
	hist_init(&all);
	hist_merge(&all, &fx->h[0]);
	hist_merge(&all, &fx->h[1]);
	check_rows(&t, &all);
	csv_table_release(&t);
}

/* Values of 2^HIST_MAX_BITS ns and more: a last row up to the maximum. */
static void test_hist_rows_overflow(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;

	hist_record(&fx->h[0], 7000);
	hist_record(&fx->h[1], (uint64_t)1 << 41);
	write_and_load(fx, &t);
	assert_int_equal(t.nrows, 2);
	assert_true(find_row(&t, "6.976", "7.008") == 0);
	assert_true(find_row(&t, "1099511627.776", "2199023255.553") == 1);
	assert_string_equal(t.rows[1][4], "1");
	csv_table_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hist_rows_full_resolution, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hist_rows_capped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hist_rows_overflow, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
