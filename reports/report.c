/* A run folder read back into statistics and ratios: see report.h. */
#include "report.h"
#include "suggest.h"
#include "csvfile.h"
#include "gnuplot.h"
#include "markdown.h"
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *report_meta(const struct report *r, const char *key)
{
	for (size_t i = 0; i < r->nmeta; i++)
		if (!strcmp(r->meta[i].key, key))
			return r->meta[i].value;
	return "";
}

int report_dim(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->ndims; i++)
		if (!strcmp(r->dimnames[i], name))
			return (int)i;
	return -1;
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

static struct rcell *cell_for(struct report *r, unsigned number, char **row, size_t dim0)
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
	c->dims = calloc(r->ndims + 1, sizeof(*c->dims));
	if (!c->dims)
		return NULL;
	for (size_t d = 0; d < r->ndims; d++)
		if (!(c->dims[d] = strdup(row[dim0 + d])))
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

static int load_results(struct report *r, char *err, size_t errlen)
{
	struct csv_table t;
	char path[4096];
	int col[MATRIX_NMETRICS], rep, status, rc = -1;
	char **first_fail = NULL;

	snprintf(path, sizeof(path), "%s/results.csv", r->dir);
	if (csv_table_load_opts(&t, path, CSV_DROP_UNFINISHED, &r->dropped_row, err, errlen) < 0)
		return -1;
	rep = csv_table_col(&t, "rep");
	status = csv_table_col(&t, "status");
	if (csv_table_col(&t, "cell") != 0 || rep < 1 || status < 0) {
		snprintf(err, errlen, "%s:1: not a matrix results file: expected columns cell, ..., "
			 "rep, status", path);
		goto out;
	}
	r->ndims = (size_t)rep - 1;
	r->dimnames = calloc(r->ndims + 1, sizeof(*r->dimnames));
	if (!r->dimnames)
		goto oom;
	for (size_t d = 0; d < r->ndims; d++)
		if (!(r->dimnames[d] = strdup(t.header[d + 1])))
			goto oom;
	for (size_t m = 0; m < MATRIX_NMETRICS; m++)
		col[m] = csv_table_col(&t, matrix_metrics[m]);
	first_fail = calloc(t.nrows + 1, sizeof(*first_fail));
	if (!first_fail)
		goto oom;
	for (size_t i = 0; i < t.nrows; i++) {
		char **row = t.rows[i], *end;
		errno = 0;
		unsigned long number = strtoul(row[0], &end, 10);
		if (*end || !*row[0] || errno || number > UINT32_MAX || *row[0] == '-') {
			snprintf(err, errlen, "%s:%zu: cell '%s' is not a cell number", path, i + 2,
				 row[0]);
			goto out;
		}
		struct rcell *c = cell_for(r, (unsigned)number, row, 1);
		if (!c)
			goto oom;
		for (size_t d = 0; d < r->ndims; d++)
			if (strcmp(c->dims[d], row[d + 1])) {
				snprintf(err, errlen, "%s:%zu: cell %lu has %s %s here but %s above: "
					 "rows of another matrix?", path, i + 2, number, r->dimnames[d],
					 row[d + 1], c->dims[d]);
				goto out;
			}
		c->reps++;
		if (strcmp(row[status], "ok")) {
			if (!c->failed++)
				first_fail[c - r->cells] = row[status];
			continue;
		}
		unsigned *ok = realloc(c->okreps, (c->nokreps + 1) * sizeof(*ok));
		if (!ok)
			goto oom;
		c->okreps = ok;
		ok[c->nokreps++] = (unsigned)strtoul(row[rep], NULL, 10);
		for (size_t m = 0; m < MATRIX_NMETRICS; m++) {
			double v = NAN, *nv;
			if (col[m] >= 0 && to_double(row[col[m]], &v) < 0) {
				snprintf(err, errlen, "%s:%zu: %s '%s' is not a finite number", path,
					 i + 2, matrix_metrics[m], row[col[m]]);
				goto out;
			}
			if (isnan(v))
				continue;
			nv = realloc(c->vals[m], (c->st[m].n + 1) * sizeof(*nv));
			if (!nv)
				goto oom;
			c->vals[m] = nv;
			nv[c->st[m].n++] = v;	/* st[m].n counts until summarized */
		}
	}
	for (size_t i = 0; i < r->ncells; i++)
		if (set_status(&r->cells[i], first_fail[i] ? first_fail[i] : ""))
			goto oom;
	if (r->ncells)
		qsort(r->cells, r->ncells, sizeof(*r->cells), cmp_cell);
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "%s: out of memory", path);
out:
	free(first_fail);
	csv_table_release(&t);
	return rc;
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
	const char *vals[256];
	size_t nv = report_dim_values(r, (size_t)d, vals, 256), fn = 0;
	for (size_t i = 0; i < nv; i++)
		fn |= (!strcmp(vals[i], num)) | (!strcmp(vals[i], slash + 1)) << 1;
	if (fn != 3 || !strcmp(num, slash + 1)) {
		snprintf(err, errlen, "--ratio %s: %s and %s must be two values of %s in this run",
			 arg, num, slash + 1, dimname);
		return -1;
	}
	char name[300];
	snprintf(name, sizeof(name), "%s/%s", num, slash + 1);
	return add_def(r, name, (size_t)d, num, slash + 1, metric);
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
		results_format_value(md, &s->numerator, val[0], sizeof(val[0]));
		results_format_value(md, &s->denominator, val[1], sizeof(val[1]));
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
	results_format_value(md, &md->values[0], val[1], sizeof(val[1]));
	for (size_t i = 1; i < md->nvalues; i++) {
		char name[300];
		results_format_value(md, &md->values[i], val[0], sizeof(val[0]));
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
				       o->st[def->metric].n, STATS_BOOT_RESAMPLES, STATS_BOOT_SEED,
				       STATS_LEVEL, &p->ratio, &p->lo, &p->hi);
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
	if (load_results(r, err, errlen) < 0)
		goto fail;
	for (size_t d = 0; d < r->m.ndims; d++)
		if (report_dim(r, r->m.dims[d].key) < 0) {
			snprintf(err, errlen, "%s:%d:%d: dimension '%s' has no column in %s/results.csv",
				 path, r->m.dims[d].pos.line, r->m.dims[d].pos.col, r->m.dims[d].key, dir);
			goto fail;
		}
	summarize(r);
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
	free(r->cells);
	free(r->dir);
	if (r->m.path)
		matrix_release(&r->m);
	memset(r, 0, sizeof(*r));
}

