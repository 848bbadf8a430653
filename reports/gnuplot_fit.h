/*
 * gnuplot_fit: the canvas of a chart of panels (gnuplot_chart.c), sized
 * so that no text is cut or runs into other text (gnuplot.h), from what
 * the chart measured of itself: its panels and rows, its longest x label
 * and key entry, the width its titles and notes need, its x axis in
 * slots.  Text is reckoned as gnuplot_style.h's fitting says.
 */
#ifndef MATRIX_GNUPLOT_FIT_H
#define MATRIX_GNUPLOT_FIT_H

#include <stddef.h>

/* The canvas, in pixels: the left margin (75, more for rotated x labels
 * that reach further), a panel's width (its plot, 80 less, and the space
 * to the next), the key's column at the right, the room rotated x labels
 * take under each row beyond a flat line's, and the title's lines. */
struct gnuplot_canvas {
	size_t lm, pw, kw, w, h, below, tlines;
	int rotated;		/* the x labels, which do not fit flat */
};

/* What a chart's canvas must hold. */
struct gnuplot_fit {
	size_t npanels, nrows;
	size_t xchars;		/* the longest x label, in characters */
	size_t keychars;	/* the longest key entry; 0: the chart has no key */
	size_t text;		/* the panel width its titles and notes need */
	/* the x axis: nbars bars (one a series), else the nx categories or,
	 * in a sweep, values (ascending numbers) xs */
	size_t nbars, nx;
	const char *const *xs;
	int sweep;
};

/* The canvas for n, its title (the chart's) into q in lines as wide as
 * the canvas: panels 400 pixels wide (narrower when more than four, 260
 * at least), wider for a title up to 1000 pixels wide, for their own
 * titles and notes, and for flat x labels by a quarter at most; else the
 * labels are rotated, GNUPLOT_SLOT_MIN pixels apart at least, the left
 * margin wide enough for the first.  The key's column is as wide as its
 * longest entry, 170 pixels at least. */
void gnuplot_canvas_fit(struct gnuplot_canvas *cv, const struct gnuplot_fit *n,
			const char *title, char *q, size_t qlen);

/* The panel width a plot px pixels wide needs, in a row of np panels. */
size_t gnuplot_panel_of(double px, size_t np);

#endif
