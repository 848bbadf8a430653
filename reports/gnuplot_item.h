/*
 * gnuplot_item: what an item of a chart of panels (gnuplot_chart.h: a
 * cell, or a pair of cells for ratios) has to draw in a row: its figure,
 * whether that is a whole-process one, where its row of the CSV file
 * is, and the published ratio set beside it.
 */
#ifndef MATRIX_GNUPLOT_ITEM_H
#define MATRIX_GNUPLOT_ITEM_H

#include <stddef.h>

struct report;
struct chart_item;
struct chart_row;

/* The item's figure in row rw: median (or ratio) in *v and its interval
 * (NaN when it has none: one repetition, a denominator's interval that
 * reaches 0); 0 when it has no figure there (a failed cell, a ratio of
 * another metric, a ratio that is not above 0). */
int chart_item_figure(const struct chart_item *it, const struct chart_row *rw, double *v,
		      double *lo, double *hi);

/* Is the item's figure in row rw a whole-process one (report.h,
 * outside), or for a ratio, is either side's? */
int chart_item_outside(const struct chart_item *it, const struct chart_row *rw);

/* Is the item's figure in row rw an upper bound (report.h,
 * report_upper_bound: a stream across hosts), or for a ratio, is either
 * side's?  Marked ᵘ after its series' name. */
int chart_item_upper(const struct report *r, const struct chart_item *it,
		     const struct chart_row *rw);

/* Where the item's figures are in the CSV file, into buf, as snprintf
 * returns: "cell N" (summary.csv's cell), or "pair NUM DEN METRIC"
 * (ratios.csv's row of scope cell with those num_cell, den_cell and
 * metric); numbers and our own names only, never text from the matrix
 * file, at the end of its line of a chart's table. */
int chart_item_source(const struct chart_item *it, char *buf, size_t len);

/* The published ratio beside a ratio item's in row rw (the matrix file's
 * reference:, report_pair_reference) in *v, above 0, and its label; 0
 * when it has none there. */
int chart_item_reference(const struct report *r, const struct chart_item *it,
			 const struct chart_row *rw, double *v, const char **label);

#endif
