/*
 * gnuplot: plots/ in a run folder, one script per chart and the SVG and
 * PNG images gnuplot draws from them.
 *
 * Every script takes its paths as arguments, so that
 *   cd RUN_DIR && gnuplot -c plots/throughput.gp summary.csv plots/throughput.svg
 * rebuilds a chart exactly (the image type follows the extension, .svg or
 * .png).  The timeline chart reads its CSV file; a chart of panels
 * (throughput, rtt, cpu, ratios) carries the figures it draws, the CSV
 * file's to the digit, as datablocks, each line naming its cell (or
 * pair), and a latency chart its lines' merged buckets and percentiles
 * (gnuplot_hist.h): read from the files, 100 cells cost gnuplot a pass
 * over summary.csv per cell and row, and several over hist.csv per line,
 * most of a report's time.  Charts, a row of panels per metric, a panel per pattern and
 * concurrency (those that vary), each titled by its metric:
 *   throughput.gp (summary.csv)  msgs/s and MiB/s
 *   rtt.gp        (summary.csv)  RTT p50 and p99, after the mean when a cell
 *                                has only that (a program client prints it)
 *   cpu.gp        (summary.csv)  CPU µs per message
 *   ratios.gp     (ratios.csv)   each ratio, a row per metric, log y, 1x dashed;
 *                                a published value (the matrix file's
 *                                reference:, report_pair_reference) a short
 *                                dashed segment at it, centred on its pair's
 *                                point, in the series' colour, its label once
 *                                in the row's key ("source (dashed)"; a chart
 *                                of a point per series then has a key too),
 *                                the y axis reaching it
 *   timeline.gp   (timeline.csv) messages per second per interval, stream cells
 *                                (gnuplot_timeline.h)
 *   latency-N.gp  (hist.csv)     round-trip time distribution per scenario
 *                                (gnuplot_hist.h)
 * x is the size when it varies, else the concurrency: categories, the
 * series side by side as points with whiskers, never joined (report:
 * sweep: makes it a log2 axis, the points joined); with neither varying,
 * a bar per series, on a linear axis only.  y is log when a panel's
 * medians span more than 10x, linear from 0 otherwise, its ticks listed
 * (gnuplot_ticks, gnuplot_style.h).  A series' colour is its value of the compared
 * dimension's (gnuplot_colour), the same in every chart.  A series of
 * whole-process figures (report.h, outside: a program timed from spawn to
 * exit), or of ratios with one on either side, is drawn open (unfilled
 * points, hollow bars), "ʷ" after its name, and the chart's title says so
 * in a second line.
 * Failed cells have empty figures, drawn as no point, never as zero; a
 * panel whose row lacks series that succeeded (a program that prints a
 * mean only has no p50) says so inside it: "3 of 9 series: the other 6
 * have no figure here".
 * No text is cut or runs into other text (gnuplot_style.h, fitting): x
 * labels that do not fit flat, in panels up to a quarter wider, are
 * rotated by 45 degrees, the canvas taller by the room they take (a bar
 * chart's axis is named by the dimensions of its labels, "server,
 * client", when more than one); panels are as wide as their titles, the
 * key's column as its entries, and a chart's title wider than the canvas
 * widens it, up to 1000 pixels, then breaks into lines.
 *
 * gnuplot has no safe mode: text from the matrix file reaches a script only
 * through gnuplot_quote() (gnuplot_style.h: single-quoted, control
 * characters refused), as a label, and every label is `noenhanced`.  The data a chart draws is
 * picked by numbers (cell numbers, the ratio's cells) and our own names,
 * never by matrix-file text, and its tables ($d0_1_2, a published ratio's
 * $r0_1_2, its numbers only) are named by index.
 * Every script and image is written whole or not at all (outfile.h).
 * Nothing goes through a link: plots/ must be a folder of the run's own
 * (outfile_own_dir), gnuplot's images and log are drawn into temporary
 * files made here first (O_EXCL, O_NOFOLLOW) and renamed, and only a
 * script that is a regular file is drawn (gnuplot runs what it reads).
 */
#ifndef MATRIX_GNUPLOT_H
#define MATRIX_GNUPLOT_H

#include <stddef.h>


struct report;

/* Creates DIR/plots if needed (one that is a symbolic link, or no
 * folder, is refused: its files elsewhere would be replaced and
 * removed), removes every chart's .gp, .svg and .png there (a re-sliced
 * report must not keep a chart it no longer has; a regular file or a
 * link, never what a link points to), then
 * writes the plots/NAME.gp scripts for the charts this run has.  -1 with
 * err ("PATH: reason") when plots/ cannot be made, out of memory, or a
 * script cannot be written (it is not left behind; the rest are not
 * written).  The scripts read summary.csv, ratios.csv, timeline.csv and
 * hist.csv only when rendered. */
int gnuplot_write_scripts(const struct report *r, char *err, size_t errlen);

/* The images each chart is drawn to: .svg and .png, or .svg only when the
 * environment says MATRIX_CHARTS=svg (a run whose PNGs nobody looks at,
 * make test's: the PNGs are most of the drawing time; report.html embeds
 * the SVGs).  0, or -1 with err ("MATRIX_CHARTS=x: ...") for any other
 * value; the commands check it before they start. */
int gnuplot_formats_check(char *err, size_t errlen);

/* Renders one chart, plots/NAME.gp over DATA, to .svg and .png in dir, in
 * one gnuplot session; messages go to plots/NAME.log, removed when empty.  Each image is drawn
 * under a temporary name, checked whole (gnuplot exits 0 when a full disk
 * cut it short), synced and renamed.  0, 1 when gnuplot is not installed,
 * -1 when gnuplot failed, -2 when an image could not be written (err says
 * which; no image cut short is left). */
int gnuplot_render_chart(const char *dir, const char *name, const char *data, char *err,
			 size_t errlen);

/* Renders every script of DIR/plots to .svg and .png with gnuplot, after
 * gnuplot_write_scripts and the CSV files they read (summary.h) are written;
 * it needs only the folder, not the report.  Images as gnuplot_render_chart.
 * A gnuplot session a processor (at most 4, one for fewer than 4 images)
 * draws them at once, the images shared among them by their expected cost
 * (an SVG's a few ms, a PNG's its pixels' encoding), each session's in the order
 * above (`call` per image, the session reset between), each image the
 * bytes `gnuplot -c` alone draws; a chart that fails costs itself only,
 * and a gnuplot that dies on one is followed by a new session for the
 * rest of its share.  plots/gnuplot.log has the sessions' messages one
 * session after the other.
 * Returns 0, 1 when gnuplot is not installed (err says how to render by
 * hand), -1 when gnuplot failed (err names the script; its messages are
 * in plots/gnuplot.log), -2 when an image could not be written (err names
 * it; -2 wins over -1). */
int gnuplot_render(const char *dir, char *err, size_t errlen);

#endif
