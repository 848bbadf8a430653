/* gnuplot scripts: the dispatcher, and what the charts of panels
 * (throughput, rtt, cpu, ratios; drawn by gnuplot_chart.c) draw; see
 * gnuplot.h (rendering is in gnuplot_render.c). */
#include "gnuplot.h"
#include "arrays.h"
#include "gnuplot_chart.h"
#include "gnuplot_hist.h"
#include "gnuplot_style.h"
#include "gnuplot_timeline.h"
#include "outfile.h"
#include "report.h"
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const chart_names[] = { "throughput", "rtt", "cpu", "ratios", "timeline" };

/* Has cell c the metric, or failed outright (a gap), unless it is a
 * cell of a pattern that times no round trip (stream, pipeline)? */
static int has_metric(const struct report *r, const struct rcell *c, int m)
{
	int pd = report_dim(r, "pattern");

	if (c->st[m].n > 0)
		return 1;
	return c->failed == c->reps && !(pd >= 0 && pattern_named_untimed(c->dims[pd]) &&
					 !strncmp(matrix_metrics[m], "rtt_", 4));
}

/* A chart of summary.csv, of the cells that have a figure of any of its
 * rows: a row per metric named in names (at most 4); lacking says why a
 * program's cell may have no figure in the rows after the first (struct
 * chart_row). */
static int summary_chart(const struct report *r, struct chart_item *items, const char *name,
			 const char *title, const char *const *names, size_t nrows,
			 const char *lacking, char *err, size_t errlen)
{
	int cd = gnuplot_compared_dim(r);
	struct chart_row rows[4];
	size_t n = 0;

	for (size_t k = 0; k < nrows; k++)
		rows[k] = (struct chart_row){ matrix_metric_index(names[k]), 0, k ? lacking : NULL };
	for (size_t i = 0; i < r->ncells; i++) {
		int has = 0;
		for (size_t k = 0; k < nrows; k++)
			has |= has_metric(r, &r->cells[i], rows[k].metric);
		if (has)
			items[n++] = (struct chart_item){ r->cells[i].dims, NULL, rows[0].metric, -1,
							  &r->cells[i], NULL,
							  cd >= 0 ? r->cells[i].dims[cd] : NULL };
	}
	if (!n)
		return 0;
	return gnuplot_chart(r, items, n, name, "summary.csv", title, rows, nrows, err, errlen);
}

/* The round-trip chart: p50 and p99, after the mean when a cell has a
 * mean but no p50 (a program client that prints its mean only, as source
 * experiment 000's), whose p50 and p99 panels then say which series they
 * lack. */
static int rtt_chart(const struct report *r, struct chart_item *items, char *err, size_t errlen)
{
	static const char *const names[] = { "rtt_mean_us", "rtt_p50_us", "rtt_p99_us" };
	int mean = matrix_metric_index(names[0]), p50 = matrix_metric_index(names[1]), only = 0;

	for (size_t i = 0; i < r->ncells; i++)
		only |= r->cells[i].st[mean].n > 0 && !r->cells[i].st[p50].n;
	return summary_chart(r, items, "rtt", "round-trip time", names + !only, 3 - (size_t)!only,
			     "programs that print a mean only", err, errlen);
}

static int ratio_chart(const struct report *r, struct chart_item *items, char *err, size_t errlen)
{
	struct chart_row rows[MATRIX_NMETRICS];
	size_t nrows = 0, n = 0;

	/* The chart shows the ratios over one dimension (the first ratio's that
	 * is not the size or the concurrency, usually the transport), a row per
	 * metric; ratios over size or concurrency are in ratios.csv and
	 * summary.md only.  A ratio takes its numerator's colour. */
	int size = report_dim(r, "size"), conc = report_dim(r, "concurrency"), dim = -1;
	for (size_t d = 0; d < r->ndefs && dim < 0; d++)
		if ((int)r->defs[d].dim != size && (int)r->defs[d].dim != conc)
			dim = (int)r->defs[d].dim;
	for (size_t i = 0; i < r->npairs; i++) {
		const struct rpair *p = &r->pairs[i];
		const struct rratio_def *d = &r->defs[p->def];
		if ((int)d->dim != dim)
			continue;
		items[n++] = (struct chart_item){ p->num->dims, d->name, d->metric, dim, NULL, p,
						  (int)d->dim == gnuplot_compared_dim(r) ? d->num
						  : NULL };
		size_t k;
		for (k = 0; k < nrows && rows[k].metric != d->metric; k++)
			;
		if (k == nrows)
			rows[nrows++] = (struct chart_row){ d->metric, 1, NULL };
	}
	if (!n)
		return 0;
	return gnuplot_chart(r, items, n, "ratios", "ratios.csv", "ratios of medians", rows,
			     nrows, err, errlen);
}

int gnuplot_write_scripts(const struct report *r, char *err, size_t errlen)
{
	static const char *const thr[] = { "msgs_per_s", "mib_per_s" };
	static const char *const cpu[] = { "cpu_us_per_msg" };
	char dir[4096];
	size_t cap = (r->ncells > r->npairs ? r->ncells : r->npairs) + 1;
	struct chart_item *items = calloc(cap, sizeof(*items));

	snprintf(dir, sizeof(dir), "%s/plots", r->dir);
	/* plots/ of the folder's own, never a link to a folder elsewhere
	 * whose files it would replace and remove */
	if (!items || outfile_own_dir(dir, 1, err, errlen) < 0) {
		if (!items)
			snprintf(err, errlen, "%s: out of memory", dir);
		free(items);
		return -1;
	}
	/* a re-sliced report must not keep a chart this run no longer has
	 * (regular files only: a link there is not ours to remove) */
	for (size_t i = 0; i < ARRAY_SIZE(chart_names); i++) {
		static const char *const ext[] = { "gp", "svg", "png" };
		for (size_t e = 0; e < 3; e++) {
			char path[4200];
			snprintf(path, sizeof(path), "%s/%s.%s", dir, chart_names[i], ext[e]);
			outfile_remove(path);
		}
	}
	/* the first script that cannot be written stops the rest */
	int rc = summary_chart(r, items, "throughput", "throughput", thr, 2, NULL, err, errlen);
	if (!rc)
		rc = rtt_chart(r, items, err, errlen);
	if (!rc)
		rc = summary_chart(r, items, "cpu", "CPU time per message, each way (a round trip "
				   "is two: the tables' µs/rtt is about twice this)", cpu, 1, NULL, err,
				   errlen);
	memset(items, 0, cap * sizeof(*items));
	if (!rc)
		rc = ratio_chart(r, items, err, errlen);
	if (!rc)
		rc = gnuplot_timeline_chart(r, err, errlen);
	if (!rc)
		rc = gnuplot_hist_scripts(r, err, errlen);
	free(items);
	return rc;
}
