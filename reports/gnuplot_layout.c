/* A chart of panels laid out: see gnuplot_layout.h. */
#include "gnuplot_layout.h"
#include "gnuplot_chart.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

static int item_varies(const struct chart *c, size_t d)
{
	for (size_t i = 1; i < c->nitems; i++)
		if (strcmp(c->items[i].dims[d], c->items[0].dims[d]))
			return 1;
	return 0;
}

int chart_same_series(const struct chart *c, const struct chart_item *a, const struct chart_item *b)
{
	if ((a->def || b->def) && (!a->def || !b->def || strcmp(a->def, b->def)))
		return 0;
	for (size_t k = 0; k < c->nsdims; k++)
		if (strcmp(a->dims[c->sdims[k]], b->dims[c->sdims[k]]))
			return 0;
	return 1;
}

int chart_same_panel(const struct chart *c, const struct chart_item *a, const struct chart_item *b)
{
	for (size_t k = 0; k < c->npdims; k++)
		if (strcmp(a->dims[c->pdims[k]], b->dims[c->pdims[k]]))
			return 0;
	return 1;
}

static int is_pdim(const struct chart *c, size_t d)
{
	for (size_t k = 0; k < c->npdims; k++)
		if ((size_t)c->pdims[k] == d)
			return 1;
	return 0;
}

static int cmp_num(const void *a, const void *b)
{
	double x = strtod(*(char *const *)a, NULL), y = strtod(*(char *const *)b, NULL);

	return (x > y) - (x < y);
}

/* The x values of a categorical axis, ascending. */
static void x_values(struct chart *c)
{
	c->nx = 0;
	for (size_t i = 0; c->xdim >= 0 && i < c->nitems && c->nx < MAXS; i++) {
		size_t k;
		for (k = 0; k < c->nx && strcmp(c->xs[k], c->items[i].dims[c->xdim]); k++)
			;
		if (k == c->nx)
			c->xs[c->nx++] = c->items[i].dims[c->xdim];
	}
	qsort(c->xs, c->nx, sizeof(*c->xs), cmp_num);
}

size_t chart_x_index(const struct chart *c, const struct chart_item *it)
{
	for (size_t i = 0; i < c->nx; i++)
		if (!strcmp(c->xs[i], it->dims[c->xdim]))
			return i;
	return 0;
}

/* Works out x, panels and series from the items: x is the size when it
 * varies, else the concurrency; panels are the pattern and the
 * concurrency (when it is not x); series the rest. */
void chart_layout(struct chart *c)
{
	const struct report *r = c->r;
	int skip = c->nitems ? c->items[0].skip_dim : -1;
	int size = report_dim(r, "size"), conc = report_dim(r, "concurrency");
	const char *pnames[] = { "pattern", "concurrency" };

	c->xdim = -1;
	if (size >= 0 && size != skip && item_varies(c, (size_t)size))
		c->xdim = size;
	else if (conc >= 0 && conc != skip && item_varies(c, (size_t)conc))
		c->xdim = conc;
	c->sweep = c->xdim >= 0 && r->m.report.sweep && !strcmp(r->m.report.sweep,
								  r->dimnames[c->xdim]);
	c->npdims = 0;
	for (size_t k = 0; k < 2; k++) {
		int d = report_dim(r, pnames[k]);
		if (d >= 0 && d != c->xdim && item_varies(c, (size_t)d) && d != skip)
			c->pdims[c->npdims++] = d;
	}
	c->npanels = 0;
	for (size_t i = 0; i < c->nitems; i++) {
		size_t k;
		for (k = 0; k < c->npanels &&
			    !chart_same_panel(c, &c->items[c->pitem[k]], &c->items[i]); k++)
			;
		if (k == c->npanels && k < MAXP)
			c->pitem[c->npanels++] = i;
	}
	if (!c->npanels)
		c->npanels = 1;
	c->nsdims = 0;
	for (size_t d = 0; d < r->ndims && c->nsdims < 32; d++)
		if ((int)d != c->xdim && !is_pdim(c, d) && item_varies(c, d) && (int)d != skip)
			c->sdims[c->nsdims++] = (int)d;
	c->nseries = 0;
	for (size_t i = 0; i < c->nitems && c->nseries < MAXS; i++) {
		size_t k;
		for (k = 0; k < c->nseries &&
			    !chart_same_series(c, &c->items[c->sitem[k]], &c->items[i]); k++)
			;
		if (k == c->nseries)
			c->sitem[c->nseries++] = i;
	}
	x_values(c);
}
