/* A cell of summary.md's tables and its figures' marks: see markdown_cell.h. */
#include "markdown_cell.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

static int alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The start of a line at s, its spaces and tabs left out (four would
 * make a code block, which shows escapes as they are), escaped where it
 * would begin a block: a list (- + or digits then . or )), a rule or a
 * heading's underline (- =), a heading (#: only there, as a kernel's
 * "#1 SMP" inside a line is text).  Returns where
 * the rest of the line starts (after what was written). */
static const char *line_start(FILE *f, const char *s)
{
	size_t sp = strspn(s, " \t"), dig = strspn(s + sp, "0123456789");

	s += sp;
	if (*s == '-' || *s == '+' || *s == '=' || *s == '#') {
		fprintf(f, "\\%c", *s);
		return s + 1;
	}
	if (dig && (s[dig] == '.' || s[dig] == ')')) {
		fprintf(f, "%.*s\\%c", (int)dig, s, s[dig]);
		return s + dig + 1;
	}
	return s;
}

/* s up to a newline (or its end, when lines is 0: a newline is then a
 * space), escaped (markdown_cell.h); returns where it stopped. */
static const char *escape_inline(FILE *f, const char *start, const char *s, int lines)
{
	for (; *s && !(lines && *s == '\n'); s++) {
		char c = *s;
		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (strchr("\\`*[]|~!", c) ||
			 (c == '_' && !(s > start && alnum(s[-1]) && alnum(s[1]))))
			fprintf(f, "\\%c", c);
		else if (c == '\r' && lines && s[1] == '\n')
			;	/* the line's end */
		else
			fputc(c == '\n' || c == '\r' ? ' ' : c, f);
	}
	return s;
}

void markdown_text(FILE *f, const char *s)
{
	escape_inline(f, s, line_start(f, s), 0);
}

void markdown_lines(FILE *f, const char *s)
{
	const char *start = s;

	for (;;) {
		s = escape_inline(f, start, line_start(f, s), 1);
		if (!*s)
			return;
		fputc('\n', f);
		s++;
	}
}

void markdown_code(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++)
		if (*p == '`' || *p == '|' || (unsigned char)*p < 0x20 || *p == 0x7f) {
			markdown_text(f, s);
			return;
		}
	fprintf(f, "`%s`", s);
}

/* Inside a table's cell nothing begins a block: "0.1.0" or "-5" stays as
 * it is, only the inline escapes apply. */
void markdown_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	escape_inline(f, s, s, 0);
	fputc(' ', f);
}

void markdown_own(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '|' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
}

void markdown_cell_own(FILE *f, const char *s)
{
	fputs("| ", f);
	markdown_own(f, s);
	fputc(' ', f);
}

/* A cell's figure of metric m that comes, in some successful repetition,
 * from what its program clients printed: marked, and the mark explained
 * in the header (markdown_header.c's printed_legend). */
int markdown_printed_by_programs(const struct rcell *c, int m)
{
	return c->st[m].n > 0 && c->printed[m] > 0;
}

/* A figure of a paced cell that fell behind its schedule, which it
 * spoils: its rates (below the rate asked) and its round-trip times (from
 * when each request was due, so they hold the queue that grew); not its
 * CPU per message.  Marked, and said under its rate's table
 * (markdown.c's behind_notes). */
int markdown_behind_schedule(const struct report *r, const struct rcell *c, int m)
{
	struct rate_schedule s;

	return c->st[m].n > 0 && strncmp(metrics[m].name, "cpu_", 4) &&
	       report_rate_schedule(r, c, &s) && s.behind > 0;
}
