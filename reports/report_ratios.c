/* The ratios between cells: see report_ratios.h. */
#include "report_ratios.h"
#include "report.h"
#include "suggest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_def(struct report *r, const char *name, size_t dim, const char *num,
		   const char *den, int metric)
{
	for (size_t i = 0; i < r->ndefs; i++)	/* --ratio a/b twice: once is enough */
		if (!strcmp(r->defs[i].name, name))
			return 0;
	struct rratio_def *defs = realloc(r->defs, (r->ndefs + 1) * sizeof(*defs));

	if (!defs)
		return -1;
	r->defs = defs;
	struct rratio_def *d = &defs[r->ndefs++];
	memset(d, 0, sizeof(*d));
	d->dim = dim;
	d->metric = metric;
	d->geomean = NAN;
	d->name = strdup(name);
	d->num = strdup(num);
	d->den = strdup(den);
	return d->name && d->num && d->den ? 0 : -1;
}

/* A --ratio value as results.csv writes it: parsed as --only parses it
 * (units: 64KiB, 50ms), else as given (65536, 0.05 as results.csv has them). */
static void ratio_value(const struct dimension *md, const char *text, char *out, size_t len)
{
	struct mvalue v = { 0 };
	char why[256];

	snprintf(out, len, "%s", text);
	if (md && matrix_parse_value(md->kind, text, &v, why, sizeof(why)) == 0)
		matrix_format_value(md, &v, out, len);
	free(v.text);
}

/* --ratio [DIM:]NUM/DEN */
static int def_from_flag(struct report *r, const char *arg, int metric, char *err, size_t errlen)
{
	char buf[256], *dimname = "transport", *num = buf, *slash, *colon;
	int d;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf) || !(slash = strchr(buf, '/'))) {
		snprintf(err, errlen, "--ratio %s: expected [DIMENSION:]NUMERATOR/DENOMINATOR, "
			 "e.g. --ratio unix/tcp", arg);
		return -1;
	}
	if ((colon = strchr(buf, ':')) && colon < slash) {
		*colon = '\0';
		dimname = buf;
		num = colon + 1;
	}
	*slash = '\0';
	if ((d = report_dim(r, dimname)) < 0) {
		snprintf(err, errlen, "--ratio %s: '%s' is not a dimension of this run", arg, dimname);
		return -1;
	}
	/* values as --only reads them (64KiB, 50ms), then as results.csv has them */
	char v[2][256], list[512] = "";
	const struct dimension *md = matrix_dim(&r->m, dimname);
	for (int k = 0; k < 2; k++)
		ratio_value(md, k ? slash + 1 : num, v[k], sizeof(v[k]));
	const char *vals[256];
	size_t nv = report_dim_values(r, (size_t)d, vals, 256), fn = 0;
	for (size_t i = 0; i < nv; i++) {
		fn |= (!strcmp(vals[i], v[0])) | (!strcmp(vals[i], v[1])) << 1;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 vals[i]);
	}
	if (fn != 3 || !strcmp(v[0], v[1])) {
		snprintf(err, errlen, "--ratio %s: %s and %s must be two values of %s in this run "
			 "(its values: %s)", arg, num, slash + 1, dimname, list);
		return -1;
	}
	char name[300];
	snprintf(name, sizeof(name), "%s/%s", num, slash + 1);
	if (add_def(r, name, (size_t)d, v[0], v[1], metric) < 0)
		return -1;
	r->defs[r->ndefs - 1].flag = arg;
	return 0;
}

int report_ratios_define(struct report *r, const struct report_opts *o, char *err,
			 size_t errlen)
{
	int metric = -1;
	char val[2][128];

	if (o && o->metric && (metric = matrix_metric_index(o->metric)) < 0) {
		char hint[128];
		snprintf(err, errlen, "--metric %s: unknown metric%s", o->metric,
			 suggest_hint(o->metric, matrix_metrics, MATRIX_NMETRICS, hint, sizeof(hint)));
		return -1;
	}
	if (o && o->nratios) {
		for (size_t i = 0; i < o->nratios; i++)
			if (def_from_flag(r, o->ratios[i], metric < 0 ? 0 : metric, err, errlen) < 0)
				return -1;
		return 0;
	}
	for (size_t i = 0; i < r->m.report.nratios; i++) {
		const struct ratio_spec *s = &r->m.report.ratios[i];
		const struct dimension *md = &r->m.dims[s->dim];
		int d = report_dim(r, md->key);
		if (d < 0) {
			snprintf(err, errlen, "%s:%d:%d: ratio dimension '%s' is not a column of "
				 "results.csv", r->m.path, s->pos.line, s->pos.col, md->key);
			return -1;
		}
		matrix_format_value(md, &s->numerator, val[0], sizeof(val[0]));
		matrix_format_value(md, &s->denominator, val[1], sizeof(val[1]));
		if (add_def(r, s->name, (size_t)d, val[0], val[1],
			    metric >= 0 ? metric : matrix_metric_index(s->metric)) < 0)
			return -1;
		r->defs[r->ndefs - 1].spec = s;
	}
	if (r->m.report.nratios)
		return 0;
	/* default: every transport against the first one listed */
	int d = report_dim(r, "transport");
	const struct dimension *md = matrix_dim(&r->m, "transport");
	if (d < 0 || !md || md->nvalues < 2)
		return 0;
	matrix_format_value(md, &md->values[0], val[1], sizeof(val[1]));
	for (size_t i = 1; i < md->nvalues; i++) {
		char name[300];
		matrix_format_value(md, &md->values[i], val[0], sizeof(val[0]));
		snprintf(name, sizeof(name), "%s/%s", val[0], val[1]);
		if (add_def(r, name, (size_t)d, val[0], val[1], metric < 0 ? 0 : metric) < 0)
			return -1;
	}
	return 0;
}

