/* Run folders as a time series: the model, see history.h (its writers are
 * in history_out.c). */
#include "history.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The order of the runs: start_utc without '-' and ':' (the folder name's
 * form), else the folder name; then the name; then the order given. */
struct order {
	struct hist_run run;
	char key[300];
	size_t given;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (!c)
		c = strcmp(x->run.name, y->run.name);
	return c ? c : (x->given > y->given) - (x->given < y->given);
}

/* The last component of dir, trailing slashes left out. */
static void folder_name(const char *dir, char *out, size_t len)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	size_t s = n;
	while (s > 0 && dir[s - 1] != '/')
		s--;
	snprintf(out, len, "%.*s", (int)(n - s), dir + s);
}

static void order_key(const struct hist_run *run, char *key, size_t len)
{
	size_t k = 0;

	if (!*run->start) {
		snprintf(key, len, "%s", run->name);
		return;
	}
	for (const char *s = run->start; *s && k + 1 < len; s++)
		if (*s != '-' && *s != ':')
			key[k++] = *s;
	key[k] = '\0';
}

/* runs in order, each with its name and start. */
static int order_runs(struct history *h, const struct report *const *reports, size_t n)
{
	struct order *o = calloc(n, sizeof(*o));

	h->runs = calloc(n, sizeof(*h->runs));
	if (!o || !h->runs) {
		free(o);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct hist_run *run = &o[i].run;
		run->r = reports[i];
		folder_name(reports[i]->dir, run->name, sizeof(run->name));
		run->start = report_meta(reports[i], "start_utc");
		order_key(run, o[i].key, sizeof(o[i].key));
		o[i].given = i;
	}
	qsort(o, n, sizeof(*o), cmp_order);
	for (size_t i = 0; i < n; i++)
		h->runs[i] = o[i].run;
	h->nruns = n;
	free(o);
	return 0;
}

/* Each run into the first group with its fingerprint, else a new one. */
static int group_runs(struct history *h)
{
	char diff[2048];

	h->groups = calloc(h->nruns, sizeof(*h->groups));
	if (!h->groups)
		return -1;
	for (size_t i = 0; i < h->nruns; i++) {
		struct hist_run *run = &h->runs[i];
		size_t g;
		for (g = 0; g < h->ngroups; g++)
			if (!compare_fingerprint(h->runs[h->groups[g].first].r, run->r, diff,
						 sizeof(diff)))
				break;
		if (g == h->ngroups) {
			struct hist_group *ng = &h->groups[h->ngroups++];
			ng->first = i;
			if (g)
				compare_fingerprint(h->runs[h->groups[0].first].r, run->r, ng->differs,
						    sizeof(ng->differs));
		}
		run->group = g + 1;
		run->index = ++h->groups[g].nruns;
	}
	return 0;
}

/* Have cells a (of report ra) and b (of rb) the same parameters, every
 * dimension by name? */
static int same_cell(const struct report *ra, const struct rcell *a, const struct report *rb,
		     const struct rcell *b)
{
	if (ra->ndims != rb->ndims)
		return 0;
	for (size_t d = 0; d < ra->ndims; d++) {
		int bd = report_dim(rb, ra->dimnames[d]);
		if (bd < 0 || strcmp(a->dims[d], b->dims[bd]))
			return 0;
	}
	return 1;
}

/* The cell of r with the parameters of the group's cell hc, or NULL. */
static const struct rcell *find_cell(const struct report *r, const struct hist_cell *hc)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (same_cell(hc->r, hc->c, r, &r->cells[i]))
			return &r->cells[i];
	return NULL;
}

/* The label of a group's cell, and its title: the values of the
 * dimensions that vary among the group's cells (the label when none). */
