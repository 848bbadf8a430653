/* hist.csv read back: see report_hist.h and report.h (struct rbucket). */
#include "report_hist.h"
#include "arrays.h"
#include "report.h"
#include "csvfile.h"
#include "fieldnum.h"
#include "report_results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const cols[] = { "cell", "rep", "low_us", "high_us", "count" };
#define NCOLS (ARRAY_SIZE(cols))

/* hist.csv being read: each repetition's counts so far (by index into
 * r->reps) and the line its rows start on. */
struct hist_load {
	struct report *r;
	const char *path;
	int col[NCOLS];
	double *sum;
	unsigned long *first;
};

/* The most round trips a repetition can hold: a count above it is no
 * count of ours (fieldnum.h reads a whole number below 2^53, which a
 * double holds exactly; a repetition of 2^53 round trips would take a
 * hundred days at one a nanosecond). */
#define MOST_ROUND_TRIPS FIELDNUM_WHOLE_MAX

/* csv_read's header: the columns, in cols[] order. */
static int on_header(void *ctx, char **fields, size_t n, char *err, size_t errlen)
{
	struct hist_load *hl = ctx;
	const struct csv_table t = { .header = fields, .ncols = n };

	for (size_t k = 0; k < NCOLS; k++)
		if ((hl->col[k] = csv_table_col(&t, cols[k])) < 0) {
			snprintf(err, errlen, "%s:1: not a matrix hist file: no column %s (expected "
				 "cell, rep, low_us, high_us, count)", hl->path, cols[k]);
			return -1;
		}
	return 0;
}

/* csv_read's row: a bucket into its cell, when the cell and repetition are
 * a successful one of results.csv (a repetition whose results row was
 * never written, by a kill between them, has none).  -1 with err. */
static int on_row(void *ctx, char **row, unsigned long line, char *err, size_t errlen)
{
	static const enum fieldnum_kind kind[NCOLS] = {
		FIELDNUM_WHOLE, FIELDNUM_WHOLE, FIELDNUM_AMOUNT, FIELDNUM_AMOUNT, FIELDNUM_WHOLE,
	};
	struct hist_load *hl = ctx;
	const int *col = hl->col;
	double v[NCOLS];

	for (size_t k = 0; k < NCOLS; k++)
		if (fieldnum_read(row[col[k]], kind[k], 0, &v[k], hl->path, line, cols[k], err,
				  errlen) < 0)
			return -1;
	if (v[2] >= v[3] || v[4] < 1) {
		snprintf(err, errlen, "%s:%lu: not a bucket: low_us %s, high_us %s, count %s (low_us "
			 "must be below high_us, and count a whole number above 0)", hl->path, line,
			 row[col[2]], row[col[3]], row[col[4]]);
		return -1;
	}
	const struct rrep *rr = v[0] <= UINT32_MAX && v[1] <= UINT32_MAX ?
		report_find_rep(hl->r, (unsigned)v[0], (unsigned)v[1]) : NULL;
	if (!rr || rr->ok < 0)
		return 0;	/* no successful repetition of results.csv */
	size_t i = (size_t)(rr - hl->r->reps);
	if (hl->sum[i] + v[4] > MOST_ROUND_TRIPS) {
		snprintf(err, errlen, "%s:%lu: cell %u repetition %u: its counts add up to more "
			 "round trips than a repetition can hold (2^53)", hl->path, line, rr->cell,
			 rr->rep);
		return -1;
	}
	if (!hl->first[i])
		hl->first[i] = line;
	hl->sum[i] += v[4];
	struct rcell *c = &hl->r->cells[rr->ci];
	struct rbucket *b = realloc(c->buckets, (c->nbuckets + 1) * sizeof(*b));
	if (!b) {
		snprintf(err, errlen, "%s: out of memory", hl->path);
		return -1;
	}
	c->buckets = b;
	b[c->nbuckets++] = (struct rbucket){ v[2], v[3], v[4] };
	return 0;
}

/* Each repetition's counts add up to its rtt_samples (results.h), as
 * near as results.csv's 10 digits hold it; -1 with err at the first
 * repetition, by its first line, whose do not. */
static int check_sums(const struct hist_load *hl, char *err, size_t errlen)
{
	const struct report *r = hl->r;
	size_t bad = SIZE_MAX;

	for (size_t i = 0; i < r->nreps; i++) {
		double want = r->reps[i].rtt_samples, got = hl->sum[i];
		if (!hl->first[i] || isnan(want) || fabs(got - want) <= 0.5 + want * 1e-9)
			continue;
		if (bad == SIZE_MAX || hl->first[i] < hl->first[bad])
			bad = i;
	}
	if (bad == SIZE_MAX)
		return 0;
	const struct rrep *rr = &r->reps[bad];
	snprintf(err, errlen, "%s:%lu: cell %u repetition %u: its counts add up to %.0f round "
		 "trips, but its row in results.csv (line %lu) says rtt_samples %.10g", hl->path,
		 hl->first[bad], rr->cell, rr->rep, hl->sum[bad], rr->line, rr->rtt_samples);
	return -1;
}

static int cmp_bucket(const void *a, const void *b)
{
	const struct rbucket *x = a, *y = b;

	if (x->low_us != y->low_us)
		return x->low_us < y->low_us ? -1 : 1;
	return (x->high_us > y->high_us) - (x->high_us < y->high_us);
}

/* c's buckets in ascending order, those of the same bounds added up. */
static void merge_buckets(struct rcell *c)
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
}

int report_hist_load(struct report *r, char *err, size_t errlen)
{
	char path[4096];
	struct hist_load hl = { .r = r, .path = path };
	const struct csv_rows cb = { .header = on_header, .row = on_row, .ctx = &hl };
	int rc = -1;

	snprintf(path, sizeof(path), "%s/hist.csv", r->dir);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	hl.sum = calloc(r->nreps + 1, sizeof(*hl.sum));
	hl.first = calloc(r->nreps + 1, sizeof(*hl.first));
	if (!hl.sum || !hl.first) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	if (csv_read(path, CSV_DROP_UNFINISHED, &cb, NULL, err, errlen) < 0 ||
	    check_sums(&hl, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < r->nreps; i++)
		r->cells[r->reps[i].ci].hist_reps += hl.first[i] != 0;
	for (size_t i = 0; i < r->ncells; i++)
		merge_buckets(&r->cells[i]);
	rc = 0;
out:
	free(hl.sum);
	free(hl.first);
	return rc;
}
