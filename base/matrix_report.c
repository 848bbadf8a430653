/* report: of a matrix file, how reports read the run: see matrix.h. */
#include "matrix_yaml.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "suggest.h"
#include "units.h"

/* ---- report: ---- */

static int load_noisy_cv(struct loader *L, const yaml_node_t *key, const yaml_node_t *val)
{
	const char *s;
	char *end;
	double v;

	if (ml_want_scalar(L, key, val))
		return -1;
	s = scalar(val);
	v = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%")) || !(v > 0) || v >= 1000)
		return error_node(L, at(key, val),
			"noisy_cv: '%s' is not a percentage such as 10%% (above 0)", s);
	L->m->report.noisy_cv = v / 100;
	return 0;
}

/* numerator: or denominator: of a ratio: a value of its dimension. */
static int load_ratio_value(struct loader *L, const struct dimension *d,
			    const yaml_node_t *key, const yaml_node_t *val, struct mvalue *out)
{
	char why[256];

	if (ml_want_scalar(L, key, val))
		return -1;
	if (matrix_parse_value(d->kind, scalar(val), out, why, sizeof why))
		return error_node(L, at(key, val), "%s: %s", scalar(key), why);
	out->pos = ml_node_pos(val);
	for (size_t i = 0; i < d->nvalues; i++)
		if (d->values[i].num == out->num)
			return 0;
	return error_node(L, val, "%s: %s is not a value of dimension '%s'", scalar(key),
			  out->text, d->key);
}


/* The `dimension:` of a ratios: or compare: mapping, a dimension of the
 * matrix; NULL after the error. */
static const struct dimension *load_dimension(struct loader *L, const yaml_node_t *map,
					      const char *what)
{
	const struct dimension *d;
	const yaml_node_t *k, *v;
	char why[512];

	if (!(v = ml_find_key(L, map, "dimension", &k))) {
		error_node(L, map, "%s: missing dimension:", what);
		return NULL;
	}
	if (ml_want_scalar(L, k, v))
		return NULL;
	if ((d = matrix_dim(L->m, scalar(v))))
		return d;
	const char **names = calloc(L->m->ndims + 1, sizeof *names);
	if (!names) {
		ml_oom(L, v);
		return NULL;
	}
	for (size_t i = 0; i < L->m->ndims; i++)
		names[i] = L->m->dims[i].key;
	ml_unknown_name("dimension", scalar(v), names, L->m->ndims, why, sizeof why);
	free(names);
	error_node(L, v, "%s: %s", what, why);
	return NULL;
}

/* report: compare: {dimension, baseline, candidate, threshold} */
static int load_compare(struct loader *L, const yaml_node_t *key, const yaml_node_t *map)
{
	static const char *const keys[] = { "dimension", "baseline", "candidate", "threshold" };
	struct compare_spec *c = &L->m->report.compare;
	const struct dimension *d;
	const yaml_node_t *k, *v;
	char why[512];

	if (map->type != YAML_MAPPING_NODE)
		return error_node(L, at(key, map), "compare: expected a mapping with dimension:, "
				  "baseline: and candidate:");
	if (ml_check_keys(L, map))
		return -1;
	for (size_t i = 0; i < npairs(map); i++) {
		k = pair_key(L, map, i);
		size_t j;
		for (j = 0; j < ARRAY_SIZE(keys) && strcmp(scalar(k), keys[j]); j++)
			;
		if (j == ARRAY_SIZE(keys)) {
			ml_unknown_name("key", scalar(k), keys, ARRAY_SIZE(keys), why, sizeof why);
			return error_node(L, k, "compare: %s", why);
		}
	}
	if (!(d = load_dimension(L, map, "compare")))
		return -1;
	c->dim = (size_t)(d - L->m->dims);
	c->pos = ml_node_pos(map);
	if (!(v = ml_find_key(L, map, "baseline", &k)))
		return error_node(L, map, "compare: missing baseline:");
	if (load_ratio_value(L, d, k, v, &c->baseline))
		return -1;
	if (!(v = ml_find_key(L, map, "candidate", &k)))
		return error_node(L, map, "compare: missing candidate:");
	if (load_ratio_value(L, d, k, v, &c->candidate))
		return -1;
	if (c->baseline.num == c->candidate.num)
		return error_node(L, v, "compare: baseline and candidate are the same value");
	if ((v = ml_find_key(L, map, "threshold", &k)) &&
	    ml_percent(L, k, v, "compare: threshold", &c->threshold))
		return -1;
	c->set = 1;
	return 0;
}

