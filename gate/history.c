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

/* Does dimension `name` vary among group g's cells: does some cell lack
 * it, or have another value than the first cell? */
static int dim_varies(const struct hist_group *g, const char *name)
{
	const char *first = NULL;

	for (size_t j = 0; j < g->ncells; j++) {
		int d = report_dim(g->cells[j].r, name);
		if (d < 0)
			return 1;
		if (!first)
			first = g->cells[j].c->dims[d];
		else if (strcmp(first, g->cells[j].c->dims[d]))
			return 1;
	}
	return 0;
}

/* The label of each of group g's cells, and its title: the values of the
 * dimensions that vary among the group's cells (the label when none). */
static void label_cells(struct hist_group *g)
{
	/* whether a dimension varies, by name: the cells' reports mostly
	 * share their dimensions (one matrix.yaml), so few names */
	const char *names[64];
	int varies[64];
	size_t nnames = 0;

	for (size_t k = 0; k < g->ncells; k++) {
		struct hist_cell *hc = &g->cells[k];
		size_t n = 0, t = 0;
		hc->label[0] = hc->title[0] = '\0';
		for (size_t d = 0; d < hc->r->ndims; d++) {
			const char *name = hc->r->dimnames[d];
			size_t v;
			for (v = 0; v < nnames && strcmp(names[v], name); v++)
				;
			if (v == nnames && nnames < 64) {
				names[nnames] = name;
				varies[nnames++] = dim_varies(g, name);
			}
			if (n < sizeof(hc->label))
				n += (size_t)snprintf(hc->label + n, sizeof(hc->label) - n, "%s%s=%s",
						      n ? " " : "", name, hc->c->dims[d]);
			if ((v == nnames ? dim_varies(g, name) : varies[v]) && t < sizeof(hc->title))
				t += (size_t)snprintf(hc->title + t, sizeof(hc->title) - t, "%s%s",
						      t ? " " : "", hc->c->dims[d]);
		}
		if (!hc->title[0])
			snprintf(hc->title, sizeof(hc->title), "%s", hc->label);
	}
}

/* Group gi's cells, in the order they first appear in its runs, and each
 * run's point_of (all SIZE_MAX yet). */
static int collect_cells(struct history *h, size_t gi)
{
	struct hist_group *g = &h->groups[gi];
	size_t cap = 0;

	for (size_t i = 0; i < h->nruns; i++) {
		const struct report *r = h->runs[i].r;
		if (h->runs[i].group != gi + 1)
			continue;
		for (size_t c = 0; c < r->ncells; c++) {
			char *key = history_cell_key(r, &r->cells[c]);
			if (!key)
				return -1;
			if (history_find_key(g, key) != SIZE_MAX) {
				free(key);
			} else if (history_add_cell(g, &cap, r, &r->cells[c], key) < 0) {
				free(key);
				return -1;
			}
		}
	}
	for (size_t i = 0; i < h->nruns; i++) {
		if (h->runs[i].group != gi + 1)
			continue;
		size_t n = (g->ncells ? g->ncells : 1) * (h->nmetrics ? h->nmetrics : 1);
		if (!(h->runs[i].point_of = malloc(n * sizeof(size_t))))
			return -1;
		for (size_t j = 0; j < n; j++)
			h->runs[i].point_of[j] = SIZE_MAX;
	}
	label_cells(g);
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
	p->change = p->prev_median = p->noise = NAN;
	p->verdict = p->compared = p->gate_verdict = p->night = V__COUNT;
	p->why = p->gate_why = p->gate = "";
	return p;
}

/* For each of group gi's runs (in order), its cells by the group's
 * cell index (NULL: the run has none): in[run's position among the
 * group's runs * ncells + k].  And each group cell's metrics: those a run
 * of the group measured there; the first when none, so it is seen. */
