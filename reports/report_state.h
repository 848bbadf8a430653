/*
 * report_state: results.csv's machine-state columns (results.h) read back
 * into the report model, for report_load only: every row into the run's
 * busy counts (struct report's load, other, steal), each successful one
 * into its cell's states, and the cells' medians once every row is in
 * (struct rcell's state).  An older folder without a column, an empty
 * field or one that is not a number leaves that figure out: these are
 * facts about the machine, not measurements, and never fail a load.
 */
#ifndef MATRIX_REPORT_STATE_H
#define MATRIX_REPORT_STATE_H

#include "csvfile.h"

struct report;
struct rcell;

/* Where results.csv keeps them; -1 for a column it lacks. */
struct rstate_cols {
	int load[2];		/* loadavg_before, loadavg_after */
	int other, steal, iowait, runnable, mhz;
};

void report_state_columns(const struct csv_table *t, struct rstate_cols *col);
/* One row of cell c (ok: a successful repetition): into r's busy counts,
 * against meta.csv's cores, and when ok into c->states.  -1 when out of
 * memory. */
int report_state_add_row(struct report *r, struct rcell *c, char **row,
			 const struct rstate_cols *col, int ok);
/* c->state from c->states (which it frees). */
void report_state_summarize(struct rcell *c);

#endif
