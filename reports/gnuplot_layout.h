/*
 * gnuplot_layout: a chart of panels (gnuplot_chart.h) laid out from its
 * items, for gnuplot_chart.c alone: x (the size, else the concurrency,
 * when it varies; else a bar per series), the panels (the pattern and the
 * concurrency, those that vary and are not x) and the series (the other
 * dimensions that vary), and which of them an item is in.
 */
#ifndef MATRIX_GNUPLOT_LAYOUT_H
#define MATRIX_GNUPLOT_LAYOUT_H

#include "gnuplot_fit.h"

#include <stddef.h>
#include <stdio.h>

struct report;
struct chart_item;
struct chart_row;

#define MAXS 64		/* series per chart */
#define MAXP 12		/* panels per chart */

/* A chart being written: its items and rows, their layout, its canvas and script. */
struct chart {
	const struct report *r;
	FILE *f;
	const struct chart_row *rows;
	size_t nrows;
	struct gnuplot_canvas cv;	/* sized so that no text is cut (gnuplot_fit.h) */
	int xdim;		/* categorical x: size, else concurrency, when it varies;
				 * -1: a bar (or point) per series */
	int sweep;		/* x is the matrix's report: sweep: a numeric log2 axis */
	int keyed;		/* a key at the right: x is not the series, or a
				 * published ratio's label needs it */
	int pdims[2];		/* panels: pattern and concurrency, those that vary */
	size_t npdims;
	size_t pitem[MAXP];	/* a representative item of each panel */
	size_t npanels;
	int sdims[32];		/* dimensions that tell series apart */
	size_t nsdims;
	struct chart_item *items;
	size_t nitems;
	size_t sitem[MAXS];	/* index into items of each series' representative */
	size_t nseries;
	const char *xs[MAXS];	/* the x values, ascending */
	size_t nx;
};

/* Lays out c's items: fills in its x, panels, series and x values. */
void chart_layout(struct chart *c);

/* Are a and b of one series: one ratio (or none), equal in the series' dimensions? */
int chart_same_series(const struct chart *c, const struct chart_item *a, const struct chart_item *b);

/* Are a and b in one panel: equal in the panels' dimensions? */
int chart_same_panel(const struct chart *c, const struct chart_item *a, const struct chart_item *b);

/* The place of the item's x value among c's x values. */
size_t chart_x_index(const struct chart *c, const struct chart_item *it);

#endif
