/*
 * matrix_yaml: the messages and checks every part of the loader shares
 * (matrix_yaml.h): "FILE:LINE:COL: message" at a node, duplicates found in
 * one pass, and the checks of keys, scalars and percentages.  It calls no
 * section and nothing of the top-level walk (matrix_file.c), so every
 * section can call it.
 */
#include "matrix_yaml.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages at a node ---- */

/* src into dst with control characters written as \n, \t or \xNN: the
 * message quotes the file's text, and an error is one line. */
static void one_line(char *dst, size_t len, const char *src)
{
	size_t o = 0;

	for (; *src && o + 1 < len; src++) {
		unsigned char c = (unsigned char)*src;
		int n = c == '\n' ? snprintf(dst + o, len - o, "\\n")
			: c == '\t' ? snprintf(dst + o, len - o, "\\t")
			: c < 0x20 || c == 0x7f ? snprintf(dst + o, len - o, "\\x%02x", c)
			: snprintf(dst + o, len - o, "%c", c);
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
	dst[o] = '\0';
}

__attribute__((format(printf, 4, 5)))
int ml_error_at(struct loader *L, size_t line, size_t col,
		    const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	int n;

	if (!L->err || !L->errlen)
		return -1;
	n = snprintf(msg, sizeof msg, "%s:%zu:%zu: ", L->path, line, col);
	if (n >= 0 && (size_t)n < sizeof msg) {
		va_start(ap, fmt);
		vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
		va_end(ap);
	}
	one_line(L->err, L->errlen, msg);
	return -1;
}

struct srcpos ml_node_pos(const yaml_node_t *n)
{
	return (struct srcpos){ (int)n->start_mark.line + 1,
				(int)n->start_mark.column + 1 };
}

int ml_unknown_key(struct loader *L, const yaml_node_t *key, const char *prefix,
		   const char *what, const char *const *names, size_t n)
{
	char why[512];

	ml_unknown_name(what, scalar(key), names, n, why, sizeof why);
	return error_node(L, key, "%s%s", prefix, why);
}

/* ---- duplicates in one pass ---- */

int ml_seen_init(struct ml_seen *s, size_t n)
{
	size_t cap = 8;

	while (cap < 2 * n)
		cap *= 2;
	s->mask = cap - 1;
	s->slot = calloc(cap, sizeof(*s->slot));
	return s->slot ? 0 : -1;
}

void ml_seen_release(struct ml_seen *s)
{
	free(s->slot);
	s->slot = NULL;
}

size_t ml_seen_add(struct ml_seen *s, uint64_t hash, size_t idx,
		   int (*same)(const void *ctx, size_t earlier), const void *ctx)
{
	size_t i = (size_t)hash & s->mask;

	for (; s->slot[i]; i = (i + 1) & s->mask)
		if (same(ctx, s->slot[i] - 1))
			return s->slot[i] - 1;
	s->slot[i] = idx + 1;
	return SIZE_MAX;
}

/* ---- YAML checks ---- */

struct same_key {
	struct loader *L;
	const yaml_node_t *map;
	const char *key;
};

static int same_key(const void *ctx, size_t earlier)
{
	const struct same_key *c = ctx;

	return !strcmp(scalar(pair_key(c->L, c->map, earlier)), c->key);
}

/* Every key a scalar, none twice. */
int ml_check_keys(struct loader *L, const yaml_node_t *map)
{
	size_t n = npairs(map), dup = SIZE_MAX;
	struct ml_seen seen;

	if (ml_seen_init(&seen, n))
		return ml_oom(L, map);
	for (size_t i = 0; i < n && dup == SIZE_MAX; i++) {
		yaml_node_t *k = pair_key(L, map, i);
		struct same_key c = { L, map, NULL };

		if (k->type != YAML_SCALAR_NODE) {
			ml_seen_release(&seen);
			return error_node(L, k, "expected a plain key, not a %s",
					  k->type == YAML_MAPPING_NODE ?
					  "mapping" : "list");
		}
		c.key = scalar(k);
		if ((dup = ml_seen_add(&seen, ml_hash(c.key, 0), i, same_key, &c)) != SIZE_MAX) {
			yaml_node_t *o = pair_key(L, map, dup);

			ml_seen_release(&seen);
			return error_node(L, k, "duplicate key '%s' (first at line %zu)",
					  scalar(k), o->start_mark.line + 1);
		}
	}
	ml_seen_release(&seen);
	return 0;
}

int ml_want_scalar(struct loader *L, const yaml_node_t *key,
		       const yaml_node_t *val)
{
	if (val->type == YAML_SCALAR_NODE)
		return 0;
	return error_node(L, val, "%s: expected a scalar, not a %s", scalar(key),
			  val->type == YAML_MAPPING_NODE ? "mapping" : "list");
}

int ml_oom(struct loader *L, const yaml_node_t *n)
{
	return error_node(L, n, "out of memory");
}

int ml_percent(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
	       const char *what, double *out)
{
	char *end;

	if (ml_want_scalar(L, key, val))
		return -1;
	*out = strtod(scalar(val), &end) / 100;
	if (end == scalar(val) || strcmp(end, "%") || !(*out > 0) || *out >= 10)
		return error_node(L, val, "%s: '%s' is not a percentage such as 5%% (above 0)",
				  what, scalar(val));
	return 0;
}

const yaml_node_t *ml_find_key(struct loader *L, const yaml_node_t *map, const char *name,
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
