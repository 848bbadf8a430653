/*
 * Unit tests for gate/compare.c: the one-sided Mann-Whitney p-value
 * (exact small-sample values, as scipy.stats.mannwhitneyu(x, y,
 * alternative='less', method='exact') gives them), the Benjamini-Hochberg
 * correction (worked by hand), the verdicts at their edges on reports
 * made by hand, paired rounds and the second look, the machine-state
 * guard's part, and by simulation that the paired and the separate
 * intervals hold the levels they write.
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

	/* separate runs: the rank test says "beyond the threshold" (six of
	 * seven new values 20% down), but one new value 3% down puts the
	 * median's interval across it: inconclusive, never regressed */
	static const double mostly_slow[] = { 80, 80.5, 79.5, 97, 80.2, 79.8, 80.1 };
	struct hand b1, n1;
	hand_init(&b1, "base");
	hand_cell(&b1, 0, "x", base_thr, base_rtt, 7);
	hand_init(&n1, "new");
	hand_cell(&n1, 0, "x", mostly_slow, base_rtt, 7);
	assert_int_equal(compare_folders(&c, &b1.r, &n1.r, 0.05, &mt, 1, err, sizeof(err)), 0);
	r = row_of(&c, "transport=x", mt);
	assert_true(r->q_worse < COMPARE_ALPHA);
	assert_true(r->hi > -0.05 && r->hi < 0);
	assert_int_equal(r->verdict, V_INCONCLUSIVE);
	compare_release(&c);

	/* the same regression on a machine that was busier for the new run:
	 * the guard makes it inconclusive, with its reason; an in-run A/B
	 * has no guard (its pairs shared the machine) */
	b1.cells[0].state.other_cpus = 0.0;
	n1.cells[0].state.other_cpus = 1.6;
	hand_cell(&n1, 0, "x", slow_thr, base_rtt, 7);
	n1.cells[0].state.other_cpus = 1.6;
	assert_int_equal(compare_folders(&c, &b1.r, &n1.r, 0.05, &mt, 1, err, sizeof(err)), 0);
	r = row_of(&c, "transport=x", mt);
	assert_int_equal(r->verdict, V_INCONCLUSIVE);
	assert_true(r->guarded);
	assert_non_null(strstr(r->why, "the new run's machine was busier"));
	assert_false(compare_row_looks_again(r));
	assert_int_equal(compare_exit_status(&c), 3);
	compare_release(&c);
	n1.cells[0].state.other_cpus = 0.2;	/* within 0.25 CPUs: judged */
	assert_int_equal(compare_folders(&c, &b1.r, &n1.r, 0.05, &mt, 1, err, sizeof(err)), 0);
	assert_int_equal(row_of(&c, "transport=x", mt)->verdict, V_REGRESSED);
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


