/*
 * matrix_regex: the regexes a matrix file holds (ready:, result:,
 * timeline:), compiled only after a check of what regcomp() would make of
 * them (matrix_yaml.h).  Programs and timelines both call it; it calls
 * neither.
 */
#include "matrix_yaml.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
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

/* ---- the reverse of a regex: see matrix.h matrix_regex_reverse ---- */

/* The end of the atom at c (before e): a group up to its ')' (e when it
 * has none), a bracket expression, an escaped character, one character. */
static const char *atom_end(const char *c, const char *e)
{
	if (*c == '(') {
		for (c++; c < e; c = atom_end(c, e))
			if (*c == ')')
				return c + 1;
		return e;
	}
	if (*c == '[') {
		const char *b = bracket_end(c);
		return b != c && b < e ? b + 1 : c + 1;
	}
	return *c == '\\' && c + 1 < e ? c + 2 : c + 1;
}

/* The end of the piece at c: its atom and every repetition after it. */
static const char *piece_end(const char *c, const char *e)
{
	c = atom_end(c, e);
	while (c < e && strchr("*+?{", *c)) {
		const char *close = *c == '{' ? memchr(c, '}', (size_t)(e - c)) : NULL;
		c = *c != '{' ? c + 1 : close ? close + 1 : e;
	}
	return c;
}

static void reverse_alternation(const char *b, const char *e, char *o);

/* The atom [b, ae) reversed at o: a group's inside reversed, an anchor at
 * one end made the other end's. */
static void reverse_atom(const char *b, const char *ae, char *o)
{
	static const char swap[][2][3] = { { "^", "$" }, { "$", "^" }, { "\\<", "\\>" },
					   { "\\>", "\\<" }, { "\\`", "\\'" }, { "\\'", "\\`" } };
	size_t n = (size_t)(ae - b);

	if (*b == '(') {	/* closed: regcomp refused an unclosed group already */
		int closed = n >= 2 && ae[-1] == ')';
		o[0] = '(';
		reverse_alternation(b + 1, ae - closed, o + 1);
		if (closed)
			o[n - 1] = ')';
		return;
	}
	memcpy(o, b, n);
	for (size_t i = 0; i < ARRAY_SIZE(swap); i++)
		if (strlen(swap[i][0]) == n && !memcmp(b, swap[i][0], n))
			memcpy(o, swap[i][1], n);
}

/* A branch [b, e): its pieces in reverse order, each reversed (the same
 * length as it: the piece at [p, q) goes to o + (e - q)). */
static void reverse_branch(const char *b, const char *e, char *o)
{
	for (const char *p = b, *q; p < e; p = q) {
		q = piece_end(p, e);
		const char *ae = atom_end(p, q);
		char *at = o + (e - q);
		reverse_atom(p, ae, at);
		memcpy(at + (ae - p), ae, (size_t)(q - ae));	/* its repetitions */
	}
}

/* [b, e), branches separated by top-level '|', each reversed in place. */
static void reverse_alternation(const char *b, const char *e, char *o)
{
	const char *start = b;

	for (const char *c = b;;) {
		if (c == e || *c == '|') {
			reverse_branch(start, c, o + (start - b));
			if (c == e)
				return;
			o[c - b] = '|';
			start = ++c;
		} else {
			c = piece_end(c, e);
		}
	}
}

void matrix_regex_reverse(const char *re, char *out)
{
	size_t n = strlen(re);

	reverse_alternation(re, re + n, out);
	out[n] = '\0';
}

char *matrix_regex_reverse_search(const char *re)
{
	size_t n = strlen(re);
	char *out = malloc(n + sizeof("^.*()"));

	if (!out)
		return NULL;
	memcpy(out, "^.*(", 4);
	matrix_regex_reverse(re, out + 4);
	memcpy(out + 4 + n, ")", 2);
	return out;
}

/* The first back-reference (\1 to \9) outside a bracket expression, or
 * NULL.  glibc matches one by backtracking: "^(a*)*\1\1\1$" took 160 s
 * on a 201-byte line, and no bound on the pattern's size or nesting stops
 * that, so none is taken. */
static const char *backref(const char *re)
{
	for (const char *c = re; *c; c++)
		if (*c == '[')
			c = bracket_end(c);
		else if (*c == '\\' && c[1] >= '1' && c[1] <= '9')
			return c;
		else if (*c == '\\' && c[1])
			c++;
	return NULL;
}

/* The first ')' no '(' before it opened (glibc reads it as a literal
 * character, which the reversed regex of the runner's first pass would
 * read as a group's end), outside bracket expressions; NULL when none. */
static const char *unmatched_close(const char *re)
{
	size_t depth = 0;

	for (const char *c = re; *c; c++)
		if (*c == '[')
			c = bracket_end(c);
		else if (*c == '\\' && c[1])
			c++;
		else if (*c == '(')
			depth++;
		else if (*c == ')' && !depth)
			return c;
		else if (*c == ')')
			depth--;
	return NULL;
}

static int nullable(const char *b, const char *e);

/* The atom [b, ae) matches the empty string: an anchor (^ $ \< \> \b \B
 * \` \'), or a group whose inside can. */
