/*
 * summary: a loaded report's figures as the two CSV files of the run folder
 * that the other writers and the charts read.
 *
 *   summary.csv   one row per cell, in cell order:
 *                 cell, the dimensions (as results.csv writes them), reps,
 *                 ok, failed, status, noisy (the metrics whose CV is above
 *                 noisy_cv, ';'-separated), ci_level (msgs_per_s's, as it
 *                 always was: kept for old readers), then per metric M (in
 *                 the order of the metric table, vocab.h): M_n M_median
 *                 M_ci_lo M_ci_hi M_min M_max M_mean M_stdev M_cv; then per
 *                 metric M, in the same order, M_ci_level: the real coverage
 *                 of M's interval of the median, from M's own n (an RTT
 *                 metric has none in a stream cell; a figure a repetition
 *                 lacks makes its n smaller).  A failed cell has its status
 *                 and empty figures; a figure of one value has no interval
 *                 (stats.h): its M_ci_lo, M_ci_hi and M_ci_level (and for
 *                 msgs_per_s, ci_level) are empty.
 *   ratios.csv    per ratio: one row per cell pair (scope = cell), with the
 *                 pair's cell numbers, the dimensions they share (empty for
 *                 the ratio's own), ratio (of the medians), ci_lo, ci_hi
 *                 (its interval, stats.h; empty when a side has one
 *                 value), n_num, n_den, pairs = 1,
 *                 resamples and seed (empty: kept for readers of the
 *                 bootstrap interval this replaced), ci_level (the
 *                 coverage the interval is sure of: it holds the true
 *                 ratio of medians at least this often, stats.h); then
 *                 per pattern one row (scope = pattern, the pattern in
 *                 the pattern column, the rest of the dimensions empty)
 *                 with the geometric mean over that pattern's pairs in
 *                 `ratio` and their number in `pairs` (headline_means;
 *                 none when the ratio's dimension is the pattern, or the
 *                 run has no pattern column); then one row (scope =
 *                 geomean) with the geometric mean over all the pairs,
 *                 whatever their pattern, in `ratio` and their number in
 *                 `pairs`, kept for older readers: it mixes patterns.
 *
 * Each call replaces its file.  Call them after report_load() and before
 * report_release(); neither calls another writer.
 */
#ifndef MATRIX_SUMMARY_H
#define MATRIX_SUMMARY_H

#include <stddef.h>

struct report;

/* Writes DIR/summary.csv; -1 with err naming the file on a write error. */
int summary_write_csv(const struct report *r, char *err, size_t errlen);

/* Writes DIR/ratios.csv; -1 with err naming the file on a write error. */
int summary_write_ratios(const struct report *r, char *err, size_t errlen);

#endif
