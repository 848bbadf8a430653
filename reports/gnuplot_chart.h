/*
 * gnuplot_chart: one chart of panels, plots/NAME.gp, for gnuplot.c's
 * throughput, rtt, cpu and ratios charts (gnuplot.h says what they show).
 * It is given the items to draw (cells, or pairs of cells for ratios) and
 * the rows (a metric each), and lays them out itself (gnuplot_layout.h):
 * x, the panels and the series from the dimensions that vary among the
 * items, then each series of each panel of each row as a table of its
 * own, a datablock of the CSV file's figures (to the digit), each line
 * naming its cell by number, never by matrix-file text; a ratio series'
 * published values (reference:) as a datablock of their numbers beside
 * it.  What an item draws is gnuplot_item.h's, the canvas gnuplot_fit.h's.
 */
#ifndef MATRIX_GNUPLOT_CHART_H
#define MATRIX_GNUPLOT_CHART_H

#include <stddef.h>

struct report;
struct rcell;
struct rpair;

/* An item a chart plots: a cell, or a pair for ratios. */
struct chart_item {
	char *const *dims;
	const char *def;	/* ratio name, or NULL */
	int metric;		/* the ratio's metric, index into metrics */
	int skip_dim;		/* the ratio's dimension, or -1 */
	const struct rcell *cell;	/* a summary chart's cell */
	const struct rpair *pair;	/* a ratio chart's pair */
	const char *colour_of;	/* the value of the compared dimension it stands for */
};

/* One chart row: a metric, drawn from summary.csv's (or ratios.csv's)
 * median and interval columns. */
struct chart_row {
	int metric;		/* index into metrics */
	int ratio;		/* ratios.csv: ratio, ci_lo, ci_hi; always a log axis */
	/* why a series whose program printed the first row's figure may
	 * have none in this row, for the note a panel then carries, or NULL */
	const char *lacking;
};

/* Writes r->dir/plots/NAME.gp: nrows rows (at most MATRIX_NMETRICS) of
 * the nitems items (nitems > 0; at most 64 series and 12 panels are
 * drawn) over DATA, "summary.csv" or "ratios.csv", titled "NAME: title".
 * 0, or -1 with err (the script is not left behind). */
int gnuplot_chart(const struct report *r, struct chart_item *items, size_t nitems,
		  const char *name, const char *data, const char *title,
		  const struct chart_row *rows, size_t nrows, char *err, size_t errlen);

#endif
