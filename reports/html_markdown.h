/*
 * html_markdown: text and the Markdown of summary.md as HTML, for the
 * page report.html (html.h).  Every text from the run folder reaches the
 * page through html_text(), so that nothing in it is markup.
 */
#ifndef MATRIX_HTML_MARKDOWN_H
#define MATRIX_HTML_MARKDOWN_H

#include <stddef.h>
#include <stdio.h>

/* The n bytes of s as HTML text, safe in an element and in a quoted
 * attribute: & < > " ' as character references, a C0 or C1 control
 * character (other than tab and newline; CR as a newline) and DEL as
 * U+FFFD.  Stops early at a NUL byte. */
void html_text(FILE *f, const char *s, size_t n);

/* The Markdown of summary.md (n bytes) as HTML: # to #### headings (## ones
 * with id="s1", "s2"... in order), paragraphs, "- " lists, tables (a
 * "|---|---:|" line under the first row makes it the head and sets each
 * column's alignment; a head of empty cells is left out), and inline
 * `code`, **bold**, backslash escapes and the entities &amp; &lt; &gt;
 * (markdown_cell.h writes user text with them).  All text through
 * html_text(). */
void html_markdown(FILE *f, const char *md, size_t n);

/* html_markdown, its first ## heading numbered before + 1. */
void html_markdown_at(FILE *f, const char *md, size_t n, unsigned before);

#endif
