/* A chart's SVG inlined, gnuplot's markup only: see html_svg.h. */
#include "html_svg.h"
#include "arrays.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The elements gnuplot's svg terminal draws with. */
static int svg_element_ok(const char *name, size_t n)
{
	static const char *const ok[] = {
		"svg", "g", "defs", "title", "desc", "rect", "circle", "ellipse", "line",
		"polyline", "polygon", "path", "use", "text", "tspan", "clipPath", "image",
		"filter", "feFlood", "feComposite", "feOffset", "feGaussianBlur", "feMerge",
		"feMergeNode", "feBlend", "feColorMatrix", "linearGradient", "radialGradient",
		"stop", "pattern", "marker", "symbol", "mask",
	};

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (strlen(ok[i]) == n && !strncasecmp(ok[i], name, n))
			return 1;
	return 0;
}

struct svgout {
	FILE *f;
	const char *prefix;
	char *why;
	size_t whylen;
};

/* An attribute's value, rewritten: ids and local references prefixed;
 * -1 (why set) for a reference to anything outside the image. */
static int svg_value(struct svgout *o, const char *name, size_t nn, const char *v, size_t n)
{
	int is_id = nn == 2 && !strncasecmp(name, "id", 2);
	int is_href = nn >= 4 && !strncasecmp(name + nn - 4, "href", 4);

	if (memchr(v, '<', n) || memchr(v, '\\', n)) {
		snprintf(o->why, o->whylen, "an attribute value holds '<' or '\\'");
		return -1;
	}
	if (is_href && !(n && v[0] == '#') && !(n > 11 && !strncmp(v, "data:image/", 11))) {
		snprintf(o->why, o->whylen, "a reference outside the image (%.*s)", (int)nn, name);
		return -1;
	}
	if (is_id || (is_href && v[0] == '#')) {
		fprintf(o->f, "%s%s-", is_id ? "" : "#", o->prefix);
		fwrite(v + !is_id, 1, n - !is_id, o->f);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (i + 4 <= n && !strncasecmp(v + i, "url(", 4)) {
			if (i + 5 > n || v[i + 4] != '#') {
				snprintf(o->why, o->whylen, "a url() outside the image");
				return -1;
			}
			fprintf(o->f, "url(#%s-", o->prefix);
			i += 4;
			continue;
		}
		fputc(v[i], o->f);
	}
	return 0;
}

static size_t bad_markup(struct svgout *o)
{
	snprintf(o->why, o->whylen, "markup that is not name=\"value\" attributes");
	return 0;
}

/* One tag at s[0] == '<', up to its '>': returns its length, or 0 with
 * why set.  *svgs counts <svg> openings. */
static size_t svg_tag(struct svgout *o, const char *s, size_t n, int *svgs)
{
	size_t i = 1, name;

	if (i < n && s[i] == '/')
		i++;
	name = i;
	while (i < n && (isalnum((unsigned char)s[i]) || s[i] == ':' || s[i] == '-' || s[i] == '_'))
		i++;
	if (!svg_element_ok(s + name, i - name)) {
		snprintf(o->why, o->whylen, "element <%.*s> is not one gnuplot draws with",
			 (int)(i - name < 40 ? i - name : 40), s + name);
		return 0;
	}
	if (i - name == 3 && !strncasecmp(s + name, "svg", 3) && s[1] != '/' && ++*svgs > 1) {
		snprintf(o->why, o->whylen, "an <svg> inside the image");
		return 0;
	}
	fwrite(s, 1, i, o->f);
	for (;;) {
		size_t a = i, an;
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (i < n && s[i] == '>')
			return fputc('>', o->f), i + 1;
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '>')
			return fputs("/>", o->f), i + 2;
		fwrite(s + a, 1, i - a, o->f);	/* the spaces, newlines kept */
		an = i;
		while (i < n && !isspace((unsigned char)s[i]) && !strchr("=/>'\"<", s[i]))
			i++;
		size_t ae = i;
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (ae == an || i >= n || s[i++] != '=')
			return bad_markup(o);
		while (i < n && isspace((unsigned char)s[i]))
			i++;
		if (i >= n || (s[i] != '"' && s[i] != '\''))
			return bad_markup(o);
		if (ae - an >= 2 && !strncasecmp(s + an, "on", 2)) {
			snprintf(o->why, o->whylen, "an event handler (%.*s)",
				 (int)(ae - an < 40 ? ae - an : 40), s + an);
			return 0;
		}
		char q = s[i];
		const char *v = s + i + 1, *end = memchr(v, q, n - i - 1);
		if (!end)
			return bad_markup(o);
		fwrite(s + an, 1, ae - an, o->f);
		fprintf(o->f, "=%c", q);
		if (svg_value(o, s + an, ae - an, v, (size_t)(end - v)) < 0)
			return 0;
		fputc(q, o->f);
		i = (size_t)(end - s) + 1;
	}
}

/* The image from <svg to its last </svg>, or -1 with why. */
static int svg_body(struct svgout *o, const char *svg, size_t n)
{
	const char *start = NULL, *last = NULL, *p;
	int svgs = 0;

	for (p = svg; (p = memmem(p, n - (size_t)(p - svg), "<svg", 4)); p += 4)
		if (p + 4 < svg + n && (isspace((unsigned char)p[4]) || p[4] == '>')) {
			start = p;
			break;
		}
	for (p = svg; (p = memmem(p, n - (size_t)(p - svg), "</svg>", 6)); p += 6)
		last = p;
	if (!start || !last || last < start) {
		snprintf(o->why, o->whylen, "no <svg> ... </svg>");
		return -1;
	}
	for (p = last + 6; p < svg + n; p++)
		if (!isspace((unsigned char)*p)) {
			snprintf(o->why, o->whylen, "something after </svg>");
			return -1;
		}
	n = (size_t)(last + 6 - start);
	for (size_t i = 0; i < n;) {
		const char *lt = memchr(start + i, '<', n - i);
		size_t run = lt ? (size_t)(lt - start) - i : n - i, t;
		fwrite(start + i, 1, run, o->f);	/* text: gnuplot writes &lt; and &amp; */
		i += run;
		if (!lt)
			break;
		if (!(t = svg_tag(o, start + i, n - i, &svgs)))
			return -1;
		i += t;
	}
	return 0;
}

int html_svg(FILE *f, const char *svg, size_t n, const char *prefix, char *why,
	     size_t whylen)
{
	char *buf = NULL;
	size_t len = 0;
	struct svgout o = { .prefix = prefix, .why = why, .whylen = whylen };
	int rc;

	if (memchr(svg, '\0', n)) {
		snprintf(why, whylen, "a NUL byte");
		return -1;
	}
	if (!(o.f = open_memstream(&buf, &len))) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	rc = svg_body(&o, svg, n);
	if (fclose(o.f) != 0 && !rc) {
		snprintf(why, whylen, "out of memory");
		rc = -1;
	}
	if (!rc)
		fwrite(buf, 1, len, f);
	free(buf);
	return rc;
}
