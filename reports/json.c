/* A run folder's figures as one JSON document: see json.h. */
#include "json.h"
#include "arrays.h"
#include "headline.h"
#include "jsonout.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

#define CI_LEVEL_DIGITS 6	/* as summary.csv and ratios.csv write a ci_level */

struct run_json {
	json_t *doc;
	json_t *verdicts;
	int have_report;
	int bad;		/* a step failed: out of memory */
};

struct run_json *run_json_new(void)
{
	struct run_json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->doc = json_object();
	j->verdicts = json_array();
	if (!j->doc || !j->verdicts) {
		run_json_free(j);
		return NULL;
	}
	jsonout_set(j->doc, "schema_version", json_integer(RUN_JSON_SCHEMA), &j->bad);
	jsonout_set(j->doc, "document", json_string("run"), &j->bad);
	return j;
}

void run_json_free(struct run_json *j)
{
	if (!j)
		return;
	json_decref(j->doc);
	json_decref(j->verdicts);
	free(j);
}

/* obj[key] = v, with a key from the run folder's files (a meta.csv key, a
 * results.csv column) made UTF-8 as jsonout_string makes a value: JSON
 * text is UTF-8, and libjansson refuses a key that is not. */
static void set_text_key(json_t *obj, const char *key, json_t *v, int *bad)
{
	json_t *k = jsonout_string(key);
	const char *safe = k ? json_string_value(k) : NULL;

	if (!safe) {
		json_decref(v);
		(*bad)++;
	} else {
		jsonout_set(obj, safe, v, bad);
	}
	json_decref(k);
}

/* meta.csv as an object, in its order; every value a string, as written */
static json_t *meta_object(const struct report *r, int *bad)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < r->nmeta; i++)
		set_text_key(o, r->meta[i].key, jsonout_string(r->meta[i].value), bad);
	return o;
}

/* The metric table, then the matrix's percentiles: it lacks (report_pct.h) */
static json_t *metrics_array(const struct report *r, int *bad)
{
	json_t *a = json_array();

	for (size_t m = 0; a && m < MATRIX_NMETRICS; m++) {
		json_t *o = json_object();
		if (o) {
			jsonout_set(o, "name", json_string(metrics[m].name), bad);
			jsonout_set(o, "title", json_string(metrics[m].title), bad);
			jsonout_set(o, "unit", json_string(metrics[m].unit), bad);
			jsonout_set(o, "better", json_string(metrics[m].better == HIGHER_IS_BETTER
							      ? "higher" : "lower"), bad);
		}
		jsonout_append(a, o, bad);
	}
	for (size_t x = 0; a && x < r->nextra; x++) {
		const struct rpct *k = &r->pct[r->extra[x]];
		json_t *o = json_object();
		if (o) {
			jsonout_set(o, "name", json_string(k->name), bad);
			jsonout_set(o, "title", json_string(k->title), bad);
			jsonout_set(o, "unit", json_string("µs"), bad);
			jsonout_set(o, "better", json_string("lower"), bad);
		}
		jsonout_append(a, o, bad);
	}
	return a;
}

/* A dimension's value, typed by its kind in the folder's matrix.yaml. */
static json_t *param_value(const struct report *r, size_t d, const char *text)
{
	const struct dimension *dim = matrix_dim(&r->m, r->dimnames[d]);

	return dim ? jsonout_dim_value(dim->kind, text) : jsonout_string(text);
}

/* {dimension: value} of a cell; skip: a dimension left out (-1: none) */
static json_t *params_object(const struct report *r, const struct rcell *c, long skip, int *bad)
{
	json_t *o = json_object();

	for (size_t d = 0; o && d < r->ndims; d++)
		if ((long)d != skip)
			set_text_key(o, r->dimnames[d], param_value(r, d, c->dims[d]), bad);
	return o;
}

/* "pattern=pingpong transport=unix size=16": the dimensions as results.csv
 * writes them, in its order (a dashboard's benchmark name) */
static json_t *cell_label(const struct report *r, const struct rcell *c)
{
	size_t len = 1;

	for (size_t d = 0; d < r->ndims; d++)
		len += strlen(r->dimnames[d]) + strlen(c->dims[d]) + 2;
	char *s = malloc(len), *p = s;
	if (!s)
		return NULL;
	*p = '\0';
	for (size_t d = 0; d < r->ndims; d++)
		p += sprintf(p, "%s%s=%s", d ? " " : "", r->dimnames[d], c->dims[d]);
	json_t *j = jsonout_string(s);
	free(s);
	return j;
}

