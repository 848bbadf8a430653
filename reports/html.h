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
 * Every text from the folder goes through html_text() (html_markdown.h,
 * with the Markdown renderer); an SVG goes in only through html_svg()
 * (html_svg.h), which keeps gnuplot's own markup and refuses any other
 * (the chart is then named, linked and left out).
 */
#ifndef MATRIX_HTML_H
#define MATRIX_HTML_H

#include <stddef.h>

struct report;

/* Writes DIR/report.html (r->dir) from DIR/summary.md and the DIR/plots/NAME.svg images,
 * after markdown_write() and gnuplot_render(); whole or not at all
 * (outfile.h).  0, or -1 with "PATH: reason" in err when summary.md cannot
 * be read or the page cannot be written.  A chart that is missing (no
 * gnuplot, a failed render) is simply not on the page. */
int html_write(const struct report *r, char *err, size_t errlen);

#endif
