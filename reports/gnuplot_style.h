/*
 * gnuplot_style: what every chart script shares, for the chart writers
 * (gnuplot_chart.c, gnuplot_timeline.c, gnuplot_hist.c, compare_out.c,
 * history_out.c): a script's head, the quoting of text into it, the
 * dimension a run's charts compare and its colours, an axis's ticks and
 * labels, and how much room text takes.  gnuplot has no safe mode (backquotes run commands even inside
 * double quotes): matrix-file text reaches a script only through
 * gnuplot_quote(), as a label, and gnuplot_preamble() makes every label
 * `noenhanced`.
 */
#ifndef MATRIX_GNUPLOT_STYLE_H
#define MATRIX_GNUPLOT_STYLE_H

#include <stddef.h>
#include <stdio.h>

struct report;

/* in as a gnuplot string expression, into out: single-quoted pieces, a '
 * as "'" between them ("it's" is 'it'."'".'s').  -1 when in holds a
 * control character (a newline would end the command) or out is too
 * small. */
int gnuplot_quote(const char *in, char *out, size_t outlen);

/* in as gnuplot_quote, its control characters turned into spaces first
 * (a description may span lines; a script line may not) and its first
 * 511 bytes only; '' when out is too small. */
void gnuplot_quote_line(const char *in, char *out, size_t outlen);

/* A tick label of `set xtics ('LABEL' POS, ...)` as gnuplot_quote_line
 * makes it, its every % doubled: gnuplot reads such a label as a format
 * for the tick's position (a '%d' prints it, a '%' alone fails the
 * chart), so that a ratio named 100% shows as 100%.  Only for a tick
 * list's labels: a title, a key entry or a label has no format. */
void gnuplot_quote_tic(const char *in, char *out, size_t outlen);

/* The head of every chart script: its comment, the terminal by the
 * output's extension (ARG2), comma-separated data, v(COL) for a figure
 * that may be empty (NaN, a gap); `what` is its description, w x h its
 * size in pixels. */
void gnuplot_preamble(FILE *f, const char *name, const char *data, const char *what,
		      size_t w, size_t h);

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
 * (Okabe-Ito); from the ninth value on they repeat (a chart that must
 * tell more apart adds gnuplot_point() of the value's index). */
const char *gnuplot_colour(const struct report *r, int dim, const char *value);

/* The index gnuplot_colour keys the value's colour by (0 to the number
 * of values less one, not wrapped to the palette: value i has colour
 * gnuplot_palette(i)); 0 for dim -1 or no value. */
size_t gnuplot_colour_index(const struct report *r, int dim, const char *value);

/* The palette's colour i, the one gnuplot_colour gives the value of index
 * i (from GNUPLOT_COLOURS on they repeat). */
const char *gnuplot_palette(size_t i);
#define GNUPLOT_COLOURS 8

/* The point type (gnuplot's pt) of index i: 7, a filled circle, for the
 * first GNUPLOT_COLOURS indices, another shape for each next
 * GNUPLOT_COLOURS (square, triangles, ...; eleven shapes, then they
 * repeat), so that colour and point type together tell 88 indices
 * apart. */
int gnuplot_point(size_t i);

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

/* ---- fitting text into a chart ----
 * Text at the charts' 10 pt sans font is reckoned GNUPLOT_CHAR_PX pixels
 * a character (generous: most letters are narrower) and GNUPLOT_LINE_PX a
 * line, so that a canvas sized by these numbers holds it; gnuplot makes
 * room for 8 pixels a character itself (a key's entries, rotated tick
 * labels). */
#define GNUPLOT_CHAR_PX 7
#define GNUPLOT_LINE_PX 15
#define GNUPLOT_SLOT_MIN 20	/* pixels from a rotated tick label to the next */

/* The characters of text's widest line (lines end at '\n'; UTF-8 counted
 * by characters: "ʷ" is one). */
size_t gnuplot_chars(const char *text);

/* text as a gnuplot string expression (gnuplot_quote) of lines at most
 * width pixels wide, broken at spaces (a word wider than that where it
 * must), its own lines ('\n') kept and other control characters turned
 * into spaces; joined by "\n", which is ours.  Returns the number of
 * lines (one, '', when out is too small). */
size_t gnuplot_lines(const char *text, size_t width, char *out, size_t outlen);

/* The slot, in pixels from a tick to the next, that x tick labels need to
 * stand flat, the longest `chars` characters.  In less they are drawn
 * rotated by 45 degrees (GNUPLOT_XTICS_ROTATED), in slots of
 * GNUPLOT_SLOT_MIN pixels at least; they then reach gnuplot_xtics_reach()
 * pixels left of their tick, and take gnuplot_xtics_room() pixels more
 * below the axis than a flat line does, as gnuplot reckons it (the axis's
 * own label goes under that, so a canvas must have the room). */
double gnuplot_xtics_slot(size_t chars);
size_t gnuplot_xtics_reach(size_t chars);
size_t gnuplot_xtics_room(size_t chars);
#define GNUPLOT_XTICS_ROTATED "set xtics rotate by 45 right\n"

#endif
