/* report.html: see html.h. */
#include "html.h"
#include "arrays.h"
#include "headline.h"
#include "report.h"
#include "outfile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

void html_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\t': case '\n': fputc(c, f); break;
		case '\r': fputc('\n', f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fputs(REPLACEMENT, f);
			} else if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
				   (unsigned char)s[i + 1] <= 0x9f) {
				fputs(REPLACEMENT, f);	/* C1: U+0080..U+009F */
				i++;
			} else {
				fputc(c, f);
			}
		}
	}
}

static void text0(FILE *f, const char *s)
{
	html_text(f, s, strlen(s));
}

/* ---- Markdown (the subset markdown.c writes) ---- */

/* Inline text: `code`, **bold**, \X as X; the rest as text. */
static void inline_md(FILE *f, const char *s, size_t n)
{
	size_t i = 0, run = 0;
	int bold = 0;

	while (i < n) {
		const char *close;
		if (s[i] == '\\' && i + 1 < n && ispunct((unsigned char)s[i + 1])) {
			html_text(f, s + run, i - run);
			run = i + 1;	/* the escaped character starts the next run */
			i += 2;
		} else if (s[i] == '`' && (close = memchr(s + i + 1, '`', n - i - 1))) {
			html_text(f, s + run, i - run);
			fputs("<code>", f);
			html_text(f, s + i + 1, (size_t)(close - s) - i - 1);
			fputs("</code>", f);
			i = run = (size_t)(close - s) + 1;
		} else if (s[i] == '*' && i + 1 < n && s[i + 1] == '*' &&
			   (bold || memmem(s + i + 2, n - i - 2, "**", 2))) {
			html_text(f, s + run, i - run);
			fputs(bold ? "</strong>" : "<strong>", f);
			bold = !bold;
			i = run = i + 2;
		} else {
			i++;
		}
	}
	html_text(f, s + run, n - run);
	if (bold)
		fputs("</strong>", f);
}

/* The cells of a table line "| a | b\| c |": up to max, as [start, end)
 * offsets into line, trimmed. */
static size_t split_row(const char *line, size_t n, size_t (*cells)[2], size_t max)
{
	size_t k = 0, i = 0;

	if (i < n && line[i] == '|')
		i++;
	while (i < n && k < max) {
		size_t start = i;
		while (i < n && line[i] != '|')
			i += line[i] == '\\' && i + 1 < n ? 2 : 1;
		size_t end = i;
		if (i >= n && end == start)
			break;	/* nothing after the last '|' */
		while (start < end && line[start] == ' ')
			start++;
		while (end > start && line[end - 1] == ' ')
			end--;
		cells[k][0] = start;
		cells[k][1] = end;
		k++;
		if (i < n)
			i++;	/* the '|' */
	}
	return k;
}

/* Is this the line under a table's head, "|---|---:|"?  Sets the right
 * alignment of each column in right (at most max). */
static int separator_row(const char *line, size_t n, unsigned char *right, size_t max)
{
	size_t cells[64][2], k = split_row(line, n, cells, 64);

	if (!k)
		return 0;
	for (size_t c = 0; c < k; c++) {
		const char *s = line + cells[c][0];
		size_t len = cells[c][1] - cells[c][0];
		if (len < 3 || strspn(s, ":-") < len || !memchr(s, '-', len))
			return 0;
		if (c < max)
			right[c] = s[len - 1] == ':';
	}
	return 1;
}

static void table_row(FILE *f, const char *line, size_t n, const char *tag,
		      const unsigned char *right)
{
	size_t cells[64][2], k = split_row(line, n, cells, 64);

	fputs("<tr>", f);
	for (size_t c = 0; c < k; c++) {
		fprintf(f, "<%s%s>", tag, right[c] ? " class=\"num\"" : "");
		inline_md(f, line + cells[c][0], cells[c][1] - cells[c][0]);
		fprintf(f, "</%s>", tag);
	}
	fputs("</tr>\n", f);
}

