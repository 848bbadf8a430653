/*
 * html: report.html, one self-contained page per run folder that a person
 * opens in a browser: the tables of summary.md and the charts of plots/
 * inline, with its CSS inline too; no script, no network, no other file.
 *
 * The page is summary.md rendered as HTML (headings, paragraphs, lists,
 * tables, `code` and **bold**: the Markdown that markdown.c writes), so it
 * shows the same figures with the same marks: its title and description,
 * then the headline (headline.h, in a box of its own in place of
 * summary.md's "## Headline" list), the rest of its header, the charts,
 * then its pattern sections.  The charts are every plots/NAME.svg, the
 * usual ones first (throughput, rtt, cpu, ratios, timeline) then the others
 * by name, each with the description its script's first line gives.  Built
 * after the charts are rendered, from the loaded report and the folder, so
 * `matrix report` writes the same bytes as `matrix run`.
 *
 * Every text from the folder goes through html_text(); an SVG goes in only
 * through html_svg(), which keeps gnuplot's own markup and refuses any
 * other (the chart is then named, linked and left out).
 */
#ifndef MATRIX_HTML_H
#define MATRIX_HTML_H

#include <stddef.h>
#include <stdio.h>

struct report;

/* Writes DIR/report.html (r->dir) from DIR/summary.md and the DIR/plots/NAME.svg images,
 * after markdown_write() and gnuplot_render(); whole or not at all
 * (outfile.h).  0, or -1 with "PATH: reason" in err when summary.md cannot
 * be read or the page cannot be written.  A chart that is missing (no
 * gnuplot, a failed render) is simply not on the page. */
int html_write(const struct report *r, char *err, size_t errlen);

/* The n bytes of s as HTML text, safe in an element and in a quoted
 * attribute: & < > " ' as character references, a C0 or C1 control
 * character (other than tab and newline; CR as a newline) and DEL as
 * U+FFFD.  Stops early at a NUL byte. */
void html_text(FILE *f, const char *s, size_t n);

/* The Markdown of summary.md (n bytes) as HTML: # to #### headings (## ones
 * with id="s1", "s2"... in order), paragraphs, "- " lists, tables (a
 * "|---|---:|" line under the first row makes it the head and sets each
 * column's alignment; a head of empty cells is left out), and inline
 * `code`, **bold** and backslash escapes.  All text through html_text(). */
void html_markdown(FILE *f, const char *md, size_t n);

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
