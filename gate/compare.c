/* Regression verdicts between a baseline and a candidate: see compare.h. */
#include "compare.h"
#include "arrays.h"
#include "rng.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const compare_verdict_names[V__COUNT] = {
	[V_REGRESSED] = "regressed", [V_IMPROVED] = "improved", [V_UNCHANGED] = "unchanged",
	[V_INCONCLUSIVE] = "inconclusive", [V_ADDED] = "added", [V_REMOVED] = "removed",
};

size_t compare_default_metrics(int *out)
{
	out[0] = matrix_metric_index("msgs_per_s");
	out[1] = matrix_metric_index("rtt_p50_us");
	return 2;
}

double compare_mw_p_smaller(const double *x, size_t m, const double *y, size_t n)
{
	uint64_t u2 = 0;	/* twice U: a tie counts 1/2 */

	if (!m || !n)
		return NAN;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			u2 += x[i] < y[j] ? 2 : x[i] == y[j];
	/* P(U >= u) = P(U <= mn - u) by symmetry; u rounded down (ties) makes
	 * the p-value larger, never smaller */
	return stats_mw_cdf(m, n, m * n - (size_t)(u2 / 2));
}

struct pq {
	double p;
	size_t i;
};

static int cmp_pq(const void *a, const void *b)
{
	double x = ((const struct pq *)a)->p, y = ((const struct pq *)b)->p;

	return (x > y) - (x < y);
}

void compare_bh(const double *p, size_t n, double *q)
{
	struct pq *s = malloc((n ? n : 1) * sizeof(*s));
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		q[i] = NAN;
	if (!s)
		return;	/* q stays NaN: nothing is declared */
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			s[k++] = (struct pq){ p[i], i };
	qsort(s, k, sizeof(*s), cmp_pq);
	double run = 1;
	for (size_t j = k; j-- > 0;) {	/* q(j) = min over j' >= j of p(j') k / j' */
		double v = s[j].p * (double)k / (double)(j + 1);
		if (v < run)
			run = v;
		q[s[j].i] = run;
	}
	free(s);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of a resample of v (n values, with replacement) drawn into tmp. */
static double resample_median(const double *v, size_t n, double *tmp, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[rng_next(rng) % n];
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return stats_median_sorted(tmp, n);
}

int compare_boot_ratio(const double *a, size_t na, const double *b, size_t nb, double *lo,
		       double *hi)
{
	double *tmp = malloc((na > nb ? na : nb) * sizeof(*tmp) + 1);
	double *r = malloc(COMPARE_RESAMPLES * sizeof(*r));
	uint64_t rng = COMPARE_SEED;
	size_t n = 0;

	*lo = *hi = NAN;
	if (!na || !nb || !tmp || !r) {
		free(tmp);
		free(r);
		return -1;
	}
	for (unsigned i = 0; i < COMPARE_RESAMPLES; i++) {
		double ma = resample_median(a, na, tmp, &rng), mb = resample_median(b, nb, tmp, &rng);
		if (mb > 0)
			r[n++] = ma / mb;
	}
	if (n) {
		qsort(r, n, sizeof(*r), cmp_double);
		double alpha = (1 - COMPARE_LEVEL) / 2;
		*lo = r[(size_t)floor(alpha * (double)(n - 1))];
		*hi = r[(size_t)ceil((1 - alpha) * (double)(n - 1))];
	}
	free(tmp);
	free(r);
	return n ? 0 : -1;
}

/* "transport=tcp size=16": every dimension of a cell but `skip`. */
static void cell_label(const struct report *r, const struct rcell *c, int skip, char *out,
		       size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t d = 0; d < r->ndims && n < len; d++)
		if ((int)d != skip)
			n += (size_t)snprintf(out + n, len - n, "%s%s=%s", n ? " " : "",
					      r->dimnames[d], c->dims[d]);
}

static struct cmp_row *new_row(struct comparison *c)
{
	if ((c->nrows & (c->nrows - 1)) == 0) {	/* 0, 1, 2, 4, ...: double */
		struct cmp_row *nr = realloc(c->rows, (c->nrows ? 2 * c->nrows : 1) * sizeof(*nr));
		if (!nr)
			return NULL;
		c->rows = nr;
	}
	struct cmp_row *row = &c->rows[c->nrows++];
	memset(row, 0, sizeof(*row));
	row->metric = -1;
	row->change = row->lo = row->hi = row->level = NAN;
	row->base_median = row->cand_median = NAN;
	row->p_worse = row->p_better = row->q_worse = row->q_better = NAN;
	row->why = "";
	return row;
}

/* One row per metric for a pair of cells (a metric neither side has is
 * not compared); an added or removed cell is one row. */