static int load_ratio(struct loader *L, const yaml_node_t *map);

/* A label or a name: not empty, no control characters, '"' or '\\'.
 * 0, or -1 after the error (what: "ratios: name"). */
static int plain_text(struct loader *L, const char *what, const yaml_node_t *key,
		      const yaml_node_t *val)
{
	if (ml_want_scalar(L, key, val))
		return -1;
	const char *n = scalar(val);
	if (!*n)
		return error_node(L, at(key, val), "%s must not be empty", what);
	for (const char *c = n; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '"' || *c == '\\')
			return error_node(L, val, "%s may not hold control characters, '\"' or "
					  "'\\'", what);
	return 0;
}

/* ratio: of a reference entry: a number above 0, "5.7" or "5.7x". */
static int load_ref_ratio(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
			  double *out)
{
	char *end;
	double v;

	if (ml_want_scalar(L, key, val))
		return -1;
	v = strtod(scalar(val), &end);
	if (end == scalar(val) || (*end && strcmp(end, "x")) || !(v > 0) || v > 1e12)
		return error_node(L, at(key, val), "ratios: reference: ratio: '%s' is not a ratio "
				  "above 0, such as 5.7 or 5.7x", scalar(val));
	*out = v;
	return 0;
}

/* One entry of reference: ratios:, a ratio and the terms that pick its
 * pairs (dimensions of the matrix but the ratio's own). */
static int load_ref(struct loader *L, struct ratio_spec *r, const yaml_node_t *map)
{
	struct ratio_ref *rf = &r->refs[r->nrefs];
	size_t n = npairs(map);
	int have_ratio = 0;

	if (map->type != YAML_MAPPING_NODE || ml_check_keys(L, map))
		return map->type != YAML_MAPPING_NODE ? error_node(L, map, "ratios: reference: "
				  "each of ratios: is a mapping such as {client: go, ratio: 5.7}") : -1;
	if (!(rf->terms = calloc(n, sizeof *rf->terms)))
		return ml_oom(L, map);
	rf->pos = ml_node_pos(map);
	r->nrefs++;
	for (size_t i = 0; i < n; i++) {
		const yaml_node_t *k = pair_key(L, map, i), *v = pair_val(L, map, i);
		if (!strcmp(scalar(k), "ratio")) {
			if (load_ref_ratio(L, k, v, &rf->ratio))
				return -1;
			have_ratio = 1;
			continue;
		}
		struct exclude_term *t = &rf->terms[rf->nterms];
		int bad = ml_load_term(L, "ratios: reference", t, k, v);
		if (t->value.text)
			rf->nterms++;
		if (bad)
			return -1;
		if (t->dim == r->dim)
			return error_node(L, k, "ratios: reference: %s is the ratio's own dimension; "
					  "a reference is for its pairs: pick them by the others",
					  scalar(k));
	}
	return have_ratio ? 0 : error_node(L, map, "ratios: reference: missing ratio:");
}

