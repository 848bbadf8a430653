/* gnuplot scripts: see gnuplot.h (rendering is in gnuplot_render.c). */
#include "gnuplot.h"
#include "gnuplot_hist.h"
#include "outfile.h"
#include "report.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define MAXS 64		/* series per chart */
#define MAXP 12		/* panels per chart */

int gnuplot_quote(const char *in, char *out, size_t outlen)
{
	size_t o = 0;
	int open = 0;		/* inside a '...' piece */

	if (outlen < 3)
		return -1;
	/* gnuplot reads '' inside '...' as one ', but not at a string's start
	 * or end ('''a' is an error): a ' is a piece of its own, "'", joined
	 * to the '...' pieces around it with the . operator.  Nothing is
	 * special inside '...' but ' itself: no backquote, no @macro. */
	for (; *in; in++) {
		unsigned char c = (unsigned char)*in;
		if (c < 0x20 || c == 0x7f)
			return -1;
		if (o + 7 >= outlen)
			return -1;
		if (c == '\'') {
			if (open)
				out[o++] = '\'';
			if (o)
				out[o++] = '.';
			memcpy(out + o, "\"'\"", 3);
			o += 3;
			open = 0;
			continue;
		}
		if (!open) {
			if (o)
				out[o++] = '.';
			out[o++] = '\'';
			open = 1;
		}
		out[o++] = (char)c;
	}
	if (open) {
		out[o++] = '\'';
	} else if (!o) {
		out[o++] = '\'';
		out[o++] = '\'';
	}
	out[o] = '\0';
	return 0;
}

/* Quotes text for a title, turning control characters into spaces first:
 * a description may span lines; a script line may not. */
static void quote_title(const char *in, char *out, size_t outlen)
{
	char clean[512];
	size_t i;

	for (i = 0; in[i] && i + 1 < sizeof(clean); i++)
		clean[i] = ((unsigned char)in[i] < 0x20 || in[i] == 0x7f) ? ' ' : in[i];
	clean[i] = '\0';
	if (gnuplot_quote(clean, out, outlen) < 0)
		snprintf(out, outlen, "''");
}

static const char *const chart_names[] = { "throughput", "rtt", "cpu", "ratios", "timeline" };

/* An item a chart plots: a cell, or a pair for ratios. */
struct item {
	char *const *dims;
	const char *def;	/* ratio name, or NULL */
	const char *metric;	/* the ratio's metric */
	int skip_dim;		/* the ratio's dimension, or -1 */
	const struct rcell *cell;	/* a summary chart's cell */
	const struct rpair *pair;	/* a ratio chart's pair */
};

struct chart {
	const struct report *r;
	FILE *f;
	int xdim;		/* size column when it varies, else -1: bars per series */
	int pdims[2];		/* panels: pattern and concurrency, those that vary */
	size_t npdims;
	size_t pitem[MAXP];	/* a representative item of each panel */
	size_t npanels;
	int sdims[32];		/* dimensions that tell series apart */
	size_t nsdims;
	struct item *items;
	size_t nitems;
	char *series[MAXS];	/* index into items of a representative */
	size_t sitem[MAXS];
	size_t nseries;
};

static int item_varies(const struct chart *c, size_t d)
{
	for (size_t i = 1; i < c->nitems; i++)
		if (strcmp(c->items[i].dims[d], c->items[0].dims[d]))
			return 1;
	return 0;
}

static int same_series(const struct chart *c, const struct item *a, const struct item *b)
{
	if ((a->def || b->def) && (!a->def || !b->def || strcmp(a->def, b->def)))
		return 0;
	for (size_t k = 0; k < c->nsdims; k++)
		if (strcmp(a->dims[c->sdims[k]], b->dims[c->sdims[k]]))
			return 0;
	return 1;
}

