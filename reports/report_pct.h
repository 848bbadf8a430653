/*
 * report_pct: the matrix's `percentiles:` (percentile.h) in a loaded
 * report: which percentiles the tables, charts and JSON show, and the
 * figures of those the metric table has no line for (rtt_p9999_us, ...),
 * read from results.csv's columns of theirs (a folder without a column
 * has no figure: empty) and summarized per cell as a metric's are.
 *
 * A report of a matrix without the key has npct 0: every writer shows its
 * own set then (summary.md p50 and p99, the latency charts p50, p99 and
 * p99.9, results.csv and summary.csv the metric table's four), as before.
 */
#ifndef MATRIX_REPORT_PCT_H
#define MATRIX_REPORT_PCT_H

#include <stddef.h>

#include "percentile.h"
#include "stats.h"

struct report;
struct rcell;

/* One percentile the matrix asks for. */
struct rpct {
	double p;		/* 99.99 */
	const char *name;	/* its column, "rtt_p9999_us" (the matrix's) */
	char label[16];		/* "p99.99" */
	char title[48];		/* "round-trip time, p99.99" */
	int metric;		/* the metric table's line (rtt_p99_us), or -1: an
				 * extra, whose figures are the cell's x*[x] */
	size_t x;		/* an extra's index (metric -1) */
};

/* r->pct and r->npct, r->nextra from r->m (after it is loaded). */
void report_pct_define(struct report *r);
/* Percentile k's summary of cell c (its metric's, or its extra's). */
const struct stat_summary *report_pct_stat(const struct rcell *c, const struct rpct *k);
/* Extra x's values into the cells' summaries (report_load's summarize). */
void report_pct_summarize(struct report *r);
/* Frees the cells' extra values. */
void report_pct_release(struct rcell *c);

#endif
