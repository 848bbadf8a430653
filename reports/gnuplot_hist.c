/* Round-trip time distributions per scenario: see gnuplot_hist.h. */
#include "gnuplot_hist.h"
#include "gnuplot_style.h"
#include "outfile.h"
#include "report.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXL 16		/* lines per scenario */

struct scenario {
	size_t cell[MAXL];	/* indexes into r->cells */
	size_t n;
};

/* Do cells a and b differ in no dimension but cdim? */
static int same_scenario(const struct report *r, int cdim, const struct rcell *a,
			 const struct rcell *b)
{
	for (size_t d = 0; d < r->ndims; d++)
		if ((int)d != cdim && strcmp(a->dims[d], b->dims[d]))
			return 0;
	return 1;
}

/* The scenarios of the cells with buckets, in cell order; how many. */
static size_t find_scenarios(const struct report *r, int cdim, struct scenario *s, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		size_t k;
		if (!c->nbuckets)
			continue;
		for (k = 0; k < n && !same_scenario(r, cdim, &r->cells[s[k].cell[0]], c); k++)
			;
		if (k == max)
			continue;	/* past the last scenario charted */
		if (k == n)
			s[n++].n = 0;
		if (s[k].n < MAXL)
			s[k].cell[s[k].n++] = i;
	}
	return n;
}

/* text as a gnuplot string, or '' when it cannot be one (gnuplot_style.h) */
static const char *quoted(const char *text, char *buf, size_t len)
{
	if (gnuplot_quote(text, buf, len) < 0)
		snprintf(buf, len, "''");
	return buf;
}

/* "pingpong, 64 B, 1 client, inflight=4": the scenario's pattern, size and
 * concurrency, then every other dimension that varies among the run's
 * cells, but the compared one. */
static void scenario_label(const struct report *r, int cdim, const struct rcell *c, char *buf,
			   size_t len)
{
	int pd = report_dim(r, "pattern"), sd = report_dim(r, "size");
	int cd = report_dim(r, "concurrency");
	size_t o = 0;
	char sz[32];

	buf[0] = '\0';
#define ADD(...) do { if (o < len) o += (size_t)snprintf(buf + o, len - o, __VA_ARGS__); } while (0)
	if (pd >= 0 && pd != cdim)
		ADD("%s", c->dims[pd]);
	if (sd >= 0 && sd != cdim)
		ADD("%s%s", o ? ", " : "", gnuplot_size(c->dims[sd], sz, sizeof(sz)));
	if (cd >= 0 && cd != cdim)
		ADD("%s%s client%s", o ? ", " : "", c->dims[cd], strcmp(c->dims[cd], "1") ? "s" : "");
	for (size_t d = 0; d < r->ndims; d++) {
		int varies = 0;
		for (size_t i = 1; i < r->ncells && !varies; i++)
			varies = strcmp(r->cells[i].dims[d], r->cells[0].dims[d]) != 0;
		if (varies && (int)d != cdim && (int)d != pd && (int)d != sd && (int)d != cd)
			ADD("%s%s=%s", o ? ", " : "", r->dimnames[d], c->dims[d]);
	}
#undef ADD
}

/* The line of one cell: the value of the compared dimension (after the
 * dimension's name, unless it is transport: "nodelay true"), or its
 * number when nothing is compared. */
static void line_label(const struct report *r, int cdim, const struct rcell *c, char *buf,
		       size_t len)
{
	if (cdim >= 0 && !strcmp(r->dimnames[cdim], "transport"))
		snprintf(buf, len, "%s", c->dims[cdim]);
	else if (cdim >= 0)
		snprintf(buf, len, "%s %s", r->dimnames[cdim], c->dims[cdim]);
	else
		snprintf(buf, len, "cell %u", c->number);
}

/* A percentile the chart marks: q in [0, 1], its variables' tag (q999_k,
 * $b999) and its label.  The matrix's percentiles: (report_pct.h), else
 * p50, p99 and p99.9. */