/* "upper" when cell c's figure of metric m is an upper bound by
 * construction (report_upper_bound: a stream across hosts), else null */
static json_t *bound_value(const struct report *r, const struct rcell *c, int m)
{
	return report_upper_bound(r, c, m) ? json_string("upper") : json_null();
}

/* summary.csv's figures s of cell c, of metric m (or of a percentile the
 * table lacks: a round trip's, m then rtt_p999_us, whose bound it shares) */
static json_t *stat_object(const struct report *r, const struct rcell *c,
			   const struct stat_summary *s, int m, int *bad)
{
	json_t *o = json_object();
	int iv = stats_has_interval(s);	/* one value has none (stats.h) */

	if (!o)
		return NULL;
	jsonout_set(o, "n", json_integer((json_int_t)s->n), bad);
	jsonout_set(o, "median", jsonout_number(s->median), bad);
	jsonout_set(o, "ci_lo", iv ? jsonout_number(s->ci_lo) : json_null(), bad);
	jsonout_set(o, "ci_hi", iv ? jsonout_number(s->ci_hi) : json_null(), bad);
	jsonout_set(o, "min", jsonout_number(s->min), bad);
	jsonout_set(o, "max", jsonout_number(s->max), bad);
	jsonout_set(o, "mean", jsonout_number(s->mean), bad);
	jsonout_set(o, "stdev", jsonout_number(s->stdev), bad);
	jsonout_set(o, "cv", jsonout_number(s->cv), bad);
	jsonout_set(o, "ci_level", iv ? jsonout_rounded(s->ci_level, CI_LEVEL_DIGITS)
		    : json_null(), bad);
	jsonout_set(o, "bound", bound_value(r, c, m), bad);
	return o;
}

static json_t *cell_object(const struct report *r, const struct rcell *c, int *bad)
{
	json_t *o = json_object(), *noisy = json_array(), *st = json_object();

	if (o) {
		jsonout_set(o, "cell", json_integer(c->number), bad);
		jsonout_set(o, "label", cell_label(r, c), bad);
		jsonout_set(o, "params", params_object(r, c, -1, bad), bad);
		jsonout_set(o, "reps", json_integer((json_int_t)c->reps), bad);
		jsonout_set(o, "ok", json_integer((json_int_t)(c->reps - c->failed)), bad);
		jsonout_set(o, "failed", json_integer((json_int_t)c->failed), bad);
		jsonout_set(o, "status", jsonout_string(c->status), bad);
	}
	for (size_t m = 0; noisy && m < MATRIX_NMETRICS; m++)
		if (c->noisy[m])
			jsonout_append(noisy, json_string(metrics[m].name), bad);
	for (size_t x = 0; noisy && x < r->nextra; x++)
		if (c->xnoisy[x])
			jsonout_append(noisy, json_string(r->pct[r->extra[x]].name), bad);
	for (size_t m = 0; st && m < MATRIX_NMETRICS; m++)
		jsonout_set(st, metrics[m].name, stat_object(r, c, &c->st[m], (int)m, bad), bad);
	for (size_t x = 0; st && x < r->nextra; x++)	/* percentiles: beyond the table */
		jsonout_set(st, r->pct[r->extra[x]].name,
			    stat_object(r, c, &c->xst[x], matrix_metric_index("rtt_p999_us"), bad),
			    bad);
	if (o) {
		jsonout_set(o, "noisy", noisy, bad);
		jsonout_set(o, "window_s", jsonout_number(c->window_s), bad);
		jsonout_set(o, "short_window", json_boolean(c->short_window), bad);
		jsonout_set(o, "measured_by", c->measured_by[0] ? jsonout_string(c->measured_by)
			    : json_null(), bad);
		/* where its workers ran: results.csv's placement ("none",
		 * "server=0;clients=1", "mixed" when repetitions disagree) */
		jsonout_set(o, "placement", jsonout_string(c->placement), bad);
		jsonout_set(o, "repeat_stop", c->repeat_stop[0] ? jsonout_string(c->repeat_stop)
			    : json_null(), bad);
		jsonout_set(o, "lost", jsonout_number(c->lost), bad);
		jsonout_set(o, "rtt_samples", jsonout_number(c->rtt_samples), bad);
		/* zerocopy: true cells: the MSG_ZEROCOPY counts, summed (else null) */
		jsonout_set(o, "zc_sends", jsonout_number(c->zc_sends), bad);
		jsonout_set(o, "zc_completions", jsonout_number(c->zc_completions), bad);
		jsonout_set(o, "zc_copied", jsonout_number(c->zc_copied), bad);
		/* a paced cell's schedule, as summary.md's ˢ judges it */
		struct rate_schedule rs;
		int paced = report_rate_schedule(r, c, &rs);
		jsonout_set(o, "rate_asked", paced ? jsonout_number(rs.asked) : json_null(), bad);
		jsonout_set(o, "rate_achieved", paced ? jsonout_rounded(rs.achieved, 10) : json_null(),
			    bad);
		jsonout_set(o, "reps_behind_schedule", paced ? json_integer((json_int_t)rs.behind)
			    : json_null(), bad);
		jsonout_set(o, "schedule_kept", paced ? json_boolean(!rs.behind) : json_null(), bad);
		/* direction: bidir: the reverse stream's rates, means over the
		 * repetitions (summary.md's "Reverse direction"); null one way */
		double n = (double)c->rev_reps;
		jsonout_set(o, "rev_msgs_per_s", c->rev_reps ? jsonout_rounded(c->rev_msgs_per_s / n, 10)
			    : json_null(), bad);
		jsonout_set(o, "rev_mib_per_s", c->rev_reps ? jsonout_rounded(c->rev_mib_per_s / n, 10)
			    : json_null(), bad);
		jsonout_set(o, "stats", st, bad);
	} else {
		json_decref(noisy);
		json_decref(st);
	}
	return o;
}

