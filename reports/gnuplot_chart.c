/* A chart of panels (throughput, rtt, cpu, ratios): see gnuplot_chart.h. */
#include "gnuplot_chart.h"
#include "arrays.h"
#include "gnuplot_fit.h"
#include "gnuplot_item.h"
#include "gnuplot_layout.h"
#include "gnuplot_style.h"
#include "outfile.h"
#include "report.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void series_label(const struct chart *c, size_t s, char *buf, size_t len)
{
	const struct chart_item *it = &c->items[c->sitem[s]];
	size_t o = 0;

	buf[0] = '\0';
	if (it->def)
		o += (size_t)snprintf(buf, len, "%s", it->def);
	for (size_t k = 0; k < c->nsdims && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " " : "",
				      it->dims[c->sdims[k]]);
	if (!buf[0])
		snprintf(buf, len, "%s", c->r->m.name);
}

/* Series s's colour (its value of the compared dimension's) and point
 * type: series of one colour (another dimension varies too) differ in
 * their points; a series of whole-process figures (open) has the same
 * shape unfilled. */
static const char *series_colour(const struct chart *c, size_t s, int open, int *pt)
{
	static const int pts[] = { 7, 5, 9, 11, 13, 15, 1, 2 };
	static const int open_pts[] = { 6, 4, 8, 10, 12, 14, 1, 2 };
	const struct chart_item *it = &c->items[c->sitem[s]];
	int cd = gnuplot_compared_dim(c->r);
	const char *col = gnuplot_colour(c->r, cd, it->colour_of);
	size_t same = 0;

	for (size_t k = 0; k < s; k++)
		same += !strcmp(col, gnuplot_colour(c->r, cd, c->items[c->sitem[k]].colour_of));
	*pt = (open ? open_pts : pts)[same % (ARRAY_SIZE(pts))];
	return col;
}

/* Is series s drawn open in row rw: has it, in any panel, a whole-process
 * figure? */
static int series_open(const struct chart *c, size_t s, const struct chart_row *rw)
{
	for (size_t i = 0; i < c->nitems; i++)
		if (chart_same_series(c, &c->items[i], &c->items[c->sitem[s]]) &&
		    chart_item_outside(&c->items[i], rw))
			return 1;
	return 0;
}

#define ANY_PANEL SIZE_MAX

/* Has series s, in panel p of row rw (or in any: ANY_PANEL), a figure
 * that is an upper bound (a stream across hosts)? */
static int series_upper(const struct chart *c, size_t s, size_t p, const struct chart_row *rw)
{
	for (size_t i = 0; i < c->nitems; i++)
		if (chart_same_series(c, &c->items[i], &c->items[c->sitem[s]]) &&
		    (p == ANY_PANEL || chart_same_panel(c, &c->items[i], &c->items[c->pitem[p]])) &&
		    chart_item_upper(c->r, &c->items[i], rw))
			return 1;
	return 0;
}

/* Series s's name in the key of panel p of row rw, with the marks the
 * tables give its figures: ʷ when drawn open (in the whole row, as it is
 * drawn), ᵘ for upper bounds in that panel. */
static void series_key(const struct chart *c, size_t s, size_t p, const struct chart_row *rw,
		       char *buf, size_t len)
{
	series_label(c, s, buf, len);
	if (series_open(c, s, rw))
		snprintf(buf + strlen(buf), len - strlen(buf), " ʷ");
	if (series_upper(c, s, p, rw))
		snprintf(buf + strlen(buf), len - strlen(buf), " ᵘ");
}

/* Has series s a figure in panel p of this row? */
static int series_has(const struct chart *c, size_t s, size_t p, const struct chart_row *rw)
{
	double v, lo, hi;

	for (size_t i = 0; i < c->nitems; i++) {
		const struct chart_item *it = &c->items[i];
		if (chart_same_series(c, it, &c->items[c->sitem[s]]) &&
		    chart_same_panel(c, it, &c->items[c->pitem[p]]) &&
		    chart_item_figure(it, rw, &v, &lo, &hi))
			return 1;
	}
	return 0;
}