struct mark {
	double q;
	char tag[16], label[16];
};

static size_t chart_marks(const struct report *r, struct mark *out)
{
	static const struct mark def[] = { { 0.5, "50", "p50" }, { 0.99, "99", "p99" },
					   { 0.999, "999", "p99.9" } };
	size_t n = 0;

	if (!r->npct) {
		memcpy(out, def, sizeof(def));
		return 3;
	}
	for (size_t i = 0; i < r->npct; i++, n++) {
		const char *d = r->pct[i].name + strlen("rtt_p");	/* "9999_us" */
		out[n].q = r->pct[i].p / 100;
		snprintf(out[n].tag, sizeof(out[n].tag), "%.*s", (int)strcspn(d, "_"), d);
		snprintf(out[n].label, sizeof(out[n].label), "%s", r->pct[i].label);
	}
	return n;
}

/* A bar panel's width, a fraction of the canvas: a third for three (the
 * default's, as it always was). */
static double panel_width(size_t nmarks)
{
	return nmarks == 3 ? 0.333 : 0.999 / (double)nmarks;
}

/* The canvas's width before the bars' labels widen it: 960 pixels, 320 a
 * panel for more than three. */
static size_t base_width(size_t nmarks)
{
	return nmarks > 3 ? 320 * nmarks : 960;
}

struct cum {
	double x, n;	/* a bucket's midpoint, the round trips up to it */
};

static int by_x(const void *a, const void *b)
{
	const struct cum *x = a, *y = b;

	return (x->x > y->x) - (x->x < y->x);
}

/* v to 6 digits, as gnuplot's tables print numbers (%g) */
static double six(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%g", v);
	return strtod(buf, NULL);
}

/* Line k's data, computed here so that gnuplot only draws (it took
 * passes over hist.csv per line): $c_k, the cell's merged buckets
 * (report.h: its successful repetitions') by midpoint, those of one
 * midpoint added up, each with the round trips up to it, the midpoint to
 * 6 digits as gnuplot's table of hist.csv had it; n_k, the round trips;
 * q<tag>_k of each mark (q50_k, q99_k, q999_k), the nearest-rank percentiles (hist.h: rank
 * ceil(q n (1 - 2^-50)), a few ulps forgiven): the first midpoint whose
 * round trips up to it reach the rank.  -1 out of memory. */
static int write_line_data(FILE *f, const struct rcell *c, size_t k, const struct mark *mk,
			   size_t nmk)
{
	struct cum *p = malloc((c->nbuckets ? c->nbuckets : 1) * sizeof(*p));
	size_t n = 0;
	double sum = 0;

	if (!p)
		return -1;
	for (size_t i = 0; i < c->nbuckets; i++)
		p[i] = (struct cum){ (c->buckets[i].low_us + c->buckets[i].high_us) / 2,
				     c->buckets[i].count };
	qsort(p, c->nbuckets, sizeof(*p), by_x);
	for (size_t i = 0; i < c->nbuckets; i++) {
		sum += p[i].n;
		if (n && p[n - 1].x == p[i].x)
			p[n - 1].n = sum;
		else
			p[n++] = (struct cum){ p[i].x, sum };
	}
	fprintf(f, "# line %zu: cell %u, hist.csv's rows of its repetition%s", k, c->number,
		c->nokreps == 1 ? "" : "s");
	for (size_t i = 0; i < c->nokreps; i++)
		fprintf(f, " %u", c->okreps[i]);
	fprintf(f, " merged: each bucket's midpoint (µs) and the round trips up to it\n"
		"$c_%zu << EOD\n", k);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%g %.17g\n", six(p[i].x), p[i].n);
	fprintf(f, "EOD\nn_%zu = %.17g\n", k, sum);
	for (size_t j = 0; j < nmk; j++) {
		double rank = ceil(mk[j].q * sum * (1 - ldexp(1, -50))), q = NAN;
		for (size_t i = 0; i < n && isnan(q); i++)
			if (p[i].n >= rank)
				q = six(p[i].x);
		if (isnan(q))	/* no bucket: not charted (find_scenarios) */
			fprintf(f, "q%s_%zu = NaN\n", mk[j].tag, k);
		else
			fprintf(f, "q%s_%zu = %.17g\n", mk[j].tag, k, q);
	}
	free(p);
	return 0;
}

