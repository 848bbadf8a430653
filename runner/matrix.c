/*
 * matrix: a matrix file read with libyaml's document API, checked against
 * the schema in matrix.h, as a `struct matrix`.
 *
 * Every check reports "FILE:LINE:COL: message" at the node it is about and
 * stops there; the loader owns nothing but the document, and whatever was
 * already moved into the matrix is freed by matrix_release().
 */
#include "matrix.h"
#include "suggest.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <regex.h>
#include <yaml.h>

#include "transport.h"
#include "units.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *const pattern_names[PAT__COUNT] = {
	[PAT_PINGPONG] = "pingpong",
	[PAT_ECHO] = "echo",
	[PAT_STREAM] = "stream",
};

static const char *const kind_names[] = {
	[VK_PATTERN] = "pattern",
	[VK_TRANSPORT] = "transport",
	[VK_SIZE] = "size",
	[VK_COUNT] = "count",
	[VK_DURATION] = "duration",
	[VK_BOOL] = "boolean",
	[VK_ENDPOINT] = "endpoint",
	[VK_PROGRAM] = "program",
};

const char *const endpoint_names[EP__COUNT] = { "tcp", "ipc" };

/* The keys of `matrix:`; a new dimension is one line here. */
struct dimspec {
	const char *key;
	enum value_kind kind;
	uint64_t max;		/* largest value allowed, 0: no limit */
};

static const struct dimspec dimspecs[] = {
	{ "pattern", VK_PATTERN, 0 },
	{ "transport", VK_TRANSPORT, 0 },
	{ "size", VK_SIZE, 0 },
	{ "response_size", VK_SIZE, 0 },
	{ "concurrency", VK_COUNT, 1024 },
	{ "count", VK_COUNT, 0 },
	{ "duration", VK_DURATION, 0 },
	{ "inflight", VK_COUNT, 1024 },
	{ "nodelay", VK_BOOL, 0 },
	{ "allow_loss", VK_BOOL, 0 },
	{ "loss_timeout", VK_DURATION, 0 },
	{ "endpoint", VK_ENDPOINT, 0 },
	{ "server", VK_PROGRAM, 0 },
	{ "client", VK_PROGRAM, 0 },
	{ "interval", VK_DURATION, 0 },
};

/* Dimensions that may not both be written. */
static const struct {
	const char *a, *b, *why;
} exclusive[] = {
	{ "count", "duration",
	  "count and duration are exclusive: a cell runs for a count of messages or for a duration" },
};

const char *const matrix_metrics[MATRIX_NMETRICS] = {
	"msgs_per_s", "mib_per_s", "rtt_mean_us", "rtt_p50_us", "rtt_p90_us", "rtt_p99_us",
	"rtt_p999_us", "rtt_max_us", "cpu_us_per_msg", "sent_msgs_per_s",
};

int matrix_metric_index(const char *name)
{
	for (int i = 0; i < MATRIX_NMETRICS; i++)
		if (!strcmp(name, matrix_metrics[i]))
			return i;
	return -1;
}

struct loader {
	const char *path;
	const char *buf;
	size_t len;
	yaml_document_t doc;
	struct matrix *m;
	char *err;
	size_t errlen;
	yaml_node_t *exclude;	/* loaded once matrix: is known */
	yaml_node_t *report;	/* likewise */
	yaml_node_t *programs;	/* likewise, before exclude: */
};

/* Top-level keys, in the order of the schema. */
typedef int load_fn(struct loader *L, yaml_node_t *key, yaml_node_t *val);
static load_fn load_name, load_description, load_repeat, load_warmup,
	load_timeout, load_matrix, load_exclude_later, load_report_later, load_programs_later;

static const struct {
	const char *key;
	load_fn *load;
} topkeys[] = {
	{ "name", load_name },
	{ "description", load_description },
	{ "repeat", load_repeat },
	{ "warmup", load_warmup },
	{ "timeout", load_timeout },
	{ "matrix", load_matrix },
	{ "exclude", load_exclude_later },
	{ "report", load_report_later },
	{ "programs", load_programs_later },
};

/* ---- messages ---- */

__attribute__((format(printf, 3, 4)))
static int failf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

