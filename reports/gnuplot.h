/*
 * gnuplot: plots/ in a run folder, one script per chart and the SVG and
 * PNG images gnuplot draws from them.
 *
 * Every script reads CSV and takes its paths as arguments, so that
 *   cd RUN_DIR && gnuplot -c plots/throughput.gp summary.csv plots/throughput.svg
 * rebuilds a chart exactly (the image type follows the extension, .svg or
 * .png).  Charts, a row of panels per metric, a panel per pattern and
 * concurrency (those that vary), each titled by its metric:
 *   throughput.gp (summary.csv)  msgs/s and MiB/s
 *   rtt.gp        (summary.csv)  RTT p50 and p99
 *   cpu.gp        (summary.csv)  CPU µs per message
 *   ratios.gp     (ratios.csv)   each ratio, a row per metric, log y, 1x dashed
 *   timeline.gp   (timeline.csv) messages per second per interval, stream cells
 *   latency-N.gp  (hist.csv)     round-trip time distribution per scenario
 *                                (gnuplot_hist.h)
 * x is the size when it varies, else the concurrency: categories, the
 * series side by side as points with whiskers, never joined (report:
 * sweep: makes it a log2 axis, the points joined); with neither varying,
 * a bar per series, on a linear axis only.  y is log when a panel's
 * medians span more than 10x, linear from 0 otherwise, its ticks listed
 * (gnuplot_ticks).  A series' colour is its value of the compared
 * dimension's (gnuplot_colour), the same in every chart.  A series of
 * whole-process figures (report.h, outside: a program timed from spawn to
 * exit), or of ratios with one on either side, is drawn open (unfilled
 * points, hollow bars), "ʷ" after its name, and the chart's title says so
 * in a second line.
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

/* A tick label: three significant digits, with k, M or G from 10,000 on
 * ("250k", "1.5M", "5000", "0.02").  Returns buf. */
char *gnuplot_number(double v, char *buf, size_t len);

/* `set Xtics (...)` for axis ('x' or 'y') over [lo, hi], every tick listed
 * and labelled by gnuplot_number followed by suffix ("" or "x"): on a log
 * axis 1, 2 and 5 of each decade labelled and the other digits as minor
 * ticks, or, over more than three decades, each decade labelled; on a
 * linear axis a step of 1, 2 or 5 times a power of ten, about five ticks,
 * all with the k, M or G that hi takes ("0", "5k", "10k"). */
void gnuplot_ticks(FILE *f, char axis, double lo, double hi, int logscale, const char *suffix);

/* A size as results.csv writes it (bytes) as a label: "64 B", "1 KiB",
 * "1.5 MiB".  Returns buf. */
char *gnuplot_size(const char *bytes, char *buf, size_t len);

/* Creates DIR/plots if needed, removes every chart's .gp, .svg and .png
 * there (a re-sliced report must not keep a chart it no longer has), then
 * writes the plots/NAME.gp scripts for the charts this run has.  -1 with
 * err ("PATH: reason") when plots/ cannot be made, out of memory, or a
 * script cannot be written (it is not left behind; the rest are not
 * written).  The scripts read summary.csv, ratios.csv, timeline.csv and
 * hist.csv only when rendered. */
int gnuplot_write_scripts(const struct report *r, char *err, size_t errlen);

/* plots/timeline.gp, written by gnuplot_write_scripts (gnuplot_timeline.c):
 * a panel per stream cell (the first 12), a line per repetition (points
 * too when it has few intervals in timeline.csv).  0, or -1 with err. */
int gnuplot_timeline_chart(const struct report *r, char *err, size_t errlen);

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
