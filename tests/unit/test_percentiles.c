/*
 * Unit tests for the top-level `percentiles:` key (base/matrix_percentiles.c)
 * and the one naming rule of its columns (base/percentile.c): the lists it
 * takes, and each refusal at FILE:LINE:COL with the rule stated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arrays.h"
#include "matrix.h"
#include "percentile.h"
#include "vocab.h"

#define HEAD "name: t\nmatrix:\n  size: 16\n"

static int load(struct matrix *m, const char *yaml, char *err, size_t errlen)
{
	return matrix_load_buffer(m, "t.yaml", yaml, strlen(yaml), err, errlen);
}

static void names(void **state)
{
	static const struct {
		double p;
		const char *col, *label;
	} cases[] = {
		{ 50, "rtt_p50_us", "p50" }, { 90, "rtt_p90_us", "p90" },
		{ 99, "rtt_p99_us", "p99" }, { 99.9, "rtt_p999_us", "p99.9" },
		{ 99.99, "rtt_p9999_us", "p99.99" }, { 99.999, "rtt_p99999_us", "p99.999" },
		{ 75, "rtt_p75_us", "p75" }, { 99.5, "rtt_p995_us", "p99.5" },
		{ 5, "rtt_p05_us", "p5" }, { 0.5, "rtt_p005_us", "p0.5" },
		{ 9.99, "rtt_p0999_us", "p9.99" }, { 0.001, "rtt_p00001_us", "p0.001" },
		{ 12.5, "rtt_p125_us", "p12.5" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		percentile_column(cases[i].p, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].col);
		assert_true(strlen(buf) < PERCENTILE_COL_MAX);
		percentile_label(cases[i].p, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].label);
	}
	/* the metric table's four keep their lines; others have none */
	assert_int_equal(percentile_metric(50), matrix_metric_index("rtt_p50_us"));
	assert_int_equal(percentile_metric(99.9), matrix_metric_index("rtt_p999_us"));
	assert_int_equal(percentile_metric(99.99), -1);
	assert_int_equal(percentile_metric(75), -1);
	for (size_t i = 0; i < PERCENTILE_NDEFAULT; i++)
		assert_true(percentile_metric(percentile_default[i]) >= 0);
}

static void lists(void **state)
{
	struct matrix m;
	char err[1024];

	(void)state;
	if (load(&m, HEAD "percentiles: [50, 90, 99, 99.9, 99.99, 99.999]\n", err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.npercentiles, 6);
	assert_true(m.percentiles[4] == 99.99 && m.percentiles[5] == 99.999);
	assert_string_equal(m.percentile_cols[5], "rtt_p99999_us");
	assert_int_equal(m.percentiles_pos.line, 4);
	matrix_release(&m);
	/* a block list, one entry, 3 decimals, 12 entries */
	if (load(&m, HEAD "percentiles:\n  - 99.995\n", err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.npercentiles, 1);
	assert_string_equal(m.percentile_cols[0], "rtt_p99995_us");
	matrix_release(&m);
	if (load(&m, HEAD "percentiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 99.999]\n", err,
		 sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.npercentiles, PERCENTILE_MAX);
	matrix_release(&m);
	/* without the key: none (each output its own set) */
	if (load(&m, HEAD, err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.npercentiles, 0);
	matrix_release(&m);
}

static void refusals(void **state)
{
	static const struct {
		const char *value, *where, *msg;
	} cases[] = {
		{ "[50, 99.9999]", "t.yaml:4:19: ", "'99.9999' has 4 decimals, at most 3" },
		{ "[0, 50]", "t.yaml:4:15: ", "0 is not above 0 and below 100" },
		{ "[50, 100]", "t.yaml:4:19: ", "100 is not above 0 and below 100" },
		{ "[50, 50]", "t.yaml:4:19: ", "50 is not above 50 before it" },
		{ "[99, 50]", "t.yaml:4:19: ", "50 is not above 99 before it" },
		{ "[]", "t.yaml:4:14: ", "an empty list" },
		{ "99", "t.yaml:4:14: ", "not a list" },
		{ "", "t.yaml:4:1: ", "not a list" },
		{ "[p99]", "t.yaml:4:15: ", "'p99' is not a number" },
		{ "[1e2]", "t.yaml:4:15: ", "'1e2' is not a number" },
		{ "[-5]", "t.yaml:4:15: ", "'-5' is not a number" },
		{ "[50.]", "t.yaml:4:15: ", "'50.' is not a number" },
		{ "[99%]", "t.yaml:4:15: ", "'99%' is not a number" },
		{ "[[50]]", "t.yaml:4:15: ", "an entry is not a number" },
		{ "{p: 50}", "t.yaml:4:14: ", "not a list" },
		{ "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]", "t.yaml:4:14: ",
		  "13 entries, at most 12" },
	};
	char yaml[256], err[1024];
	struct matrix m;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(yaml, sizeof(yaml), HEAD "percentiles: %s\n", cases[i].value);
		if (load(&m, yaml, err, sizeof err) == 0) {
			matrix_release(&m);
			fail_msg("percentiles: %s was taken", cases[i].value);
		}
		if (strncmp(err, cases[i].where, strlen(cases[i].where)) || !strstr(err, cases[i].msg))
			fail_msg("percentiles: %s: got '%s', want '%s...%s...'", cases[i].value, err,
				 cases[i].where, cases[i].msg);
		/* the rule, stated in every refusal */
		if (!strstr(err, "increasing, each a number above 0 and below 100 with at most 3 "
			    "decimals"))
			fail_msg("percentiles: %s: no rule in '%s'", cases[i].value, err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(lists),
		cmocka_unit_test(refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
