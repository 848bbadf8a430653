/*
 * Unit tests for gate/compare.c: the one-sided Mann-Whitney p-value
 * (exact small-sample values, as scipy.stats.mannwhitneyu(x, y,
 * alternative='less', method='exact') gives them), the Benjamini-Hochberg
 * correction (worked by hand), the bootstrap interval with its fixed seed
 * and its bounds at their exact ranks,
 * and the verdicts at their edges on reports made by hand.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "rng.h"
#include "unit.h"

static void near(double got, double want, const char *what)
{
	if (!(fabs(got - want) <= 1e-9 * (fabs(want) > 1 ? fabs(want) : 1)))
		fail_msg("%s is %.12g, expected %.12g", what, got, want);
}

static void test_mann_whitney_exact(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 }, c[] = { 1, 2, 4 }, d[] = { 3, 5, 6 };
	const double e[] = { 3, 4, 5 }, f[] = { 10, 11, 12, 13 }, g[] = { 1, 2, 3, 4, 5 };

	(void)state;
	near(compare_mw_p_smaller(a, 3, b, 3), 1.0 / 20, "all smaller, 3 and 3");
	near(compare_mw_p_smaller(c, 3, d, 3), 2.0 / 20, "one pair out of order");
	near(compare_mw_p_smaller(b, 3, a, 3), 1.0, "all larger");
	/* a tie counts 1/2 and U is rounded down: 8.5 -> 8, as one pair out */
	near(compare_mw_p_smaller(a, 3, e, 3), 2.0 / 20, "a tie");
	/* 5 and 4, all smaller: 1 / C(9, 4) */
	near(compare_mw_p_smaller(g, 5, f, 4), 1.0 / 126, "5 and 4");
	assert_true(isnan(compare_mw_p_smaller(a, 0, b, 3)));
}

static void test_benjamini_hochberg(void **state)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.5 }, p2[] = { NAN, 0.01, 0.02 };
	double q[4];

	(void)state;
	compare_bh(p, 4, q);
	near(q[0], 0.04, "q of 0.01");		/* 0.01 * 4 / 1 */
	near(q[1], 0.04 * 4 / 3, "q of 0.04");	/* 0.0533 */
	near(q[2], 0.04 * 4 / 3, "q of 0.03");	/* min(0.03 * 4 / 2, 0.0533) */
	near(q[3], 0.5, "q of 0.5");
	compare_bh(p2, 3, q);
	assert_true(isnan(q[0]));
	near(q[1], 0.02, "q of 0.01 among two");
	near(q[2], 0.02, "q of 0.02 among two");
}

