/* report.html: see html.h. */
#include "html.h"
#include "arrays.h"
#include "headline.h"
#include "report.h"
#include "outfile.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <md4c-html.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

/* The length of the control character at s[i] (of n bytes): a C0 one but
 * tab, newline and CR, DEL (1 byte), a C1 one, U+0080..U+009F (2); 0 for
 * any other character. */
static size_t control(const char *s, size_t i, size_t n)
{
	unsigned char c = (unsigned char)s[i];

	if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
		return 1;
	if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
	    (unsigned char)s[i + 1] <= 0x9f)
		return 2;
	return 0;
}

void html_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		size_t ctl = control(s, i, n);
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\r': fputc('\n', f); break;
		default:
			if (ctl) {
				fputs(REPLACEMENT, f);
				i += ctl - 1;
			} else {
				fputc(s[i], f);
			}
		}
	}
}

static void text0(FILE *f, const char *s)
{
	html_text(f, s, strlen(s));
}

/* GitHub's Markdown (tables, strikethrough, task lists), without raw HTML
 * (a tag in the text is text) and without its autolinks of bare URLs,
 * www. names and e-mail addresses (a host's user@name stays text):
 * markdown_cell.h escapes everything else in user text that would make
 * an element (< [ ] ! ` * _ ~ |), so none of it reaches the page as one. */
#define MD_FLAGS ((MD_DIALECT_GITHUB & ~MD_FLAG_PERMISSIVEAUTOLINKS) | MD_FLAG_NOHTML)

/* The n bytes of md as md4c reads them, in a buffer the caller frees
 * (*len bytes): a control character as U+FFFD (as html_text writes it),
 * CR LF and CR as LF; NULL when out of memory. */
static char *md_clean(const char *md, size_t n, size_t *len)
{
	char *out = malloc(3 * n + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t ctl = md[i] ? control(md, i, n) : 1;
		if (md[i] == '\r') {
			if (i + 1 == n || md[i + 1] != '\n')
				*o++ = '\n';
		} else if (ctl) {
			memcpy(o, REPLACEMENT, 3);
			o += 3;
			i += ctl - 1;
		} else {
			*o++ = md[i];
		}
	}
	*len = (size_t)(o - out);
	return out;
}

static void gather(const MD_CHAR *s, MD_SIZE n, void *mem)
{
	fwrite(s, 1, n, mem);
}

/* At s (n bytes), "<thead>...</thead>" whose cells are all empty ("| | |"
 * over summary.md's tables of facts): its length with the newline after
 * it, or 0. */
static size_t empty_head(const char *s, size_t n)
{
	const char *end = memmem(s, n, "</thead>", 8);
	size_t len;

	if (!end)
		return 0;
	for (const char *p = s; p < end; p++) {
		if (*p == '<')	/* a tag */
			p = memchr(p, '>', (size_t)(end - p));
		else if (!isspace((unsigned char)*p))
			return 0;	/* a cell's text */
		if (!p)
			return 0;
	}
	len = (size_t)(end - s) + 8;
	return len < n && s[len] == '\n' ? len + 1 : len;
}

/* md4c's HTML as the page has it: each table in a <div class="scroll">
 * (a wide one scrolls by itself, not the page), a right-aligned column's
 * cells of class "num" (the CSS keeps numbers on one line), a head of
 * empty cells left out.  Each of these strings is md4c's own markup: in
 * its output a text's < and " are &lt; and &quot;. */
static void tidy(FILE *f, const char *h, size_t n)
{
	static const struct { const char *from, *to; } swaps[] = {
		{ "<table>", "<div class=\"scroll\"><table>" },
		{ "</table>", "</table></div>" },
		{ " align=\"right\"", " class=\"num\"" },
	};
	size_t i = 0, k, len;

	while (i < n) {
		if (h[i] != '<' && h[i] != ' ') {
			fputc(h[i++], f);
			continue;
		}
		if (!strncmp(h + i, "<thead>", 7) && (len = empty_head(h + i, n - i))) {
			i += len;
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(swaps); k++)
			if (!strncmp(h + i, swaps[k].from, strlen(swaps[k].from)))
				break;
		if (k == ARRAY_SIZE(swaps)) {
			fputc(h[i++], f);
			continue;
		}
		fputs(swaps[k].to, f);
		i += strlen(swaps[k].from);
	}
}

