/* summary.csv and ratios.csv: see summary.h. */
#include "summary.h"
#include "csvfile.h"
#include "headline.h"
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.h"

/* ---- summary.csv ---- */

static const char *const stat_cols[] = { "n", "median", "ci_lo", "ci_hi", "min", "max", "mean",
					 "stdev", "cv" };

/* one value has no interval (stats.h): its ends and level stay empty */
static void stat_values(const struct stat_summary *s, double *v)
{
	int iv = stats_has_interval(s);

	v[0] = (double)s->n, v[1] = s->median, v[2] = iv ? s->ci_lo : NAN;
	v[3] = iv ? s->ci_hi : NAN, v[4] = s->min;
	v[5] = s->max, v[6] = s->mean, v[7] = s->stdev, v[8] = s->cv;
}

static double stat_level(const struct stat_summary *s)
{
	return stats_has_interval(s) ? s->ci_level : NAN;
}

static void summary_header(struct csv_out *w, const struct report *r)
{
	char name[64];

	csv_out_field(w, "cell");
	for (size_t d = 0; d < r->ndims; d++)
		csv_out_field(w, r->dimnames[d]);
	const char *fixed[] = { "reps", "ok", "failed", "status", "noisy", "ci_level" };
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		csv_out_field(w, fixed[i]);
	for (size_t m = 0; m < MATRIX_NMETRICS; m++)
		for (size_t s = 0; s < ARRAY_SIZE(stat_cols); s++) {
			snprintf(name, sizeof(name), "%s_%s", metrics[m].name, stat_cols[s]);
			csv_out_field(w, name);
		}
	for (size_t m = 0; m < MATRIX_NMETRICS; m++) {	/* added later: at the end */
		snprintf(name, sizeof(name), "%s_ci_level", metrics[m].name);
		csv_out_field(w, name);
	}
	/* later still: the timed window's median and summary.md's short-window
	 * mark, and why an adaptive repeat stopped */
	csv_out_field(w, "window_s");
	csv_out_field(w, "short_window");
	csv_out_field(w, "repeat_stop");
	/* the matrix's percentiles: the metric table lacks, each as a metric's
	 * columns then its ci_level (report_pct.h); none without the key */
	for (size_t x = 0; x < r->nextra; x++) {
		for (size_t s = 0; s < ARRAY_SIZE(stat_cols); s++) {
			snprintf(name, sizeof(name), "%s_%s", r->pct[r->extra[x]].name, stat_cols[s]);
			csv_out_field(w, name);
		}
		snprintf(name, sizeof(name), "%s_ci_level", r->pct[r->extra[x]].name);
		csv_out_field(w, name);
	}
	csv_out_end_row(w);
}

static void summary_row(struct csv_out *w, const struct report *r, const struct rcell *c)
{
	char noisy[512] = "";

	csv_out_u64(w, c->number);
	for (size_t d = 0; d < r->ndims; d++)
		csv_out_field(w, c->dims[d]);
	csv_out_u64(w, c->reps);
	csv_out_u64(w, c->reps - c->failed);
	csv_out_u64(w, c->failed);
	csv_out_field(w, c->status);
	for (size_t m = 0; m < MATRIX_NMETRICS; m++)
		if (c->noisy[m])
			snprintf(noisy + strlen(noisy), sizeof(noisy) - strlen(noisy), "%s%s",
				 noisy[0] ? ";" : "", metrics[m].name);
	for (size_t x = 0; x < r->nextra; x++)
		if (c->xnoisy[x])
			snprintf(noisy + strlen(noisy), sizeof(noisy) - strlen(noisy), "%s%s",
				 noisy[0] ? ";" : "", r->pct[r->extra[x]].name);
	csv_out_field(w, noisy);
	csv_out_double(w, stat_level(&c->st[matrix_metric_index("msgs_per_s")]), 6);
	for (size_t m = 0; m < MATRIX_NMETRICS; m++) {
		double v[ARRAY_SIZE(stat_cols)];
		stat_values(&c->st[m], v);
		for (size_t s = 0; s < ARRAY_SIZE(stat_cols); s++)
			csv_out_double(w, v[s], 10);
	}
	for (size_t m = 0; m < MATRIX_NMETRICS; m++)
		csv_out_double(w, stat_level(&c->st[m]), 6);
	csv_out_double(w, c->window_s, 6);
	csv_out_u64(w, (uint64_t)(c->short_window != 0));
	csv_out_field(w, c->repeat_stop);
	for (size_t x = 0; x < r->nextra; x++) {
		double v[ARRAY_SIZE(stat_cols)];
		stat_values(&c->xst[x], v);
		for (size_t s = 0; s < ARRAY_SIZE(stat_cols); s++)
			csv_out_double(w, v[s], 10);
		csv_out_double(w, stat_level(&c->xst[x]), 6);
	}
	csv_out_end_row(w);
}

