/*
 * jsonout: what every JSON document of matrix is made of (libjansson), and
 * writing one out whole.  The documents: a run folder's figures
 * (reports/json.h, `--export-json FILE`) and a plan's cells (plan/
 * plan_json.h, `matrix plan --json`); README "JSON export" has the schema.
 *
 * Values:
 *   jsonout_number(v)        a JSON number; null for NaN or an infinity
 *                            (JSON has neither: a figure that is absent)
 *   jsonout_rounded(v, d)    the same, rounded to d significant digits as
 *                            csv_out_double(w, v, d) writes it, so a figure
 *                            reads back equal to the CSV file's
 *   jsonout_string(s)        a JSON string (NULL s: null); jansson escapes
 *                            it.  JSON text is UTF-8: a string that is not
 *                            valid UTF-8 (a hand-edited results.csv) has
 *                            each byte above 0x7f turned into '?'
 *   jsonout_dim_value(k, t)  a value of a `matrix:` dimension of kind k,
 *                            from its text as results.csv writes it: a
 *                            number for a size (bytes), a count, a rate,
 *                            a link's bit rate (bits/s) and loss (percent)
 *                            and a duration (seconds), true or false for a
 *                            boolean, a string for the rest (and for text
 *                            that does not read as its kind)
 * Each returns a new reference, or NULL when memory runs out.  jansson's
 * json_object_set_new() and json_array_append_new() take a NULL value and
 * fail, so a document is built without checking every step and checked
 * once: jsonout_set() and jsonout_append() count those failures in *bad.
 *
 * Writing: every real is printed with JSONOUT_DIGITS significant digits,
 * the digits of the run folder's CSV files, so the JSON says the same
 * figures as they do.
 *   jsonout_write(doc, path)  written whole or not at all (outfile.h): a
 *                             temporary file in PATH's folder renamed over
 *                             it.  A PATH that exists and is no regular
 *                             file (a device, a folder, a fifo) is refused:
 *                             renaming over it would replace it.  0, or -1
 *                             with "PATH: reason" in err.
 *   jsonout_print(doc, f)     to an open stream (stdout); 0 or -1.
 */
#ifndef MATRIX_JSONOUT_H
#define MATRIX_JSONOUT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "matrix.h"

#define JSONOUT_DIGITS 10

json_t *jsonout_number(double v);
json_t *jsonout_rounded(double v, int digits);
json_t *jsonout_string(const char *s);
json_t *jsonout_dim_value(enum value_kind kind, const char *text);

/* obj[key] = v (taking v's reference); a failure (v NULL) counts in *bad. */
void jsonout_set(json_t *obj, const char *key, json_t *v, int *bad);
/* arr += v (taking v's reference); a failure counts in *bad. */
void jsonout_append(json_t *arr, json_t *v, int *bad);

int jsonout_write(const json_t *doc, const char *path, char *err, size_t errlen);
int jsonout_print(const json_t *doc, FILE *f);

#endif
