/* plots/timeline.gp: see gnuplot.h. */
#include "csvfile.h"
#include "gnuplot.h"
#include "outfile.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 12		/* panels */
#define FEW 12		/* intervals per repetition drawn with points too */

/* The most intervals any repetition of cell `number` has in timeline.csv
 * (0 when the file cannot be read: then points are drawn), the highest
 * rate among them into *top and the end of the last into *end (0 when
 * none). */
static size_t most_intervals(const struct csv_table *t, unsigned number, double *top,
			     double *end)
{
	int cc = csv_table_col(t, "cell"), rc = csv_table_col(t, "rep");
	int mc = csv_table_col(t, "messages"), sc = csv_table_col(t, "covered_s");
	int xc = csv_table_col(t, "interval_start_s"), ic = csv_table_col(t, "interval_s");
	size_t most = 0;

	*top = *end = 0;
	if (cc < 0 || rc < 0 || mc < 0 || sc < 0 || xc < 0 || ic < 0)
		return 0;
	for (size_t i = 0; i < t->nrows; i++) {
		if (strtoul(t->rows[i][cc], NULL, 10) != number)
			continue;
		double s = strtod(t->rows[i][sc], NULL), rate = strtod(t->rows[i][mc], NULL) / s;
		if (s > 0 && isfinite(rate) && rate > *top)
			*top = rate;
		double e = strtod(t->rows[i][xc], NULL) + strtod(t->rows[i][ic], NULL);
		if (isfinite(e) && e > *end)
			*end = e;
		size_t n = 0;
		for (size_t j = 0; j < t->nrows; j++)
			n += !strcmp(t->rows[j][cc], t->rows[i][cc]) &&
			     !strcmp(t->rows[j][rc], t->rows[i][rc]);
		if (n > most)
			most = n;
	}
	return most;
}

/* "cell 3: stream, transport unix, size 64 KiB, concurrency 1": the cell
 * by its pattern, transport, size and concurrency, and any other
 * dimension that varies in the run. */