/* Has series s a published ratio in panel p of this row? */
static int series_ref(const struct chart *c, size_t s, size_t p, const struct chart_row *rw)
{
	const char *label;
	double v;

	for (size_t i = 0; i < c->nitems; i++) {
		const struct chart_item *it = &c->items[i];
		if (chart_same_series(c, it, &c->items[c->sitem[s]]) &&
		    chart_same_panel(c, it, &c->items[c->pitem[p]]) &&
		    chart_item_reference(c->r, it, rw, &v, &label))
			return 1;
	}
	return 0;
}

/* The y axis of panel p in row rw, from the figures it draws: log when the
 * medians span more than a factor of 10 (ratios: always), else linear from
 * 0; [*lo, *hi] the whiskers' (and published ratios') reach.  0 when
 * nothing is drawn. */
static int panel_range(const struct chart *c, size_t p, const struct chart_row *rw, double *lo,
		       double *hi, int *logy)
{
	double vmin = INFINITY, vmax = 0, v, l, h;
	const char *label;

	*lo = INFINITY, *hi = 0;
	for (size_t i = 0; i < c->nitems; i++) {
		const struct chart_item *it = &c->items[i];
		if (!chart_same_panel(c, it, &c->items[c->pitem[p]]) ||
		    !chart_item_figure(it, rw, &v, &l, &h))
			continue;
		vmin = fmin(vmin, v), vmax = fmax(vmax, v);
		*lo = fmin(*lo, isfinite(l) && l > 0 ? l : v);
		*hi = fmax(*hi, isfinite(h) ? h : v);
	}
	if (vmin > vmax)
		return 0;
	for (size_t i = 0; i < c->nitems; i++)
		if (chart_same_panel(c, &c->items[i], &c->items[c->pitem[p]]) &&
		    chart_item_reference(c->r, &c->items[i], rw, &v, &label)) {
			vmin = fmin(vmin, v), vmax = fmax(vmax, v);
			*lo = fmin(*lo, v), *hi = fmax(*hi, v);
		}
	*logy = rw->ratio || (vmin > 0 && vmax / vmin > 10);
	if (rw->ratio) {	/* 1x in view, and at least 0.5x to 2x */
		*lo = fmin(*lo, 0.5), *hi = fmax(*hi, 2);
	}
	if (*logy) {
		*lo = fmax(*lo, vmin / 1e6) / 1.2, *hi *= 1.2;
	} else {
		*lo = 0, *hi = *hi > 0 ? *hi * 1.08 : 1;
	}
	return 1;
}

/* The room of a series in a category: the step from one to the next. */
static double x_step(const struct chart *c)
{
	return c->nseries > 1 ? fmin(0.7 / (double)c->nseries, 0.15) : 0;
}

/* Where series s stands at category i, and d (in categories) beside it:
 * side by side within it, so that points of one size never hide each
 * other (in a sweep, at its value, nudged on the log2 axis); with no x
 * dimension, at its bar, s + 1. */
static double x_at(const struct chart *c, size_t i, size_t s, double d)
{
	double off = ((double)s - (double)(c->nseries - 1) / 2) * x_step(c) + d;

	if (c->xdim < 0)
		return (double)s + 1 + d;
	return c->sweep ? strtod(c->xs[i], NULL) * pow(2, off / 2) : (double)i + off;
}

/* v as the CSV files have it (csvfile.h, 10 digits), NaN for an empty
 * field (a failed cell's, an interval it has not). */
static void put_figure(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.10g", v);
	else
		fputs(" NaN", f);
}

/* $dR_P_S: row R, panel P, series S, one line per x value in ascending
 * order: x, median, interval, then where the figures are in the CSV file
 * (gnuplot reads the first four columns only); a failed cell's figures as
 * NaN.  The figures are the CSV file's, to the digit, so that gnuplot only
 * draws: read from it, a table of 100 cells cost gnuplot a pass over the
 * file per cell. */