static void test_bootstrap_is_fixed(void **state)
{
	const double a[] = { 90, 95, 100, 105, 110, 93, 107 }, b[] = { 100, 101, 99, 98, 102 };
	const double two[] = { 2, 2, 2 }, one[] = { 1, 1, 1 };
	double lo, hi, lo2, hi2;

	(void)state;
	assert_int_equal(compare_boot_ratio(a, 7, b, 5, &lo, &hi), 0);
	assert_int_equal(compare_boot_ratio(a, 7, b, 5, &lo2, &hi2), 0);
	assert_true(lo == lo2 && hi == hi2);	/* the same data, the same interval */
	assert_true(lo <= 1.0 && 1.0 <= hi);	/* holds the ratio of medians, 100/100 */
	assert_true(lo >= 0.9 / 1.02 - 1e-12 && hi <= 1.1 / 0.98 + 1e-12);
	assert_int_equal(compare_boot_ratio(two, 3, one, 3, &lo, &hi), 0);
	near(lo, 2, "constant lo");
	near(hi, 2, "constant hi");
	assert_int_equal(compare_boot_ratio(two, 0, one, 3, &lo, &hi), -1);
	assert_true(isnan(lo) && isnan(hi));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A resample's median as compare.c draws it: n draws of v[next % n]. */
static double drawn_median(const double *v, size_t n, uint64_t *rng)
{
	double t[64];

	for (size_t i = 0; i < n; i++)
		t[i] = v[rng_next(rng) % n];
	qsort(t, n, sizeof(*t), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/*
 * The bootstrap interval's bounds at their exact ranks.  The resampled
 * ratios are drawn here as compare.c draws them (the seed, each resample
 * of a then of b, splitmix64's next value modulo n), sorted, and the
 * bounds must be the 250th and the 9,751st of the 10,000 (indices
 * floor(0.025 * 9999) = 249 and ceil(0.975 * 9999) = 9750).  The medians
 * of resamples take few values, so the sorted ratios hold long runs of
 * equal ones, and a rank one off often gives the same bound: that is how
 * an off-by-one in the lower rank once passed every test.  These sides,
 * 37 and 20 values spaced unevenly, were picked (by trying sizes) for
 * ratios that differ on both sides of both ranks (checked first), so a
 * rank one off, either way, at either end, gives another value.
 */
static void test_bootstrap_exact_ranks(void **state)
{
	enum { NA = 37, NB = 20 };
	double a[NA], b[NB], lo, hi;
	static double r[COMPARE_RESAMPLES];
	uint64_t rng = COMPARE_SEED;

	(void)state;
	assert_int_equal(COMPARE_RESAMPLES, 10000);
	for (size_t i = 0; i < NA; i++)
		a[i] = 100 + 3.1 * (double)i + 0.013 * (double)(i * i * i % 17) +
		       0.0007 * (double)(i * i % 29);
	for (size_t i = 0; i < NB; i++)
		b[i] = 90 + 2.7 * (double)((i * 7) % NB) + 0.011 * (double)(i * i % 13) +
		       0.00031 * (double)(i * i * i % 31);
	for (size_t i = 0; i < COMPARE_RESAMPLES; i++) {
		double ma = drawn_median(a, NA, &rng), mb = drawn_median(b, NB, &rng);
		r[i] = ma / mb;
	}
	qsort(r, COMPARE_RESAMPLES, sizeof(*r), cmp_double);
	if (!(r[248] < r[249] && r[249] < r[250] && r[9749] < r[9750] && r[9750] < r[9751]))
		fail_msg("the test's data: a bound's rank has an equal neighbour");
	assert_int_equal(compare_boot_ratio(a, NA, b, NB, &lo, &hi), 0);
	if (lo != r[249])
		fail_msg("lower bound %.12g is not the 250th of the sorted ratios, %.12g (249th "
			 "%.12g, 251st %.12g)", lo, r[249], r[248], r[250]);
	if (hi != r[9750])
		fail_msg("upper bound %.12g is not the 9,751st of the sorted ratios, %.12g (9,750th "
			 "%.12g, 9,752nd %.12g)", hi, r[9750], r[9749], r[9751]);
}

/* A report made by hand: cells of one dimension "transport" and, for
 * msgs_per_s (higher is better) and rtt_p50_us (lower), the values given. */
struct hand {
	struct report r;
	struct rcell cells[4];
	char *dimv[4][1];
};

static void hand_cell(struct hand *h, size_t i, const char *transport, const double *thr,
		      const double *rtt, size_t n)
{
	unit_hand_cell(&h->cells[i], (unsigned)i + 1, h->dimv[i], transport, thr, rtt, n);
	h->r.ncells = i + 1;
}

static void hand_init(struct hand *h, const char *dir)
{
	static char *names[] = { "transport" };

	memset(h, 0, sizeof(*h));
	h->r.dir = (char *)dir;
	h->r.dimnames = names;
	h->r.ndims = 1;
	h->r.cells = h->cells;
}

static const struct cmp_row *row_of(const struct comparison *c, const char *label, int metric)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].label, label) && c->rows[i].metric == metric)
			return &c->rows[i];
	fail_msg("no row %s %d", label, metric);
	return NULL;
}