static const struct rcell **map_cells(struct history *h, size_t gi)
{
	struct hist_group *g = &h->groups[gi];
	const struct rcell **in = calloc(g->nruns * g->ncells + 1, sizeof(*in));
	size_t at = 0;

	if (!in)
		return NULL;
	for (size_t i = 0; i < h->nruns; i++) {
		const struct report *r = h->runs[i].r;
		if (h->runs[i].group != gi + 1)
			continue;
		for (size_t c = 0; c < r->ncells; c++) {
			char *key = history_cell_key(r, &r->cells[c]);
			if (!key) {
				free(in);
				return NULL;
			}
			size_t k = history_find_key(g, key);	/* every cell of the run is there */
			free(key);
			in[at * g->ncells + k] = &r->cells[c];
			for (size_t mi = 0; mi < h->nmetrics; mi++)
				if (r->cells[c].st[h->metrics[mi]].n)
					g->cells[k].has[mi] = 1;
		}
		at++;
	}
	for (size_t k = 0; k < g->ncells; k++) {
		int any = 0;
		for (size_t mi = 0; mi < h->nmetrics; mi++)
			any |= g->cells[k].has[mi];
		g->cells[k].measured = any;
		if (!any && h->nmetrics)
			g->cells[k].has[0] = 1;
	}
	return in;
}

/* Group gi's points, run by run; each with the previous run of the group
 * that has a figure of its cell and metric. */
