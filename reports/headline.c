/* The headline's sentences and the per-pattern geometric means: see
 * headline.h. */
#include "headline.h"
#include "report.h"
#include "units.h"
#include "pattern.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *pattern_of(const struct report *r, const struct rcell *c)
{
	int d = report_dim(r, "pattern");

	return d >= 0 ? c->dims[d] : pattern_info(PATTERN_DEFAULT)->name;
}

/* A dimension value for a person: sizes as 10B, durations as 200ms. */
static const char *human(const struct report *r, size_t d, const char *v, char *b, size_t len)
{
	return report_value_human(r, d, v, b, len);
}

/* A side of a ratio: transports (and programs) name themselves, other
 * values say their dimension ("size 1KiB"). */
static void side_name(const struct report *r, const struct rratio_def *def, const char *v,
		      char *buf, size_t len)
{
	const char *dn = r->dimnames[def->dim];
	char h[64];

	if (!strcmp(dn, "transport") || !strcmp(dn, "client") || !strcmp(dn, "server"))
		snprintf(buf, len, "%s", v);
	else
		snprintf(buf, len, "%s %s", dn, human(r, def->dim, v, h, sizeof(h)));
}

void headline_ratio_text(const struct report *r, const struct rpair *p, char *buf, size_t len)
{
	const struct rratio_def *def;
	size_t nn, nd;

	if (!p || isnan(p->ratio)) {
		snprintf(buf, len, "-");
		return;
	}
	def = &r->defs[p->def];
	nn = p->num->st[def->metric].n;
	nd = p->den->st[def->metric].n;
	if (nn < 2 || nd < 2)	/* a single value is a point, not an interval */
		snprintf(buf, len, "%.2f× (1 repetition: no interval)", p->ratio);
	else if (isnan(p->lo))
		snprintf(buf, len, "%.2f×", p->ratio);
	else if (p->level < STATS_LEVEL - 1e-12)	/* too few repetitions: say so */
		snprintf(buf, len, "%.2f× (%.2f–%.2f, ≥%.0f%%)", p->ratio, p->lo, p->hi,
			 floor(p->level * 100 + 1e-9));	/* a lower bound rounds down */
	else
		snprintf(buf, len, "%.2f× (%.2f–%.2f)", p->ratio, p->lo, p->hi);
}

/* The sentence of a metric around the ratio text rtext, the better side
 * w first, l second: its phrase from the metric table (W, R, L), or one
 * made of its title. */
static void sentence(const struct report *r, const struct rratio_def *def, const char *w,
		     const char *l, const char *rtext, const char *scenario, char *buf, size_t len)
{
	char n[160], d[160];
	int m = def->metric;

	side_name(r, def, w, n, sizeof(n));
	side_name(r, def, l, d, sizeof(d));
	if (metrics[m].phrase) {
		int o = snprintf(buf, len, metrics[m].phrase, n, rtext, d);
		if (o >= 0 && (size_t)o < len)
			snprintf(buf + o, len - (size_t)o, ": %s", scenario);
		return;
	}
	snprintf(buf, len, "%s was %s better than %s in %s (%s is better): %s", n, rtext, d,
		 metrics[m].title, metrics[m].better == HIGHER_IS_BETTER ? "higher" : "lower",
		 scenario);
}

/* Is the numerator the better side of ratio x (of its metric)? */
static int num_better(const struct rratio_def *def, double x)
{
	return metrics[def->metric].better == HIGHER_IS_BETTER ? x >= 1 : x <= 1;
}

/* A pair's sentence, the better side first with its ratio at least 1× (the
 * interval turned round with it), or, when the interval spans 1×, "no
 * clear difference" with the ratio as the tables write it. */
static void pair_sentence(const struct report *r, const struct rpair *p, const char *sc,
			  char *buf, size_t len)
{
	const struct rratio_def *def = &r->defs[p->def];
	size_t nn = p->num->st[def->metric].n, nd = p->den->st[def->metric].n;
	int point = nn < 2 || nd < 2 || isnan(p->lo);
	char rt[160], n[160], d[160];

	if (!point && p->lo <= 1 && p->hi >= 1) {
		headline_ratio_text(r, p, rt, sizeof(rt));
		side_name(r, def, def->num, n, sizeof(n));
		side_name(r, def, def->den, d, sizeof(d));
		snprintf(buf, len, "no clear difference between %s and %s in %s: %s/%s is %s, "
			 "an interval across 1×: %s", n, d, metrics[def->metric].title, n, d, rt, sc);
		return;
	}
	int nb = num_better(def, p->ratio);
	struct rpair q = *p;
	/* the larger of num/den and den/num: the winner's over the loser's
	 * for a higher-is-better metric, the loser's over the winner's for a
	 * lower one (what "faster" and "cheaper" read) */
	if (p->ratio < 1) {
		q.ratio = 1 / p->ratio;
		q.lo = 1 / p->hi;
		q.hi = 1 / p->lo;
	}
	headline_ratio_text(r, &q, rt, sizeof(rt));
	sentence(r, def, nb ? def->num : def->den, nb ? def->den : def->num, rt, sc, buf, len);
}

