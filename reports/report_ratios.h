/*
 * report_ratios: the ratios between a run's cells (report.h, struct
 * rratio_def and struct rpair), for report_load only: which ratios to
 * take, then each pair of cells they compare, with its ratio of medians
 * and the interval of that ratio (stats.h).
 */
#ifndef MATRIX_REPORT_RATIOS_H
#define MATRIX_REPORT_RATIOS_H

#include <stddef.h>

struct report;
struct report_opts;

/* The ratios of r into r->defs (its cells loaded): o's --ratio
 * [DIM:]NUM/DEN values when given (o may be NULL), for o's --metric or
 * else the first metric; else the matrix file's report: ratios:, each for
 * its own metric unless --metric names one; else, when the matrix file
 * lists two transports or more, every transport against the first (for
 * --metric, else the first metric).  A ratio named twice is taken once.  0, or -1 with err naming the flag or
 * the matrix file's line (an unknown metric, a dimension or value this
 * run does not have); out of memory is -1 with err left as it was. */
int report_ratios_define(struct report *r, const struct report_opts *o, char *err,
			 size_t errlen);

/* For each ratio of r->defs (the cells summarized), every pair of cells
 * that differ only in its dimension, the numerator's value against the
 * denominator's, into r->pairs with the ratio of their medians and its
 * interval (stats_ratio_ci at STATS_LEVEL); each ratio's geomean and
 * npairs over its pairs with a finite ratio.  0, or -1 when out of
 * memory. */
int report_ratios_pair(struct report *r);

/* A --ratio that pairs no cells at all (no two cells differ only in its
 * dimension, with its two values): -1 after "--ratio ARG: ..." in err,
 * saying why; else 0.  (A ratio of the matrix file with no pair is left to
 * its tables, which say "-", as old run folders had it.) */
int report_ratios_check(const struct report *r, char *err, size_t errlen);

#endif
