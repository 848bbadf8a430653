/*
 * report_query: what the writers ask of a loaded report (report.h): a fact
 * of its meta.csv, a dimension's column and values, a value for a person,
 * and the two marks a cell's figures can carry (timed the old way; timed
 * from outside a program).  They read the model only; report.h includes
 * this header, so a writer needs report.h alone.
 */
#ifndef MATRIX_REPORT_QUERY_H
#define MATRIX_REPORT_QUERY_H

#include <stddef.h>

struct report;
struct rcell;

/* A fact from meta.csv, or "" */
const char *report_meta(const struct report *r, const char *key);
/* Does the run have stream figures timed the old way (before_stream_fix
 * and a stream cell with a successful repetition)?  They may read high and
 * cannot be recomputed: the summary says so. */
int report_stale_stream_rates(const struct report *r);
/* Has cell c a figure of metric m that the runner timed, in some successful
 * repetition, from outside a program's process (outside[m]): marked ʷ in
 * the tables, drawn open in the charts. */
int report_whole_process(const struct rcell *c, int m);
/* Dimension d's value v (as results.csv has it) for a person, into b:
 * sizes as 10B, 1KiB; durations as 200ms; rates as 20k/s (0: unpaced);
 * anything else,
 * or a value that does not read as its kind, as it is (v itself). */
const char *report_value_human(const struct report *r, size_t d, const char *v, char *b,
			       size_t len);
/* Index of a dimension column, or -1. */
int report_dim(const struct report *r, const char *name);
/* The distinct values of dimension d among the cells, in cell order, into
 * out (at most max); returns how many. */
size_t report_dim_values(const struct report *r, size_t d, const char **out, size_t max);

#endif
