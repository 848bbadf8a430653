/*
 * signrank: the Wilcoxon signed-rank test and its interval, for paired
 * rounds (an in-run A/B: the baseline and the candidate of one round ran
 * side by side, so their ratio is judged round by round), and the
 * order-statistic interval of a median, for two separate runs.
 *
 * d[0..n) are the paired differences (compare.c: logs of the candidate
 * over the baseline of each round, shifted by the threshold).  W+ is the
 * sum of the ranks of |d| whose d is positive.
 *   signrank_cdf        P(W+ <= w) under the null for n untied, nonzero
 *                       differences, exact (every one of the 2^n sign
 *                       patterns equally likely), by counting subsets;
 *                       beyond SIGNRANK_EXACT_MAX a normal approximation
 *                       with a continuity correction
 *   signrank_p_upper    the one-sided p-value P(W+ >= w+) that the d tend
 *                       to be positive: zeros dropped (Wilcoxon's rule),
 *                       tied |d| given their mean rank, and the null
 *                       distribution of those very ranks counted exactly
 *                       (doubled ranks are integers), so ties keep it exact
 *   signrank_interval   the Walsh-average interval of the pseudo-median (the
 *                       interval the test inverts): the k-th smallest and
 *                       k-th largest of the n(n+1)/2 averages (d_i + d_j)/2,
 *                       i <= j, with k the largest whose one-sided error
 *                       P(W+ <= k - 1) is at most alpha; its level is the
 *                       exact 1 - 2 P(W+ <= k - 1) (untied), never below
 *                       1 - 2 alpha; -1 when n is too small for any k
 *   signrank_hl         the Hodges-Lehmann estimate: the median of the
 *                       Walsh averages
 *   median_os_interval  the interval [x(k), x(n+1-k)] of the sorted values
 *                       with the largest k whose exact coverage of the
 *                       median, 1 - 2 P(Binomial(n, 1/2) <= k - 1), is at
 *                       least `level`; distribution-free (any continuous
 *                       distribution); -1 when even [min, max] falls short
 */
#ifndef MATRIX_SIGNRANK_H
#define MATRIX_SIGNRANK_H

#include <stddef.h>

#define SIGNRANK_EXACT_MAX 400	/* n(n+1) doubled-rank sums: 160,400 counts */

double signrank_cdf(size_t n, long w);
double signrank_p_upper(const double *d, size_t n);
int signrank_interval(const double *d, size_t n, double alpha, double *lo, double *hi,
		      double *level);
double signrank_hl(const double *d, size_t n);
int median_os_interval(const double *x, size_t n, double level, double *lo, double *hi,
		       double *got);

#endif