int summary_write_csv(const struct report *r, char *err, size_t errlen)
{
	struct csv_out w;
	char path[4096];

	snprintf(path, sizeof(path), "%s/summary.csv", r->dir);
	if (csv_out_create(&w, path, err, errlen) < 0)
		return -1;
	summary_header(&w, r);
	for (size_t i = 0; i < r->ncells; i++)
		summary_row(&w, r, &r->cells[i]);
	if (csv_out_close(&w) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- ratios.csv ---- */

static void ratios_header(struct csv_out *w, const struct report *r)
{
	const char *head[] = { "name", "metric", "dimension", "numerator", "denominator", "scope",
			       "num_cell", "den_cell" };
	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		csv_out_field(w, head[i]);
	for (size_t d = 0; d < r->ndims; d++)
		csv_out_field(w, r->dimnames[d]);
	const char *tail[] = { "ratio", "ci_lo", "ci_hi", "n_num", "n_den", "pairs", "resamples",
			       "seed", "ci_level" };
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
		csv_out_field(w, tail[i]);
	csv_out_end_row(w);
}

static void ratio_row_head(struct csv_out *w, const struct report *r, const struct rratio_def *d,
			   const char *scope)
{
	csv_out_text(w, d->name);
	csv_out_field(w, matrix_metrics[d->metric]);
	csv_out_field(w, r->dimnames[d->dim]);
	csv_out_field(w, d->num);
	csv_out_field(w, d->den);
	csv_out_field(w, scope);
}

/* scope = cell: one pair of cells that differ only in the ratio's dimension */
static void pair_row(struct csv_out *w, const struct report *r, const struct rratio_def *def,
		     const struct rpair *p)
{
	ratio_row_head(w, r, def, "cell");
	csv_out_u64(w, p->num->number);
	csv_out_u64(w, p->den->number);
	for (size_t d = 0; d < r->ndims; d++)
		csv_out_field(w, d == def->dim ? "" : p->num->dims[d]);
	csv_out_double(w, p->ratio, 10);
	csv_out_double(w, p->lo, 10);
	csv_out_double(w, p->hi, 10);
	csv_out_u64(w, p->num->st[def->metric].n);
	csv_out_u64(w, p->den->st[def->metric].n);
	csv_out_u64(w, 1);
	csv_out_field(w, "");	/* resamples, seed: no bootstrap any more */
	csv_out_field(w, "");
	csv_out_double(w, p->level, 6);
	csv_out_end_row(w);
}

/* scope = geomean: the geometric mean over the ratio's pairs */
static void geomean_row(struct csv_out *w, const struct report *r, const struct rratio_def *def)
{
	ratio_row_head(w, r, def, "geomean");
	csv_out_field(w, "");
	csv_out_field(w, "");
	for (size_t d = 0; d < r->ndims; d++)
		csv_out_field(w, "");
	csv_out_double(w, def->geomean, 10);
	csv_out_field(w, "");
	csv_out_field(w, "");
	csv_out_field(w, "");
	csv_out_field(w, "");
	csv_out_u64(w, def->npairs);
	csv_out_field(w, "");
	csv_out_field(w, "");
	csv_out_field(w, "");
	csv_out_end_row(w);
}

/* scope = pattern: the geometric mean over the ratio's pairs of one
 * pattern, named in the pattern column (headline_means) */
static void pattern_row(struct csv_out *w, const struct report *r, const struct headline_mean *g)
{
	int pd = report_dim(r, "pattern");

	ratio_row_head(w, r, &r->defs[g->def], "pattern");
	csv_out_field(w, "");
	csv_out_field(w, "");
	for (size_t d = 0; d < r->ndims; d++)
		csv_out_field(w, (int)d == pd ? g->pattern : "");
	csv_out_double(w, g->geomean, 10);
	for (size_t i = 0; i < 4; i++)	/* ci_lo, ci_hi, n_num, n_den */
		csv_out_field(w, "");
	csv_out_u64(w, g->npairs);
	for (size_t i = 0; i < 3; i++)	/* resamples, seed, ci_level */
		csv_out_field(w, "");
	csv_out_end_row(w);
}

int summary_write_ratios(const struct report *r, char *err, size_t errlen)
{
	struct csv_out w;
	struct headline_mean *g;
	size_t ng;
	char path[4096];

	snprintf(path, sizeof(path), "%s/ratios.csv", r->dir);
	if (headline_means(r, &g, &ng) < 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (csv_out_create(&w, path, err, errlen) < 0) {
		free(g);
		return -1;
	}
	ratios_header(&w, r);
	for (size_t di = 0; di < r->ndefs; di++) {
		for (size_t i = 0; i < r->npairs; i++)
			if (r->pairs[i].def == di)
				pair_row(&w, r, &r->defs[di], &r->pairs[i]);
		/* a run without a pattern column is all pingpong: its geomean
		 * row is the pattern's already */
		for (size_t i = 0; i < ng && report_dim(r, "pattern") >= 0; i++)
			if (g[i].def == di)
				pattern_row(&w, r, &g[i]);
		geomean_row(&w, r, &r->defs[di]);
	}
	free(g);
	if (csv_out_close(&w) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
