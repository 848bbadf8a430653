/*
 * Unit tests for reports/html_markdown.c and html_svg.c: text escaping,
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
#include "html_svg.h"

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

static int capture_svg(const char *svg, char **out, char *why, size_t whylen)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);
	int rc;

	assert_non_null(f);
	rc = html_svg(f, svg, strlen(svg), "c-x", why, whylen);
	assert_int_equal(fclose(f), 0);
	return rc;
}

#define PROLOG "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n" \
	"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\">\n"

static void svg_kept(void **state)
{
	static const struct pair t[] = {
		{ PROLOG "<svg \n width=\"640\"\n>\n<title>Gnuplot</title>\n</svg>\n",
		  "<svg \n width=\"640\">\n<title>Gnuplot</title>\n</svg>" },
		{ "<svg><defs><path id='gpPt0' d='M-1,0'/><use xlink:href='#gpPt0' "
		  "id='gpPt6'/></defs><g clip-path=\"url(#gnuplot_plot_1)\" ></g></svg>",
		  "<svg><defs><path id='c-x-gpPt0' d='M-1,0'/><use xlink:href='#c-x-gpPt0' "
		  "id='c-x-gpPt6'/></defs><g clip-path=\"url(#c-x-gnuplot_plot_1)\"></g></svg>" },
		{ "<svg><polygon fill = 'rgb(148,   0, 211)' points = '1,2 3,4 '/></svg>",
		  "<svg><polygon fill='rgb(148,   0, 211)' points='1,2 3,4 '/></svg>" },
		/* gnuplot's escaped text stays escaped */
		{ "<svg><text>&lt;/svg>&lt;script> &amp; 'z' id='q'</text></svg>",
		  "<svg><text>&lt;/svg>&lt;script> &amp; 'z' id='q'</text></svg>" },
	};
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *got = NULL, why[256] = "";
		int rc = capture_svg(t[i].in, &got, why, sizeof(why));
		if (rc || strcmp(got, t[i].want)) {
			fprintf(stderr, "html_svg(\"%s\"): rc %d (%s)\ngot  \"%s\"\nwant \"%s\"\n",
				t[i].in, rc, why, got, t[i].want);
			failed = 1;
		}
		free(got);
	}
	assert_false(failed);
}

static void svg_refused(void **state)
{
	static const struct pair t[] = {
		{ "<svg><script>alert(1)</script></svg>", "<script>" },
		{ "<svg><text>x</text></svg><script>alert(1)</script></svg>", "<script>" },
		{ "<svg><text>a</text></svg><img src=x onerror=alert(1)>", "after </svg>" },
		{ "<svg onload='alert(1)'></svg>", "event handler (onload)" },
		{ "<svg><g ONclick = \"x()\"></g></svg>", "event handler" },
		{ "<svg><foreignObject><p>x</p></foreignObject></svg>", "<foreignObject>" },
		{ "<svg><a xlink:href='javascript:alert(1)'>x</a></svg>", "<a>" },
		{ "<svg><use xlink:href='http://example.org/x.svg#a'/></svg>", "outside the image" },
		{ "<svg><image href='file:///etc/passwd'/></svg>", "outside the image" },
		{ "<svg><rect fill='url(http://x/y)'/></svg>", "url()" },
		{ "<svg><g><svg onload='x'></svg></g></svg>", "<svg> inside" },
		{ "<svg><title>x<!-- a --></title></svg>", "<>" },
		{ "<svg><![CDATA[<script>x</script>]]></svg>", "<>" },
		{ "<svg><rect width=10/></svg>", "name=\"value\"" },
		{ "<svg><rect width='10/></svg>", "name=\"value\"" },	/* no closing quote */
		{ "<svg><rect x='<'/></svg>", "'<'" },
		{ "<html>no svg</html>", "no <svg>" },
		{ "<svg><text>cut short", "no <svg>" },
	};
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *got = NULL, why[256] = "";
		int rc = capture_svg(t[i].in, &got, why, sizeof(why));
		if (rc != -1 || *got || !strstr(why, t[i].want)) {
			fprintf(stderr, "html_svg(\"%s\"): rc %d, why \"%s\" (want \"%s\"), wrote "
				"\"%s\"\n", t[i].in, rc, why, t[i].want, got);
			failed = 1;
		}
		free(got);
	}
	assert_false(failed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes),
		cmocka_unit_test(escapes_bounded),
		cmocka_unit_test(markdown),
		cmocka_unit_test(svg_kept),
		cmocka_unit_test(svg_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