static void write_table(struct chart *c, const struct chart_row *rw, size_t ri, size_t p, size_t s)
{
	char src[128];

	fprintf(c->f, "# $d%zu_%zu_%zu: x, %s%s's %s%s and its interval (the figure again when it "
		"has none) of the row named at the end\n$d%zu_%zu_%zu << EOD\n", ri, p, s,
		rw->ratio ? "ratios" : "summary", ".csv", rw->ratio ? "ratio" :
		matrix_metrics[rw->metric], rw->ratio ? "" : "_median", ri, p, s);
	for (size_t i = 0; i < (c->xdim >= 0 ? c->nx : 1); i++)
		for (size_t k = 0; k < c->nitems; k++) {
			const struct chart_item *it = &c->items[k];
			if (!chart_same_series(c, it, &c->items[c->sitem[s]]) ||
			    !chart_same_panel(c, it, &c->items[c->pitem[p]]) ||
			    (it->pair && it->metric != rw->metric) ||
			    (c->xdim >= 0 && strcmp(it->dims[c->xdim], c->xs[i])))
				continue;
			/* a figure without an interval (its ends empty in the CSV)
			 * is drawn without whiskers, not left out as gnuplot leaves
			 * out a point with a NaN */
			double v, lo, hi;
			int bare = chart_item_figure(it, rw, &v, &lo, &hi) &&
				   !(isfinite(lo) && isfinite(hi));
			/* x to 4 places, as 6 digits (what gnuplot's table of it
			 * had) */
			snprintf(src, sizeof(src), "%.4f",
				 x_at(c, c->xdim >= 0 ? chart_x_index(c, it) : 0, s, 0));
			fprintf(c->f, "%g", strtod(src, NULL));
			put_figure(c->f, v);
			put_figure(c->f, bare ? v : lo);
			put_figure(c->f, bare ? v : hi);
			chart_item_source(it, src, sizeof(src));
			fprintf(c->f, " %s\n", src);
		}
	fprintf(c->f, "EOD\n");
}

/* $rR_P_S: the published ratios beside series S's points in row R's
 * panel P, a segment each at its value, centred on its point's x and as
 * wide as the series' room there (less a gap), or its bar's width: two
 * lines (x, ratio) and a blank one. */
static void write_refs(struct chart *c, const struct chart_row *rw, size_t ri, size_t p, size_t s)
{
	double half = c->xdim < 0 ? 0.3 : c->nseries > 1 ? 0.45 * x_step(c) : 0.2, v;
	const char *label;

	fprintf(c->f, "$r%zu_%zu_%zu << EOD\n", ri, p, s);
	for (size_t k = 0; k < c->nitems; k++) {
		const struct chart_item *it = &c->items[k];
		if (!chart_same_series(c, it, &c->items[c->sitem[s]]) ||
		    !chart_same_panel(c, it, &c->items[c->pitem[p]]) ||
		    !chart_item_reference(c->r, it, rw, &v, &label))
			continue;
		size_t i = c->xdim >= 0 ? chart_x_index(c, it) : 0;
		fprintf(c->f, "%.4f %.6g\n%.4f %.6g\n\n", x_at(c, i, s, -half), v,
			x_at(c, i, s, half), v);
	}
	fprintf(c->f, "EOD\n");
}

/* Every series of every panel of every row as a table of its own, and its
 * published ratios (reference:) as one, ahead of the plots that draw them. */
static void write_tables(struct chart *c, const struct chart_row *rows, size_t nrows)
{
	for (size_t ri = 0; ri < nrows; ri++)
		for (size_t p = 0; p < c->npanels; p++)
			for (size_t s = 0; s < c->nseries; s++) {
				if (series_has(c, s, p, &rows[ri]))
					write_table(c, &rows[ri], ri, p, s);
				if (series_ref(c, s, p, &rows[ri]))
					write_refs(c, &rows[ri], ri, p, s);
			}
}

