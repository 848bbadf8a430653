/* The matrix's percentiles in a report: see report_pct.h. */
#include "report_pct.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>

void report_pct_define(struct report *r)
{
	r->npct = r->nextra = 0;
	for (size_t i = 0; i < r->m.npercentiles; i++) {
		struct rpct *k = &r->pct[r->npct++];
		k->p = r->m.percentiles[i];
		k->name = r->m.percentile_cols[i];
		char label[sizeof(k->label)];
		percentile_label(k->p, label, sizeof(label));
		snprintf(k->label, sizeof(k->label), "%s", label);
		snprintf(k->title, sizeof(k->title), "round-trip time, %s", label);
		k->metric = percentile_metric(k->p);
		k->x = 0;
		if (k->metric < 0) {
			k->x = r->nextra;
			r->extra[r->nextra++] = i;
		}
	}
}

const struct stat_summary *report_pct_stat(const struct rcell *c, const struct rpct *k)
{
	return k->metric >= 0 ? &c->st[k->metric] : &c->xst[k->x];
}

void report_pct_summarize(struct report *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		struct rcell *c = &r->cells[i];
		for (size_t x = 0; x < r->nextra; x++) {
			stats_summarize(c->xvals[x], c->xst[x].n, &c->xst[x]);
			c->xnoisy[x] = c->xst[x].cv > r->m.report.noisy_cv;
		}
	}
}

void report_pct_release(struct rcell *c)
{
	for (size_t x = 0; x < PERCENTILE_MAX; x++)
		free(c->xvals[x]);
}
