/* A run folder read back into statistics and ratios: see report.h. */
#include "report.h"
#include "report_hist.h"
#include "provenance.h"
#include "suggest.h"
#include "csvfile.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *report_meta(const struct report *r, const char *key)
{
	for (size_t i = 0; i < r->nmeta; i++)
		if (!strcmp(r->meta[i].key, key))
			return r->meta[i].value;
	return "";
}

int report_stale_stream_rates(const struct report *r)
{
	int d = report_dim(r, "pattern");

	for (size_t i = 0; r->before_stream_fix && d >= 0 && i < r->ncells; i++)
		if (!strcmp(r->cells[i].dims[d], "stream") && r->cells[i].nokreps)
			return 1;
	return 0;
}

int report_whole_process(const struct rcell *c, int m)
{
	return m >= 0 && m < MATRIX_NMETRICS && c->st[m].n > 0 && c->outside[m] > 0;
}

int report_dim(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->ndims; i++)
		if (!strcmp(r->dimnames[i], name))
			return (int)i;
	return -1;
}

const char *report_value_human(const struct report *r, size_t d, const char *v, char *b,
			       size_t len)
{
	const struct dimension *md = matrix_dim(&r->m, r->dimnames[d]);
	char *end;

	if (md && md->kind == VK_DURATION) {	/* seconds in the CSV */
		double sec = strtod(v, &end);
		if (!*end && sec == 0 && matrix_dim_is_link(md))
			return "0ms";		/* a link without delay (jitter) */
		if (*end || !*v || !(sec > 0))
			return v;
		return units_format_duration((uint64_t)(sec * 1e9 + 0.5), b, len);
	}
	if (md && md->kind == VK_PERCENT && *v) {	/* percent in the CSV */
		snprintf(b, len, "%s%%", v);
		return b;
	}
	unsigned long long n = strtoull(v, &end, 10);
	if (!md || *end || !*v)
		return v;
	if (md->kind == VK_SIZE)
		return units_format_size(n, b, len);
	if (md->kind == VK_RATE)	/* per second in the CSV, 0 unpaced */
		return n ? units_format_rate(n, b, len) : "unpaced";
	if (md->kind == VK_BITRATE) {	/* bits per second in the CSV */
		static const char *const u[] = { "bit", "kbit", "mbit", "gbit", "tbit" };
		size_t k = 0;
		for (; k < 4 && n && n % 1000 == 0; k++)
			n /= 1000;
		snprintf(b, len, "%llu%s", n, u[k]);
		return b;
	}
	return v;
}

size_t report_dim_values(const struct report *r, size_t d, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t c = 0; c < r->ncells; c++) {
		size_t i;
		for (i = 0; i < n && strcmp(out[i], r->cells[c].dims[d]); i++)
			;
		if (i == n && n < max)
			out[n++] = r->cells[c].dims[d];
	}
	return n;
}

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

static void load_meta(struct report *r)
{
	struct csv_table t;
	char path[4096], err[256];

	snprintf(path, sizeof(path), "%s/meta.csv", r->dir);
	if (csv_table_load(&t, path, err, sizeof(err)) < 0)
		return;	/* optional: a report without host facts */
	int k = csv_table_col(&t, "key"), v = csv_table_col(&t, "value");
	if (k >= 0 && v >= 0 && (r->meta = calloc(t.nrows + 1, sizeof(*r->meta)))) {
		for (size_t i = 0; i < t.nrows; i++) {
			r->meta[r->nmeta].key = strdup(t.rows[i][k]);
			r->meta[r->nmeta].value = strdup(t.rows[i][v]);
			if (r->meta[r->nmeta].key && r->meta[r->nmeta].value)
				r->nmeta++;
		}
	}
	csv_table_release(&t);
}

/* A run folder whose meta.csv still says `running`: its runner still runs,
 * or was killed (procinfo.h).  The status read back says which. */