static int atom_nullable(const char *b, const char *ae)
{
	if (*b == '(')
		return nullable(b + 1, ae - (ae - b >= 2 && ae[-1] == ')'));
	if (*b == '^' || *b == '$')
		return 1;
	return *b == '\\' && ae - b == 2 && strchr("<>bB`'", b[1]);
}

/* [b, e), branches separated by '|', matches the empty string: a branch
 * does whose every piece does (its atom does, or it repeats from 0). */
static int nullable(const char *b, const char *e)
{
	int branch = 1;

	for (const char *c = b;;) {
		if (c == e || *c == '|') {
			if (branch)
				return 1;
			if (c == e)
				return 0;
			branch = 1;
			c++;
			continue;
		}
		const char *q = piece_end(c, e), *ae = atom_end(c, q);
		int zero = ae < q && (*ae == '*' || *ae == '?' || (*ae == '{' &&
						      strtoul(ae + 1, NULL, 10) == 0));
		branch = branch && (zero || atom_nullable(c, ae));
		c = q;
	}
}

/* The first piece of [b, e) that repeats (*, +, ?, {m,n}) what can match
 * the empty string ("(a?)+", "(x|)*", "(^a|b?)+", "\<*"), or NULL. */
static const char *empty_repeat(const char *b, const char *e)
{
	for (const char *c = b, *q; c < e; c = q) {
		q = piece_end(c, e);
		const char *ae = atom_end(c, q), *in;
		if (ae < q && atom_nullable(c, ae))
			return c;
		if (*c == '(' && (in = empty_repeat(c + 1, ae)))
			return in;
	}
	return NULL;
}

/* The first anchor (^ $ \< \> \b \B \` \') inside a group that
 * repeats, in [b, e) (in: [b, e) is such a group's inside), or NULL. */
static const char *repeated_anchor(const char *b, const char *e, int in)
{
	for (const char *c = b, *q; c < e; c = q) {
		q = piece_end(c, e);
		const char *ae = atom_end(c, q), *a;
		if (*c != '(' && in && atom_nullable(c, ae))
			return c;
		if (*c == '(' && (a = repeated_anchor(c + 1, ae, in || ae < q)))
			return a;
	}
	return NULL;
}

int matrix_regex_check(const char *re, char *why, size_t whylen)
{
	size_t parts = 0, n = strlen(re);
	int nest = regex_cost(re, &parts);
	const char *br = backref(re), *er;

	if (nest < 0 || nest > MATRIX_MAX_REGEX_NEST || parts > MATRIX_MAX_REGEX_PARTS)
		snprintf(why, whylen, "regex too complex for this tool: repetitions nest at most %d "
			 "deep (\"(x+)+\"), groups %d, and expand to at most %d parts",
			 MATRIX_MAX_REGEX_NEST, MATRIX_MAX_DEPTH, MATRIX_MAX_REGEX_PARTS);
	else if (br)
		snprintf(why, whylen, "back-reference '\\%c': refused, as its matching time has no "
			 "bound (one line of output can take minutes); match the text itself "
			 "instead", br[1]);
	else if ((er = unmatched_close(re)))
		snprintf(why, whylen, "')' at offset %zu closes no group: write '\\)' for the "
			 "character itself", (size_t)(er - re));
	else if ((er = empty_repeat(re, re + n)))
		snprintf(why, whylen, "'%.*s' repeats what can match nothing: refused, as glibc's "
			 "regexec can loop on it for ever (\"(^a|b?)+\" on \"bbab\"); repeat only "
			 "what matches at least one character (\"(a?)+\" is \"a*\")",
			 (int)(piece_end(er, re + n) - er) > 40 ? 40 : (int)(piece_end(er, re + n) - er),
			 er);
	else if ((er = repeated_anchor(re, re + n, 0)))
		snprintf(why, whylen, "anchor '%.*s' inside a repeated group: refused, as glibc's "
			 "regexec places such anchors wrongly (\"a(a|^b){0,2}a\" finds no \"aa\" in "
			 "\"aba aa\"); keep ^ $ \\< \\> \\b \\B out of repeated groups",
			 (int)(atom_end(er, re + n) - er), er);
	else
		return 0;
	return -1;
}

int ml_compile(struct loader *L, const yaml_node_t *n, const char *what, const char *text,
	       int flags, regex_t *re)
{
	char why[512];
	int rc;

	if (matrix_regex_check(text, why, sizeof why) < 0)
		return error_node(L, n, "%s: %s", what, why);
	if ((rc = regcomp(re, text, flags))) {
		regerror(rc, re, why, sizeof why);
		return error_node(L, n, "%s: bad regex: %s", what, why);
	}
	/* what the runner matches with beside it (cell/outlog.h): made here
	 * once, so that a regex it cannot make is refused now, not mid-run */
	char *rev = matrix_regex_reverse_search(text);
	regex_t back;
	if (!rev || (rc = regcomp(&back, rev, REG_EXTENDED))) {
		if (rev)
			regerror(rc, &back, why, sizeof why);
		free(rev);
		regfree(re);
		return rev ? error_node(L, n, "%s: regex not supported: its reverse, which the "
					"runner matches with, does not compile: %s", what, why)
			   : ml_oom(L, n);
	}
	regfree(&back);
	free(rev);
	return 0;
}

const char *ml_bracket_end(const char *c)
{
	return bracket_end(c);
}