__attribute__((format(printf, 4, 5)))
static int error_at(struct loader *L, size_t line, size_t col,
		    const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!L->err || !L->errlen)
		return -1;
	n = snprintf(L->err, L->errlen, "%s:%zu:%zu: ", L->path, line, col);
	if (n >= 0 && (size_t)n < L->errlen) {
		va_start(ap, fmt);
		vsnprintf(L->err + n, L->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

#define error_node(L, node, ...) \
	error_at((L), (node)->start_mark.line + 1, \
		 (node)->start_mark.column + 1, __VA_ARGS__)

static struct srcpos node_pos(const yaml_node_t *n)
{
	return (struct srcpos){ (int)n->start_mark.line + 1,
				(int)n->start_mark.column + 1 };
}

/* Appends "a, b, c" to buf (which holds a string already). */
static void join_names(char *buf, size_t len, const char *const *names,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t used = strlen(buf);

		if (used + 1 >= len)
			return;
		snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
	}
}

/* "unknown WHAT 'word'; did you mean 'x'?" or "... (known: a, b)". */
static int unknown_name(const char *what, const char *word,
			const char *const *names, size_t n,
			char *why, size_t whylen)
{
	const char *s = suggest_closest(word, names, n);

	if (s)
		return failf(why, whylen, "unknown %s '%s'; did you mean '%s'?",
			     what, word, s);
	failf(why, whylen, "unknown %s '%s' (known: ", what, word);
	join_names(why, whylen, names, n);
	if (strlen(why) + 1 < whylen)
		strcat(why, ")");
	return -1;
}

/* ---- values ---- */

static int parse_pattern(const char *text, uint64_t *num, char *why,
			 size_t whylen)
{
	for (size_t i = 0; i < PAT__COUNT; i++) {
		if (!strcmp(pattern_names[i], text)) {
			*num = i;
			return 0;
		}
	}
	return unknown_name("pattern", text, pattern_names, PAT__COUNT, why,
			    whylen);
}

static int parse_transport(const char *text, uint64_t *num, char *why,
			   size_t whylen)
{
	const struct transport *t = transport_find(text);
	size_t n = transport_count();
	const char **names;
	int rc;

	for (size_t i = 0; t && i < n; i++) {
		if (transport_at(i) == t) {
			*num = i;
			return 0;
		}
	}
	names = calloc(n ? n : 1, sizeof *names);
	if (!names)
		return failf(why, whylen, "out of memory");
	for (size_t i = 0; i < n; i++)
		names[i] = transport_at(i)->name;
	rc = unknown_name("transport", text, names, n, why, whylen);
	free(names);
	return rc;
}

/* text as a number of kind, without copying it. */
static int parse_num(enum value_kind kind, const char *text, uint64_t *num,
		     char *why, size_t whylen)
{
	char r[160];
	int b, rc = 0;

	if (!*text)
		return failf(why, whylen, "missing value");
	switch (kind) {
	case VK_PATTERN:
		return parse_pattern(text, num, why, whylen);
	case VK_TRANSPORT:
		return parse_transport(text, num, why, whylen);
	case VK_PROGRAM:
		/* checked against programs: once the whole file is read */
		if (strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_.-") != strlen(text))
			return failf(why, whylen, "'%s' is not a program name: letters, digits, "
				     "'_', '.' and '-'", text);
		*num = 0;
		if (strcmp(text, "builtin")) {
			uint64_t h = 1469598103934665603ull;	/* FNV-1a */
			for (const char *c = text; *c; c++)
				h = (h ^ (unsigned char)*c) * 1099511628211ull;
			*num = h | 1;
		}
		return 0;
	case VK_ENDPOINT:
		for (size_t i = 0; i < EP__COUNT; i++)
			if (!strcmp(endpoint_names[i], text)) {
				*num = i;
				return 0;
			}
		return unknown_name("endpoint", text, endpoint_names, EP__COUNT, why, whylen);
	case VK_BOOL:
		rc = units_parse_bool(text, &b, r, sizeof r);
		if (!rc)
			*num = (uint64_t)b;
		break;
	case VK_SIZE:
		rc = units_parse_size(text, num, r, sizeof r);
		break;
	case VK_COUNT:
		rc = units_parse_count(text, num, r, sizeof r);
		break;
	case VK_DURATION:
		rc = units_parse_duration(text, num, r, sizeof r);
		break;
	default:
		return failf(why, whylen, "unknown value kind %d", (int)kind);
	}
	if (rc)
		return failf(why, whylen, "invalid %s '%s': %s", kind_names[kind],
			     text, r);
	if (kind != VK_BOOL && *num == 0)
		return failf(why, whylen, "invalid %s '%s': must be greater than zero",
			     kind_names[kind], text);
	return 0;
}

int matrix_parse_value(enum value_kind kind, const char *text,
		       struct mvalue *v, char *why, size_t whylen)
{
	uint64_t num;
	char *copy;

	if (parse_num(kind, text, &num, why, whylen))
		return -1;
	copy = strdup(text);
	if (!copy)
		return failf(why, whylen, "out of memory");
	v->text = copy;
	v->num = num;
	return 0;
}

static const struct dimspec *find_dimspec(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(dimspecs); i++)
		if (!strcmp(dimspecs[i].key, key))
			return &dimspecs[i];
	return NULL;
}

int matrix_key_kind(const char *key)
{
	const struct dimspec *s = find_dimspec(key);

	return s ? (int)s->kind : -1;
}

const struct dimension *matrix_dim(const struct matrix *m, const char *key)
{
	for (size_t i = 0; i < m->ndims; i++)
		if (!strcmp(m->dims[i].key, key))
			return &m->dims[i];
	return NULL;
}

/* ---- YAML helpers ---- */

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static int is_null(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       !n->data.scalar.length;
}

static yaml_node_t *node(struct loader *L, int id)
{
	return yaml_document_get_node(&L->doc, id);
}

static size_t npairs(const yaml_node_t *map)
{
	return (size_t)(map->data.mapping.pairs.top -
			map->data.mapping.pairs.start);
}

static size_t nitems(const yaml_node_t *seq)
{
	return (size_t)(seq->data.sequence.items.top -
			seq->data.sequence.items.start);
}

static yaml_node_t *pair_key(struct loader *L, const yaml_node_t *map, size_t i)
{
	return node(L, map->data.mapping.pairs.start[i].key);
}

static yaml_node_t *pair_val(struct loader *L, const yaml_node_t *map, size_t i)
{
	return node(L, map->data.mapping.pairs.start[i].value);
}

static yaml_node_t *item(struct loader *L, const yaml_node_t *seq, size_t i)
{
	return node(L, seq->data.sequence.items.start[i]);
}

/* Every key a scalar, none twice. */
static int check_keys(struct loader *L, const yaml_node_t *map)
{
	size_t n = npairs(map);

	for (size_t i = 0; i < n; i++) {
		yaml_node_t *k = pair_key(L, map, i);

		if (k->type != YAML_SCALAR_NODE)
			return error_node(L, k, "expected a plain key, not a %s",
					  k->type == YAML_MAPPING_NODE ?
					  "mapping" : "list");
		for (size_t j = 0; j < i; j++) {
			yaml_node_t *o = pair_key(L, map, j);

			if (!strcmp(scalar(o), scalar(k)))
				return error_node(L, k,
					"duplicate key '%s' (first at line %zu)",
					scalar(k), o->start_mark.line + 1);
		}
	}
	return 0;
}

static int want_scalar(struct loader *L, const yaml_node_t *key,
		       const yaml_node_t *val)
{
	if (val->type == YAML_SCALAR_NODE)
		return 0;
	return error_node(L, val, "%s: expected a scalar, not a %s", scalar(key),
			  val->type == YAML_MAPPING_NODE ? "mapping" : "list");
}

/* An empty value has no place of its own: report it at its key, if any. */
static const yaml_node_t *at(const yaml_node_t *key, const yaml_node_t *val)
{
	return key && is_null(val) ? key : val;
}

static int oom(struct loader *L, const yaml_node_t *n)
{
	return error_node(L, n, "out of memory");
}

/* ---- top-level keys ---- */

static int load_name(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	const char *s;

	if (want_scalar(L, key, val))
		return -1;
	s = scalar(val);
	if (!*s)
		return error_node(L, at(key, val), "name: must not be empty");
	if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_.-") != strlen(s))
		return error_node(L, val,
			"name: '%s' may only contain letters, digits, '_', '.' and '-'",
			s);
	L->m->name = strdup(s);
	return L->m->name ? 0 : oom(L, val);
}

static int load_description(struct loader *L, yaml_node_t *key,
			    yaml_node_t *val)
{
	char *s;

	if (want_scalar(L, key, val))
		return -1;
	s = strdup(scalar(val));
	if (!s)
		return oom(L, val);
	free(L->m->description);
	L->m->description = s;
	return 0;
}

/* A scalar value of kind for a top-level key. */
static int top_num(struct loader *L, yaml_node_t *key, yaml_node_t *val,
		   enum value_kind kind, uint64_t *num)
{
	char why[256];

	if (want_scalar(L, key, val))
		return -1;
	if (parse_num(kind, scalar(val), num, why, sizeof why))
		return error_node(L, at(key, val), "%s: %s", scalar(key), why);
	return 0;
}

static int load_repeat(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	uint64_t n;

	if (top_num(L, key, val, VK_COUNT, &n))
		return -1;
	if (n > UINT_MAX)
		return error_node(L, val, "repeat: at most %u", UINT_MAX);
	L->m->repeat = (unsigned)n;
	L->m->repeat_pos = node_pos(val);
	return 0;
}

static int load_warmup(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	char why[160];
	const char *s;

	if (want_scalar(L, key, val))
		return -1;
	s = scalar(val);
	if (!*s)
		return error_node(L, at(key, val), "warmup: missing value");
	if (units_parse_count(s, &L->m->warmup, why, sizeof why))
		return error_node(L, val, "warmup: invalid count '%s': %s", s, why);
	L->m->warmup_pos = node_pos(val);
	return 0;
}

static int load_timeout(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	if (top_num(L, key, val, VK_DURATION, &L->m->timeout_ns))
		return -1;
	L->m->timeout_pos = node_pos(val);
	return 0;
}

static int load_exclude_later(struct loader *L, yaml_node_t *key,
			      yaml_node_t *val)
{
	(void)key;
	L->exclude = val;
	return 0;
}

static int load_report_later(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	(void)key;
	L->report = val;
	return 0;
}

static int load_programs_later(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	(void)key;
	L->programs = val;
	return 0;
}

/* ---- matrix: ---- */

/* One more value for d, kept in d->values (room for it is allocated);
 * key is NULL for an item of a list. */
static int load_value(struct loader *L, struct dimension *d,
		      const struct dimspec *spec, const yaml_node_t *key,
		      const yaml_node_t *val)
{
	struct mvalue v = { 0 };
	char why[256];

	if (val->type != YAML_SCALAR_NODE)
		return error_node(L, val, "%s: expected a scalar or a list of scalars",
				  d->key);
	if (matrix_parse_value(spec->kind, scalar(val), &v, why, sizeof why))
		return error_node(L, at(key, val), "%s: %s", d->key, why);
	v.pos = node_pos(val);
	d->values[d->nvalues++] = v;
	if (spec->max && v.num > spec->max)
		return error_node(L, val, "%s: '%s' is too large: at most %llu",
				  d->key, v.text, (unsigned long long)spec->max);
	for (size_t i = 0; i + 1 < d->nvalues; i++) {
		const struct mvalue *o = &d->values[i];

		if (o->num == v.num)
			return error_node(L, val,
				"%s: duplicate value '%s' (same as '%s' at line %d)",
				d->key, v.text, o->text, o->pos.line);
	}
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

static int unknown_dimension(struct loader *L, const yaml_node_t *key)
{
	const char *names[ARRAY_SIZE(dimspecs)];
	char why[512];

	for (size_t i = 0; i < ARRAY_SIZE(dimspecs); i++)
		names[i] = dimspecs[i].key;
	unknown_name("dimension", scalar(key), names, ARRAY_SIZE(names), why,
		     sizeof why);
	return error_node(L, key, "matrix: %s", why);
}

static int load_dimension(struct loader *L, const yaml_node_t *key,
			  const yaml_node_t *val)
{
	const struct dimspec *spec = find_dimspec(scalar(key));
	struct dimension *d = &L->m->dims[L->m->ndims];
	size_t n = val->type == YAML_SEQUENCE_NODE ? nitems(val) : 1;

	if (!spec)
		return unknown_dimension(L, key);
	if (check_exclusive(L, key))
		return -1;
	d->key = strdup(spec->key);
	d->values = calloc(n ? n : 1, sizeof *d->values);
	L->m->ndims++;
	if (!d->key || !d->values)
		return oom(L, key);
	d->kind = spec->kind;
	d->pos = node_pos(key);
	if (val->type != YAML_SEQUENCE_NODE)
		return load_value(L, d, spec, key, val);
	d->is_list = 1;
	if (!n)
		return error_node(L, val, "%s: empty list; give at least one value",
				  d->key);
	for (size_t i = 0; i < n; i++)
		if (load_value(L, d, spec, NULL, item(L, val, i)))
			return -1;
	return 0;
}

static int load_matrix(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	size_t n;

	if (is_null(val) ||
	    (val->type == YAML_MAPPING_NODE && !npairs(val)))
		return error_node(L, at(key, val),
			"matrix: must not be empty; give at least one dimension, such as transport: [unix, tcp]");
	if (val->type != YAML_MAPPING_NODE)
		return error_node(L, val,
			"matrix: expected a mapping of dimension: value or [values]");
	if (check_keys(L, val))
		return -1;
	n = npairs(val);
	L->m->dims = calloc(n, sizeof *L->m->dims);
	if (!L->m->dims)
		return oom(L, val);
	for (size_t i = 0; i < n; i++)
		if (load_dimension(L, pair_key(L, val, i), pair_val(L, val, i)))
			return -1;
	return 0;
}

/* ---- exclude: ---- */

static int not_a_dimension(struct loader *L, const yaml_node_t *key)
{
	const struct matrix *m = L->m;
	const char **names = calloc(m->ndims, sizeof *names);
	const char *s;
	char why[512] = "";

	if (!names)
		return oom(L, key);
	for (size_t i = 0; i < m->ndims; i++)
		names[i] = m->dims[i].key;
	s = suggest_closest(scalar(key), names, m->ndims);
	if (!s) {
		join_names(why, sizeof why, names, m->ndims);
		free(names);
		return error_node(L, key,
			"exclude: '%s' is not a dimension of this matrix (dimensions: %s)",
			scalar(key), why);
	}
	free(names);
	return error_node(L, key,
		"exclude: '%s' is not a dimension of this matrix; did you mean '%s'?",
		scalar(key), s);
}

static int load_term(struct loader *L, struct exclude_rule *r,
		     const yaml_node_t *key, const yaml_node_t *val)
{
	const struct dimension *d = matrix_dim(L->m, scalar(key));
	struct exclude_term *t = &r->terms[r->nterms];
	char why[256];
	size_t i;

	if (!d)
		return not_a_dimension(L, key);
	if (val->type != YAML_SCALAR_NODE)
		return error_node(L, val, "exclude: %s: expected a scalar, not a %s",
				  d->key, val->type == YAML_MAPPING_NODE ?
				  "mapping" : "list");
	if (matrix_parse_value(d->kind, scalar(val), &t->value, why, sizeof why))
		return error_node(L, at(key, val), "exclude: %s: %s", d->key, why);
	r->nterms++;
	t->dim = (size_t)(d - L->m->dims);
	t->value.pos = node_pos(val);
	for (i = 0; i < d->nvalues; i++)
		if (d->values[i].num == t->value.num)
			return 0;
	return error_node(L, val, "exclude: %s %s is not a value of dimension '%s'",
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
	if (check_keys(L, map))
		return -1;
	r->terms = calloc(n, sizeof *r->terms);
	if (!r->terms)
		return oom(L, map);
	r->pos = node_pos(map);
	L->m->nexcludes++;
	for (size_t i = 0; i < n; i++)
		if (load_term(L, r, pair_key(L, map, i), pair_val(L, map, i)))
			return -1;
	return 0;
}

static int load_excludes(struct loader *L, const yaml_node_t *seq)
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
	L->m->excludes = calloc(n, sizeof *L->m->excludes);
	if (!L->m->excludes)
		return oom(L, seq);
	for (size_t i = 0; i < n; i++)
		if (load_rule(L, item(L, seq, i)))
			return -1;
	return 0;
}

static const yaml_node_t *find_key(struct loader *L, const yaml_node_t *map, const char *name,
				   const yaml_node_t **keyp)
{
	for (size_t i = 0; i < npairs(map); i++)
		if (!strcmp(scalar(pair_key(L, map, i)), name)) {
			if (keyp)
				*keyp = pair_key(L, map, i);
			return pair_val(L, map, i);
		}
	return NULL;
}

/* ---- programs: ---- */

const struct program *matrix_program(const struct matrix *m, const char *name)
{
	for (size_t i = 0; i < m->nprograms; i++)
		if (!strcmp(m->programs[i].name, name))
			return &m->programs[i];
	return NULL;
}

static const char *const placeholders[] = {
	"host", "port", "path", "size", "response_size", "count", "concurrency",
	"duration_s", "endpoint",
};

/* Every {name} in word is a placeholder or a key of matrix:. */
static int check_placeholders(struct loader *L, const yaml_node_t *at_node, const char *word)
{
	for (const char *p = strchr(word, '{'); p; p = strchr(p + 1, '{')) {
		const char *end = strchr(p, '}');
		char name[64];
		size_t i, n;
		if (!end || (n = (size_t)(end - p - 1)) == 0 || n >= sizeof(name))
			return error_node(L, at_node, "'%s': a '{' without a placeholder name and '}'",
					  word);
		memcpy(name, p + 1, n);
		name[n] = '\0';
		for (i = 0; i < ARRAY_SIZE(placeholders) && strcmp(placeholders[i], name); i++)
			;
		if (i == ARRAY_SIZE(placeholders) && !matrix_dim(L->m, name)) {
			const char *s = suggest_closest(name, placeholders, ARRAY_SIZE(placeholders));
			return error_node(L, at_node, "unknown placeholder {%s}%s%s%s (known: {host} "
					  "{port} {path} {size} {response_size} {count} {concurrency} "
					  "{duration_s} {endpoint} and the keys of matrix:)", name,
					  s ? "; did you mean {" : "", s ? s : "", s ? "}?" : "");
		}
	}
	return 0;
}

/* A command: a list of words, or one string split at spaces (never a shell). */
static int load_command(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
			char ***argv, size_t *argc, struct srcpos *pos)
{
	size_t n = 0;

	*pos = node_pos(val);
	if (val->type == YAML_SCALAR_NODE) {
		char *copy = strdup(scalar(val)), *save = NULL;
		if (!copy)
			return oom(L, val);
		*argv = calloc(strlen(copy) / 2 + 2, sizeof(**argv));
		for (char *w = strtok_r(copy, " \t", &save); w && *argv; w = strtok_r(NULL, " \t", &save))
			if (!((*argv)[n++] = strdup(w)))
				break;
		free(copy);
	} else if (val->type == YAML_SEQUENCE_NODE) {
		*argv = calloc(nitems(val) + 1, sizeof(**argv));
		for (size_t i = 0; *argv && i < nitems(val); i++) {
			const yaml_node_t *w = item(L, val, i);
			*argc = n;	/* what is there is freed with the matrix */
			if (w->type != YAML_SCALAR_NODE)
				return error_node(L, w, "%s: each word must be a scalar", scalar(key));
			if (!((*argv)[n++] = strdup(scalar(w))))
				break;
		}
	} else {
		return error_node(L, val, "%s: expected a list of words or a string", scalar(key));
	}
	*argc = n;
	if (!*argv)
		return oom(L, val);
	if (!n || !*(*argv)[0])
		return error_node(L, at(key, val), "%s: empty command", scalar(key));
	if (val->type == YAML_SEQUENCE_NODE) {
		for (size_t i = 0; i < n; i++)
			if (check_placeholders(L, item(L, val, i), (*argv)[i]))
				return -1;
	} else {
		for (size_t i = 0; i < n; i++)
			if (check_placeholders(L, val, (*argv)[i]))
				return -1;
	}
	return 0;
}

/* A unit of a program's figure, as a factor to the metric's own unit. */
static int unit_scale(const char *metric, const char *unit, double *scale)
{
	static const struct { const char *suffix, *unit; double scale; } units[] = {
		{ "_us", "ns", 1e-3 }, { "_us", "us", 1 }, { "_us", "µs", 1 }, { "_us", "ms", 1e3 },
		{ "_us", "s", 1e6 }, { "msgs_per_s", "/s", 1 }, { "msgs_per_s", "k/s", 1e3 },
		{ "msgs_per_s", "M/s", 1e6 }, { "mib_per_s", "B/s", 1.0 / 1048576 },
		{ "mib_per_s", "KiB/s", 1.0 / 1024 }, { "mib_per_s", "MiB/s", 1 },
		{ "mib_per_s", "GiB/s", 1024 }, { "mib_per_s", "MB/s", 1e6 / 1048576 },
	};
	size_t ml = strlen(metric);

	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		size_t sl = strlen(units[i].suffix);
		if (ml >= sl && !strcmp(metric + ml - sl, units[i].suffix) &&
		    !strcmp(unit, units[i].unit)) {
			*scale = units[i].scale;
			return 0;
		}
	}
	return -1;
}

static int load_result(struct loader *L, struct program *pr, const yaml_node_t *key,
		       const yaml_node_t *val)
{
	struct program_result *res = &pr->results[pr->nresults];
	const yaml_node_t *rx = val, *unit = NULL;
	char why[512];
	regex_t re;
	int m = matrix_metric_index(scalar(key));

	if (m < 0) {
		unknown_name("metric", scalar(key), matrix_metrics, MATRIX_NMETRICS, why, sizeof why);
		return error_node(L, key, "result: %s", why);
	}
	if (val->type == YAML_MAPPING_NODE) {
		if (!(rx = find_key(L, val, "regex", NULL)))
			return error_node(L, val, "result: %s: missing regex:", scalar(key));
		unit = find_key(L, val, "unit", NULL);
	}
	if (rx->type != YAML_SCALAR_NODE || (unit && unit->type != YAML_SCALAR_NODE))
		return error_node(L, rx, "result: %s: expected a regex, or {regex: ..., unit: ...}",
				  scalar(key));
	res->metric = m;
	res->scale = 1;
	res->pos = node_pos(rx);
	if (unit && unit_scale(scalar(key), scalar(unit), &res->scale) < 0)
		return error_node(L, unit, "result: %s: unit '%s' does not fit this metric (times: "
				  "ns, us, ms, s; rates: /s, k/s, M/s; throughput: B/s, KiB/s, MiB/s, "
				  "GiB/s, MB/s)", scalar(key), scalar(unit));
	int rc = regcomp(&re, scalar(rx), REG_EXTENDED);
	if (rc) {
		regerror(rc, &re, why, sizeof why);
		return error_node(L, rx, "result: %s: bad regex: %s", scalar(key), why);
	}
	size_t groups = re.re_nsub;
	regfree(&re);
	if (groups != 1)
		return error_node(L, rx, "result: %s: the regex needs exactly one group (the "
				  "figure), it has %zu", scalar(key), groups);
	if (!(res->regex = strdup(scalar(rx))))
		return oom(L, rx);
	pr->nresults++;
	return 0;
}

static int load_program(struct loader *L, const yaml_node_t *key, const yaml_node_t *val)
{
	static const char *const keys[] = { "server", "client", "ready", "result" };
	struct program *pr = &L->m->programs[L->m->nprograms];
	char why[512];
	struct mvalue v = { 0 };

	if (matrix_parse_value(VK_PROGRAM, scalar(key), &v, why, sizeof why))
		return error_node(L, key, "programs: %s", why);
	free(v.text);
	if (!strcmp(scalar(key), "builtin"))
		return error_node(L, key, "programs: 'builtin' is the name of matrix's own workers");
	if (val->type != YAML_MAPPING_NODE)
		return error_node(L, at(key, val), "programs: %s: expected a mapping with server: "
				  "and/or client:", scalar(key));
	if (check_keys(L, val))
		return -1;
	pr->name = strdup(scalar(key));
	pr->pos = node_pos(key);
	L->m->nprograms++;
	if (!pr->name)
		return oom(L, key);
	for (size_t i = 0; i < npairs(val); i++) {
		yaml_node_t *k = pair_key(L, val, i), *w = pair_val(L, val, i);
		const char *name = scalar(k);
		if (!strcmp(name, "server")) {
			if (load_command(L, k, w, &pr->server, &pr->nserver, &pr->server_pos))
				return -1;
		} else if (!strcmp(name, "client")) {
			if (load_command(L, k, w, &pr->client, &pr->nclient, &pr->client_pos))
				return -1;
		} else if (!strcmp(name, "ready")) {
			regex_t re;
			int rc;
			if (want_scalar(L, k, w))
				return -1;
			if ((rc = regcomp(&re, scalar(w), REG_EXTENDED | REG_NOSUB))) {
				regerror(rc, &re, why, sizeof why);
				return error_node(L, w, "ready: bad regex: %s", why);
			}
			regfree(&re);
			if (!(pr->ready = strdup(scalar(w))))
				return oom(L, w);
		} else if (!strcmp(name, "result")) {
			if (w->type != YAML_MAPPING_NODE || !npairs(w))
				return error_node(L, at(k, w), "result: expected a mapping of metric: regex");
			if (check_keys(L, w))
				return -1;
			pr->results = calloc(npairs(w), sizeof(*pr->results));
			if (!pr->results)
				return oom(L, w);
			for (size_t j = 0; j < npairs(w); j++)
				if (load_result(L, pr, pair_key(L, w, j), pair_val(L, w, j)))
					return -1;
		} else {
			unknown_name("key", name, keys, ARRAY_SIZE(keys), why, sizeof why);
			return error_node(L, k, "programs: %s: %s", pr->name, why);
		}
	}
	if (!pr->server && !pr->client)
		return error_node(L, key, "programs: %s: give a server: or a client: command", pr->name);
	return 0;
}

static int load_programs(struct loader *L, const yaml_node_t *val)
{
	if (val->type != YAML_MAPPING_NODE || !npairs(val))
		return error_node(L, val, "programs: expected a mapping of NAME: {server: ..., client: ...}");
	if (check_keys(L, val))
		return -1;
	L->m->programs = calloc(npairs(val), sizeof(*L->m->programs));
	if (!L->m->programs)
		return oom(L, val);
	for (size_t i = 0; i < npairs(val); i++)
		if (load_program(L, pair_key(L, val, i), pair_val(L, val, i)))
			return -1;
	return 0;
}

/* server: and client: values name builtin or a program with that role. */
static int check_program_dims(struct loader *L)
{
	for (size_t d = 0; d < L->m->ndims; d++) {
		const struct dimension *dim = &L->m->dims[d];
		int is_server = !strcmp(dim->key, "server");
		if (dim->kind != VK_PROGRAM)
			continue;
		for (size_t i = 0; i < dim->nvalues; i++) {
			const struct mvalue *v = &dim->values[i];
			const struct program *pr = matrix_program(L->m, v->text);
			if (!v->num)
				continue;
			if (!pr) {
				const char **names = calloc(L->m->nprograms + 2, sizeof(*names));
				char why[512];
				if (!names)
					return error_at(L, (size_t)v->pos.line, (size_t)v->pos.col, "out of memory");
				names[0] = "builtin";
				for (size_t k = 0; k < L->m->nprograms; k++)
					names[k + 1] = L->m->programs[k].name;
				unknown_name("program", v->text, names, L->m->nprograms + 1, why, sizeof why);
				free(names);
				return error_at(L, (size_t)v->pos.line, (size_t)v->pos.col, "%s: %s (add it "
						"under programs:)", dim->key, why);
			}
			if (is_server ? !pr->server : !pr->client)
				return error_at(L, (size_t)v->pos.line, (size_t)v->pos.col,
						"%s: program %s has no %s: command", dim->key, v->text,
						dim->key);
		}
	}
	return 0;
}

/* ---- report: ---- */

static int load_noisy_cv(struct loader *L, const yaml_node_t *key, const yaml_node_t *val)
{
	const char *s;
	char *end;
	double v;

	if (want_scalar(L, key, val))
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

	if (want_scalar(L, key, val))
		return -1;
	if (matrix_parse_value(d->kind, scalar(val), out, why, sizeof why))
		return error_node(L, at(key, val), "%s: %s", scalar(key), why);
	out->pos = node_pos(val);
	for (size_t i = 0; i < d->nvalues; i++)
		if (d->values[i].num == out->num)
			return 0;
	return error_node(L, val, "%s: %s is not a value of dimension '%s'", scalar(key),
			  out->text, d->key);
}


static int load_ratio(struct loader *L, const yaml_node_t *map);

/* Each ratio once by name: reports and charts tell them apart by it. */
static int load_ratios(struct loader *L, const yaml_node_t *seq)
{
	for (size_t j = 0; j < nitems(seq); j++) {
		if (load_ratio(L, item(L, seq, j)))
			return -1;
		const struct ratio_spec *r = &L->m->report.ratios[j];
		for (size_t i = 0; i < j; i++)
			if (!strcmp(L->m->report.ratios[i].name, r->name))
				return error_at(L, (size_t)r->pos.line, (size_t)r->pos.col,
						"ratios: a second ratio named '%s' (the first is at "
						"line %d); give each a name: of its own", r->name,
						L->m->report.ratios[i].pos.line);
	}
	return 0;
}

static int load_ratio(struct loader *L, const yaml_node_t *map)
{
	static const char *const keys[] = { "name", "dimension", "numerator", "denominator",
					    "metric" };
	struct ratio_spec *r = &L->m->report.ratios[L->m->report.nratios];
	const yaml_node_t *k, *v;
	const struct dimension *d;
	char why[512];

	if (map->type != YAML_MAPPING_NODE)
		return error_node(L, map, "ratios: each entry must be a mapping with dimension:, "
				  "numerator:, denominator: (and name:, metric:)");
	if (check_keys(L, map))
		return -1;
	for (size_t i = 0; i < npairs(map); i++) {
		const char *key = scalar(pair_key(L, map, i));
		size_t j;
		for (j = 0; j < ARRAY_SIZE(keys) && strcmp(keys[j], key); j++)
			;
		if (j == ARRAY_SIZE(keys)) {
			unknown_name("key", key, keys, ARRAY_SIZE(keys), why, sizeof why);
			return error_node(L, pair_key(L, map, i), "ratios: %s", why);
		}
	}
	r->pos = node_pos(map);
	r->metric = matrix_metrics[0];
	L->m->report.nratios++;
	if (!(v = find_key(L, map, "dimension", &k)))
		return error_node(L, map, "ratios: missing dimension:");
	if (want_scalar(L, k, v))
		return -1;
	if (!(d = matrix_dim(L->m, scalar(v)))) {
		const char **names = calloc(L->m->ndims + 1, sizeof *names);
		if (!names)
			return oom(L, v);
		for (size_t i = 0; i < L->m->ndims; i++)
			names[i] = L->m->dims[i].key;
		unknown_name("dimension", scalar(v), names, L->m->ndims, why, sizeof why);
		free(names);
		return error_node(L, v, "ratios: %s", why);
	}
	r->dim = (size_t)(d - L->m->dims);
	if (!(v = find_key(L, map, "numerator", &k)))
		return error_node(L, map, "ratios: missing numerator:");
	if (load_ratio_value(L, d, k, v, &r->numerator))
		return -1;
	if (!(v = find_key(L, map, "denominator", &k)))
		return error_node(L, map, "ratios: missing denominator:");
	if (load_ratio_value(L, d, k, v, &r->denominator))
		return -1;
	if (r->numerator.num == r->denominator.num)
		return error_node(L, v, "ratios: numerator and denominator are the same value");
	if ((v = find_key(L, map, "metric", &k))) {
		int mi;
		if (want_scalar(L, k, v))
			return -1;
		if ((mi = matrix_metric_index(scalar(v))) < 0) {
			unknown_name("metric", scalar(v), matrix_metrics, MATRIX_NMETRICS, why,
				     sizeof why);
			return error_node(L, v, "ratios: %s", why);
		}
		r->metric = matrix_metrics[mi];
	}
	if ((v = find_key(L, map, "name", &k))) {
		if (want_scalar(L, k, v))
			return -1;
		const char *n = scalar(v);
		if (!*n)
			return error_node(L, at(k, v), "ratios: name must not be empty");
		for (const char *c = n; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '"' || *c == '\\')
				return error_node(L, v, "ratios: name may not hold control characters, "
						  "'\"' or '\\'");
		r->name = strdup(n);
	} else {
		size_t len = strlen(r->numerator.text) + strlen(r->denominator.text) + 2;
		if ((r->name = malloc(len)))
			snprintf(r->name, len, "%s/%s", r->numerator.text, r->denominator.text);
	}
	return r->name ? 0 : oom(L, map);
}

static int load_report(struct loader *L, const yaml_node_t *val)
{
	static const char *const keys[] = { "noisy_cv", "ratios" };
	char why[512];

	if (is_null(val))
		return 0;
	if (val->type != YAML_MAPPING_NODE)
		return error_node(L, val, "report: expected a mapping with noisy_cv: or ratios:");
	if (check_keys(L, val))
		return -1;
	for (size_t i = 0; i < npairs(val); i++) {
		yaml_node_t *k = pair_key(L, val, i), *v = pair_val(L, val, i);
		if (!strcmp(scalar(k), "noisy_cv")) {
			if (load_noisy_cv(L, k, v))
				return -1;
		} else if (!strcmp(scalar(k), "ratios")) {
			if (v->type != YAML_SEQUENCE_NODE || !nitems(v))
				return error_node(L, at(k, v), "ratios: expected a non-empty list");
			L->m->report.ratios = calloc(nitems(v), sizeof *L->m->report.ratios);
			if (!L->m->report.ratios)
				return oom(L, v);
			if (load_ratios(L, v))
				return -1;
		} else {
			unknown_name("key", scalar(k), keys, ARRAY_SIZE(keys), why, sizeof why);
			return error_node(L, k, "report: %s", why);
		}
	}
	return 0;
}

/* ---- the document ---- */

static int unknown_topkey(struct loader *L, const yaml_node_t *key)
{
	const char *names[ARRAY_SIZE(topkeys)];
	char why[512];

	for (size_t i = 0; i < ARRAY_SIZE(topkeys); i++)
		names[i] = topkeys[i].key;
	unknown_name("key", scalar(key), names, ARRAY_SIZE(names), why,
		     sizeof why);
	return error_node(L, key, "%s", why);
}

static int load_pair(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	for (size_t i = 0; i < ARRAY_SIZE(topkeys); i++)
		if (!strcmp(topkeys[i].key, scalar(key)))
			return topkeys[i].load(L, key, val);
	return unknown_topkey(L, key);
}

static int load_root(struct loader *L)
{
	yaml_node_t *root = yaml_document_get_root_node(&L->doc);

	if (!root)
		return error_at(L, 1, 1,
			"empty matrix file; expected a mapping with name: and matrix:");
	if (root->type != YAML_MAPPING_NODE)
		return error_node(L, root,
			"expected a mapping with name: and matrix: at the top level");
	if (check_keys(L, root))
		return -1;
	for (size_t i = 0; i < npairs(root); i++)
		if (load_pair(L, pair_key(L, root, i), pair_val(L, root, i)))
			return -1;
	if (!L->m->name)
		return error_node(L, root, "missing required key 'name'");
	if (!L->m->ndims)
		return error_node(L, root, "missing required key 'matrix'");
	if (L->programs && !is_null(L->programs) && load_programs(L, L->programs))
		return -1;
	if (check_program_dims(L))
		return -1;
	if (L->exclude && load_excludes(L, L->exclude))
		return -1;
	if (L->report && load_report(L, L->report))
		return -1;
	return 0;
}

/* libyaml's own message, at its mark. */
static int syntax_error(struct loader *L, const yaml_parser_t *p)
{
	size_t line = p->problem_mark.line + 1, col = p->problem_mark.column + 1;
	const char *problem = p->problem ? p->problem : "cannot parse";

	if (p->error == YAML_MEMORY_ERROR)
		return error_at(L, 1, 1, "out of memory while parsing");
	if (p->error == YAML_READER_ERROR) {
		size_t off = p->problem_offset < L->len ? p->problem_offset : L->len;

		line = col = 1;
		for (size_t i = 0; i < off; i++, col++) {
			if (L->buf[i] == '\n') {
				line++;
				col = 0;
			}
		}
		return error_at(L, line, col, "%s", problem);
	}
	if (p->context)
		return error_at(L, line, col, "%s (%s at line %zu)", problem,
				p->context, p->context_mark.line + 1);
	return error_at(L, line, col, "%s", problem);
}

/* A matrix file is one document: anything after it is an error. */
static int check_one_document(struct loader *L, yaml_parser_t *p)
{
	yaml_document_t next;
	yaml_node_t *root;
	int rc = 0;

	if (!yaml_parser_load(p, &next))
		return syntax_error(L, p);
	root = yaml_document_get_root_node(&next);
	if (root)
		rc = error_node(L, root,
			"a matrix file holds one YAML document; this is a second one");
	yaml_document_delete(&next);
	return rc;
}

static void matrix_init(struct matrix *m)
{
	memset(m, 0, sizeof *m);
	m->repeat = MATRIX_DEFAULT_REPEAT;
	m->warmup = MATRIX_DEFAULT_WARMUP;
	m->timeout_ns = MATRIX_DEFAULT_TIMEOUT_NS;
	m->report.noisy_cv = MATRIX_DEFAULT_NOISY_CV;
}

static int parse_document(struct loader *L)
{
	yaml_parser_t p;
	int rc;

	if (!yaml_parser_initialize(&p))
		return error_at(L, 1, 1, "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)L->buf, L->len);
	if (!yaml_parser_load(&p, &L->doc)) {
		rc = syntax_error(L, &p);
		yaml_parser_delete(&p);
		return rc;
	}
	rc = load_root(L);
	if (!rc)
		rc = check_one_document(L, &p);
	yaml_document_delete(&L->doc);
	yaml_parser_delete(&p);
	return rc;
}

int matrix_load_buffer(struct matrix *m, const char *path, const char *buf,
		       size_t len, char *err, size_t errlen)
{
	struct loader L = {
		.path = path, .buf = buf, .len = len,
		.m = m, .err = err, .errlen = errlen,
	};

	matrix_init(m);
	m->path = strdup(path);
	m->description = strdup("");
	if (!m->path || !m->description) {
		matrix_release(m);
		return failf(err, errlen, "%s: out of memory", path);
	}
	if (parse_document(&L)) {
		matrix_release(m);
		return -1;
	}
	return 0;
}

/* The whole file in a malloc'd buffer. */
static int read_file(const char *path, char **out, size_t *outlen,
		     char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return failf(err, errlen, "%s: cannot open: %s", path,
			     strerror(errno));
	for (;;) {
		if (len == cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 4096);

			if (!nb) {
				free(buf);
				fclose(f);
				return failf(err, errlen, "%s: out of memory", path);
			}
			buf = nb;
		}
		size_t n = fread(buf + len, 1, cap - len, f);

		len += n;
		if (n)
			continue;
		if (ferror(f)) {
			int e = errno;

			free(buf);
			fclose(f);
			return failf(err, errlen, "%s: cannot read: %s", path,
				     strerror(e));
		}
		break;
	}
	fclose(f);
	*out = buf;
	*outlen = len;
	return 0;
}

int matrix_load(struct matrix *m, const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	matrix_init(m);
	if (read_file(path, &buf, &len, err, errlen))
		return -1;
	rc = matrix_load_buffer(m, path, buf, len, err, errlen);
	free(buf);
	return rc;
}

void matrix_release(struct matrix *m)
{
	for (size_t i = 0; i < m->ndims; i++) {
		for (size_t j = 0; j < m->dims[i].nvalues; j++)
			free(m->dims[i].values[j].text);
		free(m->dims[i].values);
		free(m->dims[i].key);
	}
	for (size_t i = 0; i < m->nexcludes; i++) {
		for (size_t j = 0; j < m->excludes[i].nterms; j++)
			free(m->excludes[i].terms[j].value.text);
		free(m->excludes[i].terms);
	}
	for (size_t i = 0; i < m->report.nratios; i++) {
		free(m->report.ratios[i].name);
		free(m->report.ratios[i].numerator.text);
		free(m->report.ratios[i].denominator.text);
	}
	free(m->report.ratios);
	for (size_t i = 0; i < m->nprograms; i++) {
		struct program *pr = &m->programs[i];
		for (size_t k = 0; k < pr->nserver; k++)
			free(pr->server[k]);
		for (size_t k = 0; k < pr->nclient; k++)
			free(pr->client[k]);
		for (size_t k = 0; k < pr->nresults; k++)
			free(pr->results[k].regex);
		free(pr->server);
		free(pr->client);
		free(pr->results);
		free(pr->ready);
		free(pr->name);
	}
	free(m->programs);
	free(m->dims);
	free(m->excludes);
	free(m->path);
	free(m->name);
	free(m->description);
	matrix_init(m);
}
