/* results.csv read back into the report's cells: see report_results.h. */
#include "report_results.h"
#include "report.h"
#include "report_state.h"
#include "provenance.h"
#include "csvfile.h"
#include "pattern.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A figure: NaN for an empty field; -1 for anything but a finite number. */
static int to_double(const char *s, double *v)
{
	char *end;

	*v = NAN;
	if (!s || !*s)
		return 0;
	errno = 0;
	*v = strtod(s, &end);
	return *end || errno || !isfinite(*v) ? -1 : 0;
}

static struct rcell *cell_for(struct report *r, unsigned number, char **row)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (r->cells[i].number == number)
			return &r->cells[i];
	struct rcell *cells = realloc(r->cells, (r->ncells + 1) * sizeof(*cells));
	if (!cells)
		return NULL;
	r->cells = cells;
	struct rcell *c = &cells[r->ncells];
	memset(c, 0, sizeof(*c));
	c->number = number;
	c->lost = c->rtt_samples = NAN;
	c->dims = calloc(r->ndims + 1, sizeof(*c->dims));
	if (!c->dims)
		return NULL;
	for (size_t d = 0; d < r->ndims; d++)
		if (!(c->dims[d] = strdup(row[r->dimcol[d]])))
			return NULL;
	r->ncells++;
	return c;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct rcell *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

/* A cell's failed repetitions by status: the first STATUS_REASONS distinct
 * ones, in the order met, each with its count; the rest counted. */
#define STATUS_REASONS 3
struct failures {
	const char *why[STATUS_REASONS];
	size_t n[STATUS_REASONS], nwhy, others;
};

static void failures_add(struct failures *f, const char *why)
{
	size_t i = 0;

	while (i < f->nwhy && strcmp(f->why[i], why))
		i++;
	if (i < f->nwhy) {
		f->n[i]++;
	} else if (f->nwhy < STATUS_REASONS) {
		f->why[f->nwhy] = why;
		f->n[f->nwhy++] = 1;
	} else {
		f->others++;
	}
}

/* "ok"; "ok, 1 of 3 failed (timeout)"; every repetition failed: the
 * reason, "timeout (all 3)", "timeout ×2; exit 1 ×1 (all 3)", with at
 * most STATUS_REASONS reasons named (each cut at 80 bytes: 3 fit in why),
 * then "other reasons ×K". */
static int set_status(struct rcell *c, const struct failures *f)
{
	char buf[512], why[400] = "";
	size_t ok = c->reps - c->failed, o = 0;

	for (size_t i = 0; i < f->nwhy && o < sizeof(why); i++)
		if (f->nwhy > 1 || f->others)	/* counted only beside another */
			o += (size_t)snprintf(why + o, sizeof(why) - o, "%s%.80s ×%zu", i ? "; " : "",
					      f->why[i], f->n[i]);
		else
			o += (size_t)snprintf(why + o, sizeof(why) - o, "%.80s", f->why[i]);
	if (f->others && o < sizeof(why))
		snprintf(why + o, sizeof(why) - o, "; other reasons ×%zu", f->others);
	if (!c->failed)
		snprintf(buf, sizeof(buf), "ok");
	else if (!ok && c->reps == 1)
		snprintf(buf, sizeof(buf), "%s", why);
	else if (!ok)
		snprintf(buf, sizeof(buf), "%s (all %zu)", why, c->reps);
	else
		snprintf(buf, sizeof(buf), "ok, %zu of %zu failed (%s)", c->failed, c->reps, why);
	c->status = strdup(buf);
	return c->status ? 0 : -1;
}

static int out_of_memory(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: out of memory", path);
	return -1;
}

/* Where results.csv keeps what the report reads. */
struct columns {
	int rep, status;
	int pattern;			/* -1: no pattern column (pingpong) */
	int metric[MATRIX_NMETRICS];	/* -1: an older file without it */
	int lost, rtt_samples;		/* -1: likewise */
	int measured_by, printed_metrics;	/* -1: likewise */
	int elapsed;			/* elapsed_s; -1 when missing */
	int placement;			/* -1: likewise */
	struct rstate_cols state;	/* the machine's (report_state.h) */
};

/* The columns of results.csv, and its dimension names (the columns between
 * cell and rep) into r; -1 with err. */
