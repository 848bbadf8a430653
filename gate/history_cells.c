/* A history's cells, keyed and hashed: see history.h. */
#include "history.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The identity of a cell: every dimension's name and value, sorted by
 * name ("pattern\037pingpong\036size\03716"), malloc'd; cells of two
 * reports are the same cell when their keys are equal (as compare_folders
 * matches them: every dimension by name). */
char *history_cell_key(const struct report *r, const struct rcell *c)
{
	size_t len = 1, *order = malloc((r->ndims ? r->ndims : 1) * sizeof(*order));

	if (!order)
		return NULL;
	for (size_t d = 0; d < r->ndims; d++) {
		size_t j = d;
		for (; j > 0 && strcmp(r->dimnames[order[j - 1]], r->dimnames[d]) > 0; j--)
			order[j] = order[j - 1];
		order[j] = d;
		len += strlen(r->dimnames[d]) + strlen(c->dims[d]) + 2;
	}
	char *key = malloc(len), *k = key;
	for (size_t i = 0; key && i < r->ndims; i++)
		k += sprintf(k, "%s\037%s\036", r->dimnames[order[i]], c->dims[order[i]]);
	if (key)
		*k = '\0';
	free(order);
	return key;
}

static size_t hash_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (size_t)h;
}

/* The slot of key in group g's hash: where it is, or the empty one where
 * it would go. */
static size_t *slot_of(const struct hist_group *g, const char *key)
{
	size_t mask = g->nslots - 1, i = hash_key(key) & mask;

	while (g->slots[i] && strcmp(g->cells[g->slots[i] - 1].key, key))
		i = (i + 1) & mask;
	return &g->slots[i];
}

/* The cell of group g with this key: its index, or SIZE_MAX. */
size_t history_find_key(const struct hist_group *g, const char *key)
{
	if (!g->nslots)
		return SIZE_MAX;
	size_t s = *slot_of(g, key);
	return s ? s - 1 : SIZE_MAX;
}

/* Adds a cell to group g (its key taken over); -1 out of memory. */
int history_add_cell(struct hist_group *g, size_t *cap, const struct report *r,
		    const struct rcell *c, char *key)
{
	if (g->ncells == *cap) {
		size_t ncap = *cap ? 2 * *cap : 8;
		struct hist_cell *nc = realloc(g->cells, ncap * sizeof(*nc));
		if (!nc)
			return -1;
		g->cells = nc;
		*cap = ncap;
	}
	if (2 * (g->ncells + 1) > g->nslots) {	/* at most half full */
		size_t n = g->nslots ? 2 * g->nslots : 16;
		size_t *ns = calloc(n, sizeof(*ns)), *old = g->slots;
		if (!ns)
			return -1;
		g->slots = ns;
		g->nslots = n;
		for (size_t k = 0; k < g->ncells; k++)
			*slot_of(g, g->cells[k].key) = k + 1;
		free(old);
	}
	g->cells[g->ncells] = (struct hist_cell){ .r = r, .c = c, .key = key };
	*slot_of(g, key) = ++g->ncells;
	return 0;
}

size_t history_cell_of(const struct history *h, size_t g, const struct report *r,
		       const struct rcell *c)
{
	char *key = g < h->ngroups ? history_cell_key(r, c) : NULL;
	size_t k = key ? history_find_key(&h->groups[g], key) : SIZE_MAX;

	free(key);
	return k;
}

/* A copy of s that h keeps until history_release; NULL out of memory. */
const char *history_own(struct history *h, const char *s)
{
	char **ns = realloc(h->strings, (h->nstrings + 1) * sizeof(*ns));

	if (!ns)
		return NULL;
	h->strings = ns;
	if (!(ns[h->nstrings] = strdup(s)))
		return NULL;
	return ns[h->nstrings++];
}
