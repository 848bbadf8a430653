/*
 * Unit tests for reports/html.c's parts: text escaping and the Markdown
 * of summary.md through md4c, as tables of input -> expected output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "html.h"

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

/* Whether html_markdown writes any of t[0..n) otherwise than wanted
 * (each one that does is said on stderr). */
static int md_table(const struct pair *t, size_t n)
{
	int failed = 0;

	for (size_t i = 0; i < n; i++) {
		char *got = capture_md(t[i].in);
		if (strcmp(got, t[i].want)) {
			fprintf(stderr, "html_markdown(\"%s\"):\ngot  \"%s\"\nwant \"%s\"\n", t[i].in,
				got, t[i].want);
			failed = 1;
		}
		free(got);
	}
	return failed;
}

static void markdown(void **state)
{
	static const struct pair t[] = {
		{ "# name <b>\n", "<h1>name &lt;b&gt;</h1>\n" },
		{ "## echo\n\n### rtt\n", "<h2>echo</h2>\n<h3>rtt</h3>\n" },
		{ "one\ntwo\n\nthree\n", "<p>one\ntwo</p>\n<p>three</p>\n" },
		{ "`~`: noisy, **A partial run:** it\n",
		  "<p><code>~</code>: noisy, <strong>A partial run:</strong> it</p>\n" },
		{ "a ** b `c\n", "<p>a ** b `c</p>\n" },	/* unclosed: left as text */
		{ "- one\n- two\n", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n" },
		/* a right-aligned column's cells of class "num", the table scrolls */
		{ "| a | b |\n|---|---:|\n| x\\|y | 1.5× |\n",
		  "<div class=\"scroll\"><table>\n<thead>\n<tr>\n<th>a</th>\n<th class=\"num\">b</th>\n"
		  "</tr>\n</thead>\n<tbody>\n<tr>\n<td>x|y</td>\n<td class=\"num\">1.5×</td>\n"
		  "</tr>\n</tbody>\n</table></div>\n" },
		/* a head of empty cells left out, a head with one cell kept */
		{ "| | |\n|---|---|\n| host | &lt;vm&gt; |\n",
		  "<div class=\"scroll\"><table>\n<tbody>\n<tr>\n<td>host</td>\n<td>&lt;vm&gt;</td>\n"
		  "</tr>\n</tbody>\n</table></div>\n" },
		{ "| | b |\n|---|---:|\n| 1 | 2 |\n",
		  "<div class=\"scroll\"><table>\n<thead>\n<tr>\n<th></th>\n<th class=\"num\">b</th>\n"
		  "</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td class=\"num\">2</td>\n"
		  "</tr>\n</tbody>\n</table></div>\n" },
		/* markdown_cell.h's escapes, shown as the text they stand for */
		{ "&lt;b&gt; &amp; \\[x\\](javascript:a) \\*b\\* \\_i\\_ \\`c\\` \\# \\!\n",
		  "<p>&lt;b&gt; &amp; [x](javascript:a) *b* _i_ `c` # !</p>\n" },
	};

	(void)state;
	assert_false(md_table(t, ARRAY_SIZE(t)));
}

/* Whatever summary.md holds, none of it is markup on the page: raw HTML
 * is text, a bare URL, www. name or e-mail address is no link, and no
 * control character reaches it. */
static void markdown_hostile(void **state)
{
	static const struct pair t[] = {
		{ "x <img src=x onerror=alert(1)> & 'q' \"d\"\n",
		  "<p>x &lt;img src=x onerror=alert(1)&gt; &amp; 'q' &quot;d&quot;</p>\n" },
		{ "<script>alert(1)</script>\n", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n" },
		{ "| cell |\n|---|\n| <script>alert(1)</script> |\n",
		  "<div class=\"scroll\"><table>\n<thead>\n<tr>\n<th>cell</th>\n</tr>\n</thead>\n"
		  "<tbody>\n<tr>\n<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>\n</tr>\n</tbody>\n"
		  "</table></div>\n" },
		{ "&#60;b&#62; &quot;\n", "<p>&lt;b&gt; &quot;</p>\n" },
		{ "see http://x.example/ www.y.example u@host.example\n",
		  "<p>see http://x.example/ www.y.example u@host.example</p>\n" },
		{ "bell\a esc\x1b del\x7f c1 \xc2\x85.\n",
		  "<p>bell\xef\xbf\xbd esc\xef\xbf\xbd del\xef\xbf\xbd c1 \xef\xbf\xbd.</p>\n" },
		{ "cr\r\nlf\rend\n", "<p>cr\nlf\nend</p>\n" },
	};

	(void)state;
	assert_false(md_table(t, ARRAY_SIZE(t)));
}

/* A NUL in summary.md is U+FFFD, and the text after it is still there. */
static void markdown_nul(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	html_markdown(f, "a\0<b\n", 5);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "<p>a\xef\xbf\xbd&lt;b</p>\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes),
		cmocka_unit_test(escapes_bounded),
		cmocka_unit_test(markdown),
		cmocka_unit_test(markdown_hostile),
		cmocka_unit_test(markdown_nul),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
