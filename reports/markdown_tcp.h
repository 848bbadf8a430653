/*
 * markdown_tcp: summary.md's "TCP (kernel's view)" section (markdown.h):
 * the tcp_* figures of results.csv (TCP_INFO of every connection at the
 * end of each repetition; cell/aggregate.h says which ends and how they
 * combine), one row per cell that has them, each the median over its
 * successful repetitions.  Written only when some figure is non-zero: a
 * run without tcp or tcp6 cells, or a folder from before the columns,
 * has none and gets no section.
 */
#ifndef MATRIX_MARKDOWN_TCP_H
#define MATRIX_MARKDOWN_TCP_H

#include <stdio.h>

struct report;

void markdown_tcp(const struct report *r, FILE *f);

#endif