static void judge_running(struct report *r)
{
	for (size_t i = 0; i < r->nmeta; i++) {
		if (strcmp(r->meta[i].key, "status") || strcmp(r->meta[i].value, "running"))
			continue;
		const char *pid = report_meta(r, "runner_pid");
		r->runner = proc_state_of(pid, report_meta(r, "runner_start"),
					  report_meta(r, "boot_id"));
		char buf[256];
		if (r->runner == PROC_GONE)
			snprintf(buf, sizeof(buf), "killed: its runner (pid %s) ended before the "
				 "run did", pid);
		else if (r->runner == PROC_ALIVE)
			snprintf(buf, sizeof(buf), "still running (runner pid %s)", pid);
		else
			return;
		char *v = strdup(buf);
		if (v) {
			free(r->meta[i].value);
			r->meta[i].value = v;
		}
	}
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

/* First failure status of a cell, and how many failed. */
static int set_status(struct rcell *c, const char *first_failure)
{
	char buf[512];
	size_t ok = c->reps - c->failed;

	if (!c->failed)
		snprintf(buf, sizeof(buf), "ok");
	else if (!ok)
		snprintf(buf, sizeof(buf), "%s", first_failure);
	else
		snprintf(buf, sizeof(buf), "ok, %zu of %zu failed (%s)", c->failed, c->reps,
			 first_failure);
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

	if (col->metric[per_rtt] >= 0 || (col->pattern >= 0 && !strcmp(row[col->pattern], "stream")))
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
		nv[c->st[m].n++] = v[m];	/* st[m].n counts until summarized */
	}
	return 0;
}

/* One row of results.csv (line `line`) into its cell; a failed one counted,
 * and its status kept in first_fail (by cell index) when it is the cell's
 * first failure.  -1 with err. */
static int add_row(struct report *r, char **row, size_t line, const struct columns *col,
		   char **first_fail, const char *path, char *err, size_t errlen)
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
	const char *place = col->placement >= 0 ? row[col->placement] : "none";
	if (!c->reps)
		snprintf(c->placement, sizeof(c->placement), "%s", place);
	else if (strcmp(c->placement, place))
		snprintf(c->placement, sizeof(c->placement), "mixed");
	c->reps++;
	if (strcmp(row[col->status], "ok")) {
		if (!c->failed++)
			first_fail[c - r->cells] = row[col->status];
		return 0;
	}
	return add_ok_rep(c, row, line, col, path, err, errlen);
}

static int load_results(struct report *r, char *err, size_t errlen)
{
	struct csv_table t;
	struct columns col;
	char path[4096];
	char **first_fail = NULL;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/results.csv", r->dir);
	if (csv_table_load_opts(&t, path, CSV_DROP_UNFINISHED, &r->dropped_row, err, errlen) < 0)
		return -1;
	if (read_columns(r, &t, path, &col, err, errlen) < 0)
		goto out;
	first_fail = calloc(t.nrows + 1, sizeof(*first_fail));
	if (!first_fail) {
		out_of_memory(path, err, errlen);
		goto out;
	}
	for (size_t i = 0; i < t.nrows; i++)
		if (add_row(r, t.rows[i], i + 2, &col, first_fail, path, err, errlen) < 0)
			goto out;
	for (size_t i = 0; i < r->ncells; i++)
		if (set_status(&r->cells[i], first_fail[i] ? first_fail[i] : "")) {
			out_of_memory(path, err, errlen);
			goto out;
		}
	if (r->ncells)
		qsort(r->cells, r->ncells, sizeof(*r->cells), cmp_cell);
	rc = 0;
out:
	free(first_fail);
	csv_table_release(&t);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void summarize(struct report *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		struct rcell *c = &r->cells[i];
		for (size_t m = 0; m < MATRIX_NMETRICS; m++) {
			size_t n = c->st[m].n;
			stats_summarize(c->vals[m], n, &c->st[m]);
			c->noisy[m] = c->st[m].cv > r->m.report.noisy_cv;
		}
		if (c->nelapsed)
			qsort(c->elapsed, c->nelapsed, sizeof(*c->elapsed), cmp_double);
		c->window_s = stats_median_sorted(c->elapsed, c->nelapsed);
		c->short_window = c->window_s < MATRIX_SHORT_WINDOW_S;	/* NaN: no */
	}
}

static int add_def(struct report *r, const char *name, size_t dim, const char *num,
		   const char *den, int metric)
{
	for (size_t i = 0; i < r->ndefs; i++)	/* --ratio a/b twice: once is enough */
		if (!strcmp(r->defs[i].name, name))
			return 0;
	struct rratio_def *defs = realloc(r->defs, (r->ndefs + 1) * sizeof(*defs));

	if (!defs)
		return -1;
	r->defs = defs;
	struct rratio_def *d = &defs[r->ndefs++];
	memset(d, 0, sizeof(*d));
	d->dim = dim;
	d->metric = metric;
	d->geomean = NAN;
	d->name = strdup(name);
	d->num = strdup(num);
	d->den = strdup(den);
	return d->name && d->num && d->den ? 0 : -1;
}

/* A --ratio value as results.csv writes it: parsed as --only parses it
 * (units: 64KiB, 50ms), else as given (65536, 0.05 as results.csv has them). */