static int same_panel(const struct chart *c, const struct item *a, const struct item *b)
{
	for (size_t k = 0; k < c->npdims; k++)
		if (strcmp(a->dims[c->pdims[k]], b->dims[c->pdims[k]]))
			return 0;
	return 1;
}

static int is_pdim(const struct chart *c, size_t d)
{
	for (size_t k = 0; k < c->npdims; k++)
		if ((size_t)c->pdims[k] == d)
			return 1;
	return 0;
}

/* Works out x, panels and series from the items. */
static void layout(struct chart *c)
{
	const struct report *r = c->r;
	int size = report_dim(r, "size");
	const char *pnames[] = { "pattern", "concurrency" };

	c->xdim = size >= 0 && item_varies(c, (size_t)size) ? size : -1;
	c->npdims = 0;
	for (size_t k = 0; k < 2; k++) {
		int d = report_dim(r, pnames[k]);
		if (d >= 0 && item_varies(c, (size_t)d) && (!c->nitems || d != c->items[0].skip_dim))
			c->pdims[c->npdims++] = d;
	}
	c->npanels = 0;
	for (size_t i = 0; i < c->nitems; i++) {
		size_t k;
		for (k = 0; k < c->npanels && !same_panel(c, &c->items[c->pitem[k]], &c->items[i]); k++)
			;
		if (k == c->npanels && k < MAXP)
			c->pitem[c->npanels++] = i;
	}
	if (!c->npanels)
		c->npanels = 1;
	c->nsdims = 0;
	for (size_t d = 0; d < r->ndims && c->nsdims < 32; d++)
		if ((int)d != c->xdim && !is_pdim(c, d) && item_varies(c, d) &&
		    (!c->nitems || (int)d != c->items[0].skip_dim))
			c->sdims[c->nsdims++] = (int)d;
	c->nseries = 0;
	for (size_t i = 0; i < c->nitems && c->nseries < MAXS; i++) {
		size_t k;
		for (k = 0; k < c->nseries && !same_series(c, &c->items[c->sitem[k]], &c->items[i]); k++)
			;
		if (k == c->nseries)
			c->sitem[c->nseries++] = i;
	}
}

static void series_label(const struct chart *c, size_t s, char *buf, size_t len)
{
	const struct item *it = &c->items[c->sitem[s]];
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

/* One chart row: a metric's median and interval columns. */
struct row {
	const char *title, *ylabel;
	const char *ycol, *locol, *hicol;
	int logy;
	int refline;		/* a dashed line at y = 1 */
	const char *metric;	/* summary charts: whose figures the row shows */
};

/* Has the item a figure to draw in this row? */
static int item_has(const struct item *it, const struct row *rw)
{
	if (it->pair)
		return isfinite(it->pair->ratio);
	int m = rw->metric ? matrix_metric_index(rw->metric) : -1;
	return it->cell && m >= 0 && it->cell->st[m].n > 0 && isfinite(it->cell->st[m].median);
}

/* Has series s a figure in panel p of this row? */
static int series_has(const struct chart *c, size_t s, size_t p, const struct row *rw)
{
	for (size_t i = 0; i < c->nitems; i++) {
		const struct item *it = &c->items[i];
		if (!same_series(c, it, &c->items[c->sitem[s]]) ||
		    !same_panel(c, it, &c->items[c->pitem[p]]))
			continue;
		if (item_has(it, rw))
			return 1;
	}
	return 0;
}

void gnuplot_preamble(FILE *f, const char *name, const char *data, const char *what,
		     size_t w, size_t h)
{
	fprintf(f,
"# matrix chart: %s\n"
"# Rebuild it from the run folder:  gnuplot -c plots/%s.gp %s plots/%s.svg\n"
"# (.png instead of .svg draws a PNG.)  Generated by matrix; edit freely.\n"
"if (ARGC < 2) { print 'usage: gnuplot -c %s.gp %s OUT.svg|OUT.png'; exit }\n"
"set datafile separator comma\n"
"# a line starting with # is data too (a ratio's name may)\n"
"set datafile commentschars ''\n"
"if (strstrt(ARG2, '.png') == strlen(ARG2) - 3 && strlen(ARG2) > 3) {\n"
"    set terminal pngcairo noenhanced size %zu,%zu font 'sans,10'\n"
"} else {\n"
"    set terminal svg noenhanced size %zu,%zu font 'sans,10' background rgb 'white'\n"
"}\n"
"set output ARG2\n"
"set termoption noenhanced\n"
"# a figure as text, or NaN when the field is empty (a failed cell): in the\n"
"# tables below NaN breaks a line, so a failed cell is a gap, never a zero\n"
"v(c) = (strcol(c) eq '' ? 'NaN' : strcol(c))\n"
"set grid\n"
"set key noenhanced\n"
"set bars small\n",
		what, name, data, name, name, data, w, h, w, h);
}

static int cmp_num(const void *a, const void *b)
{
	double x = strtod(*(char *const *)a, NULL), y = strtod(*(char *const *)b, NULL);

	return (x > y) - (x < y);
}

/* The x values of a size axis, ascending. */
static size_t x_values(const struct chart *c, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nitems && n < MAXS; i++) {
		size_t k;
		for (k = 0; k < n && strcmp(out[k], c->items[i].dims[c->xdim]); k++)
			;
		if (k == n)
			out[n++] = c->items[i].dims[c->xdim];
	}
	qsort(out, n, sizeof(*out), cmp_num);
	return n;
}

