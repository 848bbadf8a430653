/* repeat: auto, the rule: see run_auto.h. */
#include "run_auto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void run_auto_keep(struct run_state *s, size_t ci, double v)
{
	if (isnan(v))
		return;
	double *nv = realloc(s->vals[ci], (s->nvals[ci] + 1) * sizeof(*nv));
	if (nv) {
		nv[s->nvals[ci]++] = v;
		s->vals[ci] = nv;
	}
}

void run_auto_stop(struct run_state *s, size_t ci, unsigned rep, struct result_row *row)
{
	const struct matrix *m = s->pl->m;

	if (!m->repeat_min || !s->rel_width)
		return;
	if (row->ok)
		run_auto_keep(s, ci, row->msgs_per_s);
	if (rep < m->repeat_min)
		return;
	double w = s->rel_width(s->vals[ci], s->nvals[ci]);
	if (!isnan(w) && w <= m->repeat_width)
		snprintf(row->repeat_stop, sizeof(row->repeat_stop), "narrow (%.1f%%)", w * 100);
	else if (rep >= s->pl->repeat)
		snprintf(row->repeat_stop, sizeof(row->repeat_stop), "max (%.1f%%)",
			 w * 100);
	s->stopped[ci] = row->repeat_stop[0] != '\0';
}