static int read_columns(struct report *r, const struct csv_table *t, const char *path,
			struct columns *col, char *err, size_t errlen)
{
	col->rep = csv_table_col(t, "rep");
	col->status = csv_table_col(t, "status");
	if (csv_table_col(t, "cell") != 0 || col->rep < 1 || col->status < 0) {
		snprintf(err, errlen, "%s:1: not a matrix results file: expected columns cell, ..., "
			 "rep, status", path);
		return -1;
	}
	r->ndims = (size_t)col->rep - 1;
	r->dimnames = calloc(t->ncols + 1, sizeof(*r->dimnames));
	r->dimcol = calloc(t->ncols + 1, sizeof(*r->dimcol));
	if (!r->dimnames || !r->dimcol)
		return out_of_memory(path, err, errlen);
	for (size_t d = 0; d < r->ndims; d++)
		r->dimcol[d] = d + 1;
	/* topology: link: values, last (results.h) */
	for (size_t i = (size_t)col->rep + 1; i < t->ncols; i++) {
		const struct dimension *dim = matrix_dim(&r->m, t->header[i]);
		if (dim && matrix_dim_is_link(dim))
			r->dimcol[r->ndims++] = i;
	}
	for (size_t d = 0; d < r->ndims; d++)
		if (!(r->dimnames[d] = strdup(t->header[r->dimcol[d]])))
			return out_of_memory(path, err, errlen);
	col->pattern = csv_table_col(t, "pattern");
	if (col->pattern >= col->rep)
		col->pattern = -1;
	for (size_t m = 0; m < MATRIX_NMETRICS; m++)
		col->metric[m] = csv_table_col(t, matrix_metrics[m]);
	col->lost = csv_table_col(t, "lost");
	col->rtt_samples = csv_table_col(t, "rtt_samples");
	col->measured_by = csv_table_col(t, "measured_by");
	col->printed_metrics = csv_table_col(t, "printed_metrics");
	col->elapsed = csv_table_col(t, "elapsed_s");
	col->placement = csv_table_col(t, "placement");
	report_state_columns(t, &col->state);
	r->before_stream_fix = col->metric[matrix_metric_index("cpu_us_per_rtt")] < 0;
	return 0;
}

/* A count of a successful repetition (column `col`, -1 for none) added to
 * *sum, which stays NaN until a repetition has the count; -1 with err. */
static int add_count(double *sum, char **row, int col, const char *name, size_t line,
		     const char *path, char *err, size_t errlen)
{
	double v;

	if (col < 0)
		return 0;
	if (to_double(row[col], &v) < 0) {
		snprintf(err, errlen, "%s:%zu: %s '%s' is not a finite number", path, line, name,
			 row[col]);
		return -1;
	}
	if (!isnan(v))
		*sum = isnan(*sum) ? v : *sum + v;
	return 0;
}

/* A file from before cpu_us_per_rtt was a column kept the CPU per round
 * trip of a pingpong or echo row in cpu_us_per_msg: that figure is now
 * cpu_us_per_rtt, and cpu_us_per_msg is half of it (a round trip is two
 * messages).  A stream row's figure was per message already. */
static void older_cpu_figures(char **row, const struct columns *col, double *v)
{
	int per_msg = matrix_metric_index("cpu_us_per_msg");
	int per_rtt = matrix_metric_index("cpu_us_per_rtt");

	if (col->metric[per_rtt] >= 0 || (col->pattern >= 0 && pattern_named_one_way(row[col->pattern])))
		return;
	v[per_rtt] = v[per_msg];
	v[per_msg] = v[per_msg] / 2;
}

/* Who measured a successful repetition, already counted in c->nokreps:
 * its measured_by into the cell's, and for each figure v[m] it has, whether
 * a program printed it (printed[m]) or the runner timed the program's whole
 * process (outside[m]), as provenance.h reads the row. */
static void add_provenance(struct rcell *c, char **row, const struct columns *col,
			   const double *v)
{
	const char *by = col->measured_by >= 0 ? row[col->measured_by] : NULL;
	const char *printed = col->printed_metrics >= 0 ? row[col->printed_metrics] : NULL;

	if (by) {
		if (c->nokreps == 1)
			snprintf(c->measured_by, sizeof(c->measured_by), "%s", by);
		else if (strcmp(c->measured_by, by))
			snprintf(c->measured_by, sizeof(c->measured_by), "mixed");
	}
	for (int m = 0; m < MATRIX_NMETRICS; m++) {
		if (isnan(v[m]))
			continue;
		switch (provenance_of(by, printed, m)) {
		case PROV_PRINTED:
			c->printed[m]++;
			break;
		case PROV_PROCESS:
			c->outside[m]++;
			break;
		case PROV_WORKER:
			break;
		}
	}
}

/* A successful repetition's timed window, kept to find the cell's median
 * (window_s); -1 with err. */
static int add_window(struct rcell *c, char **row, size_t line, const struct columns *col,
		      const char *path, char *err, size_t errlen)
{
	double v, *nv;

	if (col->elapsed < 0)
		return 0;
	if (to_double(row[col->elapsed], &v) < 0) {
		snprintf(err, errlen, "%s:%zu: elapsed_s '%s' is not a finite number", path, line,
			 row[col->elapsed]);
		return -1;
	}
	if (isnan(v))
		return 0;
	if (!(nv = realloc(c->elapsed, (c->nelapsed + 1) * sizeof(*nv))))
		return out_of_memory(path, err, errlen);
	c->elapsed = nv;
	nv[c->nelapsed++] = v;
	return 0;
}

/* A successful repetition (results.csv line `line`) added to its cell:
 * its number, and every figure it has; -1 with err. */