/* The top panel, from `bottom` (a fraction of the canvas) up, `height`
 * high: every line's percentile distribution. */
static void write_distribution(FILE *f, const struct report *r, int cdim,
			       const struct scenario *s, double bottom, double height)
{
	double lo = INFINITY, hi = 0, xmax = 10;	/* the 90% tick at least */
	char label[256], q[600], num[32];

	for (size_t k = 0; k < s->n; k++) {
		const struct rcell *c = &r->cells[s->cell[k]];
		double l = (c->buckets[0].low_us + c->buckets[0].high_us) / 2;
		double h = (c->buckets[c->nbuckets - 1].low_us + c->buckets[c->nbuckets - 1].high_us) / 2;
		lo = l < lo ? l : lo;
		hi = h > hi ? h : hi;
		xmax = c->hist_count + 1 > xmax ? c->hist_count + 1 : xmax;	/* the maximum's x */
	}
	lo /= 1.15;
	hi *= 1.15;
	fprintf(f, "set origin 0, %g\nset size 1, %g\n"
		"set title 'round-trip time by percentile (each line: every successful repetition "
		"merged)'\n"
		"set logscale x 10\nset logscale y 10\nset xrange [1:%.17g]\nset yrange [%g:%g]\n"
		"# a tic label is a format: %%%% is one %%\n"
		"set xtics ('0%%%%' 1, '50%%%%' 2, '90%%%%' 10, '99%%%%' 100, '99.9%%%%' 1000, "
		"'99.99%%%%' 10000, '99.999%%%%' 100000, '99.9999%%%%' 1000000)\n"
		"set xlabel ''\nset ylabel 'round-trip time, µs'\n"
		"set key below horizontal Left reverse\nset datafile separator whitespace\n", bottom,
		height, xmax, lo, hi);
	/* the matrix's percentiles: a dotted line each (at 1 / (1 - q)), and a
	 * tick of its own where the axis has none (p75, p99.95) */
	for (size_t i = 0; i < r->npct; i++) {
		double x = 1 / (1 - r->pct[i].p / 100), l10 = log10(x);
		fprintf(f, "set arrow %zu from %.10g, graph 0 to %.10g, graph 1 nohead dt 3 "
			"lc rgb '#808080'\n", i + 1, x, x);
		if (fabs(l10 - round(l10)) > 1e-6 && fabs(x - 2) > 1e-6)
			fprintf(f, "set xtics add ('%s' %.10g)\n", r->pct[i].label, x);
	}
	gnuplot_ticks(f, 'y', lo, hi, 1, "");
	fprintf(f, "plot \\\n");
	for (size_t k = 0; k < s->n; k++) {
		const struct rcell *c = &r->cells[s->cell[k]];
		line_label(r, cdim, c, label, sizeof(label));
		size_t o = strlen(label);
		snprintf(label + o, sizeof(label) - o, " (%s round trip%s, %zu repetition%s)",
			 gnuplot_number(c->hist_count, num, sizeof(num)), c->hist_count == 1 ? "" : "s",
			 c->hist_reps, c->hist_reps == 1 ? "" : "s");
		const char *colour = gnuplot_colour(r, cdim, cdim >= 0 ? c->dims[cdim] : NULL);
		/* the line, and a dot at its end: the maximum */
		fprintf(f, "    $c_%zu using ((n_%zu + 1) / (n_%zu + 1 - $2)):($1 > 0 ? $1 : NaN) "
			"with lines lw 2 lc rgb '%s' title %s, \\\n"
			"    $c_%zu using ((n_%zu + 1) / (n_%zu + 1 - $2)):($2 == n_%zu ? $1 : NaN) "
			"with points pt 7 ps 0.8 lc rgb '%s' notitle%s\n", k, k, k, colour,
			quoted(label, q, sizeof(q)), k, k, k, k, colour, k + 1 < s->n ? ", \\" : "");
	}
}