/* The condition selecting item it's row of the CSV: by numbers and our
 * own names only (its cell, or a ratio pair's cells and metric), never by
 * text from the matrix file, which gnuplot's CSV reading does not take
 * whole (a quoted comma ends its field there). */
static int item_cond(const struct item *it, char *buf, size_t len)
{
	if (it->pair)
		return snprintf(buf, len, "(strcol('scope') eq 'cell' && strcol('metric') eq '%s' "
				"&& column('num_cell') == %u && column('den_cell') == %u)",
				it->metric, it->pair->num->number, it->pair->den->number);
	return snprintf(buf, len, "column('cell') == %u", it->cell->number);
}

/* $dR_P_S: row R, panel P, series S, one line per x value in ascending
 * order (so lines never zigzag), a failed cell's figures as NaN. */
static void write_table(struct chart *c, const struct row *rw, size_t ri, size_t p, size_t s,
			const char **xs, size_t nx)
{
	const struct report *r = c->r;
	char cond[512], x[320] = "0";

	if (c->xdim >= 0) {
		char qn[300];
		if (gnuplot_quote(r->dimnames[c->xdim], qn, sizeof(qn)) == 0)
			snprintf(x, sizeof(x), "column(%s)", qn);
	}
	fprintf(c->f, "set table $d%zu_%zu_%zu\n", ri, p, s);
	for (size_t i = 0; i < (c->xdim >= 0 ? nx : 1); i++)
		for (size_t k = 0; k < c->nitems; k++) {
			const struct item *it = &c->items[k];
			if (!same_series(c, it, &c->items[c->sitem[s]]) ||
			    !same_panel(c, it, &c->items[c->pitem[p]]) ||
			    (c->xdim >= 0 && strcmp(it->dims[c->xdim], xs[i])))
				continue;
			item_cond(it, cond, sizeof(cond));
			fprintf(c->f, "plot ARG1 using (%s):(v('%s')):(v('%s')):(v('%s')) with table "
				"if (%s)\n", x, rw->ycol, rw->locol, rw->hicol, cond);
		}
	fprintf(c->f, "unset table\n");
}

/* Every series of every panel of every row as a table of its own, ahead
 * of the plots that draw them. */
