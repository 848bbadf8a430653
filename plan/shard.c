/* One Nth of a run: see shard.h. */
#include "shard.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* A whole number from 1 to SHARD_MAX at *p, which moves past it; 0 when
 * there is none. */
static unsigned number_at(const char **p)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**p))
		return 0;
	errno = 0;
	v = strtoul(*p, &end, 10);
	*p = end;
	return errno || v > SHARD_MAX ? 0 : (unsigned)v;
}

int shard_parse(const char *text, struct shard *s, char *err, size_t errlen)
{
	const char *p = text;
	unsigned k = number_at(&p), n = 0;

	if (k && *p == '/') {
		p++;
		n = number_at(&p);
	}
	if (!k || !n || *p) {
		snprintf(err, errlen, "expected K/N, shard K of N, with 1 <= K <= N <= %d (e.g. "
			 "2/3)", SHARD_MAX);
		return -1;
	}
	if (k > n) {
		snprintf(err, errlen, "K (%u) must be between 1 and N (%u)", k, n);
		return -1;
	}
	s->k = k;
	s->n = n;
	return 0;
}

int shard_has(const struct shard *s, size_t c, unsigned rep, unsigned repeat, int whole_cells)
{
	unsigned long long i = whole_cells ? c : (unsigned long long)c * repeat + (rep - 1);

	return !s->n || i % s->n == s->k - 1;
}

int shard_has_cell(const struct shard *s, const struct plan *pl, size_t ci, unsigned rep)
{
	return shard_has(s, ci, rep, pl->repeat, pl->m->repeat_min > 0);
}

size_t shard_count(const struct shard *s, const struct plan *pl)
{
	size_t n = 0;

	for (size_t ci = 0; ci < pl->ncells; ci++)
		for (unsigned rep = 1; rep <= pl->repeat; rep++)
			n += (size_t)shard_has_cell(s, pl, ci, rep);
	return n;
}
