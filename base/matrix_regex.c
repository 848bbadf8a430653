/*
 * matrix_regex: the regexes a matrix file holds (ready:, result:,
 * timeline:), compiled only after a check of what regcomp() would make of
 * them (matrix_yaml.h).  Programs and timelines both call it; it calls
 * neither.
 */
#include "matrix_yaml.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The ']' that ends the bracket expression at c ('[' itself when none). */
static const char *bracket_end(const char *c)
{
	const char *e = c + 1 + (c[1] == '^');

	e += *e == ']';		/* "[]a]": a ']' first is one of the set */
	while (*e && *e != ']') {
		const char *close = e[0] == '[' && e[1] && strchr(":.=", e[1]) ?
				    strchr(e + 2, ']') : NULL;
		e = close ? close + 1 : e + 1;	/* "[:digit:]" inside */
	}
	return *e ? e : c;
}

/* What regcomp() and regexec() would make of an extended regex, roughly:
 * glibc copies what a repetition applies to (x+ is x x*, x{m,n} n copies)
 * and follows chains of optional parts, so "a++++++++..." took 2 GiB and
 * "((((v?)?)?)?)+)+)+)+" minutes.  *parts: the parts after copying
 * (saturating); the result: how deep repetitions nest ("(a+)+" is 2;
 * adjacent ones like "a?+" count as nested); -1 for groups nested deeper
 * than MATRIX_MAX_DEPTH. */
static int regex_cost(const char *re, size_t *parts)
{
	struct { size_t total; int nest; } g[MATRIX_MAX_DEPTH + 1] = { { 0, 0 } };
	size_t last = 0, depth = 0;
	int lastnest = 0;

	for (const char *c = re; *c; c++) {
		size_t mult = 0, add = 1;
		if (*c == '(') {
			if (++depth > MATRIX_MAX_DEPTH)
				return -1;
			g[depth].total = 0;
			g[depth].nest = 0;
			continue;
		}
		if (*c == ')' && depth) {
			add = last = g[depth].total;
			lastnest = g[depth--].nest;
		} else if (*c == '+' || *c == '*' || *c == '?') {
			mult = *c == '+' ? 2 : 1;
		} else if (*c == '{') {
			unsigned long m = strtoul(c + 1, NULL, 10), n = m;
			const char *comma = strpbrk(c, ",}");
			if (comma && *comma == ',' && comma[1] != '}')
				n = strtoul(comma + 1, NULL, 10);
			mult = (n > m ? n : m) + 1;
			c = strchr(c, '}') ? strchr(c, '}') : c;
		} else {
			if (*c == '\\' && c[1])
				c++;
			else if (*c == '[')	/* a bracket expression is one part */
				c = bracket_end(c);
			last = *c != '|';
			lastnest = 0;
		}
		if (mult) {		/* the last part mult times over, and one more */
			add = __builtin_mul_overflow(last, mult - 1, &add) ? SIZE_MAX : add + 1;
			last = __builtin_mul_overflow(last, mult, &last) ? SIZE_MAX : last + 1;
			lastnest++;
		}
		g[depth].total = __builtin_add_overflow(g[depth].total, add, &g[depth].total) ?
				 SIZE_MAX : g[depth].total;
		if (lastnest > g[depth].nest)
			g[depth].nest = lastnest;
	}
	for (; depth; depth--) {	/* an unclosed group: regcomp says so */
		g[depth - 1].total = __builtin_add_overflow(g[depth - 1].total, g[depth].total,
							    &g[depth - 1].total) ? SIZE_MAX :
				     g[depth - 1].total;
		if (g[depth].nest > g[depth - 1].nest)
			g[depth - 1].nest = g[depth].nest;
	}
	*parts = g[0].total;
	return g[0].nest;
}

int ml_compile(struct loader *L, const yaml_node_t *n, const char *what, const char *text,
	       int flags, regex_t *re)
{
	char why[256];
	int rc;

	size_t parts = 0;
	int nest = regex_cost(text, &parts);

	if (nest < 0 || nest > MATRIX_MAX_REGEX_NEST || parts > MATRIX_MAX_REGEX_PARTS)
		return error_node(L, n, "%s: regex too complex for this tool: repetitions nest at "
				  "most %d deep (\"(x+)+\"), groups %d, and expand to at most %d "
				  "parts", what, MATRIX_MAX_REGEX_NEST, MATRIX_MAX_DEPTH,
				  MATRIX_MAX_REGEX_PARTS);
	if ((rc = regcomp(re, text, flags))) {
		regerror(rc, re, why, sizeof why);
		return error_node(L, n, "%s: bad regex: %s", what, why);
	}
	return 0;
}

const char *ml_bracket_end(const char *c)
{
	return bracket_end(c);
}