/* A table from lines[0..nl), each line[i] of len[i] bytes. */
static void table(FILE *f, const char **lines, const size_t *len, size_t nl)
{
	unsigned char right[64] = { 0 };
	size_t first = 0;

	fputs("<div class=\"scroll\"><table>\n", f);
	if (nl > 1 && separator_row(lines[1], len[1], right, 64)) {
		size_t cells[64][2], k = split_row(lines[0], len[0], cells, 64), any = 0;
		for (size_t c = 0; c < k; c++)
			any |= cells[c][1] > cells[c][0];
		if (any) {
			fputs("<thead>", f);
			table_row(f, lines[0], len[0], "th", right);
			fputs("</thead>\n", f);
		}
		first = 2;
	}
	fputs("<tbody>\n", f);
	for (size_t i = first; i < nl; i++)
		table_row(f, lines[i], len[i], "td", right);
	fputs("</tbody></table></div>\n", f);
}

struct md {
	FILE *f;
	const char *lines[4096];
	size_t len[4096];
	size_t n;
	char kind;			/* of the block being gathered: 'p', '|', '-' or 0 */
	unsigned sections;		/* ## headings so far */
};

static void flush_block(struct md *m)
{
	FILE *f = m->f;

	if (m->kind == '|')
		table(f, m->lines, m->len, m->n);
	else if (m->kind == '-') {
		fputs("<ul>\n", f);
		for (size_t i = 0; i < m->n; i++) {
			fputs("<li>", f);
			inline_md(f, m->lines[i] + 2, m->len[i] - 2);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	} else if (m->kind == 'p') {
		fputs("<p>", f);
		for (size_t i = 0; i < m->n; i++) {
			if (i)
				fputc('\n', f);
			inline_md(f, m->lines[i], m->len[i]);
		}
		fputs("</p>\n", f);
	}
	m->kind = 0;
	m->n = 0;
}

static void heading(struct md *m, const char *line, size_t n)
{
	size_t level = strspn(line, "#");

	flush_block(m);
	if (level == 2)
		fprintf(m->f, "<h2 id=\"s%u\">", ++m->sections);
	else
		fprintf(m->f, "<h%zu>", level);
	inline_md(m->f, line + level + 1, n - level - 1);
	fprintf(m->f, "</h%zu>\n", level);
}

void html_markdown(FILE *f, const char *md, size_t n)
{
	static struct md m;
	size_t i = 0;

	memset(&m, 0, sizeof(m));
	m.f = f;
	while (i < n) {
		const char *nl = memchr(md + i, '\n', n - i), *line = md + i;
		size_t len = nl ? (size_t)(nl - line) : n - i;
		size_t hashes = strspn(line, "#");
		char kind = line[0] == '|' ? '|' : len >= 2 && !memcmp(line, "- ", 2) ? '-' : 'p';

		i += len + (nl != NULL);
		if (len && line[len - 1] == '\r')
			len--;
		if (!len) {
			flush_block(&m);
		} else if (hashes >= 1 && hashes <= 4 && hashes < len && line[hashes] == ' ') {
			heading(&m, line, len);
		} else {
			if (kind != m.kind || m.n == sizeof(m.lines) / sizeof(m.lines[0]))
				flush_block(&m);
			m.kind = kind;
			m.lines[m.n] = line;
			m.len[m.n++] = len;
		}
	}
	flush_block(&m);
}

/* ---- SVG ---- */

/* The elements gnuplot's svg terminal draws with. */
static int svg_element_ok(const char *name, size_t n)
{
	static const char *const ok[] = {
		"svg", "g", "defs", "title", "desc", "rect", "circle", "ellipse", "line",
		"polyline", "polygon", "path", "use", "text", "tspan", "clipPath", "image",
		"filter", "feFlood", "feComposite", "feOffset", "feGaussianBlur", "feMerge",
		"feMergeNode", "feBlend", "feColorMatrix", "linearGradient", "radialGradient",
		"stop", "pattern", "marker", "symbol", "mask",
	};

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (strlen(ok[i]) == n && !strncasecmp(ok[i], name, n))
			return 1;
	return 0;
}

struct svgout {
	FILE *f;
	const char *prefix;
	char *why;
	size_t whylen;
};

/* An attribute's value, rewritten: ids and local references prefixed;
 * -1 (why set) for a reference to anything outside the image. */
static int svg_value(struct svgout *o, const char *name, size_t nn, const char *v, size_t n)
{
	int is_id = nn == 2 && !strncasecmp(name, "id", 2);
	int is_href = nn >= 4 && !strncasecmp(name + nn - 4, "href", 4);

	if (memchr(v, '<', n) || memchr(v, '\\', n)) {
		snprintf(o->why, o->whylen, "an attribute value holds '<' or '\\'");
		return -1;
	}
	if (is_href && !(n && v[0] == '#') && !(n > 11 && !strncmp(v, "data:image/", 11))) {
		snprintf(o->why, o->whylen, "a reference outside the image (%.*s)", (int)nn, name);
		return -1;
	}
	if (is_id || (is_href && v[0] == '#')) {
		fprintf(o->f, "%s%s-", is_id ? "" : "#", o->prefix);
		fwrite(v + !is_id, 1, n - !is_id, o->f);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (i + 4 <= n && !strncasecmp(v + i, "url(", 4)) {
			if (i + 5 > n || v[i + 4] != '#') {
				snprintf(o->why, o->whylen, "a url() outside the image");
				return -1;
			}
			fprintf(o->f, "url(#%s-", o->prefix);
			i += 4;
			continue;
		}
		fputc(v[i], o->f);
	}
	return 0;
}

static size_t bad_markup(struct svgout *o)
{
	snprintf(o->why, o->whylen, "markup that is not name=\"value\" attributes");
	return 0;
}

/* One tag at s[0] == '<', up to its '>': returns its length, or 0 with
 * why set.  *svgs counts <svg> openings. */
static size_t svg_tag(struct svgout *o, const char *s, size_t n, int *svgs)
{
	size_t i = 1, name;

	if (i < n && s[i] == '/')
		i++;
	name = i;
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == ':' || s[i] == '-' || s[i] == '_'))
		i++;
	if (!svg_element_ok(s + name, i - name)) {
		snprintf(o->why, o->whylen, "element <%.*s> is not one gnuplot draws with",
			 (int)(i - name < 40 ? i - name : 40), s + name);
		return 0;
	}
	if (i - name == 3 && !strncasecmp(s + name, "svg", 3) && s[1] != '/' && ++*svgs > 1) {
		snprintf(o->why, o->whylen, "an <svg> inside the image");
		return 0;
	}
	fwrite(s, 1, i, o->f);
	for (;;) {
		size_t a = i, an;
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (i < n && s[i] == '>')
			return fputc('>', o->f), i + 1;
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '>')
			return fputs("/>", o->f), i + 2;
		fwrite(s + a, 1, i - a, o->f);	/* the spaces, newlines kept */
		an = i;
		while (i < n && !isspace((unsigned char)s[i]) && !strchr("=/>'\"<", s[i]))
			i++;
		size_t ae = i;
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (ae == an || i >= n || s[i++] != '=')
			return bad_markup(o);
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (i >= n || (s[i] != '"' && s[i] != '\''))
			return bad_markup(o);
		if (ae - an >= 2 && !strncasecmp(s + an, "on", 2)) {
			snprintf(o->why, o->whylen, "an event handler (%.*s)",
				 (int)(ae - an < 40 ? ae - an : 40), s + an);
			return 0;
		}
		char q = s[i];
		const char *v = s + i + 1, *end = memchr(v, q, n - i - 1);
		if (!end)
			return bad_markup(o);
		fwrite(s + an, 1, ae - an, o->f);
		fprintf(o->f, "=%c", q);
		if (svg_value(o, s + an, ae - an, v, (size_t)(end - v)) < 0)
			return 0;
		fputc(q, o->f);
		i = (size_t)(end - s) + 1;
	}
}

