/* What a chart item draws in a row: see gnuplot_item.h. */
#include "gnuplot_item.h"
#include "gnuplot_chart.h"
#include "report.h"

#include <math.h>
#include <stdio.h>

int chart_item_figure(const struct chart_item *it, const struct chart_row *rw, double *v,
		      double *lo, double *hi)
{
	if (it->pair) {
		*v = it->pair->ratio, *lo = it->pair->lo, *hi = it->pair->hi;
		return it->metric == rw->metric && isfinite(*v) && *v > 0;
	}
	const struct stat_summary *st = &it->cell->st[rw->metric];
	*v = st->median;
	*lo = stats_has_interval(st) ? st->ci_lo : NAN;	/* one value: none (stats.h) */
	*hi = stats_has_interval(st) ? st->ci_hi : NAN;
	return st->n > 0 && isfinite(*v);
}

int chart_item_outside(const struct chart_item *it, const struct chart_row *rw)
{
	if (it->pair)
		return it->metric == rw->metric && (report_whole_process(it->pair->num, rw->metric) ||
						     report_whole_process(it->pair->den, rw->metric));
	return report_whole_process(it->cell, rw->metric);
}

int chart_item_upper(const struct report *r, const struct chart_item *it,
		     const struct chart_row *rw)
{
	if (it->pair)
		return it->metric == rw->metric && (report_upper_bound(r, it->pair->num, rw->metric) ||
						     report_upper_bound(r, it->pair->den, rw->metric));
	return report_upper_bound(r, it->cell, rw->metric);
}

int chart_item_source(const struct chart_item *it, char *buf, size_t len)
{
	if (it->pair)
		return snprintf(buf, len, "pair %u %u %s", it->pair->num->number,
				it->pair->den->number, matrix_metrics[it->metric]);
	return snprintf(buf, len, "cell %u", it->cell->number);
}

int chart_item_reference(const struct report *r, const struct chart_item *it,
			 const struct chart_row *rw, double *v, const char **label)
{
	return it->pair && it->metric == rw->metric && report_pair_reference(r, it->pair, v, label) &&
	       isfinite(*v) && *v > 0;
}
