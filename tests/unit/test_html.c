/*
 * Unit tests for reports/html_markdown.c: text escaping,
 * the Markdown of summary.md and the SVG inliner, as tables of input ->
 * expected output (or a part of the reason a chart is refused).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "html_markdown.h"

#include "arrays.h"

struct pair {
	const char *in, *want;
};

/* What fn writes for in, in a buffer the caller frees. */
static char *capture_text(const char *in, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	html_text(f, in, n);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void escapes(void **state)
{
	static const struct pair t[] = {
		{ "plain text 123", "plain text 123" },
		{ "&", "&amp;" },
		{ "<", "&lt;" },
		{ ">", "&gt;" },
		{ "\"", "&quot;" },
		{ "'", "&#39;" },
		{ "a<b>&c\"d'e", "a&lt;b&gt;&amp;c&quot;d&#39;e" },
		{ "</script><script>alert(1)</script>",
		  "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "&amp;", "&amp;amp;" },
		{ "tab\tnewline\n", "tab\tnewline\n" },
		{ "cr\r", "cr\n" },
		{ "bell\a esc\x1b del\x7f", "bell\xef\xbf\xbd esc\xef\xbf\xbd del\xef\xbf\xbd" },
		{ "\x01\x08\x0b\x0c\x0e\x1f", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		  "\xef\xbf\xbd\xef\xbf\xbd" },
		{ "c1 \xc2\x85 \xc2\x9f", "c1 \xef\xbf\xbd \xef\xbf\xbd" },
		{ "µs ± ≥ é \xc2\xa0", "µs ± ≥ é \xc2\xa0" },	/* not controls */
		{ "", "" },
	};
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *got = capture_text(t[i].in, strlen(t[i].in));
		if (strcmp(got, t[i].want)) {
			fprintf(stderr, "html_text(\"%s\"): got \"%s\", want \"%s\"\n", t[i].in, got,
				t[i].want);
			failed = 1;
		}
		free(got);
	}
	assert_false(failed);
}

/* html_text stops at n bytes and at a NUL. */
static void escapes_bounded(void **state)
{
	char *got;

	(void)state;
	got = capture_text("ab<cd", 3);
	assert_string_equal(got, "ab&lt;");
	free(got);
	got = capture_text("a\0<b", 4);
	assert_string_equal(got, "a");
	free(got);
	got = capture_text("x\xc2", 2);	/* a C1 lead byte at the end stays */
	assert_string_equal(got, "x\xc2");
	free(got);
}

static char *capture_md(const char *md)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	html_markdown(f, md, strlen(md));
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void markdown(void **state)
{
	static const struct pair t[] = {
		{ "# name <b>\n", "<h1>name &lt;b&gt;</h1>\n" },
		{ "## echo\n\n### rtt\n", "<h2 id=\"s1\">echo</h2>\n<h3>rtt</h3>\n" },
		{ "## a\n## b\n", "<h2 id=\"s1\">a</h2>\n<h2 id=\"s2\">b</h2>\n" },
		{ "one\ntwo\n\nthree\n", "<p>one\ntwo</p>\n<p>three</p>\n" },
		{ "`~`: noisy, **A partial run:** it\n",
		  "<p><code>~</code>: noisy, <strong>A partial run:</strong> it</p>\n" },
		{ "a ** b `c\n", "<p>a ** b `c</p>\n" },	/* unclosed: left as text */
		{ "x <img src=x onerror=alert(1)> & 'q'\n",
		  "<p>x &lt;img src=x onerror=alert(1)&gt; &amp; &#39;q&#39;</p>\n" },
		{ "- one\n- two\n", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n" },
		{ "| a | b |\n|---|---:|\n| x\\|y | 1.5× |\n",
		  "<div class=\"scroll\"><table>\n<thead><tr><th>a</th><th class=\"num\">b</th></tr>\n"
		  "</thead>\n<tbody>\n<tr><td>x|y</td><td class=\"num\">1.5×</td></tr>\n"
		  "</tbody></table></div>\n" },
		{ "| | |\n|---|---|\n| host | <vm> |\n",
		  "<div class=\"scroll\"><table>\n<tbody>\n<tr><td>host</td><td>&lt;vm&gt;</td></tr>\n"
		  "</tbody></table></div>\n" },
		{ "| a\\\\ | `c|d` |\n",	/* no separator: every line a row */
		  "<div class=\"scroll\"><table>\n<tbody>\n<tr><td>a\\</td><td>`c</td><td>d`</td>"
		  "</tr>\n</tbody></table></div>\n" },
	};
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *got = capture_md(t[i].in);
		if (strcmp(got, t[i].want)) {
			fprintf(stderr, "html_markdown(\"%s\"):\ngot  \"%s\"\nwant \"%s\"\n", t[i].in,
				got, t[i].want);
			failed = 1;
		}
		free(got);
	}
	assert_false(failed);
}

/* html_markdown_at numbers its ## headings after the sections before it,
 * so that each pattern's section, rendered apart, keeps its index id. */
static void markdown_numbered(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	html_markdown_at(f, "## stream\n\n### rtt\n", 19, 2);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "<h2 id=\"s3\">stream</h2>\n<h3>rtt</h3>\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes),
		cmocka_unit_test(escapes_bounded),
		cmocka_unit_test(markdown),
		cmocka_unit_test(markdown_numbered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
