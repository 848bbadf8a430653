/* "Did you mean": see suggest.h. */
#include "suggest.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Optimal string alignment distance (Damerau-Levenshtein with adjacent
 * transpositions), case-insensitive; SIZE_MAX when out of memory. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d;
	size_t *row = malloc(3 * (lb + 1) * sizeof *row);
	size_t *pp = row, *p = row + lb + 1, *c = row + 2 * (lb + 1);

	if (!row)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		p[j] = j;
	for (size_t i = 1; i <= la; i++) {
		c[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t best = p[j - 1] + (ca != cb);

			if (p[j] + 1 < best)
				best = p[j] + 1;
			if (c[j - 1] + 1 < best)
				best = c[j - 1] + 1;
			if (i > 1 && j > 1 && best > pp[j - 2] + 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    cb == tolower((unsigned char)a[i - 2]))
				best = pp[j - 2] + 1;
			c[j] = best;
		}
		size_t *t = pp;
		pp = p;
		p = c;
		c = t;
	}
	d = p[lb];
	free(row);
	return d;
}

const char *suggest_closest(const char *word, const char *const *cands, size_t n)
{
	size_t wl = strlen(word), limit = wl / 3 > 1 ? wl / 3 : 1;
	size_t bestd = SIZE_MAX;
	const char *best = NULL;
	int unique = 0;

	for (size_t i = 0; i < n; i++) {
		size_t cl = strlen(cands[i]), d;

		if ((cl > wl ? cl - wl : wl - cl) > limit)
			continue;
		d = edit_distance(word, cands[i]);
		if (d > limit || d >= (cl > wl ? cl : wl))
			continue;
		if (d < bestd) {
			bestd = d;
			best = cands[i];
			unique = 1;
		} else if (d == bestd && strcmp(best, cands[i])) {
			unique = 0;
		}
	}
	return unique ? best : NULL;
}

const char *suggest_hint(const char *word, const char *const *cands, size_t n, char *buf,
			 size_t len)
{
	const char *s = suggest_closest(word, cands, n);

	snprintf(buf, len, "%s%s%s", s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
	return buf;
}