/* Does dimension d take more than one value among the cells? */
static int varies(const struct report *r, size_t d)
{
	for (size_t i = 1; i < r->ncells; i++)
		if (strcmp(r->cells[i].dims[d], r->cells[0].dims[d]))
			return 1;
	return 0;
}

/* "echo, 10B, 1 client, duration 200ms": the pattern, the size, the
 * concurrency, then the other dimensions that vary, never the ratio's. */
static void scenario(const struct report *r, const struct rratio_def *def, const struct rcell *c,
		     char *buf, size_t len)
{
	int pd = report_dim(r, "pattern"), sd = report_dim(r, "size");
	int cd = report_dim(r, "concurrency");
	size_t o = 0;
	char h[64];

	buf[0] = '\0';
	if (pd < 0 || (size_t)pd != def->dim)	/* a ratio across patterns names none */
		o = (size_t)snprintf(buf, len, "%s", pattern_of(r, c));

	if (sd >= 0 && (size_t)sd != def->dim && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
				      human(r, (size_t)sd, c->dims[sd], h, sizeof(h)));
	if (cd >= 0 && (size_t)cd != def->dim && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s client%s", o ? ", " : "", c->dims[cd],
				      strcmp(c->dims[cd], "1") ? "s" : "");
	for (size_t d = 0; d < r->ndims && o < len; d++)
		if ((int)d != pd && (int)d != sd && (int)d != cd && d != def->dim && varies(r, d))
			o += (size_t)snprintf(buf + o, len - o, "%s%s %s", o ? ", " : "", r->dimnames[d],
					      human(r, d, c->dims[d], h, sizeof(h)));
}

/* The patterns in the order the cells first have them; returns how many. */
static size_t patterns(const struct report *r, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ncells; i++) {
		const char *p = pattern_of(r, &r->cells[i]);
		size_t k;
		for (k = 0; k < n && strcmp(out[k], p); k++)
			;
		if (k == n && n < max)
			out[n++] = p;
	}
	return n;
}

int headline_means(const struct report *r, struct headline_mean **out, size_t *n)
{
	const char *pats[16];
	size_t np = patterns(r, pats, 16);
	int pd = report_dim(r, "pattern");

	*n = 0;
	*out = calloc(r->ndefs * np + 1, sizeof(**out));
	if (!*out)
		return -1;
	for (size_t di = 0; di < r->ndefs; di++) {
		if (pd >= 0 && r->defs[di].dim == (size_t)pd)
			continue;	/* a ratio across patterns has no pattern */
		for (size_t k = 0; k < np; k++) {
			struct headline_mean *g = &(*out)[*n];
			double logs = 0;
			g->def = di;
			g->pattern = pats[k];
			g->min = g->max = g->geomean = NAN;
			for (size_t i = 0; i < r->npairs; i++) {
				const struct rpair *p = &r->pairs[i];
				if (p->def != di || strcmp(pattern_of(r, p->num), pats[k]) ||
				    !(p->ratio > 0 && isfinite(p->ratio)))
					continue;
				logs += log(p->ratio);
				g->npairs++;
				g->min = g->npairs == 1 || p->ratio < g->min ? p->ratio : g->min;
				g->max = g->npairs == 1 || p->ratio > g->max ? p->ratio : g->max;
			}
			if (g->npairs)
				g->geomean = exp(logs / (double)g->npairs);
			/* a pattern the ratio has no pair in at all is left out */
			int any = 0;
			for (size_t i = 0; i < r->npairs && !any; i++)
				any = r->pairs[i].def == di &&
				      !strcmp(pattern_of(r, r->pairs[i].num), pats[k]);
			if (any)
				(*n)++;
		}
	}
	return 0;
}

/* The number of a dimension's value, for sorting (sizes, concurrency). */
static double number_of(const struct rcell *c, int d)
{
	return d >= 0 ? strtod(c->dims[d], NULL) : 0;
}

/* What the sort of the pairs needs: the report and its patterns in order. */
struct sort_ctx {
	const struct report *r;
	const char *pats[16];
	size_t np;
};

static size_t pattern_rank(const struct sort_ctx *x, const struct rcell *c)
{
	size_t k;

	for (k = 0; k < x->np && strcmp(x->pats[k], pattern_of(x->r, c)); k++)
		;
	return k;
}

/* By ratio, pattern (in cell order), size, concurrency, then cell. */
static int cmp_pairs(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *sc = arg;
	const struct rpair *x = *(const struct rpair *const *)a, *y = *(const struct rpair *const *)b;
	int sd = report_dim(sc->r, "size"), cd = report_dim(sc->r, "concurrency");
	double k[4][2] = {
		{ (double)x->def, (double)y->def },
		{ (double)pattern_rank(sc, x->num), (double)pattern_rank(sc, y->num) },
		{ number_of(x->num, sd), number_of(y->num, sd) },
		{ number_of(x->num, cd), number_of(y->num, cd) },
	};

	for (size_t i = 0; i < 4; i++)
		if (k[i][0] != k[i][1])
			return k[i][0] < k[i][1] ? -1 : 1;
	return (x->num->number > y->num->number) - (x->num->number < y->num->number);
}

