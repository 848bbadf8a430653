/* plots/timeline.gp: see gnuplot_timeline.h. */
#include "gnuplot_timeline.h"
#include "gnuplot_style.h"
#include "outfile.h"
#include "report.h"
#include "report_timeline.h"
#include "pattern.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEW 12		/* intervals per repetition drawn with points too */

/* "cell 3: stream, transport unix, size 64 KiB, concurrency 1": the cell
 * by its pattern, transport, size and concurrency, and any other
 * dimension that varies in the run. */
static void cell_title(const struct report *r, const struct rcell *const *cells, size_t n,
		       char *label, size_t len)
{
	const struct rcell *c = cells[0];
	char v[64];
	size_t o = (size_t)snprintf(label, len, "cell%s %u", n > 1 ? "s" : "", c->number);
	int first = 1;

	for (size_t i = 1; i < n && o < len; i++)	/* cells 2, 5, 8: */
		o += (size_t)snprintf(label + o, len - o, ", %u", cells[i]->number);
	o += o < len ? (size_t)snprintf(label + o, len - o, ":") : 0;
	for (size_t d = 0; d < r->ndims && o < len; d++) {
		const char *name = r->dimnames[d], *val = c->dims[d];
		int always = !strcmp(name, "pattern") || !strcmp(name, "transport") ||
			     !strcmp(name, "size") || !strcmp(name, "concurrency");
		int varies = 0;
		if (n > 1 && (!strcmp(name, "server") || !strcmp(name, "client")))
			continue;	/* in the key */
		for (size_t i = 0; i < r->ncells && !varies; i++)
			varies = strcmp(r->cells[i].dims[d], val) != 0;
		if (!always && !varies)
			continue;
		if (!strcmp(name, "size"))
			val = gnuplot_size(val, v, sizeof(v));
		o += (size_t)snprintf(label + o, len - o, "%s %s%s%s", first ? "" : ",",
				      strcmp(name, "pattern") ? name : "", strcmp(name, "pattern")
				      ? " " : "", val);
		first = 0;
	}
	for (char *p = label; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
}

/* Two cells that differ only in their server: and client: programs (the
 * implementations a run compares) share a panel. */
static int same_but_programs(const struct report *r, const struct rcell *a,
			     const struct rcell *b)
{
	for (size_t d = 0; d < r->ndims; d++)
		if (strcmp(r->dimnames[d], "server") && strcmp(r->dimnames[d], "client") &&
		    strcmp(a->dims[d], b->dims[d]))
			return 0;
	return 1;
}

/* An ok stream cell with rows in timeline.csv (any, when the folder has
 * none: r->have_timeline): a program receiver without timeline: has none. */
static int drawn(const struct report *r, const struct rcell *c, int pd)
{
	if (pd < 0 || !pattern_named_one_way(c->dims[pd]) || !c->nokreps)
		return 0;
	return !r->have_timeline || c->tl_rows > 0;
}

#define PANEL_MAX 64	/* cells in a panel; the 65th of its kind starts another */

/* Cell i starts a panel: drawn, and not in an earlier cell's (the cells
 * drawn before it that differ from it only in their programs fill whole
 * panels: none, or a multiple of PANEL_MAX). */
static int leads(const struct report *r, size_t i, int pd)
{
	size_t before = 0;

	if (!drawn(r, &r->cells[i], pd))
		return 0;
	for (size_t j = 0; j < i; j++)
		before += drawn(r, &r->cells[j], pd) && same_but_programs(r, &r->cells[j],
									 &r->cells[i]);
	return before % PANEL_MAX == 0;
}

/* The cell's receiver is a program with timeline: (its rows count from
 * its first sender's spawn, not from the start signal). */
static int program_timeline(const struct report *r, const struct rcell *c)
{
	int sd = report_dim(r, "server");
	const struct program *pr = sd >= 0 ? matrix_program(&r->m, c->dims[sd]) : NULL;

	return pr && pr->timeline.regex;
}

/* The cells of the panel cell `first` leads: it, and every later cell
 * drawn that differs from it only in its programs (PANEL_MAX at most: a
 * later one leads a panel of its own); how many. */
static size_t panel_cells(const struct report *r, size_t first, const struct rcell **cells)
{
	int pd = report_dim(r, "pattern");
	size_t n = 0;

	for (size_t i = first; i < r->ncells && n < PANEL_MAX; i++)
		if (drawn(r, &r->cells[i], pd) && same_but_programs(r, &r->cells[first], &r->cells[i]))
			cells[n++] = &r->cells[i];
	return n;
}

/* Does cell a keep a colour it shares with cell b: is it the pair of one
 * program on both sides and b not, or else the earlier? */
static int keeps(const struct report *r, const struct rcell *a, const struct rcell *b)
{
	int sd = report_dim(r, "server"), kd = report_dim(r, "client");
	int sa = sd >= 0 && kd >= 0 && !strcmp(a->dims[sd], a->dims[kd]);
	int sb = sd >= 0 && kd >= 0 && !strcmp(b->dims[sd], b->dims[kd]);

	return sa != sb ? sa : a->number < b->number;
}

/* Has one of the n cells kept look `look`? */
static int taken(const size_t *looks, const int *kept, size_t n, size_t look)
{
	for (size_t i = 0; i < n; i++)
		if (kept[i] && looks[i] == look)
			return 1;
	return 0;
}

/* The looks of the panel's n cells (n > 1), each its own: its
 * implementation's, by the index of its value of dimension id (the
 * server's, else the client's; gnuplot_colour_index), as in every chart
 * of the run; of cells that would share one (the crossed pairs), the one
 * that keeps it (keeps()) does, and the others take, in cell order, the
 * lowest looks no cell of the panel has.  A look is a colour, the
 * palette's look % GNUPLOT_COLOURS, and from the ninth on a point type
 * too (gnuplot_point): no two cells of a panel look alike. */
static void panel_looks(const struct report *r, const struct rcell *const *cells, size_t n,
			int id, size_t *looks)
{
	int kept[64];
	size_t next = 0;

	for (size_t i = 0; i < n; i++)
		looks[i] = gnuplot_colour_index(r, id, cells[i]->dims[id]);
	for (size_t i = 0; i < n; i++) {
		kept[i] = 1;
		for (size_t j = 0; j < n && kept[i]; j++)
			kept[i] = j == i || looks[i] != looks[j] || keeps(r, cells[i], cells[j]);
	}
	for (size_t i = 0; i < n; i++)
		if (!kept[i]) {
			while (taken(looks, kept, n, next))
				next++;
			looks[i] = next++, kept[i] = 1;
		}
}

/* How a line of look `look` is drawn, into buf: its colour, and points
 * when it has few intervals (most) or the look is past the palette's
 * colours (its point type then tells it from the cell of the same
 * colour; on a long line, about FEW points). */
static void line_style(size_t look, size_t most, char *buf, size_t len)
{
	size_t every = most > FEW ? (most + FEW - 1) / FEW : 1;

	if (look < GNUPLOT_COLOURS && most > FEW)
		snprintf(buf, len, "lines lw 1.5");
	else
		snprintf(buf, len, "linespoints lw 1.5 pt %d ps 0.7 pi %zu", gnuplot_point(look),
			 every);
	snprintf(buf + strlen(buf), len - strlen(buf), " lc rgb '%s'", gnuplot_palette(look));
}

/* The panel's lines: every repetition of a cell in the cell's colour
 * (panel_colours; one cell alone: the compared value's), each its own
 * dash, the cell named in the key by the program that varies,
 * "server/client" when both do (one cell alone: each repetition). */
static void write_lines(FILE *f, const struct report *r, const struct rcell *const *cells,
			size_t n, const size_t *most, int sv, int cv)
{
	int sd = report_dim(r, "server"), kd = report_dim(r, "client"), cd = gnuplot_compared_dim(r);
	size_t looks[64];
	char rate[256];

	if (n > 1)
		panel_looks(r, cells, n, sv ? sd : kd, looks);
	else
		looks[0] = gnuplot_colour_index(r, cd, cd >= 0 ? cells[0]->dims[cd] : NULL);
	/* a last interval too short to mean anything is not drawn
	 * (report_timeline.h) */
	snprintf(rate, sizeof(rate), "((column('interval_start_s') > 0 && column('covered_s') < "
		 "%g * column('interval_s')) ? NaN : column('messages') / column('covered_s'))",
		 REPORT_TIMELINE_SHORTEST);
	for (size_t i = 0; i < n; i++) {
		char name[600], both[300];
		snprintf(both, sizeof(both), "%s%s%s", sv ? cells[i]->dims[sd] : "",
			 sv && cv && strcmp(cells[i]->dims[sd], cells[i]->dims[kd]) ? "/" : "",
			 !cv || (sv && !strcmp(cells[i]->dims[sd], cells[i]->dims[kd])) ? ""
			 : cells[i]->dims[kd]);
		if (n > 1 && gnuplot_quote(both, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "'cell %u'", cells[i]->number);
		char with[160];
		line_style(looks[i], most[i], with, sizeof(with));
		for (size_t k = 0; k < cells[i]->nokreps; k++) {
			unsigned rep = cells[i]->okreps[k];
			fprintf(f, "    ARG1 using ((strcol('cell') eq '%u' && strcol('rep') eq '%u') ? "
				"column('interval_start_s') : NaN):%s with %s dt %zu ", cells[i]->number,
				rep, rate, with, k % 5 + 1);
			if (n == 1)
				fprintf(f, "title 'rep %u'", rep);
			else if (k == 0)
				fprintf(f, "title %s", name);
			else
				fprintf(f, "notitle");
			fprintf(f, "%s\n", i + 1 < n || k + 1 < cells[i]->nokreps ? ", \\" : "");
		}
	}
}

/* One panel: cell `first`, and after it every later cell that differs
 * from it only in its programs (panel_cells), each in a colour of its own
 * with its name in the key. */
static void cell_panel(FILE *f, const struct report *r, size_t first)
{
	const struct rcell *c = &r->cells[first], *cells[64];
	char label[1024], q[2400];
	int sd = report_dim(r, "server"), kd = report_dim(r, "client"), from_spawn = 0, sv = 0, cv = 0;
	size_t n = panel_cells(r, first, cells), most[64];
	double top = 0, end = 0, begin = 0;

	for (size_t i = 0; i < n; i++) {
		/* timeline.csv's intervals of the cell (report_timeline.h); none
		 * read: points are drawn */
		most[i] = cells[i]->tl_most;
		top = cells[i]->tl_top > top ? cells[i]->tl_top : top;
		end = cells[i]->tl_end > end ? cells[i]->tl_end : end;
		begin = cells[i]->tl_begin < begin ? cells[i]->tl_begin : begin;
		from_spawn += program_timeline(r, cells[i]);
		sv |= sd >= 0 && strcmp(cells[i]->dims[sd], c->dims[sd]);
		cv |= kd >= 0 && strcmp(cells[i]->dims[kd], c->dims[kd]);
	}
	cell_title(r, cells, n, label, sizeof(label));
	gnuplot_lines(label, SIZE_MAX, q, sizeof(q));
	fprintf(f, "set title %s\n", q);
	if (from_spawn)
		fprintf(f, "set xlabel 'seconds since the first sender started%s'\n",
			(size_t)from_spawn < n ? " (builtin receivers: the start signal)" : "");
	/* the x axis to the end of the last interval: one interval is not a
	 * point on an empty range */
	if (end > 0 && begin < 0)
		fprintf(f, "set xrange [%.6g:%.6g]\n", begin, end);
	else if (end > 0)
		fprintf(f, "set xrange [0:%.6g]\n", end);
	else
		fprintf(f, "set xrange [*:*]\n");
	if (top > 0) {
		fprintf(f, "set yrange [0:%.6g]\n", top * 1.08);
		gnuplot_ticks(f, 'y', 0, top * 1.08, 0, "");
	} else {
		fprintf(f, "set yrange [0:*]\nset ytics autofreq\n");
	}
	if (n > 1)
		fprintf(f, "set key top right noenhanced\n");
	fprintf(f, "plot \\\n");
	write_lines(f, r, cells, n, most, sv, cv);
	if (n > 1)
		fprintf(f, "unset key\n");
	if (from_spawn)
		fprintf(f, "set xlabel 'seconds since the start signal'\n");
}

/* A column's width: 600 pixels, wider for a panel's title (of the first
 * `panels`). */
static size_t column_width(const struct report *r, size_t panels)
{
	const struct rcell *cells[64];
	char label[1024];
	size_t w = 600, done = 0;

	for (size_t i = 0; i < r->ncells && done < panels; i++) {
		if (!leads(r, i, report_dim(r, "pattern")))
			continue;
		done++;
		cell_title(r, cells, panel_cells(r, i, cells), label, sizeof(label));
		size_t need = gnuplot_chars(label) * GNUPLOT_CHAR_PX + 40;
		w = need > w ? need : w;
	}
	return w;
}

/* The script, to f: all n panels, every stream cell drawn (none is left
 * out, however many), in two columns (one for one panel), as wide as
 * column_width and the chart's title (up to 1000 pixels; wider, its
 * lines), each 300 pixels high. */
static void write_timeline(FILE *f, const struct report *r, size_t n)
{
	size_t panels = n, cols = panels > 2 ? 2 : panels;
	size_t rows = (panels + cols - 1) / cols, cw = column_width(r, panels);
	char label[600], q[2400];

	snprintf(label, sizeof(label), "%s: messages per second at the receiver, per interval, a "
		 "line per repetition", r->m.name);
	size_t least = gnuplot_chars(label) * GNUPLOT_CHAR_PX + 20;
	least = least > 1000 ? 1000 : least;
	cw = cw * cols < least ? (least + cols - 1) / cols : cw;
	size_t tl = gnuplot_lines(label, cw * cols - 20, q, sizeof(q));
	double w = (double)(cw * cols), h = 300.0 * (double)rows + 65 + GNUPLOT_LINE_PX * (double)(tl - 1);
	gnuplot_preamble(f, "timeline", "timeline.csv", "receiver rate per interval", (size_t)w,
			 (size_t)h);
	fprintf(f, "set multiplot layout %zu,%zu title %s margins %.4f,%.4f,%.4f,%.4f spacing "
		"%.4f,%.4f\nset xlabel 'seconds since the start signal'\nset ylabel 'msg/s'\n"
		"unset key\n", rows, cols, q, 75.0 / w, 1 - 20.0 / w, 55.0 / h,
		1 - (75.0 + GNUPLOT_LINE_PX * (double)(tl - 1)) / h, 85.0 / w, 95.0 / h);
	size_t done = 0;
	for (size_t i = 0; i < r->ncells && done < panels; i++) {
		if (!leads(r, i, report_dim(r, "pattern")))
			continue;
		done++;
		cell_panel(f, r, i);
	}
	fprintf(f, "unset multiplot\n");
}

int gnuplot_timeline_chart(const struct report *r, char *err, size_t errlen)
{
	struct outfile out;
	int pd = report_dim(r, "pattern"), rc = 0;
	char path[4096];
	size_t n = 0;

	for (size_t i = 0; i < r->ncells; i++)
		n += leads(r, i, pd);
	snprintf(path, sizeof(path), "%s/plots/timeline.gp", r->dir);
	if (n && (rc = outfile_open(&out, path, err, errlen)) == 0) {
		write_timeline(out.f, r, n);
		rc = outfile_commit(&out, err, errlen);
	}
	return rc;
}
