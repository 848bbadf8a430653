/* The night-to-night noise of a history's cells: see history.h. */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double history_noise(const double *chg, size_t n, size_t *used)
{
	double a[HISTORY_NOISE_MAX];
	size_t k = n < HISTORY_NOISE_MAX ? n : HISTORY_NOISE_MAX;

	*used = k;
	if (!k)
		return NAN;
	for (size_t i = 0; i < k; i++)
		a[i] = fabs(chg[n - k + i]);
	qsort(a, k, sizeof(*a), cmp_double);
	return 1.4826 * (k % 2 ? a[k / 2] : (a[k / 2 - 1] + a[k / 2]) / 2);
}

enum verdict history_calibrate(enum verdict v, double change, double noise, size_t nights,
			       enum noise_call *call)
{
	if (v == V__COUNT || v == V_ADDED || v == V_REMOVED) {
		*call = NOISE_NONE;
		return v;
	}
	if (nights < HISTORY_NOISE_MIN) {
		*call = NOISE_UNKNOWN;
		return v;
	}
	if (v != V_REGRESSED && v != V_IMPROVED) {
		*call = NOISE_KNOWN;
		return v;
	}
	*call = fabs(log1p(change)) > HISTORY_NOISE_K * noise ? NOISE_BEYOND : NOISE_WITHIN;
	return *call == NOISE_BEYOND ? v : V_INCONCLUSIVE;
}

void history_why(enum noise_call call, double noise, size_t nights, const char *cmp, char *buf,
		 size_t len)
{
	const char *sep = *cmp ? "; " : "";

	switch (call) {
	case NOISE_UNKNOWN:
		snprintf(buf, len, "%s%stoo little history (%zu of %d nights): the normal spread "
			 "is not known yet", cmp, sep, nights, HISTORY_NOISE_MIN);
		break;
	case NOISE_WITHIN:
	case NOISE_BEYOND:
		snprintf(buf, len, "%s%s%s the normal night-to-night spread (±%.1f%%, %zu nights)",
			 cmp, sep, call == NOISE_WITHIN ? "within" : "beyond",
			 HISTORY_NOISE_K * noise * 100, nights);
		break;
	default:
		snprintf(buf, len, "%s", cmp);
	}
}

/* The log changes of group g's cell k, metric position mi, between its
 * consecutive runs with a figure that come before runs[before], into chg
 * (room for the group's runs); how many.  The one walk both the history
 * and `compare --history` learn the noise from. */
static size_t cell_changes(const struct history *h, size_t g, size_t k, size_t mi,
			   size_t before, double *chg)
{
	double prev = NAN;
	size_t n = 0;

	for (size_t i = 0; i < before && i < h->nruns; i++) {
		const struct hist_run *run = &h->runs[i];
		size_t pi = run->group == g + 1 ? run->point_of[k * h->nmetrics + mi] : SIZE_MAX;
		if (pi == SIZE_MAX || !h->points[pi].n)
			continue;
		double m = h->points[pi].median;
		if (m > 0 && prev > 0)
			chg[n++] = log(m / prev);
		prev = m;
	}
	return n;
}

/* Every point's noise, from the runs of its group before its own. */
int history_learn_noise(struct history *h)
{
	double *chg = malloc((h->nruns + 1) * sizeof(*chg));

	if (!chg)
		return -1;
	for (size_t j = 0; j < h->npoints; j++) {
		struct hist_point *p = &h->points[j];
		if (p->prev == SIZE_MAX)
			continue;
		size_t n = cell_changes(h, p->group, p->cell, p->mi, p->run, chg);
		p->noise = history_noise(chg, n, &p->noise_nights);
	}
	for (size_t g = 0; g < h->ngroups; g++) {
		struct hist_group *hg = &h->groups[g];
		size_t last;
		for (last = h->nruns; last-- > 0 && h->runs[last].group != g + 1;)
			;
		hg->nights_lo = SIZE_MAX;
		const struct hist_run *run = &h->runs[last];
		for (size_t j = run->first_point; j < run->first_point + run->npoints; j++) {
			size_t n = h->points[j].noise_nights;
			if (h->points[j].prev == SIZE_MAX)
				continue;
			hg->nights_lo = n < hg->nights_lo ? n : hg->nights_lo;
			hg->nights_hi = n > hg->nights_hi ? n : hg->nights_hi;
		}
		if (hg->nights_lo == SIZE_MAX)
			hg->nights_lo = 0;
	}
	free(chg);
	return 0;
}

double history_noise_before(const struct history *h, size_t g, size_t before,
			    const struct report *r, const struct rcell *c, int metric,
			    size_t *nights)
{
	size_t k = history_cell_of(h, g, r, c), mi;
	double *chg = malloc((h->nruns + 1) * sizeof(*chg)), noise = NAN;

	*nights = 0;
	for (mi = 0; mi < h->nmetrics && h->metrics[mi] != metric; mi++)
		;
	if (k != SIZE_MAX && mi < h->nmetrics && chg)
		noise = history_noise(chg, cell_changes(h, g, k, mi, before, chg), nights);
	free(chg);
	return noise;
}