/* ratios.csv's row of one cell pair */
static json_t *pair_object(const struct report *r, const struct rratio_def *def,
			   const struct rpair *p, int *bad)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jsonout_set(o, "num_cell", json_integer(p->num->number), bad);
	jsonout_set(o, "den_cell", json_integer(p->den->number), bad);
	jsonout_set(o, "params", params_object(r, p->num, (long)def->dim, bad), bad);
	jsonout_set(o, "ratio", jsonout_number(p->ratio), bad);
	jsonout_set(o, "ci_lo", jsonout_number(p->lo), bad);
	jsonout_set(o, "ci_hi", jsonout_number(p->hi), bad);
	jsonout_set(o, "n_num", json_integer((json_int_t)p->num->st[def->metric].n), bad);
	jsonout_set(o, "n_den", json_integer((json_int_t)p->den->st[def->metric].n), bad);
	jsonout_set(o, "ci_level", jsonout_rounded(p->level, CI_LEVEL_DIGITS), bad);
	jsonout_set(o, "num_bound", bound_value(r, p->num, def->metric), bad);
	jsonout_set(o, "den_bound", bound_value(r, p->den, def->metric), bad);
	double ref;
	const char *label;
	if (report_pair_reference(r, p, &ref, &label)) {	/* the matrix file's reference: */
		json_t *rf = json_object();
		if (rf) {
			jsonout_set(rf, "label", jsonout_string(label), bad);
			jsonout_set(rf, "ratio", jsonout_number(ref), bad);
		}
		jsonout_set(o, "reference", rf, bad);
	}
	return o;
}

/* The ratio's geometric means per pattern (headline_means), as ratios.csv's
 * scope = pattern rows: none when the folder has no pattern column. */
static json_t *pattern_means(const struct report *r, const struct headline_mean *g, size_t ng,
			     size_t di, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < ng && report_dim(r, "pattern") >= 0; i++) {
		if (g[i].def != di)
			continue;
		json_t *o = json_object();
		if (o) {
			jsonout_set(o, "pattern", jsonout_string(g[i].pattern), bad);
			jsonout_set(o, "geomean", jsonout_number(g[i].geomean), bad);
			jsonout_set(o, "min", jsonout_number(g[i].min), bad);
			jsonout_set(o, "max", jsonout_number(g[i].max), bad);
			jsonout_set(o, "pairs", json_integer((json_int_t)g[i].npairs), bad);
		}
		jsonout_append(a, o, bad);
	}
	return a;
}

