/* Text and the Markdown of summary.md as HTML: see html_markdown.h. */
#include "html_markdown.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

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

/* The character an entity at s (n bytes) stands for, those summary.md's
 * user text is written with (markdown_cell.h: &amp; &lt; &gt;), in *c;
 * its length, 0 when there is none. */
static size_t entity(const char *s, size_t n, char *c)
{
	static const struct { const char *name; char c; } ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
	};

	for (size_t k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
		size_t len = strlen(ents[k].name);
		if (n >= len && !memcmp(s, ents[k].name, len)) {
			*c = ents[k].c;
			return len;
		}
	}
	return 0;
}

/* Inline text: `code`, **bold**, \X as X, &amp; &lt; &gt; as & < >; the
 * rest as text. */
static void inline_md(FILE *f, const char *s, size_t n)
{
	size_t i = 0, run = 0, ent;
	int bold = 0;
	char c;

	while (i < n) {
		const char *close;
		if (s[i] == '&' && (ent = entity(s + i, n - i, &c))) {
			html_text(f, s + run, i - run);
			html_text(f, &c, 1);
			i = run = i + ent;
		} else if (s[i] == '\\' && i + 1 < n && ispunct((unsigned char)s[i + 1])) {
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
	html_markdown_at(f, md, n, 0);
}

void html_markdown_at(FILE *f, const char *md, size_t n, unsigned before)
{
	static struct md m;
	size_t i = 0;

	memset(&m, 0, sizeof(m));
	m.f = f;
	m.sections = before;
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
