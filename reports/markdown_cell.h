/*
 * markdown_cell: a cell of summary.md's tables (markdown.h) and the marks
 * its figures carry, which markdown.c's tables and markdown_header.c's
 * key to them share; and the one way user text reaches any Markdown the
 * tool writes (summary.md, ab.md, compare.md, history.md): markdown_text
 * and its kin below.
 */
#ifndef MATRIX_MARKDOWN_CELL_H
#define MATRIX_MARKDOWN_CELL_H

#include <stdio.h>

struct report;
struct rcell;

/* beside a figure the programs printed: apart from `~` and the dagger */
#define PRINTED_MARK "ᵖ"
/* beside a figure the runner timed from outside a program's process */
#define WHOLE_MARK "ʷ"
/* beside every figure of a cell whose timed window is mostly start-up */
#define SHORT_MARK "‡"
/* beside a figure that is an upper bound: a stream's rate across hosts */
#define UPPER_MARK "ᵘ"
/* beside the figures of a paced cell that did not keep its schedule */
#define BEHIND_MARK "ˢ"

/* User text (a description, a ratio's name, a dimension's value, a
 * folder's name, a meta.csv fact) as Markdown that shows it as it is,
 * wherever it stands (a paragraph, a list item, a heading, a table cell),
 * on a forge as in report.html (html.h): & < > as the character
 * references &amp; &lt; &gt; (no tag, no entity of the text's own);
 * \ ` * [ ] | ~ ! backslash-escaped (no code, emphasis, link, image,
 * table cell or strikethrough), and _ where it could be emphasis (not
 * between two letters or digits: rtt_p50_us stays as it is); at its start
 * (its spaces and tabs left out), a # - + = or the . or ) after digits too
 * (no heading, list, rule, heading underline or code block).  ( and ) stay: they make a link only
 * after a ], which is escaped.  A newline or CR becomes a space. */
void markdown_text(FILE *f, const char *s);

/* The same, but the text's own lines kept: each line escaped as
 * markdown_text escapes its start (a description's paragraph). */
void markdown_lines(FILE *f, const char *s);

/* User text as inline code, `s`, when that shows it as it is (nothing in
 * it that ends a code span or a table cell: no backquote, no '|', no
 * control character); else as markdown_text, without the backquotes. */
void markdown_code(FILE *f, const char *s);

/* A table cell of user text, "| s ", its text escaped as markdown_text
 * does but for its start: nothing begins a block inside a cell. */
void markdown_cell(FILE *f, const char *s);

/* Our own text (a figure and its marks, a metric's or a pattern's name),
 * as it is: only '|' and '\\' escaped, a newline or CR as a space; and as
 * a table cell, "| s ". */
void markdown_own(FILE *f, const char *s);
void markdown_cell_own(FILE *f, const char *s);

/* Is the cell's figure of metric m one its programs printed (PRINTED_MARK)? */
int markdown_printed_by_programs(const struct rcell *c, int m);

/* Is the cell's figure of metric m spoilt by a schedule not kept (BEHIND_MARK)? */
int markdown_behind_schedule(const struct report *r, const struct rcell *c, int m);

#endif