/* Label i of the x axis: a size (or client count), or series i's (marked
 * ʷ when drawn open in a row, ᵘ when a row has upper bounds). */
static void x_label(const struct chart *c, size_t i, char *label, size_t len)
{
	if (c->xdim < 0) {
		int open = 0, upper = 0;
		series_label(c, i, label, len);
		for (size_t ri = 0; ri < c->nrows; ri++) {
			open |= series_open(c, i, &c->rows[ri]);
			upper |= series_upper(c, i, ANY_PANEL, &c->rows[ri]);
		}
		snprintf(label + strlen(label), len - strlen(label), "%s%s", open ? " ʷ" : "",
			 upper ? " ᵘ" : "");
	} else if (c->xdim == report_dim(c->r, "size")) {
		gnuplot_size(c->xs[i], label, len);
	} else {
		snprintf(label, len, "%s", c->xs[i]);
	}
}

/* The x axis: the sizes (or client counts) as categories, or one bar per
 * series; its labels rotated when they do not fit flat (gnuplot_fit.h). */
static void write_x_axis(struct chart *c)
{
	FILE *f = c->f;
	char label[512], qlabel[2400];
	int size = report_dim(c->r, "size");

	fprintf(f, "%s\n%sset xtics (", c->sweep ? "set logscale x 2" : "unset logscale x",
		c->cv.rotated ? GNUPLOT_XTICS_ROTATED : "");
	for (size_t i = 0; i < (c->xdim >= 0 ? c->nx : c->nseries); i++) {
		x_label(c, i, label, sizeof(label));
		gnuplot_quote_tic(label, qlabel, sizeof(qlabel));
		if (c->sweep)
			fprintf(f, "%s%s %s", i ? ", " : "", qlabel, c->xs[i]);
		else
			fprintf(f, "%s%s %zu", i ? ", " : "", qlabel, c->xdim >= 0 ? i : i + 1);
	}
	if (c->sweep) {
		fprintf(f, ")\nset xrange [%.6g:%.6g]\nset xlabel '%s (log2)'\n",
			strtod(c->xs[0], NULL) / 1.5, strtod(c->xs[c->nx - 1], NULL) * 1.5,
			c->xdim == size ? "message size" : "clients (concurrency)");
	} else if (c->xdim >= 0) {
		fprintf(f, ")\nset xrange [-0.5:%zu.5]\nset xlabel '%s'\n", c->nx - 1,
			c->xdim == size ? "message size" : "clients (concurrency)");
	} else {	/* named by the compared dimension, or by those of the labels */
		int cd = gnuplot_compared_dim(c->r);
		size_t o = (size_t)snprintf(label, sizeof(label), "%s", c->nsdims < 2 && cd >= 0 ?
					    c->r->dimnames[cd] : "");
		for (size_t k = 0; c->nsdims > 1 && k < c->nsdims && o < sizeof(label); k++)
			o += (size_t)snprintf(label + o, sizeof(label) - o, "%s%s", k ? ", " : "",
					      c->r->dimnames[c->sdims[k]]);
		gnuplot_quote_line(label, qlabel, sizeof(qlabel));
		fprintf(f, ")\nset xrange [0.4:%zu.6]\nset boxwidth 0.6\n"
			"set style fill solid 0.6 border -1\nset xlabel %s\n", c->nseries,
			c->items[0].pair ? "''" : qlabel);
	}
}

/* The labels of row rw's published ratios, the first 4, and the colour
 * of each one's marks (grey when they are of series of more than one);
 * returns how many. */
static size_t ref_labels(const struct chart *c, const struct chart_row *rw, const char **labels,
			 const char **cols)
{
	const char *label, *col;
	size_t n = 0, k;
	double v;
	int pt;

	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->nitems; i++) {
			if (!chart_same_series(c, &c->items[i], &c->items[c->sitem[s]]) ||
			    !chart_item_reference(c->r, &c->items[i], rw, &v, &label))
				continue;
			col = series_colour(c, s, 0, &pt);
			for (k = 0; k < n && strcmp(labels[k], label); k++)
				;
			if (k == n && n < 4)
				labels[n] = label, cols[n++] = col;
			else if (k < n && strcmp(cols[k], col))
				cols[k] = "#666666";
		}
	return n;
}