static void ratio_value(const struct dimension *md, const char *text, char *out, size_t len)
{
	struct mvalue v = { 0 };
	char why[256];

	snprintf(out, len, "%s", text);
	if (md && matrix_parse_value(md->kind, text, &v, why, sizeof(why)) == 0)
		matrix_format_value(md, &v, out, len);
	free(v.text);
}

/* --ratio [DIM:]NUM/DEN */
static int def_from_flag(struct report *r, const char *arg, int metric, char *err, size_t errlen)
{
	char buf[256], *dimname = "transport", *num = buf, *slash, *colon;
	int d;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf) || !(slash = strchr(buf, '/'))) {
		snprintf(err, errlen, "--ratio %s: expected [DIMENSION:]NUMERATOR/DENOMINATOR, "
			 "e.g. --ratio unix/tcp", arg);
		return -1;
	}
	if ((colon = strchr(buf, ':')) && colon < slash) {
		*colon = '\0';
		dimname = buf;
		num = colon + 1;
	}
	*slash = '\0';
	if ((d = report_dim(r, dimname)) < 0) {
		snprintf(err, errlen, "--ratio %s: '%s' is not a dimension of this run", arg, dimname);
		return -1;
	}
	/* values as --only reads them (64KiB, 50ms), then as results.csv has them */
	char v[2][256], list[512] = "";
	const struct dimension *md = matrix_dim(&r->m, dimname);
	for (int k = 0; k < 2; k++)
		ratio_value(md, k ? slash + 1 : num, v[k], sizeof(v[k]));
	const char *vals[256];
	size_t nv = report_dim_values(r, (size_t)d, vals, 256), fn = 0;
	for (size_t i = 0; i < nv; i++) {
		fn |= (!strcmp(vals[i], v[0])) | (!strcmp(vals[i], v[1])) << 1;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 vals[i]);
	}
	if (fn != 3 || !strcmp(v[0], v[1])) {
		snprintf(err, errlen, "--ratio %s: %s and %s must be two values of %s in this run "
			 "(its values: %s)", arg, num, slash + 1, dimname, list);
		return -1;
	}
	char name[300];
	snprintf(name, sizeof(name), "%s/%s", num, slash + 1);
	return add_def(r, name, (size_t)d, v[0], v[1], metric);
}

static int load_defs(struct report *r, const struct report_opts *o, char *err, size_t errlen)
{
	int metric = -1;
	char val[2][128];

	if (o && o->metric && (metric = matrix_metric_index(o->metric)) < 0) {
		char hint[128];
		snprintf(err, errlen, "--metric %s: unknown metric%s", o->metric,
			 suggest_hint(o->metric, matrix_metrics, MATRIX_NMETRICS, hint, sizeof(hint)));
		return -1;
	}
	if (o && o->nratios) {
		for (size_t i = 0; i < o->nratios; i++)
			if (def_from_flag(r, o->ratios[i], metric < 0 ? 0 : metric, err, errlen) < 0)
				return -1;
		return 0;
	}
	for (size_t i = 0; i < r->m.report.nratios; i++) {
		const struct ratio_spec *s = &r->m.report.ratios[i];
		const struct dimension *md = &r->m.dims[s->dim];
		int d = report_dim(r, md->key);
		if (d < 0) {
			snprintf(err, errlen, "%s:%d:%d: ratio dimension '%s' is not a column of "
				 "results.csv", r->m.path, s->pos.line, s->pos.col, md->key);
			return -1;
		}
		matrix_format_value(md, &s->numerator, val[0], sizeof(val[0]));
		matrix_format_value(md, &s->denominator, val[1], sizeof(val[1]));
		if (add_def(r, s->name, (size_t)d, val[0], val[1],
			    metric >= 0 ? metric : matrix_metric_index(s->metric)) < 0)
			return -1;
	}
	if (r->m.report.nratios)
		return 0;
	/* default: every transport against the first one listed */
	int d = report_dim(r, "transport");
	const struct dimension *md = matrix_dim(&r->m, "transport");
	if (d < 0 || !md || md->nvalues < 2)
		return 0;
	matrix_format_value(md, &md->values[0], val[1], sizeof(val[1]));
	for (size_t i = 1; i < md->nvalues; i++) {
		char name[300];
		matrix_format_value(md, &md->values[i], val[0], sizeof(val[0]));
		snprintf(name, sizeof(name), "%s/%s", val[0], val[1]);
		if (add_def(r, name, (size_t)d, val[0], val[1], metric < 0 ? 0 : metric) < 0)
			return -1;
	}
	return 0;
}

