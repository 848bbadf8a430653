/* What every chart script shares: its head, quoting, the compared
 * dimension and its colours, ticks, the room text takes (see
 * gnuplot_style.h). */
#include "gnuplot_style.h"
#include "arrays.h"
#include "report.h"
#include "units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Okabe-Ito's colours, in their order, with the yellow darkened to show
 * on white. */
static const char *const palette[] = {
	"#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#000000", "#b59f00",
};
#define NPALETTE (ARRAY_SIZE(palette))
_Static_assert(NPALETTE == GNUPLOT_COLOURS, "GNUPLOT_COLOURS is the palette's size");

static int varies(const struct report *r, size_t d)
{
	for (size_t i = 1; i < r->ncells; i++)
		if (strcmp(r->cells[i].dims[d], r->cells[0].dims[d]))
			return 1;
	return 0;
}

int gnuplot_compared_dim(const struct report *r)
{
	int d = report_dim(r, "transport");

	if (d >= 0 && varies(r, (size_t)d))
		return d;
	if (r->ndefs)
		return (int)r->defs[0].dim;
	for (size_t k = 0; k < r->ndims; k++)
		if (strcmp(r->dimnames[k], "pattern") && strcmp(r->dimnames[k], "size") &&
		    strcmp(r->dimnames[k], "concurrency") && varies(r, k))
			return (int)k;
	return -1;
}

size_t gnuplot_colour_index(const struct report *r, int dim, const char *value)
{
	const struct dimension *md;
	const char *vals[256];
	char buf[64];
	size_t n;

	if (dim < 0 || (size_t)dim >= r->ndims || !value)
		return 0;
	if ((md = matrix_dim(&r->m, r->dimnames[dim])) != NULL) {
		for (size_t i = 0; i < md->nvalues; i++) {
			matrix_format_value(md, &md->values[i], buf, sizeof(buf));
			if (!strcmp(buf, value))
				return i;
		}
	}
	n = report_dim_values(r, (size_t)dim, vals, 256);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(vals[i], value))
			return i;
	return 0;
}

const char *gnuplot_colour(const struct report *r, int dim, const char *value)
{
	return palette[gnuplot_colour_index(r, dim, value) % NPALETTE];
}

const char *gnuplot_palette(size_t i)
{
	return palette[i % NPALETTE];
}

int gnuplot_point(size_t i)
{
	/* filled circle, square, triangle up and down, diamond, pentagon;
	 * then open ones: circle, square, triangle up and down, diamond */
	static const int pt[] = { 7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12 };

	return pt[i / NPALETTE % ARRAY_SIZE(pt)];
}

/* v with the suffix (k, M, G) that `by` would take */
static char *number_by(double v, double by, char *buf, size_t len)
{
	static const struct { double at, div; const char *suffix; } si[] = {
		{ 1e9, 1e9, "G" }, { 1e6, 1e6, "M" }, { 1e4, 1e3, "k" },
	};

	for (size_t i = 0; v != 0 && i < ARRAY_SIZE(si); i++)
		if (fabs(by) >= si[i].at) {
			snprintf(buf, len, "%.3g%s", v / si[i].div, si[i].suffix);
			return buf;
		}
	snprintf(buf, len, "%.4g", v);
	return buf;
}

char *gnuplot_number(double v, char *buf, size_t len)
{
	return number_by(v, v, buf, len);
}

/* One tick: labelled (major, its suffix that of `by`, or its own when by
 * is 0) or not (minor, level 1). */
static void tick(FILE *f, int *first, double v, int major, double by, const char *suffix)
{
	char num[32];

	fprintf(f, "%s'%s%s' %.10g%s", *first ? "" : ", ", major ? number_by(v, by ? by : v, num,
		sizeof(num)) : "", major ? suffix : "", v, major ? "" : " 1");
	*first = 0;
}

void gnuplot_ticks(FILE *f, char axis, double lo, double hi, int logscale, const char *suffix)
{
	int first = 1;

	fprintf(f, "set %ctics (", axis);
	if (logscale && lo > 0 && hi > lo) {
		int d0 = (int)floor(log10(lo)), d1 = (int)ceil(log10(hi));
		int every = log10(hi / lo) > 3.3;	/* wide: a label per decade */
		for (int d = d0; d <= d1; d++)
			for (int k = 1; k <= 9; k++) {
				double v = k * pow(10, d);
				if (v < lo * 0.999 || v > hi * 1.001)
					continue;
				int major = every ? k == 1 : (k == 1 || k == 2 || k == 5);
				tick(f, &first, v, major, 0, suffix);
			}
	} else if (hi > lo) {
		double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), x = raw / mag;
		double step = (x < 1.5 ? 1 : x < 3 ? 2 : x < 7 ? 5 : 10) * mag;
		for (double v = ceil(lo / step) * step; v <= hi * 1.0001; v += step)
			tick(f, &first, fabs(v) < step / 1e6 ? 0 : v, 1, hi, suffix);
	}
	fprintf(f, ")\n");
}