/* Has the chart a key: is x not the series, or has it published ratios
 * (their label is in the key)? */
static int chart_keyed(const struct chart *c)
{
	const char *labels[4], *cols[4];

	for (size_t ri = 0; ri < c->nrows && c->xdim < 0; ri++)
		if (ref_labels(c, &c->rows[ri], labels, cols))
			return 1;
	return c->xdim >= 0;
}

/* The published ratios of row ri's panel p, dashed marks in their series'
 * colours under its points, and with the key, an entry per label of the
 * row's ("source (dashed)"). */
static void write_ref_plots(struct chart *c, const struct chart_row *rw, size_t ri, size_t p,
			    int key)
{
	const char *labels[4], *cols[4];
	char text[128], q[300];
	size_t n = key ? ref_labels(c, rw, labels, cols) : 0;
	int pt;

	for (size_t k = 0; k < n; k++) {
		snprintf(text, sizeof(text), "%s (dashed)", labels[k]);
		gnuplot_quote_line(text, q, sizeof(q));
		fprintf(c->f, "    NaN with lines dt (10,6) lw 2 lc rgb '%s' title %s, \\\n", cols[k], q);
	}
	for (size_t s = 0; s < c->nseries; s++)
		if (series_ref(c, s, p, rw))
			fprintf(c->f, "    $r%zu_%zu_%zu using 1:2 with lines dt (10,6) lw 2 lc rgb '%s' "
				"notitle, \\\n", ri, p, s, series_colour(c, s, 0, &pt));
}

/* The plot command of row ri's panel p: the series in shown, from their
 * tables, as points with whiskers (side by side in each category), or as
 * bars from 0 when x is the series and the axis linear; a ratio's after
 * the 1x line and the published ratios. */
static void write_plot(struct chart *c, const struct chart_row *rw, size_t ri, size_t p,
		       const size_t *shown, size_t nshown, int logy, int key)
{
	FILE *f = c->f;
	char label[512], qlabel[1100];

	fprintf(f, "plot \\\n");
	if (rw->ratio) {
		fprintf(f, "    1 with lines dt 2 lw 1.5 lc rgb 'black' title '1x (no difference)', \\\n");
		write_ref_plots(c, rw, ri, p, key);
	}
	for (size_t k = 0; k < nshown; k++) {
		size_t s = shown[k];
		int pt, open = series_open(c, s, rw);
		const char *col = series_colour(c, s, open, &pt);
		const char *more = k + 1 < nshown ? ", \\" : "";
		series_key(c, s, p, rw, label, sizeof(label));	/* the tables' marks */
		gnuplot_quote_line(label, qlabel, sizeof(qlabel));
		if (c->xdim < 0 && !logy)	/* invisible points keep whisker tops in view */
			fprintf(f, "    $d%zu_%zu_%zu using 1:2:3:4:(0.6) with boxerrorbars%s "
				"lc rgb '%s' title %s, \\\n    $d%zu_%zu_%zu using 1:4 with points "
				"ps 0 notitle%s\n", ri, p, s, open ? " fs empty" : "", col, qlabel,
				ri, p, s, more);
		else	/* a sweep's values are points on a line; categories are not */
			fprintf(f, "    $d%zu_%zu_%zu using 1:2:3:4 with %s lw 1.5 pt %d "
				"ps 0.9 lc rgb '%s' title %s%s\n", ri, p, s,
				c->sweep ? "yerrorlines" : "yerrorbars", pt, col, qlabel, more);
	}
}

/* Panel p's title: the row's metric, then the panel's dimensions on a
 * second line. */
