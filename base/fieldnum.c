/* A run folder's field read as a number: see fieldnum.h. */
#include "fieldnum.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Digits from *p on, skipped; how many. */
static size_t digits(const char **p)
{
	size_t n = 0;

	while (**p >= '0' && **p <= '9')
		(*p)++, n++;
	return n;
}

/* Whether s is a decimal number and nothing else: [+-] digits [. digits]
 * [e [+-] digits], with a digit before or after the point. */
static int decimal(const char *s)
{
	const char *p = s;
	size_t n;

	if (*p == '+' || *p == '-')
		p++;
	n = digits(&p);
	if (*p == '.') {
		p++;
		n += digits(&p);
	}
	if (!n)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!digits(&p))
			return 0;
	}
	return *p == '\0';
}

int fieldnum_parse(const char *s, enum fieldnum_kind k, double *v, const char **why)
{
	const char *p = s;
	char *end;

	*v = NAN;
	if (!*s) {
		*why = "is empty";
		return -1;
	}
	if (*p == '+' || *p == '-')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		*why = "is not a number: hex is not read, decimal digits only";
		return -1;
	}
	if (!decimal(s)) {
		*why = "is not a number (decimal digits only)";
		return -1;
	}
	errno = 0;
	*v = strtod(s, &end);
	/* ERANGE: too large (HUGE_VAL), or below the normal doubles, a
	 * subnormal or 0, which is the number as near as a double holds it */
	if (errno == ERANGE && fabs(*v) > DBL_MIN) {
		*why = "is too large for a double (above 1.8e308)";
		return -1;
	}
	if (*v < 0 && k != FIELDNUM_SIGNED) {
		*why = "is negative: no such figure is";
		return -1;
	}
	if (k == FIELDNUM_WHOLE && *v != floor(*v)) {
		*why = "is not a whole number";
		return -1;
	}
	if (k == FIELDNUM_WHOLE && *v > FIELDNUM_WHOLE_MAX) {
		*why = "is 2^53 (9007199254740992) or more, more than it can be";
		return -1;
	}
	if (*v == 0)
		*v = 0;		/* "-0" is 0 */
	return 0;
}

int fieldnum_read(const char *s, enum fieldnum_kind k, int empty_ok, double *v,
		  const char *path, unsigned long line, const char *col, char *err,
		  size_t errlen)
{
	const char *why;
	char shown[256];

	if (empty_ok && !*s) {
		*v = NAN;
		return 0;
	}
	if (fieldnum_parse(s, k, v, &why) == 0)
		return 0;
	snprintf(err, errlen, "%s:%lu: %s '%s' %s", path, line, col,
		 fieldnum_show(s, shown, sizeof(shown)), why);
	return -1;
}

const char *fieldnum_show(const char *s, char *buf, size_t len)
{
	size_t o = 0, n = 0;

	if (!len)
		return buf;
	for (; *s && n < 48 && o + 8 < len; s++, n++) {
		unsigned char c = (unsigned char)*s;
		const char *esc = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" :
				  c == '\\' ? "\\\\" : c == '\'' ? "\\'" : NULL;
		if (esc)
			o += (size_t)snprintf(buf + o, len - o, "%s", esc);
		else if (c < 0x20 || c > 0x7e)
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	if (*s && o + 4 <= len)
		o += (size_t)snprintf(buf + o, len - o, "...");
	buf[o < len ? o : len - 1] = '\0';
	return buf;
}