/* The image from <svg to its last </svg>, or -1 with why. */
static int svg_body(struct svgout *o, const char *svg, size_t n)
{
	const char *start = NULL, *last = NULL, *p;
	int svgs = 0;

	for (p = svg; (p = memmem(p, n - (size_t)(p - svg), "<svg", 4)); p += 4)
		if (p + 4 < svg + n && (isspace((unsigned char)p[4]) || p[4] == '>')) {
			start = p;
			break;
		}
	for (p = svg; (p = memmem(p, n - (size_t)(p - svg), "</svg>", 6)); p += 6)
		last = p;
	if (!start || !last || last < start) {
		snprintf(o->why, o->whylen, "no <svg> ... </svg>");
		return -1;
	}
	for (p = last + 6; p < svg + n; p++)
		if (!isspace((unsigned char)*p)) {
			snprintf(o->why, o->whylen, "something after </svg>");
			return -1;
		}
	n = (size_t)(last + 6 - start);
	for (size_t i = 0; i < n;) {
		const char *lt = memchr(start + i, '<', n - i);
		size_t run = lt ? (size_t)(lt - start) - i : n - i, t;
		fwrite(start + i, 1, run, o->f);	/* text: gnuplot writes &lt; and &amp; */
		i += run;
		if (!lt)
			break;
		if (!(t = svg_tag(o, start + i, n - i, &svgs)))
			return -1;
		i += t;
	}
	return 0;
}