char *gnuplot_size(const char *bytes, char *buf, size_t len)
{
	char sz[32];
	size_t n = 0;

	units_format_size(strtoull(bytes, NULL, 10), sz, sizeof(sz));
	while (sz[n] && (isdigit((unsigned char)sz[n]) || sz[n] == '.'))
		n++;
	snprintf(buf, len, "%.*s %s", (int)n, sz, sz + n);
	return buf;
}

void gnuplot_quote_line(const char *in, char *out, size_t outlen)
{
	char clean[512];
	size_t i;

	for (i = 0; in[i] && i + 1 < sizeof(clean); i++)
		clean[i] = ((unsigned char)in[i] < 0x20 || in[i] == 0x7f) ? ' ' : in[i];
	clean[i] = '\0';
	if (gnuplot_quote(clean, out, outlen) < 0)
		snprintf(out, outlen, "''");
}

void gnuplot_quote_tic(const char *in, char *out, size_t outlen)
{
	char clean[512], doubled[1024];
	size_t i, o = 0;

	for (i = 0; in[i] && i + 1 < sizeof(clean); i++)
		clean[i] = ((unsigned char)in[i] < 0x20 || in[i] == 0x7f) ? ' ' : in[i];
	clean[i] = '\0';
	for (i = 0; clean[i]; i++) {	/* at most 2 x 511 bytes */
		if (clean[i] == '%')
			doubled[o++] = '%';
		doubled[o++] = clean[i];
	}
	doubled[o] = '\0';
	if (gnuplot_quote(doubled, out, outlen) < 0)
		snprintf(out, outlen, "''");
}

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

size_t gnuplot_chars(const char *text)
{
	size_t n = 0, most = 0;

	for (; *text; text++)
		if (*text == '\n')
			n = 0;
		else if (((unsigned char)*text & 0xc0) != 0x80 && ++n > most)
			most = n;
	return most;
}

/* The bytes of the line that starts s, at most fit characters: to its
 * '\n' or end, else to its last space, else fit characters. */
static size_t next_line(const char *s, size_t fit)
{
	size_t chars = 0, space = 0, i;

	for (i = 0; s[i] && s[i] != '\n'; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;	/* inside a character */
		if (chars == fit)
			return s[i] == ' ' || !space ? i : space;
		if (s[i] == ' ')
			space = i;
		chars++;
	}
	return i;
}

size_t gnuplot_lines(const char *text, size_t width, char *out, size_t outlen)
{
	size_t fit = width / GNUPLOT_CHAR_PX, o = 0, n = 0;
	char line[2048], q[6200];

	fit = fit < 1 ? 1 : fit > 400 ? 400 : fit;	/* 400 characters: 1,600 bytes */
	do {
		size_t len = next_line(text, fit);
		for (size_t i = 0; i < len; i++)
			line[i] = (unsigned char)text[i] < 0x20 || text[i] == 0x7f ? ' ' : text[i];
		line[len] = '\0';
		if (gnuplot_quote(line, q, sizeof(q)) < 0 || o + strlen(q) + 8 > outlen) {
			snprintf(out, outlen, "''");
			return 1;
		}
		o += (size_t)snprintf(out + o, outlen - o, "%s%s", n++ ? ".\"\\n\"." : "", q);
		for (text += len; *text == ' '; text++)
			;
		text += *text == '\n';
	} while (*text);
	return n;
}

double gnuplot_xtics_slot(size_t chars)
{
	return (double)(chars * GNUPLOT_CHAR_PX + 8);
}

size_t gnuplot_xtics_reach(size_t chars)
{
	return (size_t)ceil((double)(chars * GNUPLOT_CHAR_PX) * M_SQRT1_2) + 4;
}

size_t gnuplot_xtics_room(size_t chars)
{
	double room = ceil((double)(chars * 8) * M_SQRT1_2) - 14;

	return room > 0 ? (size_t)room : 0;
}
