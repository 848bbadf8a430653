/* matrix: (the dimensions) and exclude: of a matrix file: see matrix_yaml.h. */
#include "matrix_yaml.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "placement.h"
#include "suggest.h"
#include "units.h"

/* Dimensions that may not both be written. */
static const struct {
	const char *a, *b, *why;
} exclusive[] = {
	{ "count", "duration",
	  "count and duration are exclusive: a cell runs for a count of messages or for a duration" },
};

/* ---- matrix: ---- */

/* One CPU list of a cpu: mapping (a number, a range, or a list of these)
 * added to set, each item checked where it is written; 0 or -1. */
static int cpu_list(struct loader *L, const char *what, const yaml_node_t *key,
		    const yaml_node_t *val, cpu_set_t *set)
{
	size_t n = val->type == YAML_SEQUENCE_NODE ? nitems(val) : 1;
	char why[256];

	if (val->type == YAML_MAPPING_NODE)
		return error_node(L, val, "%s: %s: expected a list of CPU numbers, such as [1, 2]",
				  what, scalar(key));
	if (val->type == YAML_SEQUENCE_NODE && !n)
		return error_node(L, val, "%s: %s: empty list; give at least one CPU", what,
				  scalar(key));
	for (size_t i = 0; i < n; i++) {
		const yaml_node_t *it = val->type == YAML_SEQUENCE_NODE ? item(L, val, i) : val;
		if (it->type != YAML_SCALAR_NODE)
			return error_node(L, it, "%s: %s: expected a CPU number, not a %s", what,
					  scalar(key), it->type == YAML_MAPPING_NODE ? "mapping" : "list");
		if (cpus_parse(scalar(it), set, why, sizeof(why)) < 0)
			return error_node(L, at(key, it), "%s: %s: %s", what, scalar(key), why);
	}
	return 0;
}

/* A cpu: mapping {server: [CPUS], clients: [CPUS]} as its text,
 * "server=0;clients=1-3", into buf; 0, or -1 with the error at its node. */
static int cpu_mapping(struct loader *L, const char *what, const yaml_node_t *map, char *buf,
		       size_t len)
{
	static const char *const roles[] = { "server", "clients" };
	struct placement pl = { .mode = PLACE_MAP };
	int seen[2] = { 0, 0 };
	char why[512];

	if (ml_check_keys(L, map))
		return -1;
	for (size_t i = 0; i < npairs(map); i++) {
		const yaml_node_t *k = pair_key(L, map, i);
		int r = !strcmp(scalar(k), "server") ? 0 : !strcmp(scalar(k), "clients") ? 1 : -1;
		if (r < 0) {
			ml_unknown_name("key", scalar(k), roles, 2, why, sizeof(why));
			return error_node(L, k, "%s: %s", what, why);
		}
		seen[r] = 1;
		if (cpu_list(L, what, k, pair_val(L, map, i), r ? &pl.clients : &pl.server) < 0)
			return -1;
	}
	if (!seen[0] || !seen[1])
		return error_node(L, map, "%s: a placement names the CPUs of both sides: add %s: "
				  "[CPUS], such as {server: [0], clients: [1]}", what,
				  seen[0] ? "clients" : "server");
	placement_format(&pl, buf, len);
	return 0;
}

/* The text of one value node of dimension d: a scalar's own, or a cpu:
 * mapping's (cpu_mapping); NULL after an error at the node. */
static const char *value_text(struct loader *L, const char *what, const struct dimension *d,
			      const yaml_node_t *val, char *buf, size_t len)
{
	if (val->type == YAML_SCALAR_NODE)
		return scalar(val);
	if (d->kind == VK_CPU && val->type == YAML_MAPPING_NODE)
		return cpu_mapping(L, what, val, buf, len) < 0 ? NULL : buf;
	if (d->kind == VK_CPU)
		error_node(L, val, "%s: expected none, same, split or a mapping {server: [CPUS], "
			   "clients: [CPUS]}, not a list inside a list", what);
	else
		error_node(L, val, "%s: expected a scalar, not a %s", what,
			   val->type == YAML_MAPPING_NODE ? "mapping" : "list");
	return NULL;
}

static int same_value(const void *ctx, size_t earlier)
{
	const struct dimension *d = ctx;

	return d->values[earlier].num == d->values[d->nvalues - 1].num;
}

/* One more value for d, kept in d->values (room for it is allocated);
 * key is NULL for an item of a list; seen holds the values before it. */