/* The cell that differs from c only in dimension d, where it has value v. */
static const struct rcell *partner(const struct report *r, const struct rcell *c, size_t d,
				   const char *v)
{
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *o = &r->cells[i];
		size_t k;
		if (strcmp(o->dims[d], v))
			continue;
		for (k = 0; k < r->ndims; k++)
			if (k != d && strcmp(o->dims[k], c->dims[k]))
				break;
		if (k == r->ndims)
			return o;
	}
	return NULL;
}

static int pair_up(struct report *r)
{
	for (size_t di = 0; di < r->ndefs; di++) {
		struct rratio_def *def = &r->defs[di];
		double *logs = malloc((r->ncells + 1) * sizeof(*logs));
		size_t nl = 0;
		if (!logs)
			return -1;
		for (size_t i = 0; i < r->ncells; i++) {
			const struct rcell *c = &r->cells[i], *o;
			if (strcmp(c->dims[def->dim], def->num) ||
			    !(o = partner(r, c, def->dim, def->den)))
				continue;
			struct rpair *p = realloc(r->pairs, (r->npairs + 1) * sizeof(*p));
			if (!p) {
				free(logs);
				return -1;
			}
			r->pairs = p;
			p = &p[r->npairs++];
			p->def = di;
			p->num = c;
			p->den = o;
			stats_ratio_ci(c->vals[def->metric], c->st[def->metric].n, o->vals[def->metric],
				       o->st[def->metric].n, STATS_LEVEL, &p->ratio, &p->lo, &p->hi,
				       &p->level);
			if (isfinite(p->ratio))
				logs[nl++] = p->ratio;
		}
		def->geomean = stats_geomean(logs, nl);
		def->npairs = nl;
		free(logs);
	}
	return 0;
}

int report_load(struct report *r, const char *dir, const struct report_opts *o,
		char *err, size_t errlen)
{
	char path[4096];
	struct stat st;

	memset(r, 0, sizeof(*r));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a run folder: %s", dir,
			 errno ? strerror(errno) : "not a directory");
		return -1;
	}
	r->dir = strdup(dir);
	snprintf(path, sizeof(path), "%s/matrix.yaml", dir);
	if (!r->dir || matrix_load(&r->m, path, err, errlen) < 0) {
		free(r->dir);
		r->dir = NULL;
		return -1;
	}
	load_meta(r);
	judge_running(r);
	if (load_results(r, err, errlen) < 0)
		goto fail;
	for (size_t d = 0; d < r->m.ndims; d++)
		if (report_dim(r, r->m.dims[d].key) < 0) {
			snprintf(err, errlen, "%s:%d:%d: dimension '%s' has no column in %s/results.csv",
				 path, r->m.dims[d].pos.line, r->m.dims[d].pos.col, r->m.dims[d].key, dir);
			goto fail;
		}
	summarize(r);
	if (report_hist_load(r, err, errlen) < 0)
		goto fail;
	if (load_defs(r, o, err, errlen) < 0)
		goto fail;
	if (pair_up(r) < 0) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	return 0;
fail:
	report_release(r);
	return -1;
}

void report_release(struct report *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		for (size_t d = 0; d < r->ndims && r->cells[i].dims; d++)
			free(r->cells[i].dims[d]);
		free(r->cells[i].dims);
		free(r->cells[i].status);
		free(r->cells[i].okreps);
		free(r->cells[i].elapsed);
		free(r->cells[i].buckets);
		for (size_t m = 0; m < MATRIX_NMETRICS; m++)
			free(r->cells[i].vals[m]);
	}
	for (size_t d = 0; d < r->ndims && r->dimnames; d++)
		free(r->dimnames[d]);
	for (size_t i = 0; i < r->ndefs; i++) {
		free(r->defs[i].name);
		free(r->defs[i].num);
		free(r->defs[i].den);
	}
	for (size_t i = 0; i < r->nmeta; i++) {
		free(r->meta[i].key);
		free(r->meta[i].value);
	}
	free(r->meta);
	free(r->defs);
	free(r->pairs);
	free(r->dimnames);
	free(r->dimcol);
	free(r->cells);
	free(r->dir);
	if (r->m.path)
		matrix_release(&r->m);
	memset(r, 0, sizeof(*r));
}

int report_set_outdir(struct report *r, const char *dir)
{
	char *d = strdup(dir);

	if (!d)
		return -1;
	free(r->dir);
	r->dir = d;
	return 0;
}
