/*
 * percentile: the round-trip percentiles a run writes (the matrix file's
 * top-level `percentiles:`), and their one naming rule.
 *
 * The metric table (vocab.h) always has p50, p90, p99 and p99.9
 * (rtt_p50_us, rtt_p90_us, rtt_p99_us, rtt_p999_us): their columns are
 * always written.  Any other percentile the matrix asks for is a column of
 * its own after every other one (results.h), named by the rule:
 *
 *   rtt_p + the percentile's integer part as two digits (a leading zero
 *   below 10), then its decimals with the point removed, + _us
 *
 * 99.99 is rtt_p9999_us, 99.999 rtt_p99999_us, 75 rtt_p75_us, 99.5
 * rtt_p995_us, 5 rtt_p05_us, 0.1 rtt_p001_us: the old four follow it, and
 * no two percentiles share a name.  Its label in tables and charts is p
 * and the number as written ("p99.99").
 *
 * A percentile is in (0, 100) with at most PERCENTILE_DECIMALS decimals.
 * The histogram (hist.h) counts every sample exactly, so any rank is
 * exact; its values are within 1/256 (0.4%) of the sample's.  A percentile
 * with k decimals needs 10^(k+2) samples of a repetition to be other than
 * its maximum: 3 decimals (p99.999) is 100,000 round trips already.
 */
#ifndef MATRIX_PERCENTILE_H
#define MATRIX_PERCENTILE_H

#include <stddef.h>

#define PERCENTILE_MAX 12	/* percentiles: at most this many */
#define PERCENTILE_DECIMALS 3	/* each with at most this many decimals */
#define PERCENTILE_COL_MAX 24	/* a column's name and its NUL: rtt_p99999_us */

/* The percentiles a run writes when the matrix has no `percentiles:`:
 * the metric table's four. */
#define PERCENTILE_NDEFAULT 4
extern const double percentile_default[PERCENTILE_NDEFAULT];

/* "rtt_p9999_us" for 99.99, by the rule above (p in (0, 100), at most
 * PERCENTILE_DECIMALS decimals). */
void percentile_column(double p, char *buf, size_t len);
/* "p99.99" for 99.99. */
void percentile_label(double p, char *buf, size_t len);
/* The metric table's index of percentile p's metric (50: rtt_p50_us), or
 * -1 for a percentile the table has no line for. */
int percentile_metric(double p);

#endif
