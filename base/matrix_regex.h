/*
 * matrix_regex: the regexes of a matrix file (a program's ready:, result:
 * and timeline:) are PCRE2 (Perl-compatible, the 8-bit library, no UTF
 * mode: a line's bytes as they come).  The loader compiles each at plan
 * time (a pattern that does not compile is refused there, with PCRE2's
 * message and the offset in the pattern); the runner (cell/outlog.h)
 * compiles them again and matches each line's first 4 KiB with the match
 * context below, so that no pattern and no line keeps it matching for
 * long: a line that hits the limit counts as not matched.
 */
#ifndef MATRIX_REGEX_H
#define MATRIX_REGEX_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stddef.h>

/* pcre2_match's budget for one line (PCRE2's default is 10,000,000 and
 * 250,000 KiB of backtracking): a line that needs more is not matched.
 * "(a+)+$" on 4 KiB of "a" stops here in milliseconds. */
#define MATRIX_REGEX_MATCH_LIMIT 200000
#define MATRIX_REGEX_DEPTH_LIMIT 10000

/* re compiled (pcre2_code_free it), or NULL with "does not compile:
 * PCRE2'S MESSAGE at offset N" in why and the offset (0-based) in *at. */
pcre2_code *matrix_regex_compile(const char *re, size_t *at, char *why, size_t whylen);
/* A match context with the limits above (pcre2_match_context_free it);
 * NULL when out of memory. */
pcre2_match_context *matrix_regex_context(void);
/* The group that holds a result: regex's figure: the one named value
 * ((?<value>...)), else group 1; 0 when it has no group.  *groups: how
 * many capture groups it has. */
int matrix_regex_figure_group(const pcre2_code *c, unsigned *groups);

#endif