static int load_value(struct loader *L, struct dimension *d,
		      const struct dimspec *spec, const yaml_node_t *key,
		      const yaml_node_t *val, struct ml_seen *seen)
{
	size_t dup;

	struct mvalue v = { 0 };
	char why[256], buf[MATRIX_MAX_PLACEMENT];
	const char *text;

	if (val->type != YAML_SCALAR_NODE && d->kind != VK_CPU)
		return error_node(L, val, "%s: expected a scalar or a list of scalars",
				  d->key);
	if (!(text = value_text(L, d->key, d, val, buf, sizeof(buf))))
		return -1;
	if (matrix_parse_value(spec->kind, text, &v, why, sizeof why))
		return error_node(L, at(key, val), "%s: %s", d->key, why);
	if (spec->kind == VK_DURATION && !v.num && !spec->zero_ok) {
		error_node(L, val, "%s: invalid duration '%s': must be greater than zero", d->key,
			   v.text);
		free(v.text);
		return -1;
	}
	v.pos = ml_node_pos(val);
	d->values[d->nvalues++] = v;
	if (spec->max && v.num > spec->max) {
		char most[32];
		if (spec->kind == VK_DURATION)
			units_format_duration(spec->max, most, sizeof(most));
		else
			snprintf(most, sizeof(most), "%llu", (unsigned long long)spec->max);
		return error_node(L, val, "%s: '%s' is too large: at most %s", d->key, v.text,
				  most);
	}
	dup = ml_seen_add(seen, ml_hash(NULL, v.num), d->nvalues - 1, same_value, d);
	if (dup != SIZE_MAX)
		return error_node(L, val, "%s: duplicate value '%s' (same as '%s' at line %d)",
				  d->key, v.text, d->values[dup].text, d->values[dup].pos.line);
	return 0;
}

static int check_exclusive(struct loader *L, const yaml_node_t *key)
{
	const char *k = scalar(key);

	for (size_t i = 0; i < ARRAY_SIZE(exclusive); i++) {
		const char *other = !strcmp(k, exclusive[i].a) ? exclusive[i].b :
				    !strcmp(k, exclusive[i].b) ? exclusive[i].a :
				    NULL;

		if (other && matrix_dim(L->m, other))
			return error_node(L, key, "%s", exclusive[i].why);
	}
	return 0;
}

/* "matrix: unknown dimension 'x'; did you mean ...?" at key; -1. */
static int unknown_dimension(struct loader *L, const yaml_node_t *key)
{
	const char *names[ML_MAX_DIMSPECS];
	size_t n = ml_dimspec_keys(names, ARRAY_SIZE(names));

	return ml_unknown_key(L, key, "matrix: ", "dimension", names, n);
}

static int load_dimension(struct loader *L, const yaml_node_t *key,
			  const yaml_node_t *val)
{
	const struct dimspec *spec = ml_find_dimspec(scalar(key));

	if (!spec)
		return unknown_dimension(L, key);
	if (check_exclusive(L, key))
		return -1;
	return ml_load_dimension(L, spec, key, val);
}

int ml_load_dimension(struct loader *L, const struct dimspec *spec, const yaml_node_t *key,
		      const yaml_node_t *val)
{
	struct dimension *d = &L->m->dims[L->m->ndims];
	size_t n = val->type == YAML_SEQUENCE_NODE ? nitems(val) : 1;
	struct ml_seen seen = { 0 };
	int rc = 0;

	d->key = strdup(spec->key);
	d->values = calloc(n ? n : 1, sizeof *d->values);
	L->m->ndims++;
	if (!d->key || !d->values)
		return ml_oom(L, key);
	d->kind = spec->kind;
	d->pos = ml_node_pos(key);
	if (ml_seen_init(&seen, n))
		return ml_oom(L, key);
	if (val->type != YAML_SEQUENCE_NODE) {
		rc = load_value(L, d, spec, key, val, &seen);
	} else {
		d->is_list = 1;
		if (!n)
			rc = error_node(L, val, "%s: empty list; give at least one value", d->key);
		for (size_t i = 0; i < n && !rc; i++)
			rc = load_value(L, d, spec, NULL, item(L, val, i), &seen);
	}
	ml_seen_release(&seen);
	return rc;
}

