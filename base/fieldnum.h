/*
 * fieldnum: a field of a run folder's CSV file (results.csv, hist.csv,
 * timeline.csv, a gate's compare.csv) read as a number.  A folder may come
 * from anywhere (a CI artifact, a hand edit, a merge), so it is untrusted
 * input, read as strictly as a matrix file: every reader of the folder
 * takes its numbers through here, and names the file, line and column of
 * one it refuses.
 *
 * The syntax is what csv_out_double() and csv_out_u64() write, and only
 * that: decimal digits with an optional sign, point and exponent
 * ("12", "-0.5", "1.25e+06", ".5").  Refused: hex ("0x10", which strtod
 * reads as 16), "inf" and "nan" (a figure that is absent is an empty
 * field), spaces, and anything after the number.  A number too small for
 * a normal double ("1e-320", a subnormal) is read as what it is (or 0
 * when it is smaller still); one too large for a double is refused as
 * too large.
 *
 * The kind of a column decides what else it may be:
 *   FIELDNUM_SIGNED  any number (a timeline interval's start may come
 *                    before its first sender's)
 *   FIELDNUM_AMOUNT  a number >= 0: every measured figure, a count, a
 *                    rate, a time, a duration, a load
 *   FIELDNUM_WHOLE   a whole number >= 0 and below 2^53 (FIELDNUM_WHOLE_MAX:
 *                    up to there a double holds every one exactly): a cell
 *                    or repetition number, a histogram bucket's count
 */
#ifndef MATRIX_FIELDNUM_H
#define MATRIX_FIELDNUM_H

#include <stddef.h>

enum fieldnum_kind { FIELDNUM_SIGNED, FIELDNUM_AMOUNT, FIELDNUM_WHOLE };

#define FIELDNUM_WHOLE_MAX 9007199254740991.0	/* 2^53 - 1 */

/* s as a number of kind k into *v: 0, or -1 with why it is none in *why,
 * static text that ends a sentence about it: "is not a number (decimal
 * digits only)", "is not a number: hex is not read, decimal digits only",
 * "is negative", "is not a whole number", "is 2^53 or more ...", "is too
 * large for a double ...", "is empty". */
int fieldnum_parse(const char *s, enum fieldnum_kind k, double *v, const char **why);

/* A field of PATH's line LINE, in column COL, read by fieldnum_parse into
 * *v; an empty field is NaN when empty_ok (a figure a row has not).  0,
 * or -1 with "PATH:LINE: COL 'TEXT' WHY" in err (TEXT as
 * fieldnum_show shows it). */
int fieldnum_read(const char *s, enum fieldnum_kind k, int empty_ok, double *v,
		  const char *path, unsigned long line, const char *col, char *err,
		  size_t errlen);

/* s as an error message shows a field of a file: control bytes, quotes
 * and backslashes as C escapes (\n, \t, \x01), bytes above 0x7e as \xHH,
 * cut to the first 48 bytes with "..." after; into buf, returned. */
const char *fieldnum_show(const char *s, char *buf, size_t len);

#endif