static int add_points(struct history *h, size_t gi)
{
	const struct hist_group *g = &h->groups[gi];
	const struct rcell **in = map_cells(h, gi);
	size_t *last = malloc((g->ncells ? g->ncells : 1) * h->nmetrics * sizeof(*last) + 1);
	size_t at = 0;

	if (!in || !last)
		goto oom;
	for (size_t j = 0; j < g->ncells * h->nmetrics; j++)
		last[j] = SIZE_MAX;
	for (size_t i = 0; i < h->nruns; i++) {
		struct hist_run *run = &h->runs[i];
		if (run->group != gi + 1)
			continue;
		run->first_point = h->npoints;
		for (size_t k = 0; k < g->ncells; k++) {
			const struct rcell *c = in[at * g->ncells + k];
			for (size_t mi = 0; c && mi < h->nmetrics; mi++) {
				if (!g->cells[k].has[mi])
					continue;
				run->point_of[k * h->nmetrics + mi] = h->npoints;
				struct hist_point *p = new_point(h);
				if (!p)
					goto oom;
				const struct stat_summary *st = &c->st[h->metrics[mi]];
				p->run = i;
				p->group = gi;
				p->cell = k;
				p->metric = h->metrics[mi];
				p->mi = mi;
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
		run->npoints = h->npoints - run->first_point;
		at++;
	}
	free(in);
	free(last);
	return 0;
oom:
	free(in);
	free(last);
	return -1;
}

/* The verdicts of run i's points whose previous run is prev, from one
 * comparison of the two folders; each row found by its cell's place in
 * the run and its metric's in h->metrics. */
static int judge_pair(struct history *h, size_t i, size_t prev, const int *metric_pos,
		      char *err, size_t errlen)
{
	const struct hist_run *run = &h->runs[i];
	struct comparison c;

	if (compare_folders(&c, h->runs[prev].r, run->r, h->threshold, h->metrics, h->nmetrics,
			    err, errlen) < 0) {
		compare_release(&c);
		return -1;
	}
	for (size_t ri = 0; ri < c.nrows; ri++) {
		const struct cmp_row *row = &c.rows[ri];
		if (!row->cand || !row->base || row->metric < 0 || metric_pos[row->metric] < 0)
			continue;
		size_t k = history_cell_of(h, run->group - 1, run->r, row->cand);
		size_t pi = k == SIZE_MAX ? SIZE_MAX
			    : run->point_of[k * h->nmetrics + (size_t)metric_pos[row->metric]];
		if (pi == SIZE_MAX || h->points[pi].prev != prev)
			continue;
		struct hist_point *p = &h->points[pi];
		p->compared = row->verdict;
		p->change = row->change;
		p->prev_median = row->base_median;
		/* a string constant, or the row's own text (the guard's reason,
		 * the counts of too few repetitions), which goes with c */
		p->why = row->why == row->guard_why || row->why == row->whybuf ? history_own(h, row->why)
										 : row->why;
		if (!p->why) {
			compare_release(&c);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	compare_release(&c);
	return 0;
}

/* Every point judged: for each run, one comparison per previous run its
 * points name (mostly one, the run before); then the noise rule. */
static int judge_points(struct history *h, char *err, size_t errlen)
{
	int metric_pos[MATRIX_NMETRICS];
	size_t *prevs = malloc((h->nruns + 1) * sizeof(*prevs));

	if (!prevs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int m = 0; m < MATRIX_NMETRICS; m++)
		metric_pos[m] = -1;
	for (size_t mi = 0; mi < h->nmetrics; mi++)
		metric_pos[h->metrics[mi]] = (int)mi;
	for (size_t i = 0; i < h->nruns; i++) {
		const struct hist_run *run = &h->runs[i];
		size_t nprevs = 0;
		for (size_t j = run->first_point; j < run->first_point + run->npoints; j++) {
			size_t prev = h->points[j].prev, seen = 0;
			for (size_t q = 0; q < nprevs && !seen; q++)
				seen = prevs[q] == prev;
			if (prev == SIZE_MAX || seen)
				continue;
			prevs[nprevs++] = prev;
			if (judge_pair(h, i, prev, metric_pos, err, errlen) < 0) {
				free(prevs);
				return -1;
			}
		}
	}
	free(prevs);
	for (size_t k = 0; k < h->npoints; k++) {
		struct hist_point *p = &h->points[k];
		p->verdict = history_calibrate(p->compared, p->change, p->noise, p->noise_nights,
					       &p->call);
		p->step = p->verdict == V_REGRESSED || p->verdict == V_IMPROVED;
		if (p->step) {
			h->nsteps++;
			h->groups[p->group].nsteps++;
		}
	}
	return 0;
}

/* Each point's night verdict, and the cells and counts it marks. */
static void mark_nights(struct history *h)
{
	for (size_t k = 0; k < h->npoints; k++) {
		struct hist_point *p = &h->points[k];
		p->night = p->gate_verdict != V__COUNT ? p->gate_verdict : p->verdict;
		int mark = p->night == V_REGRESSED || p->night == V_IMPROVED;
		if (mark)
			h->groups[p->group].cells[p->cell].marked[p->mi] = 1;
		if (mark && p->gate_verdict != V__COUNT)
			h->groups[p->group].ngate_marks++;
	}
}

int history_learn(struct history *h, const struct report *const *reports, size_t n,
		  const int *metrics_in, size_t nmetrics, char *err, size_t errlen)
{
	memset(h, 0, sizeof(*h));
	h->threshold = COMPARE_DEFAULT_THRESHOLD;
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
	if (history_learn_noise(h) == 0)
		return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

int history_build(struct history *h, const struct report *const *reports, size_t n,
		  double threshold, const int *metrics_in, size_t nmetrics, char *err,
		  size_t errlen)
{
	if (history_learn(h, reports, n, metrics_in, nmetrics, err, errlen) < 0)
		return -1;
	h->threshold = threshold;
	if (judge_points(h, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < h->nruns; i++)
		if (history_read_gate(h, i, err, errlen) < 0)
			return -1;
	mark_nights(h);
	return 0;
}

size_t history_run_of(const struct history *h, const struct report *r)
{
	for (size_t i = 0; i < h->nruns; i++)
		if (h->runs[i].r == r)
			return i;
	return SIZE_MAX;
}

void history_release(struct history *h)
{
	for (size_t g = 0; g < h->ngroups; g++) {
		for (size_t k = 0; k < h->groups[g].ncells; k++)
			free(h->groups[g].cells[k].key);
		free(h->groups[g].cells);
		free(h->groups[g].slots);
	}
	for (size_t i = 0; i < h->nruns; i++)
		free(h->runs[i].point_of);
	for (size_t i = 0; i < h->nstrings; i++)
		free(h->strings[i]);
	free(h->strings);
	free(h->groups);
	free(h->runs);
	free(h->points);
	memset(h, 0, sizeof(*h));
}