static int add_pair(struct comparison *c, const struct rcell *base, const struct rcell *cand,
		    const struct report *lr, int skip)
{
	const struct rcell *any = base ? base : cand;
	char label[512];

	cell_label(lr, any, skip, label, sizeof(label));
	if (!base || !cand) {
		struct cmp_row *row = new_row(c);
		if (!row)
			return -1;
		row->base = base;
		row->cand = cand;
		row->verdict = base ? V_REMOVED : V_ADDED;
		snprintf(row->label, sizeof(row->label), "%s", label);
		return 0;
	}
	int failed_side = base->failed == base->reps || cand->failed == cand->reps;
	for (size_t k = 0; k < c->nmetrics; k++) {
		int m = c->metrics[k];
		/* a metric neither side has is not theirs (RTT of a stream);
		 * a side with no figures at all is reported once */
		if (!base->st[m].n && !cand->st[m].n && !(failed_side && k == 0))
			continue;
		struct cmp_row *row = new_row(c);
		if (!row)
			return -1;
		row->base = base;
		row->cand = cand;
		row->metric = m;
		snprintf(row->label, sizeof(row->label), "%s", label);
	}
	return 0;
}

/* The figures of one row, before the correction. */
static void judge_figures(struct cmp_row *row)
{
	int m = row->metric;
	const double *b = row->base->vals[m], *a = row->cand->vals[m];
	size_t nb = row->base->st[m].n, na = row->cand->st[m].n;
	double ratio;

	row->n_base = nb;
	row->n_cand = na;
	row->base_median = row->base->st[m].median;
	row->cand_median = row->cand->st[m].median;
	if (!nb || !na)
		return;
	if (row->base_median > 0) {
		ratio = row->cand_median / row->base_median;
		row->change = ratio - 1;
		if (compare_boot_ratio(a, na, b, nb, &row->lo, &row->hi) == 0) {
			row->lo -= 1;
			row->hi -= 1;
			row->level = COMPARE_LEVEL;
		}
	}
	int higher = metrics[m].better == HIGHER_IS_BETTER;
	row->p_worse = higher ? compare_mw_p_smaller(a, na, b, nb) : compare_mw_p_smaller(b, nb, a, na);
	row->p_better = higher ? compare_mw_p_smaller(b, nb, a, na) : compare_mw_p_smaller(a, na, b, nb);
}

/* The verdict of one row, after the correction. */
static void judge_verdict(const struct comparison *c, struct cmp_row *row)
{
	double t = c->threshold;
	int higher = metrics[row->metric].better == HIGHER_IS_BETTER;

	row->verdict = V_INCONCLUSIVE;
	if (!row->n_base || !row->n_cand) {
		row->why = "failed on a side";
		return;
	}
	if (row->n_base < 2 || row->n_cand < 2 ||
	    stats_mw_cdf(row->n_base, row->n_cand, 0) >= COMPARE_ALPHA) {
		row->why = "too few repetitions";	/* no p-value can reach alpha */
		return;
	}
	if (isnan(row->lo) || isnan(row->hi)) {
		row->why = "no interval (a baseline median of zero)";
		return;
	}
	int worse_beyond = higher ? row->hi < -t : row->lo > t;
	int better_beyond = higher ? row->lo > t : row->hi < -t;
	if (worse_beyond && row->q_worse < COMPARE_ALPHA)
		row->verdict = V_REGRESSED;
	else if (better_beyond && row->q_better < COMPARE_ALPHA)
		row->verdict = V_IMPROVED;
	else if (row->lo >= -t && row->hi <= t)
		row->verdict = V_UNCHANGED;
	else
		row->why = worse_beyond || better_beyond ? "not significant after correction"
			   : "too noisy: the interval crosses the threshold";
}

/* Every row judged: figures, the Benjamini-Hochberg correction over every
 * compared pair and metric (each direction apart), verdicts, counts. */
static int judge(struct comparison *c)
{
	double *p = malloc((c->nrows ? c->nrows : 1) * 4 * sizeof(*p));

	if (!p)
		return -1;
	double *pb = p + c->nrows, *qw = pb + c->nrows, *qb = qw + c->nrows;
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *row = &c->rows[i];
		if (row->metric >= 0)
			judge_figures(row);
		p[i] = row->p_worse;
		pb[i] = row->p_better;
	}
	compare_bh(p, c->nrows, qw);
	compare_bh(pb, c->nrows, qb);
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *row = &c->rows[i];
		row->q_worse = qw[i];
		row->q_better = qb[i];
		if (row->metric >= 0)
			judge_verdict(c, row);
		/* a compared cell with a failed repetition on either side */
		if (row->base && row->cand && row->metric >= 0 &&
		    (row->base->failed || row->cand->failed))
			c->failed = 1;
		c->count[row->verdict]++;
	}
	free(p);
	return 0;
}

static void init(struct comparison *c, const struct report *base, const struct report *cand,
		 double threshold, const int *metrics_in, size_t nmetrics)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	c->cand = cand;
	c->along = -1;
	c->threshold = threshold;
	if (!nmetrics)
		nmetrics = compare_default_metrics(c->metrics);
	else
		memcpy(c->metrics, metrics_in, nmetrics * sizeof(*c->metrics));
	c->nmetrics = nmetrics;
}

/* The cell of r whose dimensions equal those of x (in report xr), each by
 * name; `along` (an index into xr) must be `value` instead, if >= 0. */