static json_t *ratios_array(const struct report *r, int *bad)
{
	json_t *a = json_array();
	struct headline_mean *g = NULL;
	size_t ng = 0;

	if (headline_means(r, &g, &ng) < 0)
		*bad = 1;
	for (size_t di = 0; a && di < r->ndefs; di++) {
		const struct rratio_def *def = &r->defs[di];
		json_t *o = json_object(), *pairs = json_array();
		for (size_t i = 0; pairs && i < r->npairs; i++)
			if (r->pairs[i].def == di)
				jsonout_append(pairs, pair_object(r, def, &r->pairs[i], bad), bad);
		if (o) {
			jsonout_set(o, "name", jsonout_string(def->name), bad);
			jsonout_set(o, "metric", json_string(matrix_metrics[def->metric]), bad);
			jsonout_set(o, "dimension", jsonout_string(r->dimnames[def->dim]), bad);
			jsonout_set(o, "numerator", param_value(r, def->dim, def->num), bad);
			jsonout_set(o, "denominator", param_value(r, def->dim, def->den), bad);
			jsonout_set(o, "geomean", jsonout_number(def->geomean), bad);
			jsonout_set(o, "pairs", json_integer((json_int_t)def->npairs), bad);
			jsonout_set(o, "by_pattern", pattern_means(r, g, ng, di, bad), bad);
			jsonout_set(o, "cells", pairs, bad);
		} else {
			json_decref(pairs);
		}
		jsonout_append(a, o, bad);
	}
	free(g);
	return a;
}

void run_json_add_report(struct run_json *j, const struct report *r)
{
	json_t *cells, *dims, *m;

	if (!j)
		return;
	cells = json_array(), dims = json_array(), m = json_object();
	jsonout_set(j->doc, "run_dir", jsonout_string(r->dir), &j->bad);
	if (m) {
		jsonout_set(m, "name", jsonout_string(r->m.name), &j->bad);
		jsonout_set(m, "description", jsonout_string(r->m.description), &j->bad);
	}
	jsonout_set(j->doc, "matrix", m, &j->bad);
	jsonout_set(j->doc, "meta", meta_object(r, &j->bad), &j->bad);
	jsonout_set(j->doc, "results_cut_short", json_boolean(r->dropped_row), &j->bad);
	for (size_t d = 0; dims && d < r->ndims; d++)
		jsonout_append(dims, jsonout_string(r->dimnames[d]), &j->bad);
	jsonout_set(j->doc, "dimensions", dims, &j->bad);
	jsonout_set(j->doc, "metrics", metrics_array(r, &j->bad), &j->bad);
	if (r->npct) {	/* the matrix's percentiles:, as it lists them */
		json_t *pa = json_array();
		for (size_t i = 0; pa && i < r->npct; i++) {
			json_t *po = json_object();
			if (po) {
				jsonout_set(po, "percentile", json_real(r->pct[i].p), &j->bad);
				jsonout_set(po, "metric", json_string(r->pct[i].name), &j->bad);
			}
			jsonout_append(pa, po, &j->bad);
		}
		jsonout_set(j->doc, "percentiles", pa, &j->bad);
	}
	for (size_t i = 0; cells && i < r->ncells; i++)
		jsonout_append(cells, cell_object(r, &r->cells[i], &j->bad), &j->bad);
	jsonout_set(j->doc, "cells", cells, &j->bad);
	jsonout_set(j->doc, "ratios", ratios_array(r, &j->bad), &j->bad);
	j->have_report = 1;
}

void run_json_add_verdict(struct run_json *j, json_t *verdict, int bad)
{
	if (!j) {
		json_decref(verdict);
		return;
	}
	j->bad |= bad;
	jsonout_append(j->verdicts, verdict, &j->bad);
}

int run_json_write(const struct run_json *j, const char *path, char *err, size_t errlen)
{
	if (!j || !j->have_report) {
		snprintf(err, errlen, "%s: not written: the run folder could not be read", path);
		return -1;
	}
	/* every text from the folder is made UTF-8 on its way in (jsonout.h),
	 * so what is left to fail is libjansson's memory */
	if (j->bad) {
		snprintf(err, errlen, "%s: not written: libjansson failed to add a part of it "
			 "(out of memory?)", path);
		return -1;
	}
	/* the verdicts last, whatever the order of the calls */
	if (json_object_set(j->doc, "verdicts", j->verdicts) < 0) {
		snprintf(err, errlen, "%s: not written: libjansson failed to add its verdicts "
			 "(out of memory?)", path);
		return -1;
	}
	return jsonout_write(j->doc, path, err, errlen);
}
