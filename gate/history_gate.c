/* A run's own gate, read back from its folder: ab.csv (an in-run A/B) or
 * compare.csv (`run --baseline`, `compare BASE RUN`), each the second
 * look's (look2/) when the run took one (see history.h,
 * history_read_gate). */
#include "arrays.h"
#include "csvfile.h"
#include "fieldnum.h"
#include "history.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The gate files, each the second look's when there is one; the first
 * that has a row of a point decides it. */
static const char *const gate_files[][2] = {
	{ COMPARE_LOOK2 "/ab.csv", "ab.csv" },
	{ COMPARE_LOOK2 "/compare.csv", "compare.csv" },
};

/* s, kept by h until history_release (the few distinct whys, once each);
 * NULL when out of memory. */
static const char *keep(struct history *h, const char *s)
{
	for (size_t i = 0; i < h->nstrings; i++)
		if (!strcmp(h->strings[i], s))
			return h->strings[i];
	return history_own(h, s);
}

/* The columns a gate file is read by. */
enum { COL_LABEL, COL_METRIC, COL_NEW_CELL, COL_VERDICT, COL_WHY, NCOLS };
static const char *const col_names[NCOLS] = { "label", "metric", "new_cell", "verdict", "why" };

/* DIR/NAME into t and its columns into col: 1, or 0 when there is no such
 * file, or -1 with err. */
static int load(struct csv_table *t, int *col, const char *dir, const char *name, char *err,
		size_t errlen)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (csv_table_load(t, path, err, errlen) < 0)
		return -1;
	for (int c = 0; c < NCOLS; c++)
		if ((col[c] = csv_table_col(t, col_names[c])) < 0) {
			snprintf(err, errlen, "%s: no %s column: not a comparison's file", path,
				 col_names[c]);
			csv_table_release(t);
			return -1;
		}
	return 1;
}

static int verdict_of(const char *s)
{
	for (int v = 0; v < V__COUNT; v++)
		if (!strcmp(compare_verdict_names[v], s))
			return v;
	return -1;
}

/* The cell of r numbered n, or NULL (cells are in number order; any
 * order is searched too). */
static const struct rcell *cell_numbered(const struct report *r, unsigned long n)
{
	size_t lo = 0, hi = r->ncells;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->cells[mid].number == n)
			return &r->cells[mid];
		if (r->cells[mid].number < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = 0; i < r->ncells; i++)
		if (r->cells[i].number == n)
			return &r->cells[i];
	return NULL;
}

/* The rows of one gate file (look2/NAME when the run took a second look,
 * else NAME) into the points of run i that have no gate yet.  -1 with
 * err. */
static int read_file(struct history *h, size_t i, const char *const *names, char *err,
		     size_t errlen)
{
	struct hist_run *run = &h->runs[i];
	struct csv_table t;
	int col[NCOLS], has = 0;
	const char *name = NULL;
	int rc = -1;

	for (size_t f = 0; f < 2 && !has; f++) {
		name = names[f];
		if ((has = load(&t, col, run->r->dir, name, err, errlen)) < 0)
			return -1;
	}
	if (!has)
		return 0;
	for (size_t r = 0; r < t.nrows; r++) {
		char **f = t.rows[r];
		int v = verdict_of(f[col[COL_VERDICT]]);
		int m = matrix_metric_index(f[col[COL_METRIC]]);
		size_t mi;
		if (v < 0) {
			char shown[256];
			snprintf(err, errlen, "%s/%s:%lu: unknown verdict '%s'", run->r->dir, name,
				 t.lines[r], fieldnum_show(f[col[COL_VERDICT]], shown, sizeof(shown)));
			goto out;
		}
		for (mi = 0; m >= 0 && mi < h->nmetrics && h->metrics[mi] != m; mi++)
			;
		if (v == V_ADDED || v == V_REMOVED || m < 0 || mi == h->nmetrics)
			continue;
		/* a row of a cell the new run has not (added, removed) has no
		 * new_cell; one that is no cell number is none either */
		double n;
		const char *why;
		const struct rcell *c = fieldnum_parse(f[col[COL_NEW_CELL]], FIELDNUM_WHOLE, &n, &why) < 0
					|| n > UINT32_MAX ? NULL : cell_numbered(run->r, (unsigned long)n);
		size_t k = c ? history_cell_of(h, run->group - 1, run->r, c) : SIZE_MAX;
		size_t pi = k == SIZE_MAX ? SIZE_MAX : run->point_of[k * h->nmetrics + mi];
		if (pi == SIZE_MAX || h->points[pi].gate[0])
			continue;
		struct hist_point *p = &h->points[pi];
		if (!(p->gate_why = keep(h, f[col[COL_WHY]]))) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		p->gate = name;
		p->gate_verdict = (enum verdict)v;
		run->gated = 1;
	}
	rc = 0;
out:
	csv_table_release(&t);
	return rc;
}

int history_read_gate(struct history *h, size_t i, char *err, size_t errlen)
{
	for (size_t f = 0; f < ARRAY_SIZE(gate_files); f++)
		if (read_file(h, i, gate_files[f], err, errlen) < 0)
			return -1;
	h->ngates += h->runs[i].gated;
	return 0;
}