/* reference: {label:, ratios: [...]} of a ratio. */
static int load_reference(struct loader *L, struct ratio_spec *r, const yaml_node_t *key,
			  const yaml_node_t *map)
{
	const yaml_node_t *k, *v;

	if (map->type != YAML_MAPPING_NODE)
		return error_node(L, at(key, map), "ratios: reference: expected a mapping with "
				  "label: and ratios:");
	if (ml_check_keys(L, map))
		return -1;
	static const char *const keys[] = { "label", "ratios" };
	for (size_t i = 0; i < npairs(map); i++)
		if (strcmp(scalar(pair_key(L, map, i)), "label") &&
		    strcmp(scalar(pair_key(L, map, i)), "ratios"))
			return ml_unknown_key(L, pair_key(L, map, i), "ratios: reference: ", "key",
					      keys, ARRAY_SIZE(keys));
	if ((v = ml_find_key(L, map, "label", &k)) &&
	    plain_text(L, "ratios: reference: label", k, v))
		return -1;
	if (v && strlen(scalar(v)) > 40)	/* it sits beside every ratio it marks */
		return error_node(L, v, "ratios: reference: label: at most 40 characters");
	r->ref_label = strdup(v ? scalar(v) : "reference");
	if (!r->ref_label)
		return ml_oom(L, map);
	if (!(v = ml_find_key(L, map, "ratios", &k)))
		return error_node(L, map, "ratios: reference: missing ratios:");
	if (v->type != YAML_SEQUENCE_NODE || !nitems(v))
		return error_node(L, at(k, v), "ratios: reference: ratios: expected a non-empty "
				  "list such as - {client: go, ratio: 5.7}");
	if (nitems(v) > MATRIX_MAX_ENTRIES)
		return error_node(L, v, "ratios: reference: %zu ratios, more than the %d a "
				  "reference may have", nitems(v), MATRIX_MAX_ENTRIES);
	if (!(r->refs = calloc(nitems(v), sizeof *r->refs)))
		return ml_oom(L, v);
	for (size_t j = 0; j < nitems(v); j++)
		if (load_ref(L, r, item(L, v, j)))
			return -1;
	return 0;
}

/* Each ratio once by name: reports and charts tell them apart by it. */
static int load_ratios(struct loader *L, const yaml_node_t *seq)
{
	for (size_t j = 0; j < nitems(seq); j++) {
		if (load_ratio(L, item(L, seq, j)))
			return -1;
		const struct ratio_spec *r = &L->m->report.ratios[j];
		for (size_t i = 0; i < j; i++)
			if (!strcmp(L->m->report.ratios[i].name, r->name))
				return ml_error_at(L, (size_t)r->pos.line, (size_t)r->pos.col,
						"ratios: a second ratio named '%s' (the first is at "
						"line %d); give each a name: of its own", r->name,
						L->m->report.ratios[i].pos.line);
	}
	return 0;
}

static int load_ratio(struct loader *L, const yaml_node_t *map)
{
	static const char *const keys[] = { "name", "dimension", "numerator", "denominator",
					    "metric", "reference" };
	struct ratio_spec *r = &L->m->report.ratios[L->m->report.nratios];
	const yaml_node_t *k, *v;
	const struct dimension *d;
	char why[512];

	if (map->type != YAML_MAPPING_NODE)
		return error_node(L, map, "ratios: each entry must be a mapping with dimension:, "
				  "numerator:, denominator: (and name:, metric:)");
	if (ml_check_keys(L, map))
		return -1;
	for (size_t i = 0; i < npairs(map); i++) {
		const char *key = scalar(pair_key(L, map, i));
		size_t j;
		for (j = 0; j < ARRAY_SIZE(keys) && strcmp(keys[j], key); j++)
			;
		if (j == ARRAY_SIZE(keys)) {
			ml_unknown_name("key", key, keys, ARRAY_SIZE(keys), why, sizeof why);
			return error_node(L, pair_key(L, map, i), "ratios: %s", why);
		}
	}
	r->pos = ml_node_pos(map);
	r->metric = matrix_metrics[0];
	L->m->report.nratios++;
	if (!(d = load_dimension(L, map, "ratios")))
		return -1;
	r->dim = (size_t)(d - L->m->dims);
	if (!(v = ml_find_key(L, map, "numerator", &k)))
		return error_node(L, map, "ratios: missing numerator:");
	if (load_ratio_value(L, d, k, v, &r->numerator))
		return -1;
	if (!(v = ml_find_key(L, map, "denominator", &k)))
		return error_node(L, map, "ratios: missing denominator:");
	if (load_ratio_value(L, d, k, v, &r->denominator))
		return -1;
	if (r->numerator.num == r->denominator.num)
		return error_node(L, v, "ratios: numerator and denominator are the same value");
	if ((v = ml_find_key(L, map, "metric", &k))) {
		int mi;
		if (ml_want_scalar(L, k, v))
			return -1;
		if ((mi = matrix_metric_index(scalar(v))) < 0) {
			ml_unknown_name("metric", scalar(v), matrix_metrics, MATRIX_NMETRICS, why,
				     sizeof why);
			return error_node(L, v, "ratios: %s", why);
		}
		r->metric = matrix_metrics[mi];
	}
	if ((v = ml_find_key(L, map, "reference", &k)) && load_reference(L, r, k, v))
		return -1;
	if ((v = ml_find_key(L, map, "name", &k))) {
		if (plain_text(L, "ratios: name", k, v))
			return -1;
		r->name = strdup(scalar(v));
	} else {
		size_t len = strlen(r->numerator.text) + strlen(r->denominator.text) + 2;
		if ((r->name = malloc(len)))
			snprintf(r->name, len, "%s/%s", r->numerator.text, r->denominator.text);
	}
	return r->name ? 0 : ml_oom(L, map);
}