int html_svg(FILE *f, const char *svg, size_t n, const char *prefix, char *why,
	     size_t whylen)
{
	char *buf = NULL;
	size_t len = 0;
	struct svgout o = { .prefix = prefix, .why = why, .whylen = whylen };
	int rc;

	if (memchr(svg, '\0', n)) {
		snprintf(why, whylen, "a NUL byte");
		return -1;
	}
	if (!(o.f = open_memstream(&buf, &len))) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	rc = svg_body(&o, svg, n);
	if (fclose(o.f) != 0 && !rc) {
		snprintf(why, whylen, "out of memory");
		rc = -1;
	}
	if (!rc)
		fwrite(buf, 1, len, f);
	free(buf);
	return rc;
}

/* ---- the page ---- */

static const char css[] =
	"body{margin:0;background:#f6f7f9;color:#1d2330;"
	"font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif}\n"
	"main{max-width:1400px;margin:0 auto;padding:16px 24px 48px;background:#fff}\n"
	"h1{font-size:1.7em;margin:.4em 0 .2em}\n"
	"h2{font-size:1.3em;margin:1.6em 0 .4em;padding-top:.4em;border-top:2px solid #d5dae3}\n"
	"h3{font-size:1.05em;margin:1.3em 0 .3em}\n"
	"p{margin:.5em 0;max-width:80ch}\n"
	"code{font:13px/1.3 ui-monospace,'DejaVu Sans Mono',monospace;background:#eef0f4;"
	"padding:0 .25em;border-radius:3px}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;margin:.4em 0 .6em;font-variant-numeric:tabular-nums}\n"
	"th,td{border:1px solid #d5dae3;padding:.25em .6em;text-align:left;vertical-align:top}\n"
	"th{background:#eef0f4}\n"
	"td.num,th.num{text-align:right;white-space:nowrap}\n"
	"tbody tr:nth-child(even){background:#f9fafb}\n"
	"nav{margin:.8em 0;padding:.4em .8em;background:#eef0f4;border-radius:4px}\n"
	"nav a{margin-right:1em}\n"
	".headline{margin:1em 0;padding:.2em 1em .4em;background:#eef5ff;border-left:4px solid #2b6cb0}\n"
	".headline h2{border:0;margin:.4em 0 .2em;padding:0}\n"
	".headline ul{margin:.3em 0;padding-left:1.2em}\n"
	".headline li{margin:.2em 0;font-size:1.08em}\n"
	"figure{margin:1em 0 1.6em}\n"
	"figure svg{display:block;width:100%;height:auto;border:1px solid #d5dae3}\n"
	"figcaption{color:#4a5261;font-size:.92em;margin-top:.3em}\n"
	".missing{color:#8a2b0e}\n"
	"footer{margin-top:2em;color:#4a5261;font-size:.9em}\n";

/* The whole file at path (NUL-terminated), or NULL with errno set. */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, len = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - len < 65536) {
			char *nb = realloc(buf, cap = cap * 2 + 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
	} while (got);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	*n = len;
	return buf;
}

#define MAXCHARTS 64

static int by_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* The charts of dir/plots, NAME of each NAME.svg (letters, digits, '_'
 * and '-' only): the usual ones in their order, then the others by name. */