static const struct rcell *match(const struct report *r, const struct report *xr,
				 const struct rcell *x, int along, const char *value)
{
	if (r->ndims != xr->ndims)
		return NULL;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		size_t d;
		for (d = 0; d < xr->ndims; d++) {
			int rd = report_dim(r, xr->dimnames[d]);
			const char *want = (int)d == along ? value : x->dims[d];
			if (rd < 0 || strcmp(c->dims[rd], want))
				break;
		}
		if (d == xr->ndims)
			return c;
	}
	return NULL;
}

int compare_folders(struct comparison *c, const struct report *base, const struct report *cand,
		    double threshold, const int *metrics_in, size_t nmetrics, char *err,
		    size_t errlen)
{
	init(c, base, cand, threshold, metrics_in, nmetrics);
	for (size_t i = 0; i < base->ncells; i++)
		if (add_pair(c, &base->cells[i], match(cand, base, &base->cells[i], -1, NULL),
			     base, -1) < 0)
			goto oom;
	for (size_t i = 0; i < cand->ncells; i++)
		if (!match(base, cand, &cand->cells[i], -1, NULL) &&
		    add_pair(c, NULL, &cand->cells[i], cand, -1) < 0)
			goto oom;
	if (judge(c) == 0)
		return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

int compare_along(struct comparison *c, const struct report *r, size_t dim, const char *base,
		  const char *cand, double threshold, const int *metrics_in, size_t nmetrics,
		  char *err, size_t errlen)
{
	int seen_base = 0, seen_cand = 0;

	init(c, r, r, threshold, metrics_in, nmetrics);
	c->along = (int)dim;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *x = &r->cells[i];
		int is_base = !strcmp(x->dims[dim], base), is_cand = !strcmp(x->dims[dim], cand);
		seen_base |= is_base;
		seen_cand |= is_cand;
		if (is_base && add_pair(c, x, match(r, r, x, (int)dim, cand), r, (int)dim) < 0)
			goto oom;
		if (is_cand && !match(r, r, x, (int)dim, base) && add_pair(c, NULL, x, r, (int)dim) < 0)
			goto oom;
	}
	if (!seen_base || !seen_cand) {
		snprintf(err, errlen, "no cell has %s %s", r->dimnames[dim], seen_base ? cand : base);
		return -1;
	}
	if (judge(c) == 0)
		return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

void compare_release(struct comparison *c)
{
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}

int compare_exit_status(const struct comparison *c)
{
	size_t judged = c->count[V_REGRESSED] + c->count[V_IMPROVED] + c->count[V_UNCHANGED] +
			c->count[V_INCONCLUSIVE];

	if (c->count[V_REGRESSED])
		return 1;
	if (c->failed)
		return 2;
	/* nothing compared (every cell on one side only) decides nothing */
	return c->count[V_INCONCLUSIVE] || !judged ? 3 : 0;
}

/* The whole of a small file, NUL-terminated, or NULL. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "rb")))
		return NULL;
	char *buf = malloc(1 << 20);
	*len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	if (buf)
		buf[*len] = '\0';
	fclose(f);
	return buf;
}

size_t compare_fingerprint(const struct report *a, const struct report *b, char *out,
			   size_t outlen)
{
	/* a remote host's facts (hosts:, launch/remote.h): absent on both
	 * sides in a run without one, and so equal */
	static const char *const keys[] = { "kernel", "cpu_model", "cores", "governor",
					    "tool_version", "server_host", "server_kernel",
					    "server_cpu_model", "server_cores", "server_governor",
					    "client_host", "client_kernel", "client_cpu_model",
					    "client_cores", "client_governor" };
	size_t n = 0, len = 0, la = 0, lb = 0;

	out[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *va = report_meta(a, keys[i]), *vb = report_meta(b, keys[i]);
		if (!strcmp(va, vb))
			continue;
		n++;
		if (len < outlen)
			len += (size_t)snprintf(out + len, outlen - len, "  %s: %s vs %s\n", keys[i],
						*va ? va : "(none)", *vb ? vb : "(none)");
	}
	/* the same cell on other CPUs (results.csv's placement) is another experiment */
	size_t moved = 0;
	const struct rcell *first = NULL, *other = NULL;
	for (size_t i = 0; i < a->ncells; i++) {
		const struct rcell *x = &a->cells[i], *y = match(b, a, x, -1, NULL);
		if (!y || !strcmp(x->placement, y->placement) || moved++)
			continue;
		first = x;
		other = y;
	}
	if (moved) {
		char label[512];
		cell_label(a, first, -1, label, sizeof(label));
		n++;
		if (len < outlen)
			len += (size_t)snprintf(out + len, outlen - len, "  placement: %zu cell%s ran on "
						"other CPUs, such as %s on %s vs %s\n", moved,
						moved == 1 ? "" : "s", label, first->placement,
						other->placement);
	}
	char *ma = slurp(a->dir, "matrix.yaml", &la), *mb = slurp(b->dir, "matrix.yaml", &lb);
	if (!ma || !mb || la != lb || memcmp(ma, mb, la)) {
		n++;
		if (len < outlen)
			snprintf(out + len, outlen - len, "  matrix.yaml: the two files differ\n");
	}
	free(ma);
	free(mb);
	return n;
}
