/* A cell of summary.md's tables and its figures' marks: see markdown_cell.h. */
#include "markdown_cell.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

/* Markdown table cells must not hold '|' or a newline. */
void markdown_text(FILE *f, const char *s, const char *also)
{
	for (; *s; s++)
		if (*s == '|' || *s == '\\' || (*also && strchr(also, *s)))
			fprintf(f, "\\%c", *s);
		else
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
}

void markdown_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	markdown_text(f, s, "");
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
