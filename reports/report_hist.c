/* hist.csv read back: see report_hist.h and report.h (struct rbucket). */
#include "report_hist.h"
#include "arrays.h"
#include "report.h"
#include "csvfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const cols[] = { "cell", "rep", "low_us", "high_us", "count" };
#define NCOLS (ARRAY_SIZE(cols))

/* A field as a finite number >= 0; -1 when it is not one. */
static int field(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return !*s || *end || errno || !isfinite(*v) || *v < 0 ? -1 : 0;
}

static struct rcell *find_cell(struct report *r, double number)
{
	size_t lo = 0, hi = r->ncells;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->cells[mid].number == number)
			return &r->cells[mid];
		if (r->cells[mid].number < number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The index of rep among c's successful repetitions, or -1. */
static long ok_rep(const struct rcell *c, double rep)
{
	for (size_t k = 0; k < c->nokreps; k++)
		if (c->okreps[k] == rep)
			return (long)k;
	return -1;
}

/* Row i of t (file line i + 2) as a bucket into its cell, when the cell
 * and repetition are a successful one; seen[] marks the repetitions of
 * each cell (by index, from seen_at[cell]) that had rows.  -1 with err. */
static int add_row(struct report *r, char **row, size_t line, const int *col,
		   unsigned char *seen, const size_t *seen_at, const char *path, char *err,
		   size_t errlen)
{
	double v[NCOLS];

	for (size_t k = 0; k < NCOLS; k++)
		if (field(row[col[k]], &v[k]) < 0) {
			snprintf(err, errlen, "%s:%zu: %s '%s' is not a number", path, line, cols[k],
				 row[col[k]]);
			return -1;
		}
	if (v[2] >= v[3] || v[4] < 1 || v[4] != floor(v[4])) {
		snprintf(err, errlen, "%s:%zu: not a bucket: low_us %s, high_us %s, count %s (low_us "
			 "must be below high_us, and count a whole number above 0)", path, line,
			 row[col[2]], row[col[3]], row[col[4]]);
		return -1;
	}
	struct rcell *c = find_cell(r, v[0]);
	long k = c ? ok_rep(c, v[1]) : -1;
	if (k < 0)
		return 0;	/* no successful repetition of results.csv */
	struct rbucket *b = realloc(c->buckets, (c->nbuckets + 1) * sizeof(*b));
	if (!b) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	c->buckets = b;
	b[c->nbuckets++] = (struct rbucket){ v[2], v[3], v[4] };
	seen[seen_at[c - r->cells] + (size_t)k] = 1;
	return 0;
}

static int cmp_bucket(const void *a, const void *b)
{
	const struct rbucket *x = a, *y = b;

	if (x->low_us != y->low_us)
		return x->low_us < y->low_us ? -1 : 1;
	return (x->high_us > y->high_us) - (x->high_us < y->high_us);
}

/* c's buckets in ascending order, those of the same bounds added up. */
static void merge_buckets(struct rcell *c, const unsigned char *seen)
{
	size_t n = 0;

	if (c->nbuckets)
		qsort(c->buckets, c->nbuckets, sizeof(*c->buckets), cmp_bucket);
	c->hist_count = 0;
	for (size_t i = 0; i < c->nbuckets; i++) {
		if (n && !cmp_bucket(&c->buckets[n - 1], &c->buckets[i]))
			c->buckets[n - 1].count += c->buckets[i].count;
		else
			c->buckets[n++] = c->buckets[i];
		c->hist_count += c->buckets[i].count;
	}
	c->nbuckets = n;
	for (size_t k = 0; k < c->nokreps; k++)
		c->hist_reps += seen[k];
}

/* The columns of t, in cols[] order, into col; -1 with err. */
static int find_columns(const struct csv_table *t, int *col, const char *path, char *err,
			size_t errlen)
{
	for (size_t k = 0; k < NCOLS; k++)
		if ((col[k] = csv_table_col(t, cols[k])) < 0) {
			snprintf(err, errlen, "%s:1: not a matrix hist file: no column %s (expected "
				 "cell, rep, low_us, high_us, count)", path, cols[k]);
			return -1;
		}
	return 0;
}

int report_hist_load(struct report *r, char *err, size_t errlen)
{
	struct csv_table t;
	char path[4096];
	int col[NCOLS], cut = 0, rc = -1;

	snprintf(path, sizeof(path), "%s/hist.csv", r->dir);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (csv_table_load_opts(&t, path, CSV_DROP_UNFINISHED, &cut, err, errlen) < 0)
		return -1;
	size_t *seen_at = calloc(r->ncells + 1, sizeof(*seen_at)), nreps = 0;
	for (size_t i = 0; seen_at && i < r->ncells; i++) {
		seen_at[i] = nreps;
		nreps += r->cells[i].nokreps;
	}
	unsigned char *seen = calloc(nreps + 1, 1);
	if (!seen_at || !seen) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	if (find_columns(&t, col, path, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < t.nrows; i++)
		if (add_row(r, t.rows[i], i + 2, col, seen, seen_at, path, err, errlen) < 0)
			goto out;
	for (size_t i = 0; i < r->ncells; i++)
		merge_buckets(&r->cells[i], seen + seen_at[i]);
	rc = 0;
out:
	free(seen);
	free(seen_at);
	csv_table_release(&t);
	return rc;
}