/* In-run A/B, paired by round: a round's drift is shared by its two cells. */
static void test_pairing(void **state)
{
	/* every round's candidate 10% slower than its baseline, but the
	 * rounds drift by +-30%: the two sides' values overlap */
	static const double base_rtt[] = { 100, 130, 90, 125, 110, 95, 120 };
	static const double slow_rtt[] = { 110, 143, 99, 137.5, 121, 104.5, 132 };
	/* the same per round within 0.5%, drifting as much: A/A */
	static const double same_rtt[] = { 100.4, 129.6, 90.3, 125.5, 109.6, 95.2, 119.7 };
	static const double base_thr[] = { 1e4, 7692, 11111, 8000, 9091, 10526, 8333 };
	struct hand h;
	struct comparison c;
	char err[256];
	int mr = matrix_metric_index("rtt_p50_us");

	(void)state;
	hand_init(&h, "ab");
	hand_cell(&h, 0, "a", base_thr, base_rtt, 7);
	hand_cell(&h, 1, "b", base_thr, slow_rtt, 7);
	assert_int_equal(compare_along(&c, &h.r, 0, "a", "b", 0.05, &mr, 1, err, sizeof(err)), 0);
	const struct cmp_row *r = row_of(&c, "", mr);
	assert_int_equal(r->rounds, 7);
	assert_int_equal(r->verdict, V_REGRESSED);	/* all 7 rounds 10% worse: p = 1/128 */
	EXPECT(r->p_worse, 1.0 / 128);
	EXPECT(r->change, 0.10);			/* every round's ratio is 1.10 */
	compare_release(&c);
	/* the same values as two separate runs: the drift hides it */
	struct hand b, n;
	hand_init(&b, "base");
	hand_cell(&b, 0, "a", base_thr, base_rtt, 7);
	hand_init(&n, "new");
	hand_cell(&n, 0, "a", base_thr, slow_rtt, 7);
	assert_int_equal(compare_folders(&c, &b.r, &n.r, 0.05, &mr, 1, err, sizeof(err)), 0);
	assert_int_equal(row_of(&c, "transport=a", mr)->verdict, V_INCONCLUSIVE);
	compare_release(&c);
	/* A/A under the same drift: pairing cancels it, unchanged */
	hand_cell(&h, 1, "b", base_thr, same_rtt, 7);
	assert_int_equal(compare_along(&c, &h.r, 0, "a", "b", 0.05, &mr, 1, err, sizeof(err)), 0);
	r = row_of(&c, "", mr);
	assert_int_equal(r->verdict, V_UNCHANGED);
	assert_true(r->lo > -0.01 && r->hi < 0.01);
	compare_release(&c);
	/* every round 3% slower, tightly: worse, but not by the threshold of
	 * 5%: unchanged, not regressed; at a 2% threshold, regressed */
	static const double three[] = { 103, 133.9, 92.7, 128.75, 113.3, 97.85, 123.6 };
	hand_cell(&h, 1, "b", base_thr, three, 7);
	assert_int_equal(compare_along(&c, &h.r, 0, "a", "b", 0.05, &mr, 1, err, sizeof(err)), 0);
	assert_int_equal(row_of(&c, "", mr)->verdict, V_UNCHANGED);
	compare_release(&c);
	assert_int_equal(compare_along(&c, &h.r, 0, "a", "b", 0.02, &mr, 1, err, sizeof(err)), 0);
	assert_int_equal(row_of(&c, "", mr)->verdict, V_REGRESSED);
	compare_release(&c);
	/* the rounds pair by number: shuffled round numbers break it */
	static unsigned rounds[] = { 1, 2, 3, 4, 5, 6, 7 }, shuffled[] = { 2, 3, 4, 5, 6, 7, 1 };
	hand_cell(&h, 1, "b", base_thr, slow_rtt, 7);
	h.cells[0].valrep[mr] = rounds;
	h.cells[1].valrep[mr] = shuffled;
	assert_int_equal(compare_along(&c, &h.r, 0, "a", "b", 0.05, &mr, 1, err, sizeof(err)), 0);
	assert_int_not_equal(row_of(&c, "", mr)->verdict, V_REGRESSED);
	compare_release(&c);
}

/* The second look: a row inconclusive at the first look is judged on the
 * rounds of both; a row the first look decided keeps its verdict. */
static void test_second_look(void **state)
{
	/* 7 rounds, one of them the other way: 6 of 7, p = 8/128 */
	static const double base[] = { 100, 100, 100, 100, 100, 100, 100 };
	static const double cand[] = { 110, 111, 95, 112, 113, 114, 115 };
	static const double more[] = { 110, 111, 112, 113, 114, 115, 116 };
	struct hand h, h2;
	struct comparison c;
	char err[256];
	int mr = matrix_metric_index("rtt_p50_us");

	(void)state;
	hand_init(&h, "ab");
	hand_cell(&h, 0, "a", base, base, 7);
	hand_cell(&h, 1, "b", base, cand, 7);
	assert_int_equal(compare_along(&c, &h.r, 0, "a", "b", 0.05, &mr, 1, err, sizeof(err)), 0);
	const struct cmp_row *r = row_of(&c, "", mr);
	EXPECT(r->p_worse, 8.0 / 128);
	assert_int_equal(r->verdict, V_INCONCLUSIVE);
	assert_true(compare_row_looks_again(r));
	compare_release(&c);
	hand_init(&h2, "ab/look2");
	hand_cell(&h2, 0, "a", base, base, 7);
	hand_cell(&h2, 1, "b", base, more, 7);
	assert_int_equal(compare_along_more(&c, &h.r, &h2.r, 0, "a", "b", 0.05, &mr, 1, err,
					    sizeof(err)), 0);
	r = row_of(&c, "", mr);
	assert_int_equal(r->rounds, 14);
	assert_int_equal(r->look, 2);
	assert_int_equal(r->verdict, V_REGRESSED);
	compare_release(&c);
	/* decided at the first look (regressed): the second keeps it, whatever
	 * its rounds say */
	hand_cell(&h, 1, "b", base, more, 7);
	hand_cell(&h2, 1, "b", base, base, 7);
	assert_int_equal(compare_along_more(&c, &h.r, &h2.r, 0, "a", "b", 0.05, &mr, 1, err,
					    sizeof(err)), 0);
	r = row_of(&c, "", mr);
	assert_int_equal(r->look, 1);
	assert_int_equal(r->rounds, 7);
	assert_int_equal(r->verdict, V_REGRESSED);
	compare_release(&c);
}