static void label_cell(const struct hist_group *g, struct hist_cell *hc)
{
	const struct report *r = hc->r;
	size_t n = 0, t = 0;

	hc->label[0] = hc->title[0] = '\0';
	for (size_t d = 0; d < r->ndims; d++) {
		int varies = 0;
		for (size_t k = 0; k < g->ncells && !varies; k++) {
			int od = report_dim(g->cells[k].r, r->dimnames[d]);
			varies = od < 0 || strcmp(g->cells[k].c->dims[od], hc->c->dims[d]);
		}
		if (n < sizeof(hc->label))
			n += (size_t)snprintf(hc->label + n, sizeof(hc->label) - n, "%s%s=%s",
					      n ? " " : "", r->dimnames[d], hc->c->dims[d]);
		if (varies && t < sizeof(hc->title))
			t += (size_t)snprintf(hc->title + t, sizeof(hc->title) - t, "%s%s",
					      t ? " " : "", hc->c->dims[d]);
	}
	if (!hc->title[0])
		snprintf(hc->title, sizeof(hc->title), "%s", hc->label);
}

/* Group g's cells, in the order they first appear in its runs. */
static int collect_cells(struct history *h, size_t gi)
{
	struct hist_group *g = &h->groups[gi];
	size_t cap = 0;

	for (size_t i = 0; i < h->nruns; i++) {
		const struct report *r = h->runs[i].r;
		if (h->runs[i].group != gi + 1)
			continue;
		for (size_t c = 0; c < r->ncells; c++) {
			size_t k;
			for (k = 0; k < g->ncells; k++)
				if (same_cell(g->cells[k].r, g->cells[k].c, r, &r->cells[c]))
					break;
			if (k < g->ncells)
				continue;
			if (g->ncells == cap) {
				struct hist_cell *nc = realloc(g->cells, (cap ? 2 * cap : 8) * sizeof(*nc));
				if (!nc)
					return -1;
				g->cells = nc;
				cap = cap ? 2 * cap : 8;
			}
			g->cells[g->ncells++] = (struct hist_cell){ .r = r, .c = &r->cells[c] };
		}
	}
	for (size_t k = 0; k < g->ncells; k++)
		label_cell(g, &g->cells[k]);
	return 0;
}

static struct hist_point *new_point(struct history *h)
{
	if ((h->npoints & (h->npoints - 1)) == 0) {	/* 0, 1, 2, 4, ...: double */
		struct hist_point *np = realloc(h->points,
						(h->npoints ? 2 * h->npoints : 1) * sizeof(*np));
		if (!np)
			return NULL;
		h->points = np;
	}
	struct hist_point *p = &h->points[h->npoints++];
	memset(p, 0, sizeof(*p));
	p->prev = SIZE_MAX;
	p->change = p->prev_median = NAN;
	p->verdict = V__COUNT;
	p->why = "";
	return p;
}

/* Which metrics (by position in h->metrics) each of the group's cells
 * has: one that a run of the group measured there; the first when none. */
static void cell_metrics(const struct history *h, const struct hist_group *g, size_t gi,
			 unsigned char *has)
{
	for (size_t k = 0; k < g->ncells; k++) {
		unsigned char *row = has + k * h->nmetrics, any = 0;
		memset(row, 0, h->nmetrics);
		for (size_t i = 0; i < h->nruns; i++) {
			const struct rcell *c = h->runs[i].group == gi + 1
						? find_cell(h->runs[i].r, &g->cells[k]) : NULL;
			for (size_t mi = 0; c && mi < h->nmetrics; mi++)
				if (c->st[h->metrics[mi]].n)
					row[mi] = any = 1;
		}
		if (!any && h->nmetrics)
			row[0] = 1;
	}
}

/* Group gi's points, run by run; each with the previous run of the group
 * that has a figure of its cell and metric. */