static void test_verdicts(void **state)
{
	/* 7 repetitions each, spread about 1% */
	static const double base_thr[] = { 100, 101, 99, 100.5, 99.5, 100.2, 99.8 };
	static const double slow_thr[] = { 80, 80.8, 79.2, 80.4, 79.6, 80.1, 79.9 };	/* -20% */
	static const double same_thr[] = { 101, 100, 100.3, 99.6, 100.8, 99.9, 100.1 };
	static const double fast_thr[] = { 130, 131, 129, 130.5, 129.5, 130.2, 129.8 };	/* +30% */
	static const double noisy_thr[] = { 40, 160, 80, 120, 60, 140, 100 };
	static const double base_rtt[] = { 50, 50.5, 49.5, 50.2, 49.8, 50.1, 49.9 };
	static const double slow_rtt[] = { 60, 60.6, 59.4, 60.2, 59.8, 60.1, 59.9 };	/* +20% */
	static const double few_a[] = { 100, 101, 99 }, few_b[] = { 50, 51, 49 };
	struct hand b, n;
	struct comparison c;
	char err[256];
	int mt = matrix_metric_index("msgs_per_s"), mr = matrix_metric_index("rtt_p50_us");

	(void)state;
	hand_init(&b, "base");
	hand_cell(&b, 0, "slow", base_thr, base_rtt, 7);
	hand_cell(&b, 1, "same", base_thr, base_rtt, 7);
	hand_cell(&b, 2, "fast", base_thr, base_rtt, 7);
	hand_cell(&b, 3, "gone", few_a, NULL, 3);
	hand_init(&n, "new");
	hand_cell(&n, 0, "fast", fast_thr, base_rtt, 7);
	hand_cell(&n, 1, "slow", slow_thr, slow_rtt, 7);
	hand_cell(&n, 2, "same", same_thr, base_rtt, 7);
	hand_cell(&n, 3, "added", few_b, NULL, 3);
	assert_int_equal(compare_folders(&c, &b.r, &n.r, 0.05, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(row_of(&c, "transport=slow", mt)->verdict, V_REGRESSED);
	assert_int_equal(row_of(&c, "transport=slow", mr)->verdict, V_REGRESSED);	/* lower is better */
	assert_int_equal(row_of(&c, "transport=fast", mt)->verdict, V_IMPROVED);
	assert_int_equal(row_of(&c, "transport=same", mt)->verdict, V_UNCHANGED);
	assert_int_equal(row_of(&c, "transport=gone", -1)->verdict, V_REMOVED);
	assert_int_equal(row_of(&c, "transport=added", -1)->verdict, V_ADDED);
	near(row_of(&c, "transport=slow", mt)->change, 80.0 / 100 - 1, "change");
	assert_int_equal(c.count[V_REGRESSED], 2);
	assert_int_equal(compare_exit_status(&c), 1);
	compare_release(&c);

	/* the same cells at a 25% threshold: -20% is no longer beyond it */
	assert_int_equal(compare_folders(&c, &b.r, &n.r, 0.25, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(row_of(&c, "transport=slow", mt)->verdict, V_UNCHANGED);
	assert_int_equal(row_of(&c, "transport=fast", mt)->verdict, V_IMPROVED);
	assert_int_equal(compare_exit_status(&c), 0);
	compare_release(&c);

	/* noisy: an interval across the threshold; 3 and 3: no p below 5% */
	hand_cell(&n, 1, "slow", noisy_thr, slow_rtt, 7);
	hand_cell(&n, 3, "gone", few_b, NULL, 3);
	assert_int_equal(compare_folders(&c, &b.r, &n.r, 0.05, NULL, 0, err, sizeof(err)), 0);
	const struct cmp_row *r = row_of(&c, "transport=slow", mt);
	assert_int_equal(r->verdict, V_INCONCLUSIVE);
	assert_string_equal(r->why, "too noisy: the interval crosses the threshold");
	r = row_of(&c, "transport=gone", mt);
	assert_int_equal(r->verdict, V_INCONCLUSIVE);	/* -50%, but only 3 and 3 */
	assert_string_equal(r->why, "too few repetitions");
	assert_int_equal(compare_exit_status(&c), 1);	/* slow's RTT still regressed */
	compare_release(&c);

	/* a cell that failed on one side: exit 2 unless something regressed */
	hand_cell(&n, 1, "slow", NULL, NULL, 0);
	assert_int_equal(compare_folders(&c, &b.r, &n.r, 0.05, &mt, 1, err, sizeof(err)), 0);
	r = row_of(&c, "transport=slow", mt);
	assert_int_equal(r->verdict, V_INCONCLUSIVE);
	assert_string_equal(r->why, "failed on a side");
	assert_int_equal(compare_exit_status(&c), 2);
	compare_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mann_whitney_exact),
		cmocka_unit_test(test_benjamini_hochberg),
		cmocka_unit_test(test_bootstrap_is_fixed),
		cmocka_unit_test(test_bootstrap_exact_ranks),
		cmocka_unit_test(test_verdicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
