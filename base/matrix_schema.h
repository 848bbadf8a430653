/*
 * matrix_schema: private to the matrix model (base/matrix*.c), never
 * included elsewhere.  What matrix.c, the bottom of the model, gives the
 * loader's files: the keys of `matrix:` and their kinds, a value's text as
 * its number, and the messages every file of the model writes (a
 * formatted error, "did you mean", the hash that finds duplicates).  None
 * of it knows YAML: the walk's own header is matrix_yaml.h, which includes
 * this one.
 */
#ifndef MATRIX_MATRIX_SCHEMA_H
#define MATRIX_MATRIX_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "matrix.h"

/* The keys of `matrix:`; a new dimension is one line in matrix.c. */
struct dimspec {
	const char *key;
	enum value_kind kind;
	uint64_t max;		/* largest value allowed, 0: no limit */
	int zero_ok;		/* a duration of 0 is allowed (spin: 0us) */
};
/* The most keys `matrix:` may have (matrix.c checks its table at compile
 * time): room enough for a list of every one. */
#define ML_MAX_DIMSPECS 64

/* ---- messages ---- */

/* Formats into buf; returns -1, for `return ml_failf(...)`. */
__attribute__((format(printf, 3, 4)))
int ml_failf(char *buf, size_t len, const char *fmt, ...);
/* Appends "a, b, c" to buf (which holds a string already). */
void ml_join_names(char *buf, size_t len, const char *const *names, size_t n);
/* "unknown WHAT 'word'; did you mean 'x'?" or "... (known: a, b)" in why; -1. */
int ml_unknown_name(const char *what, const char *word, const char *const *names, size_t n,
		    char *why, size_t whylen);
uint64_t ml_hash(const char *str, uint64_t num);	/* FNV-1a of str (or of num if NULL) */

/* ---- values ---- */

const struct dimspec *ml_find_dimspec(const char *key);	/* NULL: unknown key */
/* The keys of `matrix:`, in schema order, into out (at most max); how many. */
size_t ml_dimspec_keys(const char **out, size_t max);
int ml_parse_num(enum value_kind kind, const char *text, uint64_t *num, char *why,
		 size_t whylen);
/* ml_parse_num of the socket options' kinds (matrix_knobs.c): VK_AUTOSIZE
 * ("auto" 0, else a size > 0), VK_NAME (a hash of it). */
int ml_parse_knob(enum value_kind kind, const char *text, uint64_t *num, char *why,
		  size_t whylen);

#endif