static void panel_title(const struct chart *c, const struct chart_row *rw, size_t p, char *buf,
			size_t len)
{
	const struct metric *m = &metrics[rw->metric];
	size_t o = (size_t)snprintf(buf, len, rw->ratio ? "ratio of %s" : "%s (%s)", m->title,
				    m->unit);

	for (size_t k = 0; k < c->npdims && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s %s", k ? ", " : "\n",
				      c->r->dimnames[c->pdims[k]],
				      c->items[c->pitem[p]].dims[c->pdims[k]]);
}

/* Has series s, in panel p, a cell with a successful repetition (with
 * metric m printed by its program, when m >= 0)? */
static int series_succeeded(const struct chart *c, size_t s, size_t p, int m)
{
	for (size_t i = 0; i < c->nitems; i++) {
		const struct chart_item *it = &c->items[i];
		if (it->cell && it->cell->nokreps && (m < 0 || it->cell->printed[m]) &&
		    chart_same_series(c, it, &c->items[c->sitem[s]]) &&
		    chart_same_panel(c, it, &c->items[c->pitem[p]]))
			return 1;
	}
	return 0;
}

/* The note of row rw's panel p when series there have no figure of its
 * metric though their cells succeeded: "2 of 9 series: the other 7 have
 * no figure here", and the row's reason on a second line when each of
 * them printed the first row's figure (chart_row.lacking).  Its lines, 0
 * when every series there has its figure (or failed). */
static size_t panel_note(const struct chart *c, const struct chart_row *rw, size_t p, char *buf,
			 size_t len)
{
	size_t shown = 0, lacking = 0, o;
	int why = rw->lacking != NULL;

	for (size_t s = 0; s < c->nseries && !rw->ratio; s++)
		if (series_has(c, s, p, rw)) {
			shown++;
		} else if (series_succeeded(c, s, p, -1)) {
			lacking++;
			why &= series_succeeded(c, s, p, c->rows[0].metric);
		}
	if (!lacking)
		return 0;
	if (!shown)
		o = (size_t)snprintf(buf, len, "none of the %zu series has a figure here", lacking);
	else if (lacking > 1)
		o = (size_t)snprintf(buf, len, "%zu of %zu series: the other %zu have no figure here",
				     shown, shown + lacking, lacking);
	else
		o = (size_t)snprintf(buf, len, "%zu of %zu series: the other one has no figure here",
				     shown, shown + 1);
	if (why && o < len)
		snprintf(buf + o, len - o, "\n(%s)", rw->lacking);
	return why ? 2 : 1;
}

/* Row ri's panel p: its title, y axis and plot, or a note when no series
 * has a figure there; the top of a panel with a note (panel_note) left
 * empty for it.  The key, the same for every panel, is on the first row's
 * last panel (every row's, in a ratio chart). */
