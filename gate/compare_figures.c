/* A compared row's figures: see compare_figures.h. */
#include "compare_figures.h"
#include "signtest.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

double compare_mw_p_smaller(const double *x, size_t m, const double *y, size_t n)
{
	uint64_t u2 = 0;	/* twice U: a tie counts 1/2 */

	if (!m || !n)
		return NAN;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			u2 += x[i] < y[j] ? 2 : x[i] == y[j];
	/* P(U >= u) = P(U <= mn - u) by symmetry; u rounded down (ties) makes
	 * the p-value larger, never smaller */
	return stats_mw_cdf(m, n, m * n - (size_t)(u2 / 2));
}

/* The values of metric m of one side of a row, with the round (repetition)
 * each was measured in: x's, then those of x2 (the same cell in the second
 * look's folder, or NULL), whose rounds are numbered after every round of
 * x's folder. */
struct side {
	double *v;
	unsigned *round;
	size_t n;
};

#define LOOK2_ROUNDS (1u << 24)	/* the second look's round r is LOOK2_ROUNDS + r */

static void side_add(struct side *s, const struct rcell *x, int m, unsigned offset)
{
	for (size_t i = 0; x && i < x->st[m].n; i++) {
		s->v[s->n] = x->vals[m][i];
		/* a cell made by hand has no rounds: its i-th value is round i + 1 */
		s->round[s->n++] = offset + (x->valrep[m] ? x->valrep[m][i] : (unsigned)i + 1);
	}
}

static int side_collect(struct side *s, const struct rcell *x, const struct rcell *x2, int m)
{
	size_t n = x->st[m].n + (x2 ? x2->st[m].n : 0);

	s->n = 0;
	s->v = malloc((n ? n : 1) * sizeof(*s->v));
	s->round = malloc((n ? n : 1) * sizeof(*s->round));
	if (!s->v || !s->round)
		return -1;
	side_add(s, x, m, 0);
	side_add(s, x2, m, LOOK2_ROUNDS);
	return 0;
}

static void side_free(struct side *s)
{
	free(s->v);
	free(s->round);
}

static double side_median(const struct side *s)
{
	struct stat_summary st;

	stats_summarize(s->v, s->n, &st);
	return st.median;
}

/* The log of the candidate over the baseline for each round both measured
 * (both above zero) into d; how many. */
static size_t paired_logs(const struct side *b, const struct side *a, double *d)
{
	size_t n = 0;

	for (size_t i = 0; i < b->n; i++)
		for (size_t j = 0; j < a->n; j++)
			if (a->round[j] == b->round[i]) {
				if (a->v[j] > 0 && b->v[i] > 0)
					d[n++] = log(a->v[j] / b->v[i]);
				break;
			}
	return n;
}

/* A paired row: the sign test of the rounds' log ratios, shifted so that
 * "worse by more than the threshold" is "above zero", each way; the change
 * (their median) and its order-statistic interval, the one the test
 * inverts. */
static void judge_paired(const struct comparison *c, struct cmp_row *row, const struct side *b,
			 const struct side *a)
{
	int higher = metrics[row->metric].better == HIGHER_IS_BETTER;
	double *d = malloc((b->n ? b->n : 1) * 3 * sizeof(*d));

	if (!d)
		return;
	double *worse = d + b->n, *better = worse + b->n;
	size_t n = paired_logs(b, a, d);
	/* worse beyond the threshold: a ratio above 1 + t (lower is better)
	 * or below 1 - t (higher is better); better beyond, the other way */
	double up = log1p(c->threshold), down = log1p(-c->threshold);
	for (size_t i = 0; i < n; i++) {
		worse[i] = higher ? down - d[i] : d[i] - up;
		better[i] = higher ? d[i] - up : down - d[i];
	}
	row->rounds = n;
	if (n) {
		double lo, hi, level;
		struct stat_summary st;
		stats_summarize(d, n, &st);
		row->change = expm1(st.median);
		if (median_os_interval(d, n, 1 - 2 * c->alpha, &lo, &hi, &level) == 0) {
			row->lo = expm1(lo);
			row->hi = expm1(hi);
			row->level = level;
		}
		row->p_worse = sign_p_upper(worse, n);
		row->p_better = sign_p_upper(better, n);
	}
	free(d);
}

/* Two separate runs: the interval of the ratio of medians from each side's
 * order-statistic interval of its median (each at least sqrt(1 - 2 alpha),
 * so both hold together with at least 1 - 2 alpha whatever the two
 * spreads), and the Mann-Whitney test of the candidate, scaled by the
 * threshold, against the baseline, each way. */
static void judge_separate(const struct comparison *c, struct cmp_row *row, const struct side *b,
			   const struct side *a)
{
	int higher = metrics[row->metric].better == HIGHER_IS_BETTER;
	double t = c->threshold, blo, bhi, alo, ahi, gb, ga;
	double *up = malloc((a->n ? a->n : 1) * 2 * sizeof(*up));

	if (!up)
		return;
	double *down = up + a->n;
	if (row->base_median > 0)
		row->change = row->cand_median / row->base_median - 1;
	double side_level = sqrt(1 - 2 * c->alpha);
	if (median_os_interval(b->v, b->n, side_level, &blo, &bhi, &gb) == 0 &&
	    median_os_interval(a->v, a->n, side_level, &alo, &ahi, &ga) == 0 && blo > 0) {
		row->lo = alo / bhi - 1;
		row->hi = ahi / blo - 1;
		row->level = gb * ga;
	}
	for (size_t i = 0; i < a->n; i++) {
		up[i] = a->v[i] / (1 + t);	/* above the baseline: above 1 + t */
		down[i] = a->v[i] / (1 - t);	/* below the baseline: below 1 - t */
	}
	if (higher) {
		row->p_worse = compare_mw_p_smaller(down, a->n, b->v, b->n);
		row->p_better = compare_mw_p_smaller(b->v, b->n, up, a->n);
	} else {
		row->p_worse = compare_mw_p_smaller(b->v, b->n, up, a->n);
		row->p_better = compare_mw_p_smaller(down, a->n, b->v, b->n);
	}
	free(up);
}

void compare_figures(const struct comparison *c, struct cmp_row *row)
{
	struct side b = { 0 }, a = { 0 };
	int m = row->metric;

	if (side_collect(&b, row->base, row->base2, m) < 0 ||
	    side_collect(&a, row->cand, row->cand2, m) < 0)
		goto out;
	row->n_base = b.n;
	row->n_cand = a.n;
	row->base_median = side_median(&b);
	row->cand_median = side_median(&a);
	if (b.n && a.n) {
		if (c->paired)
			judge_paired(c, row, &b, &a);
		else
			judge_separate(c, row, &b, &a);
	}
out:
	side_free(&b);
	side_free(&a);
}