/* The bottom panels, `height` high (a fraction of the canvas): each mark
 * (p50, p99, p99.9 unless the matrix says) of every line, as bars, their
 * labels rotated when they do not fit flat. */
static void write_bars(FILE *f, const struct report *r, int cdim, const struct scenario *s,
		       double height, int rotated, const struct mark *mk, size_t nmk)
{
	double pw = panel_width(nmk);
	char label[256], ql[1200];

	fprintf(f, "unset logscale x\nunset logscale y\nunset grid\nset xrange [0.4:%zu.6]\nset yrange [0:*]\n"
		"set ytics autofreq\nset format y '%%g'\nset xlabel ''\nset ylabel 'µs'\n"
		"set offsets 0, 0, graph 0.12, 0\nset boxwidth 0.7\nset style fill solid 0.6 border -1\n"
		"unset key\nset xtics %s(", s->n, rotated ? "rotate by 45 right " : "norotate ");
	for (size_t k = 0; k < s->n; k++) {
		line_label(r, cdim, &r->cells[s->cell[k]], label, sizeof(label));
		gnuplot_quote_tic(label, ql, sizeof(ql));	/* a tick label: a format */
		fprintf(f, "%s%s %zu", k ? ", " : "", ql, k + 1);
	}
	fprintf(f, ")\n%s", r->npct ? "unset arrow\n" : "");
	for (size_t i = 0; i < nmk; i++) {
		fprintf(f, "set print $b%s\n", mk[i].tag);
		for (size_t k = 0; k < s->n; k++)
			fprintf(f, "print sprintf('%%d %%.6g', %zu, q%s_%zu)\n", k + 1, mk[i].tag, k);
		fprintf(f, "unset print\nset origin %g, 0\nset size %g, %g\n"
			"set title \"round-trip time %s\\nmerged histogram of all repetitions\"\nplot \\\n", pw * (double)i, pw, height, mk[i].label);
		for (size_t k = 0; k < s->n; k++) {
			const struct rcell *c = &r->cells[s->cell[k]];
			fprintf(f, "    $b%s every ::%zu::%zu using 1:2 with boxes lc rgb '%s' notitle, \\\n",
				mk[i].tag, k, k,
				gnuplot_colour(r, cdim, cdim >= 0 ? c->dims[cdim] : NULL));
		}
		fprintf(f, "    $b%s using 1:2:($2 < 1000 ? sprintf('%%.3g', $2) : sprintf('%%.0f', $2)) "
			"with labels offset 0, 0.6 font ',%d' notitle\n", mk[i].tag, s->n > 4 ? 8 : 10);
	}
}

/* The canvas of scenario s's chart: 960 x 760 pixels (base_width), wider
 * when the bars' labels, rotated, need slots of GNUPLOT_SLOT_MIN or reach
 * past the canvas's left edge (a bar panel's plot is about a third of the
 * width, panel_width, less 70 pixels, its left margin), taller by the room
 * they take (*below).  Are they rotated? */
static int bars_fit(const struct report *r, int cdim, const struct scenario *s, size_t nmk,
		    size_t *w, size_t *below)
{
	double pw = panel_width(nmk), bw = (double)base_width(nmk);
	char label[256];
	size_t chars = 0;
	double slots = (double)s->n + 0.2;

	for (size_t k = 0; k < s->n; k++) {
		line_label(r, cdim, &r->cells[s->cell[k]], label, sizeof(label));
		chars = gnuplot_chars(label) > chars ? gnuplot_chars(label) : chars;
	}
	*w = base_width(nmk), *below = 0;
	if (gnuplot_xtics_slot(chars) <= (pw * bw - 70) / slots)
		return 0;
	/* the plot as wide as the slots need, and as its first label, which
	 * reaches left of its tick (0.6 slots from the plot's left end) */
	double plot = fmax(GNUPLOT_SLOT_MIN * slots, ((double)gnuplot_xtics_reach(chars) + 5 - 70) *
			   slots / 0.6);
	if (plot > pw * bw - 70)
		*w = (size_t)ceil((plot + 70) / pw);
	*below = gnuplot_xtics_room(chars);
	return 1;
}

