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
 * for a row that is no bucket (a cell, rep or count that is not a whole
 * number below 2^53, bounds that are not numbers >= 0 (fieldnum.h),
 * low_us not below high_us, a count of 0), another header, the file
 * itself (csvfile.h), or a repetition whose counts do not add up to its
 * results.csv rtt_samples (named by the line its rows start on). */
int report_hist_load(struct report *r, char *err, size_t errlen);

#endif
