/*
 * report_timeline: timeline.csv read back into the report model (report.h),
 * for report_load only: for each cell, what its successful repetitions'
 * intervals hold (struct rcell's tl_*), which plots/timeline.gp draws
 * (gnuplot_timeline.h).
 */
#ifndef MATRIX_REPORT_TIMELINE_H
#define MATRIX_REPORT_TIMELINE_H

#include <stddef.h>

struct report;

/* Reads DIR/timeline.csv, after the cells of results.csv are loaded and
 * sorted, and sets r->have_timeline; no file (a run without stream
 * cells, an older folder) is none.  Rows of a repetition results.csv has
 * not as successful (a run killed between a repetition's timeline rows
 * and its results row) are left out, and so is a last row an interrupted
 * write cut short.  0, or -1 with "PATH:LINE: message" in err: another
 * header, a cell or rep that is not a whole number, an interval's start
 * that is not a number, its length, messages, bytes or covered_s not one
 * >= 0 (fieldnum.h), or the file itself (csvfile.h). */
int report_timeline_load(struct report *r, char *err, size_t errlen);

#endif