int ml_load_matrix(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	size_t n;

	if (is_null(val) ||
	    (val->type == YAML_MAPPING_NODE && !npairs(val)))
		return error_node(L, at(key, val),
			"matrix: must not be empty; give at least one dimension, such as transport: [unix, tcp]");
	if (val->type != YAML_MAPPING_NODE)
		return error_node(L, val,
			"matrix: expected a mapping of dimension: value or [values]");
	if (ml_check_keys(L, val))
		return -1;
	n = npairs(val);
	L->m->dims = calloc(n, sizeof *L->m->dims);
	if (!L->m->dims)
		return ml_oom(L, val);
	for (size_t i = 0; i < n; i++)
		if (load_dimension(L, pair_key(L, val, i), pair_val(L, val, i)))
			return -1;
	return 0;
}

/* ---- exclude: ---- */

static int not_a_dimension(struct loader *L, const char *what, const yaml_node_t *key)
{
	const struct matrix *m = L->m;
	const char **names = calloc(m->ndims, sizeof *names);
	const char *s;
	char why[512] = "";

	if (!names)
		return ml_oom(L, key);
	for (size_t i = 0; i < m->ndims; i++)
		names[i] = m->dims[i].key;
	s = suggest_closest(scalar(key), names, m->ndims);
	if (!s) {
		ml_join_names(why, sizeof why, names, m->ndims);
		free(names);
		return error_node(L, key,
			"%s: '%s' is not a dimension of this matrix (dimensions: %s)",
			what, scalar(key), why);
	}
	free(names);
	return error_node(L, key,
		"%s: '%s' is not a dimension of this matrix; did you mean '%s'?",
		what, scalar(key), s);
}

int ml_load_term(struct loader *L, const char *prefix, struct exclude_term *t,
		 const yaml_node_t *key, const yaml_node_t *val)
{
	const struct dimension *d = matrix_dim(L->m, scalar(key));
	char why[256], what[80], buf[MATRIX_MAX_PLACEMENT];
	const char *text;
	size_t i;

	if (!d)
		return not_a_dimension(L, prefix, key);
	snprintf(what, sizeof(what), "%s: %s", prefix, d->key);
	if (!(text = value_text(L, what, d, val, buf, sizeof(buf))))
		return -1;
	if (matrix_parse_value(d->kind, text, &t->value, why, sizeof why))
		return error_node(L, at(key, val), "%s: %s: %s", prefix, d->key, why);
	t->dim = (size_t)(d - L->m->dims);
	t->value.pos = ml_node_pos(val);
	for (i = 0; i < d->nvalues; i++)
		if (d->values[i].num == t->value.num)
			return 0;
	return error_node(L, val, "%s: %s %s is not a value of dimension '%s'", prefix,
			  d->key, t->value.text, d->key);
}

static int load_rule(struct loader *L, const yaml_node_t *map)
{
	struct exclude_rule *r = &L->m->excludes[L->m->nexcludes];
	size_t n;

	if (map->type != YAML_MAPPING_NODE)
		return error_node(L, map,
			"exclude: each entry must be a mapping of dimension: value, such as {transport: unix, size: 1KiB}");
	n = npairs(map);
	if (!n)
		return error_node(L, map,
			"exclude: empty rule; give at least one dimension: value");
	if (ml_check_keys(L, map))
		return -1;
	r->terms = calloc(n, sizeof *r->terms);
	if (!r->terms)
		return ml_oom(L, map);
	r->pos = ml_node_pos(map);
	L->m->nexcludes++;
	for (size_t i = 0; i < n; i++) {
		int bad = ml_load_term(L, "exclude", &r->terms[i], pair_key(L, map, i),
				       pair_val(L, map, i));
		if (r->terms[i].value.text)
			r->nterms = i + 1;	/* owned: freed with the matrix */
		if (bad)
			return -1;
	}
	return 0;
}

int ml_load_excludes(struct loader *L, const yaml_node_t *seq)
{
	size_t n;

	if (is_null(seq))
		return 0;
	if (seq->type != YAML_SEQUENCE_NODE)
		return error_node(L, seq,
			"exclude: expected a list of mappings, such as - {transport: unix, size: 1KiB}");
	n = nitems(seq);
	if (!n)
		return 0;
	if (n > MATRIX_MAX_ENTRIES)	/* each rule is tried on every cell */
		return error_node(L, seq, "exclude: %zu rules, more than the %d a matrix may have",
				  n, MATRIX_MAX_ENTRIES);
	L->m->excludes = calloc(n, sizeof *L->m->excludes);
	if (!L->m->excludes)
		return ml_oom(L, seq);
	for (size_t i = 0; i < n; i++)
		if (load_rule(L, item(L, seq, i)))
			return -1;
	return 0;
}