/* report: sweep: size | concurrency, a dimension of the matrix */
static int load_sweep(struct loader *L, const yaml_node_t *key, const yaml_node_t *val)
{
	const struct dimension *d;

	if (ml_want_scalar(L, key, val))
		return -1;
	if (strcmp(scalar(val), "size") && strcmp(scalar(val), "concurrency"))
		return error_node(L, val, "sweep: '%s' is not size or concurrency", scalar(val));
	if (!(d = matrix_dim(L->m, scalar(val))))
		return error_node(L, val, "sweep: '%s' is not a dimension of matrix:", scalar(val));
	L->m->report.sweep = d->key;
	return 0;
}

int ml_load_report(struct loader *L, const yaml_node_t *val)
{
	static const char *const keys[] = { "noisy_cv", "ratios", "compare", "sweep" };
	char why[512];

	if (is_null(val))
		return 0;
	if (val->type != YAML_MAPPING_NODE)
		return error_node(L, val, "report: expected a mapping with noisy_cv:, ratios:, "
				  "compare: or sweep:");
	if (ml_check_keys(L, val))
		return -1;
	for (size_t i = 0; i < npairs(val); i++) {
		yaml_node_t *k = pair_key(L, val, i), *v = pair_val(L, val, i);
		if (!strcmp(scalar(k), "noisy_cv")) {
			if (load_noisy_cv(L, k, v))
				return -1;
		} else if (!strcmp(scalar(k), "sweep")) {
			if (load_sweep(L, k, v))
				return -1;
		} else if (!strcmp(scalar(k), "compare")) {
			if (load_compare(L, k, v))
				return -1;
		} else if (!strcmp(scalar(k), "ratios")) {
			if (v->type != YAML_SEQUENCE_NODE || !nitems(v))
				return error_node(L, at(k, v), "ratios: expected a non-empty list");
			if (nitems(v) > MATRIX_MAX_ENTRIES)
				return error_node(L, v, "ratios: %zu ratios, more than the %d a matrix "
						  "may have", nitems(v), MATRIX_MAX_ENTRIES);
			L->m->report.ratios = calloc(nitems(v), sizeof *L->m->report.ratios);
			if (!L->m->report.ratios)
				return ml_oom(L, v);
			if (load_ratios(L, v))
				return -1;
		} else {
			ml_unknown_name("key", scalar(k), keys, ARRAY_SIZE(keys), why, sizeof why);
			return error_node(L, k, "report: %s", why);
		}
	}
	return 0;
}
