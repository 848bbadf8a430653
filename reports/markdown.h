/*
 * markdown: summary.md, the page a person reads at a glance, plain text
 * that also renders as Markdown.
 *
 * The matrix name and description, then the headline (headline.h: a
 * sentence per ratio and scenario, with its interval and which way is
 * better), then a header (markdown_header.h: host, kernel, CPU, date,
 * tool version; a line when the folder's stream rates predate the fix, see
 * report_stale_stream_rates; the key to figures, intervals and marks), then
 * per pattern a pivot table per metric shaped like the source experiments'
 * tables: one row per combination of the dimensions that vary (other than
 * the column dimension), one column per value of the column dimension
 * (transport, or the first ratio's dimension), each "median (low–high)" in
 * human units, the interval of the median as it is, never as a symmetric
 * "± half-width" (units_format_metric_ci), then one column per ratio of
 * that metric, written "5.70× (5.10–6.30)", or "2.00× (1.11–2.40, ≥56%)"
 * with the level its interval is sure of (rounded down) when that is below
 * 95%, or "5.92× (1 repetition: no interval)" (headline_ratio_text).
 * Figures the programs printed carry "ᵖ", whole-process ones (the runner
 * timed a program from spawn to exit, provenance.h) "ʷ", and so does a
 * ratio with such a figure on either side; RTT figures that leave
 * lost requests out "†", noisy cells (CV above report.noisy_cv) "~",
 * partly failed ones "(k/n ok)", failed ones "failed: STATUS": marked,
 * never hidden.  Then the kernel's view of TCP connections, when there
 * is one (markdown_tcp.h).  Last, each ratio's geometric mean per pattern over its
 * cell pairs, with their range.
 */
#ifndef MATRIX_MARKDOWN_H
#define MATRIX_MARKDOWN_H

#include <stddef.h>

struct report;

/* Writes DIR/summary.md (through summary.md.tmp, renamed into place, so a
 * reader never sees half a page); -1 with err naming the file on a write
 * error.  Reads only the loaded report, never summary.csv or ratios.csv. */
int markdown_write(const struct report *r, char *err, size_t errlen);

#endif