static int add_points(struct history *h, size_t gi)
{
	const struct hist_group *g = &h->groups[gi];
	size_t cells = g->ncells ? g->ncells : 1;
	unsigned char *has = malloc(cells * h->nmetrics + 1);
	size_t *last = malloc(cells * h->nmetrics * sizeof(*last) + 1);

	if (!has || !last)
		goto oom;
	cell_metrics(h, g, gi, has);
	for (size_t j = 0; j < g->ncells * h->nmetrics; j++)
		last[j] = SIZE_MAX;
	for (size_t i = 0; i < h->nruns; i++) {
		if (h->runs[i].group != gi + 1)
			continue;
		h->runs[i].first_point = h->npoints;
		for (size_t k = 0; k < g->ncells; k++) {
			const struct rcell *c = find_cell(h->runs[i].r, &g->cells[k]);
			for (size_t mi = 0; c && mi < h->nmetrics; mi++) {
				if (!has[k * h->nmetrics + mi])
					continue;
				struct hist_point *p = new_point(h);
				if (!p)
					goto oom;
				const struct stat_summary *st = &c->st[h->metrics[mi]];
				p->run = i;
				p->group = gi;
				p->cell = k;
				p->metric = h->metrics[mi];
				p->rc = c;
				p->n = st->n;
				p->median = st->n ? st->median : NAN;
				p->ci_lo = st->n ? st->ci_lo : NAN;
				p->ci_hi = st->n ? st->ci_hi : NAN;
				p->prev = last[k * h->nmetrics + mi];
				if (st->n)
					last[k * h->nmetrics + mi] = i;
			}
		}
		h->runs[i].npoints = h->npoints - h->runs[i].first_point;
	}
	free(has);
	free(last);
	return 0;
oom:
	free(has);
	free(last);
	return -1;
}

/* The verdicts of run i's points whose previous run is prev, from one
 * comparison of the two folders. */
static int judge_pair(struct history *h, size_t i, size_t prev, size_t from, size_t to,
		      char *err, size_t errlen)
{
	struct comparison c;

	if (compare_folders(&c, h->runs[prev].r, h->runs[i].r, h->threshold, h->metrics,
			    h->nmetrics, err, errlen) < 0) {
		compare_release(&c);
		return -1;
	}
	for (size_t k = from; k < to; k++) {
		struct hist_point *p = &h->points[k];
		if (p->prev != prev)
			continue;
		for (size_t ri = 0; ri < c.nrows; ri++) {
			const struct cmp_row *row = &c.rows[ri];
			if (row->cand != p->rc || row->metric != p->metric)
				continue;
			p->verdict = row->verdict;
			p->change = row->change;
			p->prev_median = row->base_median;
			p->why = row->why;	/* a string constant */
			p->step = row->verdict == V_REGRESSED || row->verdict == V_IMPROVED;
			break;
		}
	}
	compare_release(&c);
	return 0;
}

/* Every point judged: for each run, one comparison per previous run its
 * points name (mostly one, the run before). */
static int judge_points(struct history *h, char *err, size_t errlen)
{
	for (size_t from = 0, to; from < h->npoints; from = to) {
		size_t i = h->points[from].run;
		for (to = from; to < h->npoints && h->points[to].run == i; to++)
			;
		for (size_t k = from; k < to; k++) {
			size_t prev = h->points[k].prev, seen = 0;
			for (size_t j = from; j < k && !seen; j++)
				seen = h->points[j].prev == prev;
			if (prev != SIZE_MAX && !seen && judge_pair(h, i, prev, from, to, err, errlen) < 0)
				return -1;
		}
	}
	for (size_t k = 0; k < h->npoints; k++)
		if (h->points[k].step) {
			h->nsteps++;
			h->groups[h->points[k].group].nsteps++;
		}
	return 0;
}

int history_build(struct history *h, const struct report *const *reports, size_t n,
		  double threshold, const int *metrics_in, size_t nmetrics, char *err,
		  size_t errlen)
{
	memset(h, 0, sizeof(*h));
	h->threshold = threshold;
	if (nmetrics) {
		memcpy(h->metrics, metrics_in, nmetrics * sizeof(*h->metrics));
		h->nmetrics = nmetrics;
	} else {
		h->nmetrics = compare_default_metrics(h->metrics);
	}
	if (!n) {
		snprintf(err, errlen, "no run folder");
		return -1;
	}
	if (order_runs(h, reports, n) < 0 || group_runs(h) < 0)
		goto oom;
	for (size_t g = 0; g < h->ngroups; g++)
		if (collect_cells(h, g) < 0 || add_points(h, g) < 0)
			goto oom;
	return judge_points(h, err, errlen);
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

void history_release(struct history *h)
{
	for (size_t g = 0; g < h->ngroups; g++)
		free(h->groups[g].cells);
	free(h->groups);
	free(h->runs);
	free(h->points);
	memset(h, 0, sizeof(*h));
}