static void write_panel(struct chart *c, const struct chart_row *rw, size_t ri, size_t p, int key)
{
	FILE *f = c->f;
	char text[1024], q[2400], note[2400];
	size_t nl = panel_note(c, rw, p, text, sizeof(text));
	double lo, hi;
	int logy = 0;

	gnuplot_lines(nl ? text : "no successful repetition", SIZE_MAX, note, sizeof(note));
	/* a ratio chart's rows have series of their own */
	key = key && (ri == 0 || rw->ratio) && p + 1 == c->npanels;
	fprintf(f, "%s\n", key ? "set key outside right top vertical Left reverse" : "unset key");
	panel_title(c, rw, p, text, sizeof(text));
	gnuplot_lines(text, SIZE_MAX, q, sizeof(q));
	fprintf(f, "set title %s\n", q);
	gnuplot_quote_line(!rw->ratio ? metrics[rw->metric].unit : metrics[rw->metric].better ==
			   HIGHER_IS_BETTER ? "ratio (above 1x: numerator better)"
			   : "ratio (below 1x: numerator better)", q, sizeof(q));
	fprintf(f, "set ylabel %s\n", q);
	if (!panel_range(c, p, rw, &lo, &hi, &logy)) {	/* every cell here failed */
		fprintf(f, "set label 1 %s at graph 0.5, graph 0.5 center\n"
			"unset logscale y\nset yrange [0:1]\nset ytics ('' 0)\nplot NaN notitle\n"
			"unset label 1\n", note);
		return;
	}
	if (nl) {	/* its lines' share of a plot about 230 pixels high, at the top */
		double keep = 1 - (double)(GNUPLOT_LINE_PX * nl + 12) / 230;
		hi = logy ? lo * pow(hi / lo, 1 / keep) : hi / keep;
		fprintf(f, "set label 2 %s at graph 0.5, graph 1 center front offset 0, -1\n", note);
	}
	fprintf(f, "%s\nset yrange [%.6g:%.6g]\n", logy ? "set logscale y" : "unset logscale y",
		lo, hi);
	gnuplot_ticks(f, 'y', lo, hi, logy, rw->ratio ? "x" : "");
	size_t shown[MAXS], nshown = 0;
	for (size_t s = 0; s < c->nseries; s++)
		if (series_has(c, s, p, rw))
			shown[nshown++] = s;
	write_plot(c, rw, ri, p, shown, nshown, logy, key);
	if (nl)
		fprintf(f, "unset label 2\n");
}

/* Does a series of the chart draw whole-process figures (open)? */
static int chart_has_open(const struct chart *c)
{
	for (size_t ri = 0; ri < c->nrows; ri++)
		for (size_t s = 0; s < c->nseries; s++)
			if (series_open(c, s, &c->rows[ri]))
				return 1;
	return 0;
}

/* Does a series of the chart draw upper bounds (ᵘ)? */
static int chart_has_upper(const struct chart *c)
{
	for (size_t ri = 0; ri < c->nrows; ri++)
		for (size_t s = 0; s < c->nseries; s++)
			if (series_upper(c, s, ANY_PANEL, &c->rows[ri]))
				return 1;
	return 0;
}

/* The characters of the longest x label. */
static size_t x_chars(const struct chart *c)
{
	char text[1024];
	size_t most = 0;

	for (size_t i = 0; i < (c->xdim >= 0 ? c->nx : c->nseries); i++) {
		x_label(c, i, text, sizeof(text));
		most = gnuplot_chars(text) > most ? gnuplot_chars(text) : most;
	}
	return most;
}

/* The characters of the longest key entry: a series' label, marked ʷ, or
 * a ratio chart's "1x (no difference)" and "source (dashed)". */
static size_t key_chars(const struct chart *c)
{
	char text[1024];
	const char *labels[4], *cols[4];
	size_t most = c->items[0].pair ? 18 : 0;

	for (size_t s = 0; s < c->nseries; s++) {
		series_label(c, s, text, sizeof(text));
		most = gnuplot_chars(text) + 2 > most ? gnuplot_chars(text) + 2 : most;
		for (size_t ri = 0; ri < c->nrows; ri++) {	/* with both marks */
			series_key(c, s, ANY_PANEL, &c->rows[ri], text, sizeof(text));
			most = gnuplot_chars(text) > most ? gnuplot_chars(text) : most;
		}
	}
	for (size_t ri = 0; ri < c->nrows; ri++)
		for (size_t k = ref_labels(c, &c->rows[ri], labels, cols); k-- > 0;)
			most = gnuplot_chars(labels[k]) + 9 > most ? gnuplot_chars(labels[k]) + 9 : most;
	return most;
}

/* The panel width its titles and notes need (a note is inside the plot). */
static size_t panel_text(const struct chart *c)
{
	char text[1024];
	size_t most = 0, n;

	for (size_t ri = 0; ri < c->nrows; ri++)
		for (size_t p = 0; p < c->npanels; p++) {
			panel_title(c, &c->rows[ri], p, text, sizeof(text));
			n = gnuplot_chars(text) * GNUPLOT_CHAR_PX + 10;
			most = n > most ? n : most;
			if (!panel_note(c, &c->rows[ri], p, text, sizeof(text)))
				continue;
			n = gnuplot_panel_of((double)(gnuplot_chars(text) * GNUPLOT_CHAR_PX + 20), c->npanels);
			most = n > most ? n : most;
		}
	return most;
}