static void write_tables(struct chart *c, const struct row *rows, size_t nrows, const char **xs,
			 size_t nx)
{
	for (size_t ri = 0; ri < nrows; ri++)
		for (size_t p = 0; p < c->npanels; p++)
			for (size_t s = 0; s < c->nseries; s++)
				if (series_has(c, s, p, &rows[ri]))
					write_table(c, &rows[ri], ri, p, s, xs, nx);
}

/* The x axis: the sizes on a log2 scale, or one bar per series. */
static void write_x_axis(struct chart *c, const char **xs, size_t nx)
{
	FILE *f = c->f;
	char label[512], qlabel[1100];

	if (c->xdim >= 0) {
		/* ticks at the sizes measured, labelled as the matrix writes them */
		fprintf(f, "set logscale x 2\nset xlabel 'message size'\n"
			"set offsets graph 0.04, graph 0.04, 0, 0\nset xtics (");
		for (size_t i = 0; i < nx; i++) {
			char sz[32];
			unsigned long long v = strtoull(xs[i], NULL, 10);
			fprintf(f, "%s'%s' %llu", i ? ", " : "", units_format_size(v, sz, sizeof(sz)), v);
		}
		fprintf(f, ")\n");
	} else {
		fprintf(f, "unset logscale x\nset xrange [0.4:%zu.6]\nset boxwidth 0.6\n"
			"set style fill solid 0.5 border -1\nset xtics (", c->nseries);
		for (size_t s = 0; s < c->nseries; s++) {
			series_label(c, s, label, sizeof(label));
			quote_title(label, qlabel, sizeof(qlabel));
			fprintf(f, "%s%s %zu", s ? ", " : "", qlabel, s + 1);
		}
		fprintf(f, ")\nset xlabel ''\n");
	}
}

/* The plot command of row ri's panel p: the series in shown, from their
 * tables, as lines with error bars over sizes or as bars. */
static void write_plot(struct chart *c, const struct row *rw, size_t ri, size_t p,
		       const size_t *shown, size_t nshown)
{
	FILE *f = c->f;
	char label[512], qlabel[1100];

	fprintf(f, "plot \\\n");
	if (rw->refline)	/* a function: autoscale keeps 1.0 in view */
		fprintf(f, "    1 with lines dt 2 lw 1 lc rgb 'black' title '1.0', \\\n");
	for (size_t k = 0; k < nshown; k++) {
		size_t s = shown[k];
		const char *more = k + 1 < nshown ? ", \\" : "";
		series_label(c, s, label, sizeof(label));
		quote_title(label, qlabel, sizeof(qlabel));
		if (c->xdim >= 0)
			fprintf(f, "    $d%zu_%zu_%zu using 1:2:3:4 with yerrorlines lw 2 pt 7 "
				"ps 0.6 lc %zu title %s%s\n", ri, p, s, s + 1, qlabel, more);
		else	/* the invisible points keep whisker tops in the autoscaled range */
			fprintf(f, "    $d%zu_%zu_%zu using (%zu):2:3:4:(0.6) with boxerrorbars "
				"lc %zu title %s, \\\n    $d%zu_%zu_%zu using (%zu):4 with points "
				"ps 0 notitle%s\n", ri, p, s, s + 1, s + 1, qlabel, ri, p, s,
				s + 1, more);
	}
}

/* Row ri's panel p: its title, key and y axis, then its plot, or a note
 * when no series has a figure there. */
