/*
 * matrix_set: `--set KEY=VALUE`, a value of a matrix file overridden from
 * the command line (a nightly smoke run with a smaller count, say, without
 * editing the file).
 *
 * KEY is repeat, warmup, timeout or a key of `matrix:`.  VALUE replaces
 * the key's value, or all its values: a dimension becomes that one value.
 * A key the file lacks is added (a dimension at the end of `matrix:`).
 * When a key is given twice, the last one wins.
 *
 * The override is made in the file's text, never in a loaded matrix: the
 * value is written where the file has the key (plain, or single-quoted
 * when YAML needs it), and the edited text is loaded as a file is, so a
 * value is parsed and checked exactly as if the file said it (exclude:,
 * ratios and programs see it too), and the very text that was loaded, with
 * a first line "# matrix: --set KEY=VALUE ... applied to this copy", is
 * what a run folder keeps as matrix.yaml: `matrix report` reads back the
 * matrix that ran, and two runs with the same file and the same --set keep
 * the same bytes.  The file as given is loaded first, so its own mistakes
 * are reported as they would be without --set.
 *
 * Errors keep the file's own terms: one about an overridden value (or a
 * key --set added) names the flag, "--set count=abc: count: invalid count
 * 'abc': ..."; any other keeps "FILE:LINE:COL: message" with the line and
 * column of the file as given.
 */
#ifndef MATRIX_MATRIX_SET_H
#define MATRIX_MATRIX_SET_H

#include <stddef.h>

#include "matrix.h"

#define MATRIX_MAX_SETS 32
#define MATRIX_SET_MAX_VALUE 256	/* bytes of one VALUE */

struct matrix_sets {
	const char *arg[MATRIX_MAX_SETS];	/* "KEY=VALUE" as given (the caller's) */
	size_t n;
	/* after matrix_load_sets() with n > 0: the file with every override
	 * made, as loaded; NULL otherwise */
	char *text;
	size_t len;
	/* private: the file as read, and each change made to it in turn */
	char *orig;
	size_t origlen;
	struct matrix_edit {
		size_t at, oldlen, newlen;	/* bytes, in the text before this change */
		int set;			/* index into arg; -1: the first comment line */
	} edit[MATRIX_MAX_SETS + 1];
	size_t nedits;
};

/* One more "KEY=VALUE" (kept as a pointer); -1 with a message when it is
 * not KEY=VALUE with a known KEY, or there are too many. */
int matrix_sets_add(struct matrix_sets *s, const char *arg, char *err, size_t errlen);

/* Loads path as matrix_load() does, with every override of s made first
 * (none: exactly matrix_load).  0, or -1 with "FILE:LINE:COL: message" or
 * "--set KEY=VALUE: message" in err, m left released. */
int matrix_load_sets(struct matrix *m, const char *path, struct matrix_sets *s, char *err,
		     size_t errlen);

/* A later message about the loaded matrix, "PATH:LINE:COL: message" (as
 * plan_build writes them), rewritten in the file's own terms as above;
 * anything else is left alone. */
void matrix_sets_explain(const struct matrix_sets *s, const char *path, char *err,
			 size_t errlen);

/* "--set a=1 --set b=2" into buf ("" when none). */
void matrix_sets_join(const struct matrix_sets *s, char *buf, size_t len);

/* Frees the texts; the arguments stay. */
void matrix_sets_release(struct matrix_sets *s);

#endif
