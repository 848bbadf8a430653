/*
 * json: a run folder's figures as one JSON document, for `--export-json
 * FILE` of `matrix run` and `matrix report`: the run's meta.csv, every
 * cell's parameters and statistics (summary.csv's figures), the ratios
 * (ratios.csv's) and the verdicts of the comparisons the command made
 * (ab.csv's, compare.csv's).  README "JSON export" has the schema, field
 * by field; RUN_JSON_SCHEMA is its version, raised when a field changes
 * meaning or goes (fields are only ever added otherwise).
 *
 * The document is built while the figures are in memory and written once,
 * at the end:
 *   run_json_new()           an empty document; NULL when out of memory
 *   run_json_add_report()    a loaded report (report.h): meta, dimensions,
 *                            metrics, cells, ratios; called by the command
 *                            between report_load() and report_release()
 *   run_json_add_verdict()   one judged comparison, as it is judged (made
 *                            by gate/compare_json.h); kept in that order
 *   run_json_write()         the document into PATH, whole or not at all
 *                            (base/jsonout.h); 0, or -1 with "PATH: reason"
 *                            in err: also when no report was added (the
 *                            folder could not be read) or memory ran out
 *                            while building it
 *   run_json_free()
 * The same folder gives the same document from `run` and from `report`,
 * but for verdicts: each command has those it made.  Numbers carry the
 * digits of the CSV files (10 significant, 6 for a ci_level); a figure that
 * is absent (a failed cell, NaN) is null.
 */
#ifndef MATRIX_JSON_H
#define MATRIX_JSON_H

#include <jansson.h>
#include <stddef.h>

#define RUN_JSON_SCHEMA 1

struct report;
struct run_json;

struct run_json *run_json_new(void);
void run_json_add_report(struct run_json *j, const struct report *r);
/* Appends a verdict object (the document takes it; freed when j is
 * NULL); bad: building it ran out of memory, so the document is not
 * written. */
void run_json_add_verdict(struct run_json *j, json_t *verdict, int bad);
int run_json_write(const struct run_json *j, const char *path, char *err, size_t errlen);
void run_json_free(struct run_json *j);

#endif