void html_markdown(FILE *f, const char *md, size_t n)
{
	size_t len, hlen = 0;
	char *clean = md_clean(md, n, &len), *html = NULL;
	FILE *mem = clean ? open_memstream(&html, &hlen) : NULL;
	int rc = mem ? md_html(clean, (MD_SIZE)len, gather, mem, MD_FLAGS, 0) : -1;

	if (mem && fclose(mem))
		rc = -1;
	if (!rc) {
		tidy(f, html, hlen);
	} else {	/* out of memory: the text as it is */
		fputs("<pre>", f);
		html_text(f, md, n);
		fputs("</pre>\n", f);
	}
	free(html);
	free(clean);
}

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
	"figure img{display:block;width:100%;height:auto;border:1px solid #d5dae3}\n"
	"figcaption{color:#4a5261;font-size:.92em;margin-top:.3em}\n"
	".missing{color:#8a2b0e}\n"
	"footer{margin-top:2em;color:#4a5261;font-size:.9em}\n";

/* The most of a chart or summary.md the page takes in: gnuplot's SVGs
 * here are tens of KiB, a summary.md of a thousand cells a few MiB. */
#define HTML_MAX_INPUT (64u << 20)

/* The whole file at path (NUL-terminated), or NULL with errno set: a
 * regular file only, never through a link (ELOOP), so a planted
 * plots/x.svg pointing outside the folder never copies that file into
 * the page, and a FIFO never blocks it; at most HTML_MAX_INPUT bytes
 * (EFBIG). */
static char *slurp(const char *path, size_t *n)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f = NULL;
	char *buf = NULL;
	size_t cap = 0, len = 0, got;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > HTML_MAX_INPUT ||
	    !(f = fdopen(fd, "r"))) {
		int e = errno;
		e = !S_ISREG(st.st_mode) ? EINVAL : st.st_size > HTML_MAX_INPUT ? EFBIG : e;
		close(fd);
		errno = e;
		return NULL;
	}
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
	} while (got && len <= HTML_MAX_INPUT);
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

/* The n bytes of buf in base64 (RFC 4648), for a data: URI. */
static void base64(FILE *f, const unsigned char *buf, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)buf[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)buf[i + 1] << 8;
		if (i + 2 < n)
			v |= buf[i + 2];
		putc(b64[v >> 18 & 63], f);
		putc(b64[v >> 12 & 63], f);
		putc(i + 1 < n ? b64[v >> 6 & 63] : '=', f);
		putc(i + 2 < n ? b64[v & 63] : '=', f);
	}
}

/* A chart as an <img> whose src is the SVG itself (a data: URI): a
 * browser runs no script and fetches nothing from an image, so gnuplot's
 * markup needs no sanitising, and nothing in it reaches the page's DOM. */
/* The percentiles a text names: the matrix's percentiles: (report_pct.h),
 * joined by ", " and before the last by `last`; without the key, def (what
 * the page always said). */
static void pct_list(const struct report *r, const char *def, const char *last, char *buf,
		     size_t len)
{
	size_t o = 0;

	snprintf(buf, len, "%s", def);
	for (size_t i = 0; i < r->npct && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", !i ? "" : i + 1 == r->npct ? last
				      : ", ", r->pct[i].label);
}

/* marks: the latency charts' percentiles, then the tables': "p50, p99 and
 * p99.9", "p50 and p99" (sections) */
static void chart(FILE *f, const char *dir, const char *const *marks, const char *name)
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
	else if (!strstr(svg, "<svg"))
		snprintf(why, sizeof(why), "not an SVG image");
	fprintf(f, "<figure id=\"%s\"", prefix);
	if (svg && (w = svg_width(svg)) > 0)	/* gnuplot's 9-pt text, drawn larger */
		fprintf(f, " style=\"max-width:%.0fpx\"", w * 1.35);
	fputs(">\n", f);
	if (svg && strstr(svg, "<svg")) {
		fputs("<img alt=\"", f);
		text0(f, what);
		fputs("\" src=\"data:image/svg+xml;base64,", f);
		base64(f, (const unsigned char *)svg, n);
		fputs("\">", f);
	} else {
		fputs("<p class=\"missing\">This chart could not be shown here: ", f);
		text0(f, why);
		fputs(".</p>\n", f);
	}
	free(svg);
	fputs("\n<figcaption>", f);
	text0(f, what);
	if (!strncmp(name, "latency", 7))
		fprintf(f, " Its %s are of the merged histogram of all "
			"repetitions; the tables' %s are the median of repetitions.", marks[0],
			marks[1]);
	fprintf(f, " (<a href=\"plots/%s.svg\">plots/%s.svg</a>,", name, name);
	snprintf(path, sizeof(path), "%s/plots/%s.png", dir, name);
	if (access(path, F_OK) == 0)	/* MATRIX_CHARTS=svg draws none */
		fprintf(f, " <a href=\"plots/%s.png\">png</a>,", name);
	fprintf(f, " script <a href=\"plots/%s.gp\">plots/%s.gp</a>)</figcaption>\n</figure>\n",
		name, name);
}

