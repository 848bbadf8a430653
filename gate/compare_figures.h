/*
 * compare_figures: the figures of one compared row before the correction
 * and the verdict (compare.h has what each means): the two sides' values
 * of the row's metric, the second look's too, then the paired sign-test
 * figures of an in-run A/B, round by round, or the separate runs'
 * order-statistic interval and Mann-Whitney test.
 */
#ifndef MATRIX_COMPARE_FIGURES_H
#define MATRIX_COMPARE_FIGURES_H

#include "compare.h"

/* n_base, n_cand, the medians, change, lo, hi, level, rounds, p_worse and
 * p_better of row (its cells and metric set), for c's kind of comparison. */
void compare_figures(const struct comparison *c, struct cmp_row *row);

#endif
