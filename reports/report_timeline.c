/* timeline.csv read back: see report_timeline.h. */
#include "report_timeline.h"
#include "arrays.h"
#include "csvfile.h"
#include "fieldnum.h"
#include "report.h"
#include "report_results.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { COL_CELL, COL_REP, COL_START, COL_INTERVAL, COL_MESSAGES, COL_BYTES, COL_COVERED, NCOLS };
static const char *const cols[NCOLS] = {
	"cell", "rep", "interval_start_s", "interval_s", "messages", "bytes", "covered_s",
};
/* what each column holds: an interval may start before the start signal
 * (a program's timeline counts from its first sender's spawn) */
static const enum fieldnum_kind kinds[NCOLS] = {
	FIELDNUM_WHOLE, FIELDNUM_WHOLE, FIELDNUM_SIGNED, FIELDNUM_AMOUNT, FIELDNUM_AMOUNT,
	FIELDNUM_AMOUNT, FIELDNUM_AMOUNT,
};

struct timeline_load {
	struct report *r;
	const char *path;
	int col[NCOLS];
	size_t *rows;		/* by index into r->reps: its rows */
};

static int on_header(void *ctx, char **fields, size_t n, char *err, size_t errlen)
{
	struct timeline_load *tl = ctx;
	const struct csv_table t = { .header = fields, .ncols = n };

	for (size_t k = 0; k < NCOLS; k++)
		if ((tl->col[k] = csv_table_col(&t, cols[k])) < 0) {
			snprintf(err, errlen, "%s:1: not a matrix timeline file: no column %s (expected "
				 "cell, rep, interval_start_s, interval_s, messages, bytes, covered_s)",
				 tl->path, cols[k]);
			return -1;
		}
	return 0;
}

/* An interval of a successful repetition into its cell's tl_*. */
static int on_row(void *ctx, char **row, unsigned long line, char *err, size_t errlen)
{
	struct timeline_load *tl = ctx;
	double v[NCOLS];

	for (size_t k = 0; k < NCOLS; k++)
		if (fieldnum_read(row[tl->col[k]], kinds[k], k > COL_REP, &v[k], tl->path, line,
				  cols[k], err, errlen) < 0)
			return -1;
	const struct rrep *rr = v[COL_CELL] <= UINT32_MAX && v[COL_REP] <= UINT32_MAX ?
		report_find_rep(tl->r, (unsigned)v[COL_CELL], (unsigned)v[COL_REP]) : NULL;
	if (!rr || rr->ok < 0)
		return 0;	/* no successful repetition of results.csv */
	struct rcell *c = &tl->r->cells[rr->ci];
	size_t n = ++tl->rows[rr - tl->r->reps];
	c->tl_rows++;
	c->tl_most = n > c->tl_most ? n : c->tl_most;
	double rate = v[COL_MESSAGES] / v[COL_COVERED];
	if (v[COL_COVERED] > 0 && isfinite(rate) && rate > c->tl_top &&
	    report_timeline_shown(v[COL_START], v[COL_INTERVAL], v[COL_COVERED]))
		c->tl_top = rate;
	double end = v[COL_START] + v[COL_INTERVAL];
	if (isfinite(end) && end > c->tl_end)
		c->tl_end = end;
	if (isfinite(v[COL_START]) && v[COL_START] < c->tl_begin)
		c->tl_begin = v[COL_START];
	return 0;
}

int report_timeline_shown(double start_s, double interval_s, double covered_s)
{
	return !(start_s > 0 && covered_s < REPORT_TIMELINE_SHORTEST * interval_s);
}

int report_timeline_load(struct report *r, char *err, size_t errlen)
{
	char path[4096];
	struct timeline_load tl = { .r = r, .path = path };
	const struct csv_rows cb = { .header = on_header, .row = on_row, .ctx = &tl };
	int rc;

	snprintf(path, sizeof(path), "%s/timeline.csv", r->dir);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (!(tl.rows = calloc(r->nreps + 1, sizeof(*tl.rows)))) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	rc = csv_read(path, CSV_DROP_UNFINISHED, &cb, NULL, err, errlen);
	r->have_timeline = rc == 0;
	free(tl.rows);
	return rc;
}