static size_t line_at(const char *md, size_t n, const char *line);

/* Whether chart name is of the pattern whose section is titled t (len
 * bytes): its description, "WHAT: PATTERN, 64 B, ...", names it first. */
static int chart_of(const char *dir, const char *name, const char *t, size_t len)
{
	char what[512];
	const char *p;

	chart_what(dir, name, what, sizeof(what));
	if (!(p = strstr(what, ": ")))
		return 0;
	p += 2;
	return len && !strncmp(p, t, len) && (p[len] == ',' || p[len] == '\0');
}

/* summary.md's pattern sections, each followed by its charts (those whose
 * description names its pattern), then the other charts.  Each "## "
 * section is a <section id="sN">, N its number in order, the index's
 * link to it. */
static void sections(FILE *f, const char *dir, const char *const *marks, const char *md,
		     size_t n)
{
	char names[MAXCHARTS][64];
	size_t nc = chart_names(dir, names, MAXCHARTS), left = nc;
	unsigned char used[MAXCHARTS] = { 0 };
	unsigned k = 0;

	for (size_t at = 0; at < n;) {
		size_t next = at + 3 < n ? at + 3 + line_at(md + at + 3, n - at - 3, "## ") : n;
		size_t tlen = strcspn(md + at + 3, "\n");
		if (strncmp(md + at, "## ", 3))
			tlen = 0;
		if (tlen)
			fprintf(f, "<section id=\"s%u\">\n", ++k);
		html_markdown(f, md + at, next - at);
		for (size_t i = 0; i < nc; i++)
			if (!used[i] && tlen && chart_of(dir, names[i], md + at + 3, tlen)) {
				chart(f, dir, marks, names[i]);
				used[i] = 1, left--;
			}
		if (tlen)
			fputs("</section>\n", f);
		at = next;
	}
	fputs("<h2 id=\"charts\">Charts</h2>\n", f);
	if (!nc)
		fputs("<p>No charts: plots/ has no SVG image (gnuplot draws them; is it "
		      "installed?).</p>\n", f);
	else if (!left)
		fputs("<p>Every chart is in its pattern's section above.</p>\n", f);
	for (size_t i = 0; i < nc; i++)
		if (!used[i])
			chart(f, dir, marks, names[i]);
}

/* Links to the charts and to each "## " section of md, in order (the
 * ids sections() gives them). */
static void contents(FILE *f, const char *md, size_t n)
{
	unsigned k = 0;

	fputs("<nav>", f);
	for (const char *p = md; p && p < md + n; p = memchr(p, '\n', (size_t)(md + n - p)),
	     p = p ? p + 1 : NULL) {
		if (strncmp(p, "## ", 3))
			continue;
		size_t len = strcspn(p + 3, "\n");
		fprintf(f, "<a href=\"#s%u\">", ++k);
		html_text(f, p + 3, len);
		fputs("</a>", f);
	}
	fputs("<a href=\"#charts\">Charts</a></nav>\n", f);
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
	char note[256], charts[256], tables[256];
	const char *const marks[] = { charts, tables };
	pct_list(r, "p50, p99", ", ", note, sizeof(note));
	pct_list(r, "p50, p99 and p99.9", " and ", charts, sizeof(charts));
	pct_list(r, "p50 and p99", " and ", tables, sizeof(tables));
	fprintf(f, "<p class=\"note\">In the tables, a percentile (%s) is the median of "
		"repetitions (each repetition's own percentile); in the latency charts it is "
		"of the merged histogram of all repetitions, so the two can differ.</p>\n", note);
	sections(f, r->dir, marks, md + parts.body, n - parts.body);
	fputs("<footer>Written by matrix from this folder's results.csv, as summary.md; the "
	      "charts are plots/*.svg. <code>matrix report</code> on the folder writes it "
	      "again.</footer>\n</main>\n</body>\n</html>\n", f);
	free(md);
	return outfile_commit(&out, err, errlen);
}