static int add_ok_rep(struct rcell *c, char **row, size_t line, const struct columns *col,
		      const char *path, char *err, size_t errlen)
{
	unsigned *ok = realloc(c->okreps, (c->nokreps + 1) * sizeof(*ok));
	if (!ok)
		return out_of_memory(path, err, errlen);
	c->okreps = ok;
	ok[c->nokreps++] = (unsigned)strtoul(row[col->rep], NULL, 10);
	if (add_count(&c->lost, row, col->lost, "lost", line, path, err, errlen) < 0 ||
	    add_count(&c->rtt_samples, row, col->rtt_samples, "rtt_samples", line, path, err,
		      errlen) < 0 || add_window(c, row, line, col, path, err, errlen) < 0)
		return -1;
	double v[MATRIX_NMETRICS];
	for (size_t m = 0; m < MATRIX_NMETRICS; m++) {
		v[m] = NAN;
		if (col->metric[m] >= 0 && to_double(row[col->metric[m]], &v[m]) < 0) {
			snprintf(err, errlen, "%s:%zu: %s '%s' is not a finite number", path,
				 line, matrix_metrics[m], row[col->metric[m]]);
			return -1;
		}
	}
	older_cpu_figures(row, col, v);
	add_provenance(c, row, col, v);
	for (size_t m = 0; m < MATRIX_NMETRICS; m++) {
		double *nv;
		if (isnan(v[m]))
			continue;
		nv = realloc(c->vals[m], (c->st[m].n + 1) * sizeof(*nv));
		if (!nv)
			return out_of_memory(path, err, errlen);
		c->vals[m] = nv;
		unsigned *nr = realloc(c->valrep[m], (c->st[m].n + 1) * sizeof(*nr));
		if (!nr)
			return out_of_memory(path, err, errlen);
		c->valrep[m] = nr;
		nr[c->st[m].n] = ok[c->nokreps - 1];
		nv[c->st[m].n++] = v[m];	/* st[m].n counts until summarized */
	}
	return 0;
}

/* One row of results.csv (line `line`) into its cell; a failed one counted,
 * and its status in fails (by cell index).  -1 with err. */
static int add_row(struct report *r, char **row, size_t line, const struct columns *col,
		   struct failures *fails, const char *path, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	unsigned long number = strtoul(row[0], &end, 10);
	if (*end || !*row[0] || errno || number > UINT32_MAX || *row[0] == '-') {
		snprintf(err, errlen, "%s:%zu: cell '%s' is not a cell number", path, line, row[0]);
		return -1;
	}
	struct rcell *c = cell_for(r, (unsigned)number, row);
	if (!c)
		return out_of_memory(path, err, errlen);
	for (size_t d = 0; d < r->ndims; d++)
		if (strcmp(c->dims[d], row[r->dimcol[d]])) {
			snprintf(err, errlen, "%s:%zu: cell %lu has %s %s here but %s above: "
				 "rows of another matrix?", path, line, number, r->dimnames[d],
				 row[r->dimcol[d]], c->dims[d]);
			return -1;
		}
	if (report_state_add_row(r, c, row, &col->state, !strcmp(row[col->status], "ok")) < 0)
		return out_of_memory(path, err, errlen);
	const char *place = col->placement >= 0 ? row[col->placement] : "none";
	if (!c->reps)
		snprintf(c->placement, sizeof(c->placement), "%s", place);
	else if (strcmp(c->placement, place))
		snprintf(c->placement, sizeof(c->placement), "mixed");
	c->reps++;
	if (strcmp(row[col->status], "ok")) {
		c->failed++;
		failures_add(&fails[c - r->cells], row[col->status]);
		return 0;
	}
	return add_ok_rep(c, row, line, col, path, err, errlen);
}

int report_results_load(struct report *r, char *err, size_t errlen)
{
	struct csv_table t;
	struct columns col;
	char path[4096];
	struct failures *fails = NULL;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/results.csv", r->dir);
	if (csv_table_load_opts(&t, path, CSV_DROP_UNFINISHED, &r->dropped_row, err, errlen) < 0)
		return -1;
	if (read_columns(r, &t, path, &col, err, errlen) < 0)
		goto out;
	fails = calloc(t.nrows + 1, sizeof(*fails));
	if (!fails) {
		out_of_memory(path, err, errlen);
		goto out;
	}
	for (size_t i = 0; i < t.nrows; i++)
		if (add_row(r, t.rows[i], i + 2, &col, fails, path, err, errlen) < 0)
			goto out;
	for (size_t i = 0; i < r->ncells; i++)
		if (set_status(&r->cells[i], &fails[i])) {
			out_of_memory(path, err, errlen);
			goto out;
		}
	if (r->ncells)
		qsort(r->cells, r->ncells, sizeof(*r->cells), cmp_cell);
	rc = 0;
out:
	free(fails);
	csv_table_release(&t);
	return rc;
}
