/*
 * markdown_cell: a cell of summary.md's tables (markdown.h) and the marks
 * its figures carry, which markdown.c's tables and markdown_header.c's
 * key to them share; gate/'s writers escape their text with markdown_text.
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

/* Text in a Markdown table cell: '|' and '\\' (and each character of
 * `also`) escaped with '\\', a newline or CR as a space. */
void markdown_text(FILE *f, const char *s, const char *also);

/* A table cell, "| s ", its text escaped as markdown_text does. */
void markdown_cell(FILE *f, const char *s);

/* Is the cell's figure of metric m one its programs printed (PRINTED_MARK)? */
int markdown_printed_by_programs(const struct rcell *c, int m);

/* Is the cell's figure of metric m spoilt by a schedule not kept (BEHIND_MARK)? */
int markdown_behind_schedule(const struct report *r, const struct rcell *c, int m);

#endif