/* ---- writing ---- */

static const char *const stat_cols[] = { "n", "median", "ci_lo", "ci_hi", "min", "max", "mean",
					 "stdev", "cv" };

static void stat_values(const struct stat_summary *s, double *v)
{
	v[0] = (double)s->n, v[1] = s->median, v[2] = s->ci_lo, v[3] = s->ci_hi, v[4] = s->min;
	v[5] = s->max, v[6] = s->mean, v[7] = s->stdev, v[8] = s->cv;
}

static int write_summary(const struct report *r, char *err, size_t errlen)
{
	struct csv_out w;
	char path[4096], name[64];

	snprintf(path, sizeof(path), "%s/summary.csv", r->dir);
	if (csv_out_open(&w, path, "w", err, errlen) < 0)
		return -1;
	csv_out_field(&w, "cell");
	for (size_t d = 0; d < r->ndims; d++)
		csv_out_field(&w, r->dimnames[d]);
	const char *fixed[] = { "reps", "ok", "failed", "status", "noisy", "ci_level" };
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		csv_out_field(&w, fixed[i]);
	for (size_t m = 0; m < MATRIX_NMETRICS; m++)
		for (size_t s = 0; s < ARRAY_SIZE(stat_cols); s++) {
			snprintf(name, sizeof(name), "%s_%s", matrix_metrics[m], stat_cols[s]);
			csv_out_field(&w, name);
		}
	csv_out_end_row(&w);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		char noisy[512] = "";
		csv_out_u64(&w, c->number);
		for (size_t d = 0; d < r->ndims; d++)
			csv_out_field(&w, c->dims[d]);
		csv_out_u64(&w, c->reps);
		csv_out_u64(&w, c->reps - c->failed);
		csv_out_u64(&w, c->failed);
		csv_out_field(&w, c->status);
		for (size_t m = 0; m < MATRIX_NMETRICS; m++)
			if (c->noisy[m])
				snprintf(noisy + strlen(noisy), sizeof(noisy) - strlen(noisy), "%s%s",
					 noisy[0] ? ";" : "", matrix_metrics[m]);
		csv_out_field(&w, noisy);
		csv_out_double(&w, c->st[0].ci_level, 6);
		for (size_t m = 0; m < MATRIX_NMETRICS; m++) {
			double v[ARRAY_SIZE(stat_cols)];
			stat_values(&c->st[m], v);
			for (size_t s = 0; s < ARRAY_SIZE(stat_cols); s++)
				csv_out_double(&w, v[s], 10);
		}
		csv_out_end_row(&w);
	}
	if (csv_out_close(&w) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void ratio_row_head(struct csv_out *w, const struct report *r, const struct rratio_def *d,
			   const char *scope)
{
	csv_out_field(w, d->name);
	csv_out_field(w, matrix_metrics[d->metric]);
	csv_out_field(w, r->dimnames[d->dim]);
	csv_out_field(w, d->num);
	csv_out_field(w, d->den);
	csv_out_field(w, scope);
}

static int write_ratios(const struct report *r, char *err, size_t errlen)
{
	struct csv_out w;
	char path[4096];

	snprintf(path, sizeof(path), "%s/ratios.csv", r->dir);
	if (csv_out_open(&w, path, "w", err, errlen) < 0)
		return -1;
	const char *head[] = { "name", "metric", "dimension", "numerator", "denominator", "scope",
			       "num_cell", "den_cell" };
	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		csv_out_field(&w, head[i]);
	for (size_t d = 0; d < r->ndims; d++)
		csv_out_field(&w, r->dimnames[d]);
	const char *tail[] = { "ratio", "ci_lo", "ci_hi", "n_num", "n_den", "pairs", "resamples",
			       "seed" };
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
		csv_out_field(&w, tail[i]);
	csv_out_end_row(&w);
	for (size_t di = 0; di < r->ndefs; di++) {
		const struct rratio_def *def = &r->defs[di];
		for (size_t i = 0; i < r->npairs; i++) {
			const struct rpair *p = &r->pairs[i];
			if (p->def != di)
				continue;
			ratio_row_head(&w, r, def, "cell");
			csv_out_u64(&w, p->num->number);
			csv_out_u64(&w, p->den->number);
			for (size_t d = 0; d < r->ndims; d++)
				csv_out_field(&w, d == def->dim ? "" : p->num->dims[d]);
			csv_out_double(&w, p->ratio, 10);
			csv_out_double(&w, p->lo, 10);
			csv_out_double(&w, p->hi, 10);
			csv_out_u64(&w, p->num->st[def->metric].n);
			csv_out_u64(&w, p->den->st[def->metric].n);
			csv_out_u64(&w, 1);
			csv_out_u64(&w, STATS_BOOT_RESAMPLES);
			csv_out_fieldf(&w, "%#llx", (unsigned long long)STATS_BOOT_SEED);
			csv_out_end_row(&w);
		}
		ratio_row_head(&w, r, def, "geomean");
		csv_out_field(&w, "");
		csv_out_field(&w, "");
		for (size_t d = 0; d < r->ndims; d++)
			csv_out_field(&w, "");
		csv_out_double(&w, def->geomean, 10);
		csv_out_field(&w, "");
		csv_out_field(&w, "");
		csv_out_field(&w, "");
		csv_out_field(&w, "");
		csv_out_u64(&w, def->npairs);
		csv_out_field(&w, "");
		csv_out_field(&w, "");
		csv_out_end_row(&w);
	}
	if (csv_out_close(&w) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int report_write(const struct report *r, char *err, size_t errlen)
{
	if (write_summary(r, err, errlen) < 0 || write_ratios(r, err, errlen) < 0 ||
	    markdown_write(r, err, errlen) < 0 || gnuplot_write_scripts(r, err, errlen) < 0)
		return -1;
	return 0;
}
