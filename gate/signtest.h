/*
 * signtest: the sign test and the order-statistic interval of a median,
 * for paired rounds (an in-run A/B: the baseline and the candidate of one
 * round ran side by side, so their ratio is judged round by round) and
 * for each side of two separate runs.
 *
 * Why the sign test and not the signed-rank test: on the machines this
 * runs on a repetition's round trip sits on one of two or three levels
 * (4.5 or 7 us here) and a round's two cells do not always land on the
 * same one, so a few rounds' ratios are 0.7 or 1.5 whatever the code did.
 * The signed-rank test gives those the largest ranks, and one of them the
 * wrong way undoes six good rounds; the sign test counts each round once,
 * and tests the median with no assumption of symmetry.  Simulated with 15%
 * of rounds flipped, two looks of 7 rounds caught a +10% change (at a 5%
 * threshold) 98% of the time with the sign test, 77% with the signed rank;
 * with plain 3% noise 99.2% and 99.9% (README "The second look").
 *
 *   binom_half_cdf      P(Binomial(n, 1/2) <= k), exact (in doubles from
 *                       log-gamma: good to 1e-12 relative at these n)
 *   sign_p_upper        the one-sided p-value that the d tend to be
 *                       positive: P(Binomial(m, 1/2) >= k), k the positive
 *                       values of the m that are not zero (zeros are
 *                       dropped) and not NaN; NaN when m is 0
 *   median_os_interval  the interval [x(k), x(n+1-k)] of the sorted values
 *                       with the largest k whose exact coverage of the
 *                       median, 1 - 2 P(Binomial(n, 1/2) <= k - 1), is at
 *                       least `level`, for any continuous distribution: the
 *                       interval the sign test inverts; -1 when even
 *                       [min, max] falls short
 */
#ifndef MATRIX_SIGNTEST_H
#define MATRIX_SIGNTEST_H

#include <stddef.h>

double binom_half_cdf(size_t n, size_t k);
double sign_p_upper(const double *d, size_t n);
int median_os_interval(const double *x, size_t n, double level, double *lo, double *hi,
		       double *got);

#endif
