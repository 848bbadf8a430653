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

/* A repetition's last interval ends with its last message (covered_s <
 * interval_s), and when that is a sliver of the interval its rate means
 * nothing: a few messages queued before the senders stopped, read at
 * memory speed in microseconds, make a spike many times the stream's
 * rate (or one late message a dip).  Such an interval, covering less than
 * REPORT_TIMELINE_SHORTEST of interval_s and not the repetition's first
 * (interval_start_s > 0), is not drawn and not counted in tl_top; its
 * row stays in timeline.csv.  A longer last interval is drawn at its
 * messages / covered_s. */
#define REPORT_TIMELINE_SHORTEST 0.25
int report_timeline_shown(double start_s, double interval_s, double covered_s);

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
