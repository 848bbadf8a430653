/*
 * suggest: "did you mean" for a mistyped word, from the words it could be.
 *
 * A word is suggested when it is within a third of the typed word's length
 * in optimal string alignment distance (letters changed, added, dropped or
 * two swapped; case ignored) and no other candidate is as close.
 */
#ifndef MATRIX_SUGGEST_H
#define MATRIX_SUGGEST_H

#include <stddef.h>

/* The closest of `n` candidates to `word`, or NULL when none is close
 * enough, or two are equally close. */
const char *suggest_closest(const char *word, const char *const *cands, size_t n);

/* "; did you mean 'WORD'?" in buf, or "" when there is nothing to suggest;
 * returns buf, for a message's tail. */
const char *suggest_hint(const char *word, const char *const *cands, size_t n, char *buf,
			 size_t len);

#endif
