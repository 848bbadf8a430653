/*
 * gnuplot_timeline: plots/timeline.gp, the messages per second of each
 * interval of the stream cells, from timeline.csv (results.h), written by
 * gnuplot_write_scripts (gnuplot.h).  A panel is a cell, with the later
 * cells that differ from it only in their programs, each in a look of
 * its own: its implementation's colour (the server's, else the
 * client's), as in the other charts, with a point type too past the
 * palette's eighth value (gnuplot_point), and for a crossed pair that
 * would share it with another, a look no other cell of the panel has.
 * Cells and
 * repetitions are picked by number, so matrix-file text reaches the
 * script only as quoted labels (gnuplot_style.h).
 */
#ifndef MATRIX_GNUPLOT_TIMELINE_H
#define MATRIX_GNUPLOT_TIMELINE_H

#include <stddef.h>

struct report;

/* Writes plots/timeline.gp (plots/ exists), when the run has a stream cell
 * to draw: a panel per stream cell, every one (with the cells it shares
 * its panel with: 64 at most, a 65th starts another panel), a line per
 * repetition (points too when it has few intervals in timeline.csv, or
 * its cell's colour is past the palette's eighth: then its point type
 * tells it apart, gnuplot_point), its last interval left out when it is
 * too short to mean anything (report_timeline.h).  0, or -1 with err
 * (the script is not left behind). */
int gnuplot_timeline_chart(const struct report *r, char *err, size_t errlen);

#endif