static void write_panel(struct chart *c, const struct row *rw, size_t ri, size_t p)
{
	const struct report *r = c->r;
	FILE *f = c->f;
	char q[1024], label[512];
	size_t o = (size_t)snprintf(label, sizeof(label), "%s", rw->title);

	for (size_t k = 0; k < c->npdims && o < sizeof(label); k++)
		o += (size_t)snprintf(label + o, sizeof(label) - o, "%s %s %s",
				      k ? "," : ":", r->dimnames[c->pdims[k]],
				      c->items[c->pitem[p]].dims[c->pdims[k]]);
	quote_title(label, q, sizeof(q));
	/* one key per row, right of its last panel */
	fprintf(f, "%s\n", p + 1 == c->npanels ? "set key outside right top vertical"
		: "unset key");
	fprintf(f, "set title %s\n", q);
	quote_title(rw->ylabel, q, sizeof(q));
	fprintf(f, "set ylabel %s\n%s\nset format y '%s'\n", q,
		rw->logy ? "set logscale y" : "unset logscale y\nset yrange [0:*]",
		!strcmp(rw->ylabel, "msg/s") ? "%.1s%c" : "%g");
	size_t shown[MAXS], nshown = 0;
	for (size_t s = 0; s < c->nseries; s++)
		if (series_has(c, s, p, rw))
			shown[nshown++] = s;
	if (!nshown) {	/* every cell here failed: say so, draw nothing */
		fprintf(f, "set label 1 'no successful repetition' at graph 0.5, graph 0.5 center\n"
			"unset logscale y\nplot [1:2] [0:1] 2 notitle\nunset label 1\n");
		return;
	}
	write_plot(c, rw, ri, p, shown, nshown);
}

/* plots/NAME.gp: a multiplot of nrows rows by one panel per panel value. */
static int write_chart(struct chart *c, const char *name, const char *data, const char *title,
		       const struct row *rows, size_t nrows, char *err, size_t errlen)
{
	struct outfile out;

	const struct report *r = c->r;
	char path[4096], q[1024], label[512];
	const char *xs[MAXS];
	size_t nx = c->xdim >= 0 ? x_values(c, xs) : 0;
	size_t w = 420 * c->npanels + 220, h = 320 * nrows + 40;

	snprintf(path, sizeof(path), "%s/plots/%s.gp", r->dir, name);
	if (outfile_open(&out, path, err, errlen) < 0)
		return -1;
	FILE *f = c->f = out.f;
	gnuplot_preamble(f, name, data, title, w > 1840 ? 1840 : w, h);
	write_tables(c, rows, nrows, xs, nx);
	fprintf(f, "set datafile separator whitespace\n");
	snprintf(label, sizeof(label), "%s: %s (whiskers: %s)", r->m.name, title,
		 rows[0].refline ? "interval of the ratio, its level in ratios.csv"
		 : "interval of the median");
	quote_title(label, q, sizeof(q));
	fprintf(f, "set multiplot layout %zu,%zu title %s\n", nrows, c->npanels, q);
	write_x_axis(c, xs, nx);
	for (size_t ri = 0; ri < nrows; ri++)
		for (size_t p = 0; p < c->npanels; p++)
			write_panel(c, &rows[ri], ri, p);
	fprintf(f, "unset multiplot\n");
	c->f = NULL;
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}

static int has_metric(const struct rcell *c, const char *metric)
{
	int m = matrix_metric_index(metric);

	return m >= 0 && (c->st[m].n > 0 || c->failed == c->reps);
}

/* The cells (as items) that have `metric`, or are failed outright. */
static size_t cell_items(const struct report *r, const char *metric, struct item *items)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ncells; i++)
		if (has_metric(&r->cells[i], metric))
			items[n++] = (struct item){ r->cells[i].dims, NULL, NULL, -1, &r->cells[i], NULL };
	return n;
}

static int summary_chart(const struct report *r, struct item *items, const char *name,
			 const char *metric, const char *title, const struct row *rows,
			 size_t nrows, char *err, size_t errlen)
{
	struct chart c = { .r = r, .items = items };

	c.nitems = cell_items(r, metric, items);
	if (!c.nitems)
		return 0;
	layout(&c);
	return write_chart(&c, name, "summary.csv", title, rows, nrows, err, errlen);
}

static int varies_among_cells(const struct report *r, size_t d)
{
	for (size_t i = 1; i < r->ncells; i++)
		if (strcmp(r->cells[i].dims[d], r->cells[0].dims[d]))
			return 1;
	return 0;
}

