/*
 * report_results: results.csv read back into the report model (report.h,
 * struct rcell), for report_load only: a cell per cell number, its
 * repetitions counted, the failed ones by their status, and each
 * successful one's figures kept for the statistics (stats.h), which
 * report_load computes afterwards.
 */
#ifndef MATRIX_REPORT_RESULTS_H
#define MATRIX_REPORT_RESULTS_H

#include <stddef.h>

struct report;

/* Reads DIR/results.csv (r->dir, after r->m is loaded): its dimension
 * names (the columns between cell and rep, then topology: link: values)
 * into r->dimnames and r->dimcol, and every row into its cell: the cells
 * in r->cells sorted by number, each with its status ("ok", "ok, 1 of 3
 * failed (timeout)", "timeout ×2; exit 1 ×1 (all 3)": each distinct
 * reason, the first three), and for each successful repetition its
 * number, figures (vals[m]; st[m].n counts them, not yet summarized),
 * lost and rtt_samples, timed window, who measured it and its placement,
 * and the machine's state around each row
 * (report_state.h).  A file without cpu_us_per_rtt sets before_stream_fix,
 * and its CPU figures are read as such a file meant them.  A last row cut
 * short by an interrupted write is left out and r->dropped_row set.  0,
 * or -1 with "PATH:LINE: message" in err, or "PATH: out of memory";
 * report_release frees what was read.  The file is untrusted input
 * (csvfile.h bounds its size and fields), refused at the first row that
 * is not one of this run's: a cell or rep that is not a whole number
 * (rep from 1), a figure (a metric, a count, a time, a load: every number
 * column, results.h) that fieldnum.h does not read as a number >= 0 (hex,
 * inf, a negative), a dimension value the folder's matrix.yaml does not
 * give that dimension, a cell whose dimensions change, and a cell
 * repetition a line above has already (both lines named). */
int report_results_load(struct report *r, char *err, size_t errlen);

/* The row of results.csv of cell `cell`'s repetition `rep` (r->reps, once
 * report_results_load has read them), or NULL. */
const struct rrep *report_find_rep(const struct report *r, unsigned cell, unsigned rep);

#endif