static int add_line(struct headline *h, const char *s)
{
	if (h->nlines == HEADLINE_MAX) {
		h->more++;
		return 0;
	}
	if (!(h->lines[h->nlines] = strdup(s)))
		return -1;
	h->nlines++;
	return 0;
}

/* One sentence per ratio and pattern: its geometric mean and range. */
static int grouped_lines(const struct report *r, struct headline *h)
{
	struct headline_mean *g;
	size_t n;
	char rt[160], line[2048];

	if (headline_means(r, &g, &n) < 0)
		return -1;
	h->grouped = 1;
	for (size_t i = 0; i < n; i++) {
		if (!g[i].npairs)
			continue;
		const struct rratio_def *def = &r->defs[g[i].def];
		int nb = num_better(def, g[i].geomean);
		/* the better side's ratio, at least 1×: over the loser's for a
		 * higher-is-better metric, the loser's over it for a lower */
		int flip = nb != (metrics[def->metric].better == HIGHER_IS_BETTER);
		double gm = flip ? 1 / g[i].geomean : g[i].geomean;
		double lo = flip ? 1 / g[i].max : g[i].min, hi = flip ? 1 / g[i].min : g[i].max;
		if (g[i].npairs == 1)
			snprintf(rt, sizeof(rt), "%.2f× (1 scenario)", gm);
		else
			snprintf(rt, sizeof(rt), "%.2f× (geometric mean of %zu scenarios, "
				 "%.2f× to %.2f×)", gm, g[i].npairs, lo, hi);
		sentence(r, def, nb ? def->num : def->den, nb ? def->den : def->num, rt,
			 g[i].pattern, line, sizeof(line));
		if (add_line(h, line) < 0) {
			free(g);
			return -1;
		}
	}
	free(g);
	/* a ratio across patterns has no pattern of its own: one line over
	 * all its pairs (ratios.csv's geomean row) */
	int pd = report_dim(r, "pattern");
	for (size_t di = 0; pd >= 0 && di < r->ndefs; di++) {
		const struct rratio_def *def = &r->defs[di];
		if (def->dim != (size_t)pd || !def->npairs || !(def->geomean > 0))
			continue;
		int nb = num_better(def, def->geomean);
		int flip = nb != (metrics[def->metric].better == HIGHER_IS_BETTER);
		snprintf(rt, sizeof(rt), def->npairs == 1 ? "%.2f× (1 scenario)" :
			 "%.2f× (geometric mean of %zu scenarios)",
			 flip ? 1 / def->geomean : def->geomean, def->npairs);
		sentence(r, def, nb ? def->num : def->den, nb ? def->den : def->num, rt,
			 "every scenario", line, sizeof(line));
		if (add_line(h, line) < 0)
			return -1;
	}
	return 0;
}

int headline_build(const struct report *r, struct headline *h)
{
	const struct rpair **ps = malloc((r->npairs + 1) * sizeof(*ps));
	struct sort_ctx ctx = { .r = r };
	size_t n = 0;
	char sc[512], line[2048];
	int rc = 0;

	memset(h, 0, sizeof(*h));
	h->lines = calloc(HEADLINE_MAX, sizeof(*h->lines));
	if (!ps || !h->lines) {
		free(ps);
		free(h->lines);
		h->lines = NULL;
		return -1;
	}
	for (size_t i = 0; i < r->npairs; i++)
		if (!isnan(r->pairs[i].ratio))
			ps[n++] = &r->pairs[i];
	if (n > HEADLINE_MAX) {
		rc = grouped_lines(r, h);
	} else {
		ctx.np = patterns(r, ctx.pats, 16);
		qsort_r(ps, n, sizeof(*ps), cmp_pairs, &ctx);
		for (size_t i = 0; i < n && !rc; i++) {
			const struct rratio_def *def = &r->defs[ps[i]->def];
			scenario(r, def, ps[i]->num, sc, sizeof(sc));
			if (report_whole_process(ps[i]->num, def->metric) ||
			    report_whole_process(ps[i]->den, def->metric))
				snprintf(sc + strlen(sc), sizeof(sc) - strlen(sc),
					 "; whole-process figures (ʷ)");
			if (report_upper_bound(r, ps[i]->num, def->metric) ||
			    report_upper_bound(r, ps[i]->den, def->metric))
				snprintf(sc + strlen(sc), sizeof(sc) - strlen(sc),
					 "; upper bounds across hosts (ᵘ)");
			pair_sentence(r, ps[i], sc, line, sizeof(line));
			rc = add_line(h, line);
		}
	}
	free(ps);
	if (rc < 0)
		headline_release(h);
	return rc;
}

void headline_release(struct headline *h)
{
	for (size_t i = 0; i < h->nlines; i++)
		free(h->lines[i]);
	free(h->lines);
	memset(h, 0, sizeof(*h));
}