static size_t chart_names(const char *dir, char (*out)[64], size_t max)
{
	static const char *const usual[] = { "throughput", "rtt", "cpu", "ratios", "timeline" };
	const size_t nusual = ARRAY_SIZE(usual);
	char path[4200], other[MAXCHARTS][64];
	size_t n = 0, no = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/plots", dir);
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), k;
		if (len < 5 || len - 4 >= 64 || strcmp(e->d_name + len - 4, ".svg") ||
		    strspn(e->d_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_-") != len - 4)
			continue;
		for (k = 0; k < nusual && (strlen(usual[k]) != len - 4 ||
					   strncmp(usual[k], e->d_name, len - 4)); k++)
			;
		if (k == nusual && no < MAXCHARTS)
			snprintf(other[no++], 64, "%.*s", (int)(len - 4), e->d_name);
	}
	closedir(d);
	for (size_t k = 0; k < nusual && n < max; k++) {
		snprintf(path, sizeof(path), "%s/plots/%s.svg", dir, usual[k]);
		FILE *f = fopen(path, "re");
		if (f) {
			fclose(f);
			snprintf(out[n++], 64, "%s", usual[k]);
		}
	}
	qsort(other, no, sizeof(other[0]), by_name);
	for (size_t k = 0; k < no && n < max; k++)
		memcpy(out[n++], other[k], 64);
	return n;
}

/* What a chart shows: its script's first line, "# matrix chart: WHAT";
 * the name when the script says nothing. */
static void chart_what(const char *dir, const char *name, char *buf, size_t len)
{
	static const char tag[] = "# matrix chart: ";
	char path[4200], line[512];
	FILE *f;

	snprintf(buf, len, "%.63s", name);
	snprintf(path, sizeof(path), "%s/plots/%s.gp", dir, name);
	if (!(f = fopen(path, "re")))
		return;
	if (fgets(line, sizeof(line), f) && !strncmp(line, tag, sizeof(tag) - 1)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[sizeof(tag) - 1])
			snprintf(buf, len, "%s", line + sizeof(tag) - 1);
	}
	fclose(f);
}

/* The width="N" of an SVG's root element, or 0. */
static double svg_width(const char *svg)
{
	const char *p = strstr(svg, "<svg"), *end = p ? strchr(p, '>') : NULL, *w;
	double v;

	if (!end || !(w = memmem(p, (size_t)(end - p), " width=\"", 8)) || w > end)
		w = end ? memmem(p, (size_t)(end - p), "\nwidth=\"", 8) : NULL;
	if (!w || sscanf(w + 8, "%lf", &v) != 1 || !(v > 0 && v < 100000))
		return 0;
	return v;
}

static void chart(FILE *f, const char *dir, const char *name)
{
	char path[4200], what[512], why[256], prefix[80];
	size_t n;
	double w;
	char *svg;

	snprintf(path, sizeof(path), "%s/plots/%s.svg", dir, name);
	snprintf(prefix, sizeof(prefix), "c-%.63s", name);
	chart_what(dir, name, what, sizeof(what));
	if (!(svg = slurp(path, &n)))
		snprintf(why, sizeof(why), "%s", strerror(errno));
	fprintf(f, "<figure id=\"%s\"", prefix);
	if (svg && (w = svg_width(svg)) > 0)	/* gnuplot's 9-pt text, drawn larger */
		fprintf(f, " style=\"max-width:%.0fpx\"", w * 1.35);
	fputs(">\n", f);
	if (!svg || html_svg(f, svg, n, prefix, why, sizeof(why)) < 0) {
		fputs("<p class=\"missing\">This chart could not be shown here: ", f);
		text0(f, why);
		fputs(".</p>\n", f);
	}
	free(svg);
	fputs("\n<figcaption>", f);
	text0(f, what);
	fprintf(f, " (<a href=\"plots/%s.svg\">plots/%s.svg</a>, <a href=\"plots/%s.png\">png</a>,"
		" script <a href=\"plots/%s.gp\">plots/%s.gp</a>)</figcaption>\n</figure>\n",
		name, name, name, name, name);
}

static void charts(FILE *f, const char *dir)
{
	char names[MAXCHARTS][64];
	size_t n = chart_names(dir, names, MAXCHARTS);

	fputs("<h2 id=\"charts\">Charts</h2>\n", f);
	if (!n)
		fputs("<p>No charts: plots/ has no SVG image (gnuplot draws them; is it "
		      "installed?).</p>\n", f);
	for (size_t i = 0; i < n; i++)
		chart(f, dir, names[i]);
}

