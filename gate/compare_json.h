/*
 * compare_json: one judged comparison (compare.h) added to the run's JSON
 * document (reports/json.h, `--export-json FILE`) as it is judged: its
 * kind (baseline or in-run A/B), folders, threshold, exit status, the
 * count of each verdict and compare.csv's rows under the same names.  The
 * verdicts keep the order of the calls; README "JSON export" has the
 * fields.
 */
#ifndef MATRIX_COMPARE_JSON_H
#define MATRIX_COMPARE_JSON_H

#include "compare.h"
#include "json.h"

/* dir: the folder the comparison's files went to; status: its exit status
 * (compare.h); look: 1, or 2 for the judgement of a run's second look
 * (its look2/ folder, compare.h).  Does nothing when j is NULL. */
void compare_json_add(struct run_json *j, const struct comparison *c, const char *dir,
		      int status, int look);

#endif