/* plots/latency-N.gp of scenario s: its title's lines above the top
 * panel (486 pixels high), the bars below (258, and the room their labels
 * take). */
static int write_chart(const struct report *r, int cdim, const struct scenario *s, size_t n,
		       char *err, size_t errlen)
{
	struct outfile out;
	char path[4096], name[32], label[512], what[700], title[700], q[2400];
	size_t w, below;
	struct mark mk[PERCENTILE_MAX];
	size_t nmk = chart_marks(r, mk);
	int rotated = bars_fit(r, cdim, s, nmk, &w, &below);

	snprintf(name, sizeof(name), "latency-%zu", n);
	snprintf(path, sizeof(path), "%s/plots/%s.gp", r->dir, name);
	scenario_label(r, cdim, &r->cells[s->cell[0]], label, sizeof(label));
	snprintf(what, sizeof(what), "round-trip time distribution%s%s", *label ? ": " : "", label);
	if (outfile_open(&out, path, err, errlen) < 0)
		return -1;
	FILE *f = out.f;
	snprintf(title, sizeof(title), "%s: round-trip time%s%s", r->m.name, *label ? ", " : "",
		 label);
	size_t tl = gnuplot_lines(title, w - 20, q, sizeof(q));
	double h = 760 + (double)below + GNUPLOT_LINE_PX * (double)(tl - 1);
	gnuplot_preamble(f, name, "hist.csv", what, w, (size_t)h);
	for (size_t k = 0; k < s->n; k++)
		if (write_line_data(f, &r->cells[s->cell[k]], k, mk, nmk) < 0) {
			outfile_abort(&out);
			snprintf(err, errlen, "%s: out of memory", path);
			return -1;
		}
	fprintf(f, "set multiplot title %s\n", q);
	write_distribution(f, r, cdim, s, (258.4 + (double)below) / h, 486.4 / h);
	write_bars(f, r, cdim, s, (258.4 + (double)below) / h, rotated, mk, nmk);
	fprintf(f, "unset multiplot\n");
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}

/* plots/latency-*.{gp,svg,png,log}: the charts of an earlier report. */
static void remove_old(const char *dir)
{
	char plots[4096], path[4400];
	struct dirent *e;
	DIR *d;

	snprintf(plots, sizeof(plots), "%s/plots", dir);
	if (!(d = opendir(plots)))
		return;
	while ((e = readdir(d)) != NULL) {
		const char *dot = strrchr(e->d_name, '.');
		if (strncmp(e->d_name, "latency-", 8) || !dot ||
		    (strcmp(dot, ".gp") && strcmp(dot, ".svg") && strcmp(dot, ".png") &&
		     strcmp(dot, ".log")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", plots, e->d_name);
		outfile_remove(path);	/* a regular file only, never through a link */
	}
	closedir(d);
}

int gnuplot_hist_scripts(const struct report *r, char *err, size_t errlen)
{
	struct scenario *s = calloc(GNUPLOT_HIST_MAX, sizeof(*s));
	int cdim = gnuplot_compared_dim(r), rc = 0;

	remove_old(r->dir);
	if (!s) {
		snprintf(err, errlen, "%s/plots: out of memory", r->dir);
		return -1;
	}
	size_t n = find_scenarios(r, cdim, s, GNUPLOT_HIST_MAX);
	for (size_t i = 0; i < n && !rc; i++)
		rc = write_chart(r, cdim, &s[i], i + 1, err, errlen);
	free(s);
	return rc;
}