/* The cell that differs from c only in dimension d, where it has value v. */
static const struct rcell *partner(const struct report *r, const struct rcell *c, size_t d,
				   const char *v)
{
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *o = &r->cells[i];
		size_t k;
		if (strcmp(o->dims[d], v))
			continue;
		for (k = 0; k < r->ndims; k++)
			if (k != d && strcmp(o->dims[k], c->dims[k]))
				break;
		if (k == r->ndims)
			return o;
	}
	return NULL;
}

int report_ratios_pair(struct report *r)
{
	for (size_t di = 0; di < r->ndefs; di++) {
		struct rratio_def *def = &r->defs[di];
		double *logs = malloc((r->ncells + 1) * sizeof(*logs));
		size_t nl = 0;
		if (!logs)
			return -1;
		for (size_t i = 0; i < r->ncells; i++) {
			const struct rcell *c = &r->cells[i], *o;
			if (strcmp(c->dims[def->dim], def->num) ||
			    !(o = partner(r, c, def->dim, def->den)))
				continue;
			struct rpair *p = realloc(r->pairs, (r->npairs + 1) * sizeof(*p));
			if (!p) {
				free(logs);
				return -1;
			}
			r->pairs = p;
			p = &p[r->npairs++];
			p->def = di;
			p->num = c;
			p->den = o;
			stats_ratio_ci(c->vals[def->metric], c->st[def->metric].n, o->vals[def->metric],
				       o->st[def->metric].n, STATS_LEVEL, &p->ratio, &p->lo, &p->hi,
				       &p->level);
			if (isfinite(p->ratio))
				logs[nl++] = p->ratio;
		}
		def->geomean = stats_geomean(logs, nl);
		def->npairs = nl;
		free(logs);
	}
	return 0;
}

/* The cells of value v in dimension d, and another dimension they vary in
 * (NULL when none): what a ratio with no pair is told. */
static size_t cells_of(const struct report *r, size_t d, const char *v, const char **other)
{
	size_t n = 0;
	const struct rcell *first = NULL;

	*other = NULL;
	for (size_t i = 0; i < r->ncells; i++) {
		if (strcmp(r->cells[i].dims[d], v))
			continue;
		n++;
		first = first ? first : &r->cells[i];
	}
	for (size_t i = 0; first && i < r->ncells && !*other; i++)
		for (size_t k = 0; k < r->ndims && !*other; k++)
			if (k != d && strcmp(r->cells[i].dims[k], first->dims[k]))
				*other = r->dimnames[k];
	return n;
}

int report_ratios_check(const struct report *r, char *err, size_t errlen)
{
	for (size_t di = 0; di < r->ndefs; di++) {
		const struct rratio_def *def = &r->defs[di];
		size_t any = 0;
		for (size_t i = 0; i < r->npairs && !any; i++)
			any = r->pairs[i].def == di;
		if (any || !def->flag)
			continue;
		const char *other;
		size_t nn = cells_of(r, def->dim, def->num, &other);
		snprintf(err, errlen, "--ratio %s: no two cells of this run differ only in %s "
			 "(%zu cell%s with %s %s, none with %s %s and the rest alike)%s%s: a ratio "
			 "of cells that differ in more would measure more than %s", def->flag,
			 r->dimnames[def->dim], nn, nn == 1 ? "" : "s", r->dimnames[def->dim],
			 def->num, r->dimnames[def->dim], def->den, other ? "; they differ in " : "",
			 other ? other : "", r->dimnames[def->dim]);
		return -1;
	}
	return 0;
}
