/* A comparison's verdicts in the run's JSON document: see compare_json.h. */
#include "compare_json.h"
#include "arrays.h"
#include "jsonout.h"

/* compare.csv's row: the same names */
static json_t *verdict_row(const struct comparison *c, const struct cmp_row *row, int *bad)
{
	json_t *o = json_object();
	int has = row->metric >= 0;	/* added and removed rows have no figures */
	const char *names[] = { "base_median", "new_median", "change", "change_lo", "change_hi",
				"ci_level", "p_worse", "q_worse", "p_better", "q_better" };
	const double v[] = { row->base_median, row->cand_median, row->change, row->lo, row->hi,
			     row->level, row->p_worse, row->q_worse, row->p_better, row->q_better };

	if (!o)
		return NULL;
	jsonout_set(o, "label", jsonout_string(row->label), bad);
	jsonout_set(o, "metric", has ? json_string(metrics[row->metric].name) : json_null(), bad);
	jsonout_set(o, "base_cell", row->base ? json_integer(row->base->number) : json_null(), bad);
	jsonout_set(o, "new_cell", row->cand ? json_integer(row->cand->number) : json_null(), bad);
	jsonout_set(o, "base_n", has ? json_integer((json_int_t)row->n_base) : json_null(), bad);
	jsonout_set(o, "new_n", has ? json_integer((json_int_t)row->n_cand) : json_null(), bad);
	for (size_t k = 0; k < ARRAY_SIZE(v); k++)
		jsonout_set(o, names[k], has ? jsonout_number(v[k]) : json_null(), bad);
	jsonout_set(o, "verdict", json_string(compare_verdict_names[row->verdict]), bad);
	jsonout_set(o, "why", jsonout_string(row->why), bad);
	jsonout_set(o, "rounds", has && c->paired ? json_integer((json_int_t)row->rounds)
		    : json_null(), bad);
	jsonout_set(o, "look", has ? json_integer(row->look) : json_null(), bad);
	jsonout_set(o, "guarded", json_boolean(row->guarded), bad);
	return o;
}

void compare_json_add(struct run_json *j, const struct comparison *c, const char *dir,
		      int status, int look)
{
	json_t *o, *rows, *counts;
	int flag = 0, *bad = &flag;

	if (!j)
		return;
	o = json_object(), rows = json_array(), counts = json_object();
	for (size_t i = 0; rows && i < c->nrows; i++)
		jsonout_append(rows, verdict_row(c, &c->rows[i], bad), bad);
	for (int v = 0; counts && v < V__COUNT; v++)
		jsonout_set(counts, compare_verdict_names[v], json_integer((json_int_t)c->count[v]), bad);
	if (o) {
		jsonout_set(o, "kind", json_string(c->along < 0 ? "baseline" : "ab"), bad);
		jsonout_set(o, "dir", jsonout_string(dir), bad);
		jsonout_set(o, "baseline_dir", c->along < 0 ? jsonout_string(c->base->dir)
			    : json_null(), bad);
		jsonout_set(o, "dimension", c->along >= 0 ? jsonout_string(c->cand->dimnames[c->along])
			    : json_null(), bad);
		jsonout_set(o, "threshold", jsonout_number(c->threshold), bad);
		jsonout_set(o, "look", json_integer(look), bad);
		jsonout_set(o, "alpha", jsonout_number(c->alpha), bad);
		jsonout_set(o, "exit_status", json_integer(status), bad);
		jsonout_set(o, "counts", counts, bad);
		jsonout_set(o, "rows", rows, bad);
	} else {
		json_decref(rows);
		json_decref(counts);
	}
	run_json_add_verdict(j, o, flag);
}
