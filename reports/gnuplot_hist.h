/*
 * gnuplot_hist: plots/latency-N.gp, the round-trip time distribution of
 * each scenario, from hist.csv (results.h; report.h, struct rbucket).
 *
 * A scenario is the cells that differ only in the compared dimension
 * (gnuplot_compared_dim: the transport, usually), among the cells with
 * round-trip times (pingpong and echo); N counts them in cell order, at
 * most GNUPLOT_HIST_MAX.  Each chart answers "how do the transports'
 * latencies compare, from the typical round trip to the worst":
 *   top     the HdrHistogram-style percentile distribution: round-trip
 *           time (log) against percentile on a 1/(1 - p) axis labelled
 *           50%, 90%, 99%, 99.9%, ..., one line per value of the compared
 *           dimension, every successful repetition of its cell merged.
 *           The point of a bucket is its midpoint at the fraction of round
 *           trips up to it, count / (n + 1) of n (so the maximum has a
 *           finite place, at the right end, with a dot).
 *           With the matrix's percentiles: (report_pct.h), a dotted line
 *           at each, and a tick where the axis has none.
 *   bottom  p50, p99 and p99.9 of the same merged buckets (the matrix's
 *           percentiles: when it has them, a panel each, 320 pixels a
 *           panel past three), one bar per line and a linear axis from 0,
 *           each labelled with its value.
 * Colours are gnuplot_colour's, as in every chart of the run.  Each line's
 * points and percentiles are computed here and written into the script
 * (a datablock $c_K of midpoints, to 6 digits, and round trips up to
 * each; n_K; q50_K, q99_K, q999_K, or q9999_K, ... by the columns'
 * names), named by its cell's and repetitions'
 * numbers, so gnuplot only draws, and matrix-file text reaches the script
 * only as quoted labels (gnuplot_style.h).
 */
#ifndef MATRIX_GNUPLOT_HIST_H
#define MATRIX_GNUPLOT_HIST_H

#include <stddef.h>

struct report;

#define GNUPLOT_HIST_MAX 24	/* scenarios charted; the rest are in hist.csv */

/* Removes every plots/latency-*.gp, .svg, .png and .log (a re-sliced
 * report must not keep a chart it no longer has), then writes
 * plots/latency-N.gp for each scenario with buckets.  plots/ exists.  -1
 * with err ("PATH: reason") when a script cannot be written (none is left
 * cut short). */
int gnuplot_hist_scripts(const struct report *r, char *err, size_t errlen);

#endif
