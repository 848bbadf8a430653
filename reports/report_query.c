/* The questions the writers ask of a loaded report: see report.h. */
#include "report.h"
#include "units.h"
#include "pattern.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *report_meta(const struct report *r, const char *key)
{
	for (size_t i = 0; i < r->nmeta; i++)
		if (!strcmp(r->meta[i].key, key))
			return r->meta[i].value;
	return "";
}

int report_stale_stream_rates(const struct report *r)
{
	int d = report_dim(r, "pattern");

	for (size_t i = 0; r->before_stream_fix && d >= 0 && i < r->ncells; i++)
		if (pattern_named_one_way(r->cells[i].dims[d]) && r->cells[i].nokreps)
			return 1;
	return 0;
}

int report_whole_process(const struct rcell *c, int m)
{
	return m >= 0 && m < MATRIX_NMETRICS && c->st[m].n > 0 && c->outside[m] > 0;
}

int report_cross_host(const struct report *r)
{
	const char *s = report_meta(r, "server_host"), *c = report_meta(r, "client_host");

	return *s && *c && !host_url_same(s, c);
}

int report_upper_bound(const struct report *r, const struct rcell *c, int m)
{
	int pd = report_dim(r, "pattern");
	const struct pattern_info *pi = pattern_find(pd >= 0 ? c->dims[pd] : "");

	/* the figures over the receiver's window: the rates it counted */
	if (m != matrix_metric_index("msgs_per_s") && m != matrix_metric_index("mib_per_s"))
		return 0;
	return m >= 0 && c->st[m].n > 0 && pi && pi->receiver_times && report_cross_host(r);
}

int report_rate_schedule(const struct report *r, const struct rcell *c, struct rate_schedule *s)
{
	int rd = report_dim(r, "rate"), cd = report_dim(r, "concurrency");
	int pd = report_dim(r, "pattern");
	const struct pattern_info *pi = pattern_find(pd >= 0 ? c->dims[pd] : "");
	double conc = cd >= 0 ? strtod(c->dims[cd], NULL) : 1;	/* the plan's default: 1 */

	memset(s, 0, sizeof(*s));
	if (rd < 0 || !(conc >= 1) || !((s->asked = strtod(c->dims[rd], NULL)) > 0))
		return 0;
	if (!pi)
		pi = pattern_info(PATTERN_DEFAULT);
	s->metric = matrix_metric_index(pi->receiver_times ? "sent_msgs_per_s" : "msgs_per_s");
	s->reps = c->st[s->metric].n;
	if (!s->reps)
		return 0;
	for (size_t i = 0; i < s->reps; i++)
		s->behind += c->vals[s->metric][i] / conc < MATRIX_RATE_KEPT * s->asked;
	s->achieved = c->st[s->metric].median / conc;
	return 1;
}

int report_dim(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->ndims; i++)
		if (!strcmp(r->dimnames[i], name))
			return (int)i;
	return -1;
}

const char *report_value_human(const struct report *r, size_t d, const char *v, char *b,
			       size_t len)
{
	const struct dimension *md = matrix_dim(&r->m, r->dimnames[d]);
	char *end;

	if (md && md->kind == VK_DURATION) {	/* seconds in the CSV */
		double sec = strtod(v, &end);
		if (!*end && sec == 0 && matrix_dim_is_link(md))
			return "0ms";		/* a link without delay (jitter) */
		if (*end || !*v || !(sec > 0))
			return v;
		return units_format_duration((uint64_t)(sec * 1e9 + 0.5), b, len);
	}
	if (md && md->kind == VK_PERCENT && *v) {	/* percent in the CSV */
		snprintf(b, len, "%s%%", v);
		return b;
	}
	unsigned long long n = strtoull(v, &end, 10);
	if (!md || *end || !*v)
		return v;
	if (md->kind == VK_SIZE || md->kind == VK_AUTOSIZE)	/* "auto" stays as written */
		return units_format_size(n, b, len);
	if (md->kind == VK_RATE)	/* per second in the CSV, 0 unpaced */
		return n ? units_format_rate(n, b, len) : "unpaced";
	if (md->kind == VK_BITRATE) {	/* bits per second in the CSV */
		static const char *const u[] = { "bit", "kbit", "mbit", "gbit", "tbit" };
		size_t k = 0;
		for (; k < 4 && n && n % 1000 == 0; k++)
			n /= 1000;
		snprintf(b, len, "%llu%s", n, u[k]);
		return b;
	}
	return v;
}

size_t report_dim_values(const struct report *r, size_t d, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t c = 0; c < r->ncells; c++) {
		size_t i;
		for (i = 0; i < n && strcmp(out[i], r->cells[c].dims[d]); i++)
			;
		if (i == n && n < max)
			out[n++] = r->cells[c].dims[d];
	}
	return n;
}

/* Does term t (of a matrix dimension) hold in cell c? */
static int term_holds(const struct report *r, const struct exclude_term *t, const struct rcell *c)
{
	const struct dimension *md = &r->m.dims[t->dim];
	int d = report_dim(r, md->key);
	char v[256];

	if (d < 0)
		return 0;
	matrix_format_value(md, &t->value, v, sizeof(v));
	return !strcmp(c->dims[d], v);
}

int report_pair_reference(const struct report *r, const struct rpair *p, double *ratio,
			  const char **label)
{
	const struct ratio_spec *s = r->defs[p->def].spec;

	for (size_t i = 0; s && i < s->nrefs; i++) {
		size_t k;
		for (k = 0; k < s->refs[i].nterms && term_holds(r, &s->refs[i].terms[k], p->num); k++)
			;
		if (k == s->refs[i].nterms) {
			*ratio = s->refs[i].ratio;
			*label = s->ref_label;
			return 1;
		}
	}
	return 0;
}