static int timeline_chart(const struct report *r, char *err, size_t errlen)
{
	struct outfile out;
	int pd = report_dim(r, "pattern");
	char path[4096], q[1024], label[512];
	size_t n = 0;
	FILE *f;

	for (size_t i = 0; i < r->ncells; i++)
		n += pd >= 0 && !strcmp(r->cells[i].dims[pd], "stream") && r->cells[i].nokreps;
	if (!n)
		return 0;
	snprintf(path, sizeof(path), "%s/plots/timeline.gp", r->dir);
	if (outfile_open(&out, path, err, errlen) < 0)
		return -1;
	f = out.f;
	size_t panels = n > MAXP ? MAXP : n, cols = panels > 2 ? 2 : panels;
	size_t rows = (panels + cols - 1) / cols;
	gnuplot_preamble(f, "timeline", "timeline.csv", "receiver rate per interval", 600 * cols, 300 * rows + 40);
	snprintf(label, sizeof(label), "%s: messages per second at the receiver, per interval%s",
		 r->m.name, n > MAXP ? " (first 12 stream cells)" : "");
	quote_title(label, q, sizeof(q));
	fprintf(f, "set multiplot layout %zu,%zu title %s\nset xlabel 'seconds since the start signal'\n"
		"set ylabel 'msg/s'\nset yrange [0:*]\nset format y '%%.1s%%c'\n", rows, cols, q);
	size_t done = 0;
	for (size_t i = 0; i < r->ncells && done < panels; i++) {
		const struct rcell *c = &r->cells[i];
		if (strcmp(c->dims[pd], "stream") || !c->nokreps)
			continue;
		done++;
		size_t o = (size_t)snprintf(label, sizeof(label), "cell %u:", c->number);
		for (size_t d = 0; d < r->ndims && o < sizeof(label); d++)
			if ((int)d != pd && varies_among_cells(r, d))
				o += (size_t)snprintf(label + o, sizeof(label) - o, " %s=%s",
						      r->dimnames[d], c->dims[d]);
		quote_title(label, q, sizeof(q));
		fprintf(f, "set title %s\nplot \\\n", q);
		for (size_t k = 0; k < c->nokreps; k++) {
			unsigned rep = c->okreps[k];
			fprintf(f, "    ARG1 using ((strcol('cell') eq '%u' && strcol('rep') eq '%u') ? "
				"column('interval_start_s') : NaN):(column('messages') / column('covered_s')) "
				"with linespoints lw 2 pt 7 ps 0.5 lc %u title 'rep %u'%s\n", c->number, rep,
				rep, rep, k + 1 < c->nokreps ? ", \\" : "");
		}
	}
	fprintf(f, "unset multiplot\n");
	return outfile_commit(&out, err, errlen);
}

static int ratio_chart(const struct report *r, struct item *items, char *err, size_t errlen)
{
	struct chart c = { .r = r, .items = items };
	static const struct row rows[] = {
		{ "ratio of medians (dashed: 1.0, no difference)", "ratio", "ratio", "ci_lo", "ci_hi", 0, 1,
		  NULL },
	};

	/* The chart's x is the size and its panels the concurrency, so it shows
	 * the ratios over one other dimension (the first ratio's, usually the
	 * transport); ratios over size or concurrency are in ratios.csv and
	 * summary.md only. */
	int size = report_dim(r, "size"), conc = report_dim(r, "concurrency"), dim = -1;
	for (size_t d = 0; d < r->ndefs && dim < 0; d++)
		if ((int)r->defs[d].dim != size && (int)r->defs[d].dim != conc)
			dim = (int)r->defs[d].dim;
	for (size_t i = 0; i < r->npairs; i++) {
		const struct rpair *p = &r->pairs[i];
		if ((int)r->defs[p->def].dim != dim)
			continue;
		items[c.nitems++] = (struct item){ p->num->dims, r->defs[p->def].name,
						   matrix_metrics[r->defs[p->def].metric],
						   dim, NULL, p };
	}
	if (!c.nitems)
		return 0;
	layout(&c);
	/* the ratio's own dimension never tells series apart */
	size_t k = 0;
	for (size_t i = 0; i < c.nsdims; i++)
		if (c.sdims[i] != items[0].skip_dim)
			c.sdims[k++] = c.sdims[i];
	c.nsdims = k;
	c.nseries = 0;
	for (size_t i = 0; i < c.nitems && c.nseries < MAXS; i++) {
		size_t s;
		for (s = 0; s < c.nseries && !same_series(&c, &items[c.sitem[s]], &items[i]); s++)
			;
		if (s == c.nseries)
			c.sitem[c.nseries++] = i;
	}
	return write_chart(&c, "ratios", "ratios.csv", "ratios of medians", rows, 1, err, errlen);
}

