/*
 * html_svg: a chart's SVG image inlined into the page report.html
 * (html.h) with only the markup gnuplot's svg terminal draws with; an
 * image with anything else in it (a script, an event handler, a
 * reference outside the image) is refused and nothing of it written.
 */
#ifndef MATRIX_HTML_SVG_H
#define MATRIX_HTML_SVG_H

#include <stddef.h>
#include <stdio.h>

/* An SVG file's n bytes inlined: from its <svg element to its last
 * </svg> (the XML prolog and doctype dropped), every id, href="#..." and
 * url(#...) prefixed with prefix and "-" (charts on one page must not share
 * ids).  Only the elements gnuplot draws with are kept, and only
 * attributes with quoted values: 0, or -1 with why (a script, an event
 * handler, an outside reference, a second <svg>, markup cut short...) and
 * nothing written. */
int html_svg(FILE *f, const char *svg, size_t n, const char *prefix, char *why,
	     size_t whylen);

#endif
