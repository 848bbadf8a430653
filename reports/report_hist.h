/*
 * report_hist: hist.csv read back into the report model (report.h), for
 * report_load and report_release only.
 */
#ifndef MATRIX_REPORT_HIST_H
#define MATRIX_REPORT_HIST_H

#include <stddef.h>

struct report;

/* Reads DIR/hist.csv, after the cells of results.csv are loaded and
 * sorted: each cell's buckets of its successful repetitions, merged.  No
 * file (an older folder) is no buckets.  Rows of a cell or repetition
 * results.csv has not as successful (a run killed between a repetition's
 * hist rows and its results row) are left out, and so is a last row an
 * interrupted write cut short.  0, or -1 with "PATH:LINE: message" in err
 * for a row that is no bucket (a field that is not a number, low_us not
 * below high_us, a count that is no whole number above 0), or another
 * header. */
int report_hist_load(struct report *r, char *err, size_t errlen);

#endif
