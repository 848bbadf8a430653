/*
 * html: report.html, one self-contained page per run folder that a person
 * opens in a browser: the tables of summary.md and the charts of plots/
 * inline, with its CSS inline too; no script, no network, no other file.
 *
 * The page is summary.md rendered as HTML by md4c's renderer (GitHub's
 * Markdown, as a forge shows summary.md, but no raw HTML), so it
 * shows the same figures with the same marks: its title and description,
 * then the headline (headline.h, in a box of its own in place of
 * summary.md's "## Headline" list), the rest of its header, an index of
 * its sections, a note on which percentile is which (the tables' p50 is
 * the median of repetitions, the latency charts' of the merged histogram
 * of all repetitions), its pattern sections, each with its tables and then
 * its own charts (those whose description, "WHAT: PATTERN, ...", names the
 * pattern first: plots/latency-N), its other sections (the ratios), and
 * last a "Charts" section with the rest.  The charts are every
 * plots/NAME.svg, the usual ones first (throughput, rtt, cpu, ratios,
 * timeline) then the others by name, each with the description its
 * script's first line gives.  Built after the
 * charts are rendered, from the loaded report and the folder, so
 * `matrix report` writes the same bytes as `matrix run`.
 *
 * Every text from the folder is escaped: summary.md's by md4c (& < > " as
 * references; a tag is text), the rest through html_text().  A chart is an <img> whose src is a
 * data:image/svg+xml;base64 URI of its SVG: a browser runs no script and
 * fetches nothing from an image, so the SVG is not parsed nor sanitised,
 * only read as a regular file (never through a link) of bounded size.
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

/* The parts of the page, for its tests. */

/* The n bytes of s as HTML text, safe in an element and in a quoted
 * attribute: & < > " ' as character references, a C0 or C1 control
 * character (other than tab and newline; CR as a newline) and DEL as
 * U+FFFD.  Stops early at a NUL byte. */
void html_text(FILE *f, const char *s, size_t n);

/* The Markdown md (n bytes; part of summary.md) as HTML, by md4c (the
 * dialect: html.c's MD_FLAGS): a control character as U+FFFD first (a NUL
 * too), CR LF and CR as LF; then each table in <div class="scroll">, a
 * right-aligned column's cells as class="num", a head of empty cells left
 * out.  Out of memory, the text in a <pre>. */
void html_markdown(FILE *f, const char *md, size_t n);

#endif
