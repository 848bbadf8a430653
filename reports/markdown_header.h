/*
 * markdown_header: the top of summary.md (markdown.h), ahead of its
 * tables: the matrix's name and description, the headline, the machine
 * and the run (placement and hosts rows too, when they apply), a partial,
 * busy or stale folder said in bold, and the key to figures, intervals
 * and marks (markdown_cell.h), each mark's only when a figure has it.
 */
#ifndef MATRIX_MARKDOWN_HEADER_H
#define MATRIX_MARKDOWN_HEADER_H

#include <stdio.h>

struct report;

/* Writes summary.md's header of the loaded report r to f. */
void markdown_header(const struct report *r, FILE *f);

#endif