/* The canvas of the chart, its title into q (gnuplot_fit.h). */
static void canvas_fit(struct chart *c, const char *title, char *q, size_t qlen)
{
	struct gnuplot_fit n = { .npanels = c->npanels, .nrows = c->nrows, .xchars = x_chars(c),
				 .keychars = c->keyed ? key_chars(c) : 0, .text = panel_text(c),
				 .nbars = c->xdim < 0 ? c->nseries : 0, .xs = c->xs, .nx = c->nx,
				 .sweep = c->sweep };

	gnuplot_canvas_fit(&c->cv, &n, title, q, qlen);
}

/* plots/NAME.gp: a multiplot of nrows rows by one panel per panel value,
 * its margins fixed so that no title runs into another; when a series is
 * drawn open, a second title line says why. */
static int write_chart(struct chart *c, const char *name, const char *data, const char *title,
		       char *err, size_t errlen)
{
	struct outfile out;
	const struct report *r = c->r;
	const struct gnuplot_canvas *cv = &c->cv;
	char path[4096], q[2400], label[800];

	snprintf(label, sizeof(label), "%s: %s (whiskers: %s)%s%s", r->m.name, title,
		 c->rows[0].ratio ? "interval of the ratio, its level in ratios.csv"
		 : "interval of the median", !chart_has_open(c) ? "" : c->items[0].pair ?
		 "\nopen: ratios of whole-process figures (ʷ), a program timed from outside, spawn "
		 "to exit" : "\nopen: whole-process figures (ʷ), a program timed from outside, "
		 "spawn to exit, its start-up inside", !chart_has_upper(c) ? "" :
		 c->items[0].pair ? "\nᵘ: ratios of upper bounds, streams across two hosts" :
		 "\nᵘ: upper bounds, streams across two hosts timed over the longer of two "
		 "one-host windows");
	canvas_fit(c, label, q, sizeof(q));
	snprintf(path, sizeof(path), "%s/plots/%s.gp", r->dir, name);
	if (outfile_open(&out, path, err, errlen) < 0)
		return -1;
	FILE *f = c->f = out.f;
	gnuplot_preamble(f, name, data, title, cv->w, cv->h);
	write_tables(c, c->rows, c->nrows);
	fprintf(f, "set datafile separator whitespace\n");
	double w = (double)cv->w, h = (double)cv->h;
	double top = (c->npdims ? 95.0 : 80.0) + (double)(GNUPLOT_LINE_PX * (cv->tlines - 1));
	fprintf(f, "set multiplot layout %zu,%zu title %s margins %.4f,%.4f,%.4f,%.4f spacing "
		"%.4f,%.4f\n", c->nrows, c->npanels, q, (double)cv->lm / w, 1 - (double)cv->kw / w,
		(55.0 + (double)cv->below) / h, 1 - top / h, 80.0 / w,
		((c->npdims ? 115.0 : 100.0) + (double)cv->below) / h);
	write_x_axis(c);
	for (size_t ri = 0; ri < c->nrows; ri++)
		for (size_t p = 0; p < c->npanels; p++)
			write_panel(c, &c->rows[ri], ri, p, c->keyed);
	fprintf(f, "unset multiplot\n");
	c->f = NULL;
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}

int gnuplot_chart(const struct report *r, struct chart_item *items, size_t nitems,
		  const char *name, const char *data, const char *title,
		  const struct chart_row *rows, size_t nrows, char *err, size_t errlen)
{
	struct chart c = { .r = r, .items = items, .nitems = nitems, .rows = rows,
			   .nrows = nrows };

	chart_layout(&c);
	c.keyed = chart_keyed(&c);
	return write_chart(&c, name, data, title, err, errlen);
}