static void cell_title(const struct report *r, const struct rcell *c, char *q, size_t qlen)
{
	char label[1024], v[64];
	size_t o = (size_t)snprintf(label, sizeof(label), "cell %u:", c->number);
	int first = 1;

	for (size_t d = 0; d < r->ndims && o < sizeof(label); d++) {
		const char *name = r->dimnames[d], *val = c->dims[d];
		int always = !strcmp(name, "pattern") || !strcmp(name, "transport") ||
			     !strcmp(name, "size") || !strcmp(name, "concurrency");
		int varies = 0;
		for (size_t i = 0; i < r->ncells && !varies; i++)
			varies = strcmp(r->cells[i].dims[d], val) != 0;
		if (!always && !varies)
			continue;
		if (!strcmp(name, "size"))
			val = gnuplot_size(val, v, sizeof(v));
		o += (size_t)snprintf(label + o, sizeof(label) - o, "%s %s%s%s", first ? "" : ",",
				      strcmp(name, "pattern") ? name : "", strcmp(name, "pattern")
				      ? " " : "", val);
		first = 0;
	}
	for (char *p = label; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	if (gnuplot_quote(label, q, qlen) < 0)
		snprintf(q, qlen, "'cell %u'", c->number);
}

static void cell_panel(FILE *f, const struct report *r, const struct rcell *c,
		       const struct csv_table *t)
{
	char q[2400];
	int cd = gnuplot_compared_dim(r);
	const char *col = gnuplot_colour(r, cd, cd >= 0 ? c->dims[cd] : NULL);
	double top = 0, end = 0;
	size_t most = t ? most_intervals(t, c->number, &top, &end) : 0;
	const char *with = most > FEW ? "lines lw 1.5" : "linespoints lw 1.5 pt 7 ps 0.7";

	cell_title(r, c, q, sizeof(q));
	fprintf(f, "set title %s\n", q);
	/* the x axis to the end of the last interval: one interval is not a
	 * point on an empty range */
	if (end > 0)
		fprintf(f, "set xrange [0:%.6g]\n", end);
	else
		fprintf(f, "set xrange [*:*]\n");
	if (top > 0) {
		fprintf(f, "set yrange [0:%.6g]\n", top * 1.08);
		gnuplot_ticks(f, 'y', 0, top * 1.08, 0, "");
	} else {
		fprintf(f, "set yrange [0:*]\nset ytics autofreq\n");
	}
	fprintf(f, "plot \\\n");
	/* every repetition in the cell's colour, each its own dash */
	for (size_t k = 0; k < c->nokreps; k++) {
		unsigned rep = c->okreps[k];
		fprintf(f, "    ARG1 using ((strcol('cell') eq '%u' && strcol('rep') eq '%u') ? "
			"column('interval_start_s') : NaN):(column('messages') / column('covered_s')) "
			"with %s dt %zu lc rgb '%s' title 'rep %u'%s\n", c->number, rep, with,
			k % 5 + 1, col, rep, k + 1 < c->nokreps ? ", \\" : "");
	}
}

/* A panel for cell c: a stream cell with a good repetition and, when
 * timeline.csv could be read, rows in it (a program receiver counts no
 * intervals of its own). */
static int drawn(const struct rcell *c, int pd, const struct csv_table *t)
{
	int cc = t ? csv_table_col(t, "cell") : -1;

	if (pd < 0 || strcmp(c->dims[pd], "stream") || !c->nokreps)
		return 0;
	for (size_t i = 0; cc >= 0 && i < t->nrows; i++)
		if (strtoul(t->rows[i][cc], NULL, 10) == c->number)
			return 1;
	return cc < 0;
}

int gnuplot_timeline_chart(const struct report *r, char *err, size_t errlen)
{
	struct outfile out;
	struct csv_table t = { 0 };
	int pd = report_dim(r, "pattern"), have = 0;
	char path[4096], q[1024], label[512], e[512];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/timeline.csv", r->dir);
	have = csv_table_load(&t, path, e, sizeof(e)) == 0;
	for (size_t i = 0; i < r->ncells; i++)
		n += drawn(&r->cells[i], pd, have ? &t : NULL);
	snprintf(path, sizeof(path), "%s/plots/timeline.gp", r->dir);
	if (!n || outfile_open(&out, path, err, errlen) < 0) {
		if (have)
			csv_table_release(&t);
		return n ? -1 : 0;
	}
	f = out.f;
	size_t panels = n > MAXP ? MAXP : n, cols = panels > 2 ? 2 : panels;
	size_t rows = (panels + cols - 1) / cols;
	gnuplot_preamble(f, "timeline", "timeline.csv", "receiver rate per interval", 600 * cols,
			 300 * rows + 65);
	snprintf(label, sizeof(label), "%s: messages per second at the receiver, per interval, a line per repetition%s",
		 r->m.name, n > MAXP ? " (first 12 stream cells)" : "");
	if (gnuplot_quote(label, q, sizeof(q)) < 0)
		snprintf(q, sizeof(q), "''");
	fprintf(f, "set multiplot layout %zu,%zu title %s margins %.4f,%.4f,%.4f,%.4f spacing "
		"%.4f,%.4f\nset xlabel 'seconds since the start signal'\nset ylabel 'msg/s'\n"
		"unset key\n", rows, cols, q,
		75.0 / (600.0 * (double)cols), 1 - 20.0 / (600.0 * (double)cols),
		55.0 / (300.0 * (double)rows + 65), 1 - 75.0 / (300.0 * (double)rows + 65),
		85.0 / (600.0 * (double)cols), 95.0 / (300.0 * (double)rows + 65));
	size_t done = 0;
	for (size_t i = 0; i < r->ncells && done < panels; i++) {
		const struct rcell *c = &r->cells[i];
		if (!drawn(c, pd, have ? &t : NULL))
			continue;
		done++;
		cell_panel(f, r, c, have ? &t : NULL);
	}
	fprintf(f, "unset multiplot\n");
	if (have)
		csv_table_release(&t);
	return outfile_commit(&out, err, errlen);
}