static double gauss(uint64_t *s)
{
	double u = ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Every interval compare writes holds the level it writes, at the default
 * 7 repetitions, for equal and unequal spreads: simulated, the true ratio
 * known. */
static void test_intervals_hold_their_level(void **state)
{
	enum { TRIALS = 4000, N = 7 };
	static const double spreads[][2] = { { 0.02, 0.02 }, { 0.01, 0.10 }, { 0.10, 0.01 } };
	int mr = matrix_metric_index("rtt_p50_us");
	uint64_t s = 99;

	(void)state;
	for (size_t k = 0; k < sizeof(spreads) / sizeof(spreads[0]); k++) {
		size_t sep = 0, pair = 0;
		double sep_level = 1, pair_level = 1;
		for (int t = 0; t < TRIALS; t++) {
			double b[N], a[N], thr[N];
			for (size_t i = 0; i < N; i++) {
				double drift = 0.05 * gauss(&s);	/* shared by a round */
				b[i] = 100 * exp(drift + spreads[k][0] * gauss(&s));
				a[i] = 110 * exp(drift + spreads[k][1] * gauss(&s));
				thr[i] = 1;
			}
			struct hand hb, ha, h;
			struct comparison c;
			char err[64];
			hand_init(&hb, "b");
			hand_cell(&hb, 0, "x", thr, b, N);
			hand_init(&ha, "a");
			hand_cell(&ha, 0, "x", thr, a, N);
			assert_int_equal(compare_folders(&c, &hb.r, &ha.r, 0.05, &mr, 1, err,
							 sizeof(err)), 0);
			const struct cmp_row *r = row_of(&c, "transport=x", mr);
			/* the medians' ratio: 1.1 (lognormal medians, the drift's
			 * median 0) */
			sep += r->lo <= 0.1 && 0.1 <= r->hi;
			sep_level = r->level;
			compare_release(&c);
			hand_init(&h, "ab");
			hand_cell(&h, 0, "x", thr, b, N);
			hand_cell(&h, 1, "y", thr, a, N);
			assert_int_equal(compare_along(&c, &h.r, 0, "x", "y", 0.05, &mr, 1, err,
						       sizeof(err)), 0);
			r = row_of(&c, "", mr);
			pair += r->lo <= 0.1 && 0.1 <= r->hi;
			pair_level = r->level;
			compare_release(&c);
		}
		double cs = (double)sep / TRIALS, cp = (double)pair / TRIALS;
		double se = sqrt(0.05 * 0.95 / TRIALS);
		print_message("spreads %.2f/%.2f: separate %.4f (says %.4f), paired %.4f (says %.4f)\n",
			      spreads[k][0], spreads[k][1], cs, sep_level, cp, pair_level);
		if (cs < sep_level - 3 * se || cp < pair_level - 3 * se)
			fail_msg("spreads %g/%g: coverage %.4f (written %.4f) and %.4f (written %.4f)",
				 spreads[k][0], spreads[k][1], cs, sep_level, cp, pair_level);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mann_whitney_exact),
		cmocka_unit_test(test_benjamini_hochberg),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_second_look),
		cmocka_unit_test(test_intervals_hold_their_level),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
