/*
 * matrix_yaml: private to the matrix model (base/matrix*.c), never
 * included elsewhere.  The loader's state while it walks one YAML document,
 * the checks every section shares, and small accessors for libyaml nodes.
 *
 * Every ml_ check that fails writes "FILE:LINE:COL: message" into the
 * loader's err and returns -1; 0 means the node is fine.  The loader owns
 * the document only: what a section takes from it is copied into the
 * matrix, which matrix_release() frees.
 *
 * The model's files call only files below them, bottom first: matrix.c
 * (values and messages, matrix_schema.h, no YAML); matrix_yaml.c (the
 * messages at a node and the checks below); matrix_regex.c; the sections
 * (matrix_dims.c, matrix_hosts.c, matrix_report.c, matrix_timeline.c;
 * matrix_topology.c calls matrix_dims.c, matrix_programs.c calls
 * matrix_timeline.c); matrix_file.c, the top-level walk that calls every
 * section; matrix_set.c (--set), which loads through matrix_file.c.
 */
#ifndef MATRIX_MATRIX_YAML_H
#define MATRIX_MATRIX_YAML_H

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "matrix_schema.h"

#include "arrays.h"

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
	yaml_node_t *topology;	/* likewise, after matrix:, before exclude: */
};

/* ---- messages at a node (matrix_yaml.c) ---- */

/* "FILE:LINE:COL: message" into the loader's err; returns -1. */
__attribute__((format(printf, 4, 5)))
int ml_error_at(struct loader *L, size_t line, size_t col, const char *fmt, ...);
#define error_node(L, node, ...) \
	ml_error_at((L), (node)->start_mark.line + 1, \
		 (node)->start_mark.column + 1, __VA_ARGS__)
struct srcpos ml_node_pos(const yaml_node_t *n);

/* "PREFIXunknown WHAT 'x'; did you mean ...?" at key; -1. */
int ml_unknown_key(struct loader *L, const yaml_node_t *key, const char *prefix,
		   const char *what, const char *const *names, size_t n);

/* ---- duplicates in one pass (matrix_yaml.c) ---- */

/* The entries of a mapping or list seen so far, by hash: a duplicate
 * among n entries is found in time linear in n (a 1 MiB file holds 100k). */
struct ml_seen {
	size_t *slot;		/* index + 1 of an entry; 0: empty */
	size_t mask;
};
int ml_seen_init(struct ml_seen *s, size_t n);	/* room for n; -1: out of memory */
void ml_seen_release(struct ml_seen *s);
/* The index of an earlier entry that same(ctx, earlier) says equals entry
 * idx (of hash), or SIZE_MAX after adding idx. */
size_t ml_seen_add(struct ml_seen *s, uint64_t hash, size_t idx,
		   int (*same)(const void *ctx, size_t earlier), const void *ctx);

/* ---- YAML checks (matrix_yaml.c) ---- */

int ml_check_keys(struct loader *L, const yaml_node_t *map);	/* scalars, none twice */
int ml_want_scalar(struct loader *L, const yaml_node_t *key, const yaml_node_t *val);
/* A percentage written "5%" (above 0, below 1000%) as a fraction into
 * *out; -1 after "WHAT: 'TEXT' is not a percentage ..." at val. */
int ml_percent(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
	       const char *what, double *out);
int ml_oom(struct loader *L, const yaml_node_t *n);
/* The value of key `name` in a mapping, or NULL; its key node in *keyp. */
const yaml_node_t *ml_find_key(struct loader *L, const yaml_node_t *map, const char *name,
			       const yaml_node_t **keyp);

/* ---- regexes (matrix_regex.c) ---- */

/* PCRE2's compile of text (n's): -1 after "WHAT: regex does not compile:
 * MESSAGE at offset N" at n.  *groups (when not NULL): its capture groups;
 * *figure: its (?<value>...) group's number, 0 when none. */
int ml_compile(struct loader *L, const yaml_node_t *n, const char *what, const char *text,
	       unsigned *groups, int *figure);

/* ---- the file (matrix_file.c) ---- */

void ml_matrix_init(struct matrix *m);		/* every default, nothing owned */
/* The whole file in a malloc'd buffer (*out, *outlen); -1 with "PATH: why". */
int ml_read_file(const char *path, char **out, size_t *outlen, char *err, size_t errlen);

/* ---- the sections, each loaded once the ones it names are known ---- */

int ml_load_matrix(struct loader *L, yaml_node_t *key, yaml_node_t *val);	/* matrix_dims.c */
int ml_load_excludes(struct loader *L, const yaml_node_t *seq);		/* matrix_dims.c */
/* One `dimension: value` term of an exclude: rule or a ratio's reference
 * (prefix names it in messages, "exclude"): a dimension of the matrix and
 * one of its values, into *t (its text owned by t once set, on failure
 * too).  0, or -1 after the error. */
int ml_load_term(struct loader *L, const char *prefix, struct exclude_term *t,
		 const yaml_node_t *key, const yaml_node_t *val);	/* matrix_dims.c */
/* One more dimension of spec (key's value val: a scalar or a list) at
 * m->dims[m->ndims], for which room is made already (matrix_dims.c). */
int ml_load_dimension(struct loader *L, const struct dimspec *spec, const yaml_node_t *key,
		      const yaml_node_t *val);
int ml_load_topology(struct loader *L, const yaml_node_t *val);	/* matrix_topology.c */
int ml_load_programs(struct loader *L, const yaml_node_t *val);		/* matrix_programs.c */
int ml_check_program_dims(struct loader *L);
void matrix_program_steps_release(struct program *pr);			/* matrix_programs.c */
/* A program's timeline: (key, val of its mapping prog) into pr->timeline
 * (matrix_timeline.c). */
int ml_load_timeline(struct loader *L, struct program *pr, const yaml_node_t *prog,
		     const yaml_node_t *key, const yaml_node_t *val);
int ml_load_report(struct loader *L, const yaml_node_t *val);		/* matrix_report.c */
int ml_load_hosts(struct loader *L, yaml_node_t *key, yaml_node_t *val);	/* matrix_hosts.c */
/* percentiles: [50, 99, 99.99] (matrix_percentiles.c) */
int ml_load_percentiles(struct loader *L, yaml_node_t *key, yaml_node_t *val);
void matrix_hosts_release(struct matrix_hosts *h);			/* matrix_hosts.c */

/* ---- libyaml nodes ---- */

static inline const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static inline int is_null(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       !n->data.scalar.length;
}

static inline yaml_node_t *node(struct loader *L, int id)
{
	return yaml_document_get_node(&L->doc, id);
}

static inline size_t npairs(const yaml_node_t *map)
{
	return (size_t)(map->data.mapping.pairs.top -
			map->data.mapping.pairs.start);
}

static inline size_t nitems(const yaml_node_t *seq)
{
	return (size_t)(seq->data.sequence.items.top -
			seq->data.sequence.items.start);
}

static inline yaml_node_t *pair_key(struct loader *L, const yaml_node_t *map, size_t i)
{
	return node(L, map->data.mapping.pairs.start[i].key);
}

static inline yaml_node_t *pair_val(struct loader *L, const yaml_node_t *map, size_t i)
{
	return node(L, map->data.mapping.pairs.start[i].value);
}

static inline yaml_node_t *item(struct loader *L, const yaml_node_t *seq, size_t i)
{
	return node(L, seq->data.sequence.items.start[i]);
}

/* An empty value has no place of its own: report it at its key, if any. */
static inline const yaml_node_t *at(const yaml_node_t *key, const yaml_node_t *val)
{
	return key && is_null(val) ? key : val;
}

#endif
