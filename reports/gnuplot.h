/*
 * gnuplot: plots/ in a run folder, one script per chart and the SVG and
 * PNG images gnuplot draws from them.
 *
 * Every script reads CSV and takes its paths as arguments, so that
 *   cd RUN_DIR && gnuplot -c plots/throughput.gp summary.csv plots/throughput.svg
 * rebuilds a chart exactly (the image type follows the extension, .svg or
 * .png).  Charts:
 *   throughput.gp (summary.csv)  msgs/s and MiB/s against size, a line per
 *                                series, CI error bars, a panel per concurrency
 *   rtt.gp        (summary.csv)  RTT p50 and p99 against size, log y
 *   cpu.gp        (summary.csv)  CPU µs per message
 *   ratios.gp     (ratios.csv)   each ratio against size, a line at 1.0
 *   timeline.gp   (timeline.csv) messages per second per interval, stream cells
 * When size takes one value the x axis is the series instead (bars).
 * Failed cells have empty figures, drawn as no point, never as zero.
 *
 * gnuplot has no safe mode: text from the matrix file reaches a script only
 * through gnuplot_quote() (single-quoted, control characters refused), as
 * a label, and every label is `noenhanced`.  The data a chart draws is
 * picked by numbers (cell numbers, the ratio's cells) and our own names,
 * never by matrix-file text, and its tables ($d0_1_2) are named by index.
 * Every script and image is written whole or not at all (outfile.h).
 */
#ifndef MATRIX_GNUPLOT_H
#define MATRIX_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

struct report;

/* in as a gnuplot string expression, into out: single-quoted pieces, a '
 * as "'" between them ("it's" is 'it'."'".'s').  -1 when in holds a
 * control character (a newline would end the command) or out is too
 * small. */
int gnuplot_quote(const char *in, char *out, size_t outlen);

/* The dimension the charts compare, one colour per value: transport when
 * it varies among the cells, else the first ratio's dimension, else the
 * first dimension that varies but pattern, size and concurrency (those
 * are panels and axes); -1 when there is none (then every series has
 * gnuplot_colour(r, -1, NULL), the palette's first colour). */
int gnuplot_compared_dim(const struct report *r);

/* The colour, "#rrggbb", of value `value` of dimension `dim` (an index
 * into r->dimnames, as gnuplot_compared_dim gives): a fixed palette keyed
 * by the value's index in the matrix file's list for that dimension, so a
 * value has the same colour in every chart of a run, whatever the slice
 * (--only) or the cells that failed.  A value the file does not list (a
 * dimension it does not set) takes its index among the run's values.
 * Eight colours, told apart by people with a colour-vision deficiency
 * (Okabe-Ito); from the ninth value on they repeat. */
const char *gnuplot_colour(const struct report *r, int dim, const char *value);

/* Creates DIR/plots if needed, removes every chart's .gp, .svg and .png
 * there (a re-sliced report must not keep a chart it no longer has), then
 * writes the plots/NAME.gp scripts for the charts this run has.  -1 with
 * err ("PATH: reason") when plots/ cannot be made, out of memory, or a
 * script cannot be written (it is not left behind; the rest are not
 * written).  The scripts read summary.csv, ratios.csv and timeline.csv
 * only when rendered. */
int gnuplot_write_scripts(const struct report *r, char *err, size_t errlen);

/* The head of every chart script: its comment, the terminal by the
 * output's extension (ARG2), comma-separated data, v(COL) for a figure
 * that may be empty (NaN, a gap); `what` is its description, w x h its
 * size in pixels. */
void gnuplot_preamble(FILE *f, const char *name, const char *data, const char *what,
		      size_t w, size_t h);

/* Renders one chart, plots/NAME.gp over DATA, to .svg and .png in dir;
 * messages go to plots/NAME.log, removed when empty.  Each image is drawn
 * under a temporary name, checked whole (gnuplot exits 0 when a full disk
 * cut it short), synced and renamed.  0, 1 when gnuplot is not installed,
 * -1 when gnuplot failed, -2 when an image could not be written (err says
 * which; no image cut short is left). */
int gnuplot_render_chart(const char *dir, const char *name, const char *data, char *err,
			 size_t errlen);

/* Renders every script of DIR/plots to .svg and .png with gnuplot, after
 * gnuplot_write_scripts and the CSV files they read (summary.h) are written;
 * it needs only the folder, not the report.  Images as gnuplot_render_chart.
 * Returns 0, 1 when gnuplot is not installed (err says how to render by
 * hand), -1 when gnuplot failed (err names the script; its messages are
 * in plots/gnuplot.log), -2 when an image could not be written (err names
 * it; -2 wins over -1). */
int gnuplot_render(const char *dir, char *err, size_t errlen);

#endif