/* Links to the charts and to each "## " section of md, in order (their
 * ids are html_markdown's). */
static void contents(FILE *f, const char *md, size_t n)
{
	unsigned k = 0;

	fputs("<nav><a href=\"#charts\">Charts</a>", f);
	for (const char *p = md; p && p < md + n; p = memchr(p, '\n', (size_t)(md + n - p)),
	     p = p ? p + 1 : NULL) {
		if (strncmp(p, "## ", 3))
			continue;
		size_t len = strcspn(p + 3, "\n");
		fprintf(f, "<a href=\"#s%u\">", ++k);
		html_text(f, p + 3, len);
		fputs("</a>", f);
	}
	fputs("</nav>\n", f);
}

/* The answer first, at the top of the page (headline.h): the same
 * sentences as summary.md's "## Headline" and the console, from
 * headline_build; nothing when there is no ratio. */
static void headline(FILE *f, const struct report *r)
{
	struct headline h;

	if (headline_build(r, &h) < 0 || !h.nlines) {
		headline_release(&h);
		return;
	}
	fputs("<section class=\"headline\" id=\"headline\">\n<h2>Headline</h2>\n<ul>\n", f);
	for (size_t i = 0; i < h.nlines; i++) {
		fputs("<li>", f);
		text0(f, h.lines[i]);
		fputs("</li>\n", f);
	}
	if (h.more)
		fprintf(f, "<li>and %zu more in the ratio tables below.</li>\n", h.more);
	fputs("</ul>\n</section>\n", f);
	headline_release(&h);
}

/* Where summary.md's parts are: [0, title) its title and description,
 * [title, after) its "## Headline" section (the page has its own, above),
 * [after, body) the rest of its header, [body, n) the pattern sections. */
struct md_parts {
	size_t title, after, body;
};

/* The offset of the first line that starts with line, or n. */
static size_t line_at(const char *md, size_t n, const char *line)
{
	size_t len = strlen(line);

	for (size_t i = 0; i + len <= n; i++)
		if ((i == 0 || md[i - 1] == '\n') && !strncmp(md + i, line, len))
			return i;
	return n;
}

static struct md_parts md_parts(const char *md, size_t n)
{
	struct md_parts p;

	p.title = p.after = line_at(md, n, "## Headline\n");
	if (p.after < n) {	/* its list ends at the first line not "- " nor blank */
		p.after += strlen("## Headline\n");
		while (p.after < n && (md[p.after] == '\n' || !strncmp(md + p.after, "- ", 2))) {
			const char *nl = memchr(md + p.after, '\n', n - p.after);
			p.after = nl ? (size_t)(nl - md) + 1 : n;
		}
	}
	p.body = p.after + line_at(md + p.after, n - p.after, "## ");
	if (p.title == n)	/* no headline section */
		p.title = p.after = p.body = line_at(md, n, "## ");
	return p;
}

int html_write(const struct report *r, char *err, size_t errlen)
{
	char path[4200];
	struct outfile out;
	struct md_parts parts;
	size_t n;
	char *md;
	FILE *f;

	snprintf(path, sizeof(path), "%s/summary.md", r->dir);
	if (!(md = slurp(path, &n))) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/report.html", r->dir);
	if (outfile_open(&out, path, err, errlen) < 0) {
		free(md);
		return -1;
	}
	f = out.f;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	text0(f, r->m.name);
	fprintf(f, ": matrix report</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", css);
	parts = md_parts(md, n);
	html_markdown(f, md, parts.title);
	headline(f, r);
	html_markdown(f, md + parts.after, parts.body - parts.after);
	contents(f, md + parts.body, n - parts.body);
	charts(f, r->dir);
	html_markdown(f, md + parts.body, n - parts.body);
	fputs("<footer>Written by matrix from this folder's results.csv, as summary.md; the "
	      "charts are plots/*.svg. <code>matrix report</code> on the folder writes it "
	      "again.</footer>\n</main>\n</body>\n</html>\n", f);
	free(md);
	return outfile_commit(&out, err, errlen);
}