int gnuplot_write_scripts(const struct report *r, char *err, size_t errlen)
{
	static const struct row thr[] = {
		{ "messages per second", "msg/s", "msgs_per_s_median", "msgs_per_s_ci_lo",
		  "msgs_per_s_ci_hi", 0, 0, "msgs_per_s" },
		{ "MiB per second", "MiB/s", "mib_per_s_median", "mib_per_s_ci_lo", "mib_per_s_ci_hi",
		  0, 0, "mib_per_s" },
	};
	static const struct row rtt[] = {
		{ "round-trip time p50", "µs", "rtt_p50_us_median", "rtt_p50_us_ci_lo",
		  "rtt_p50_us_ci_hi", 1, 0, "rtt_p50_us" },
		{ "round-trip time p99", "µs", "rtt_p99_us_median", "rtt_p99_us_ci_lo",
		  "rtt_p99_us_ci_hi", 1, 0, "rtt_p99_us" },
	};
	static const struct row cpu[] = {
		{ "CPU time per message (each way), all workers", "µs/msg", "cpu_us_per_msg_median",
		  "cpu_us_per_msg_ci_lo", "cpu_us_per_msg_ci_hi", 0, 0, "cpu_us_per_msg" },
	};
	char dir[4096];
	size_t cap = (r->ncells > r->npairs ? r->ncells : r->npairs) + 1;
	struct item *items = calloc(cap, sizeof(*items));

	snprintf(dir, sizeof(dir), "%s/plots", r->dir);
	if (!items || (mkdir(dir, 0755) < 0 && errno != EEXIST)) {
		snprintf(err, errlen, "%s: %s", dir, items ? strerror(errno) : "out of memory");
		free(items);
		return -1;
	}
	/* a re-sliced report must not keep a chart this run no longer has */
	for (size_t i = 0; i < sizeof(chart_names) / sizeof(chart_names[0]); i++) {
		static const char *const ext[] = { "gp", "svg", "png" };
		for (size_t e = 0; e < 3; e++) {
			char path[4200];
			snprintf(path, sizeof(path), "%s/%s.%s", dir, chart_names[i], ext[e]);
			unlink(path);
		}
	}
	/* the first script that cannot be written stops the rest */
	int rc = summary_chart(r, items, "throughput", "msgs_per_s", "throughput", thr, 2, err,
			       errlen);
	if (!rc)
		rc = summary_chart(r, items, "rtt", "rtt_p50_us", "round-trip time", rtt, 2, err,
				   errlen);
	if (!rc)
		rc = summary_chart(r, items, "cpu", "cpu_us_per_msg", "CPU per message", cpu, 1, err,
				   errlen);
	memset(items, 0, cap * sizeof(*items));
	if (!rc)
		rc = ratio_chart(r, items, err, errlen);
	if (!rc)
		rc = timeline_chart(r, err, errlen);
	if (!rc)
		rc = gnuplot_hist_scripts(r, err, errlen);
	free(items);
	return rc;
}
