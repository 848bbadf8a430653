/* Regression verdicts between a baseline and a candidate: see compare.h. */
#include "compare.h"
#include "arrays.h"
#include "compare_figures.h"
#include "guard.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const compare_verdict_names[V__COUNT] = {
	[V_REGRESSED] = "regressed", [V_IMPROVED] = "improved", [V_UNCHANGED] = "unchanged",
	[V_INCONCLUSIVE] = "inconclusive", [V_ADDED] = "added", [V_REMOVED] = "removed",
};

/* The machine-state guard of two separate runs (guard.h): 1, with why,
 * when the two sides' machines differ too much for a verdict: the new
 * side's first look's cell, and its second look's, each against the
 * baseline's. */
int compare_guard(const struct comparison *c, const struct cmp_row *row, char *why, size_t len)
{
	if (!row->base || !row->cand)
		return 0;
	if (guard_judge(c->base, row->base, c->cand, row->cand, why, len) == 1)
		return 1;
	/* the second look's repetitions ran later: their machine too */
	return row->cand2 && c->more &&
	       guard_judge(c->base, row->base, c->more, row->cand2, why, len) == 1;
}

size_t compare_default_metrics(int *out)
{
	out[0] = matrix_metric_index("msgs_per_s");
	out[1] = matrix_metric_index("rtt_p50_us");
	return 2;
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

/* The fewest values a test's p-value can be below alpha with: the smallest
 * p-value of n paired rounds is 2^-n; of m and n separate repetitions
 * 1 / C(m + n, m). */
static int too_few(const struct comparison *c, const struct cmp_row *row)
{
	if (c->paired)
		return row->rounds < 2 || ldexp(1, -(int)(row->rounds < 60 ? row->rounds : 60)) >=
					  c->alpha;
	return row->n_base < 2 || row->n_cand < 2 ||
	       stats_mw_cdf(row->n_base, row->n_cand, 0) >= c->alpha;
}

/* The fewest repetitions a side of two separate runs needs for its
 * order-statistic interval: [min, max] of n covers the median with
 * 1 - 2^(1 - n), which must reach sqrt(1 - 2 alpha) (7 at COMPARE_ALPHA). */
static size_t separate_min_n(const struct comparison *c)
{
	size_t n = 2;

	while (n < 64 && 1 - ldexp(1, 1 - (int)n) < sqrt(1 - 2 * c->alpha))
		n++;
	return n;
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
	if (too_few(c, row)) {
		row->why = c->paired ? "too few paired rounds" : "too few repetitions";
		return;
	}
	if (isnan(row->lo) || isnan(row->hi)) {
		size_t need = separate_min_n(c);
		if (!c->paired && (row->n_base < need || row->n_cand < need)) {
			/* more rounds of the new run cannot lengthen the baseline */
			row->base_short = row->n_base < need;
			snprintf(row->whybuf, sizeof(row->whybuf), "too few repetitions for an "
				 "interval: %zu %s, %zu needed", row->base_short ? row->n_base
				 : row->n_cand, row->base_short ? "in the baseline" : "new", need);
			row->why = row->whybuf;
		} else {
			row->why = c->paired || row->base_median > 0
				   ? "too few repetitions for an interval"
				   : "no interval (a baseline median of zero)";
		}
		return;
	}
	/* paired: the test is of "beyond the threshold" and the interval its
	 * inversion, so the two agree; separate runs ask both */
	int worse_beyond = c->paired || (higher ? row->hi < -t : row->lo > t);
	int better_beyond = c->paired || (higher ? row->lo > t : row->hi < -t);
	if (worse_beyond && row->q_worse < c->alpha)
		row->verdict = V_REGRESSED;
	else if (better_beyond && row->q_better < c->alpha)
		row->verdict = V_IMPROVED;
	else if (row->lo >= -t && row->hi <= t)
		row->verdict = V_UNCHANGED;
	else if (c->paired)
		row->why = row->p_worse < c->alpha || row->p_better < c->alpha
			   ? "not significant after correction"
			   : "too noisy: the interval crosses the threshold";
	else
		row->why = (higher ? row->hi < -t || row->lo > t : row->lo > t || row->hi < -t)
			   ? "not significant after correction"
			   : "too noisy: the interval crosses the threshold";
}

int compare_row_looks_again(const struct cmp_row *row)
{
	return row->metric >= 0 && row->verdict == V_INCONCLUSIVE && row->n_base && row->n_cand &&
	       strcmp(row->why, "no interval (a baseline median of zero)") != 0 && !row->guarded &&
	       !row->base_short;
}

/* Every row judged: figures, the Benjamini-Hochberg correction over every
 * compared pair and metric (each direction apart), verdicts, counts.  With
 * `first` (the same rows judged at the first look), a row the first look
 * decided keeps that verdict and is left out of this look's correction. */
static int judge(struct comparison *c, const struct comparison *first)
{
	double *p = malloc((c->nrows ? c->nrows : 1) * 4 * sizeof(*p));

	if (!p)
		return -1;
	double *pb = p + c->nrows, *qw = pb + c->nrows, *qb = qw + c->nrows;
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *row = &c->rows[i];
		const struct cmp_row *was = first && i < first->nrows ? &first->rows[i] : NULL;
		row->look = first ? 2 : 1;
		if (was && !compare_row_looks_again(was)) {
			char label[sizeof(row->label)];
			memcpy(label, row->label, sizeof(label));
			*row = *was;	/* decided at the first look */
			memcpy(row->label, label, sizeof(label));
			if (was->why == was->guard_why)
				row->why = row->guard_why;
			if (was->why == was->whybuf)
				row->why = row->whybuf;
			row->look = 1;
			p[i] = pb[i] = NAN;
			continue;
		}
		if (row->metric >= 0)
			compare_figures(c, row);
		p[i] = row->p_worse;
		pb[i] = row->p_better;
	}
	compare_bh(p, c->nrows, qw);
	compare_bh(pb, c->nrows, qb);
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *row = &c->rows[i];
		if (first && row->look == 1) {
			c->count[row->verdict]++;
			c->failed |= row->base && row->cand && row->metric >= 0 &&
				     (row->base->failed || row->cand->failed);
			continue;
		}
		row->q_worse = qw[i];
		row->q_better = qb[i];
		if (row->metric >= 0)
			judge_verdict(c, row);
		/* machines unlike: no verdict, whatever the figures, and no
		 * second look (more rounds of a busier machine say no more) */
		if (row->metric >= 0 && row->n_base && row->n_cand && c->guard &&
		    c->guard(c, row, row->guard_why, sizeof(row->guard_why))) {
			row->verdict = V_INCONCLUSIVE;
			row->guarded = 1;
			row->why = row->guard_why;
		}
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
	c->alpha = COMPARE_ALPHA;
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

/* The rows of two folders, unjudged. */
static int pair_folders(struct comparison *c, const struct report *base, const struct report *cand)
{
	for (size_t i = 0; i < base->ncells; i++)
		if (add_pair(c, &base->cells[i], match(cand, base, &base->cells[i], -1, NULL),
			     base, -1) < 0)
			return -1;
	for (size_t i = 0; i < cand->ncells; i++)
		if (!match(base, cand, &cand->cells[i], -1, NULL) &&
		    add_pair(c, NULL, &cand->cells[i], cand, -1) < 0)
			return -1;
	return 0;
}

/* The cells of the second look's folder that stand beside each row's:
 * both sides of an in-run A/B, the new side of two folders. */
static void pair_more(struct comparison *c, const struct report *more)
{
	for (size_t i = 0; more && i < c->nrows; i++) {
		struct cmp_row *row = &c->rows[i];
		if (!row->base || !row->cand)
			continue;
		if (c->along >= 0)
			row->base2 = match(more, c->base, row->base, -1, NULL);
		row->cand2 = match(more, c->cand, row->cand, -1, NULL);
	}
}

/* c judged at the first look, and with `more`, judged again at the second:
 * `first` holds the first look's rows (built by `pairs`, the same rows in
 * the same order). */
static int judge_looks(struct comparison *c, const struct report *more,
		       int (*pairs)(struct comparison *, const void *), const void *arg)
{
	struct comparison first = *c;
	int rc;

	if (!more)
		return pairs(c, arg) < 0 ? -1 : judge(c, NULL);
	first.rows = NULL;
	first.nrows = 0;
	rc = pairs(&first, arg) < 0 || judge(&first, NULL) < 0 || pairs(c, arg) < 0 ? -1 : 0;
	if (rc == 0) {
		pair_more(c, more);
		rc = judge(c, &first);
	}
	compare_release(&first);
	return rc;
}

struct folders_arg {
	const struct report *base, *cand;
};

static int pairs_of_folders(struct comparison *c, const void *arg)
{
	const struct folders_arg *f = arg;

	return pair_folders(c, f->base, f->cand);
}

int compare_folders_more(struct comparison *c, const struct report *base,
			 const struct report *cand, const struct report *more, double threshold,
			 const int *metrics_in, size_t nmetrics, char *err, size_t errlen)
{
	struct folders_arg f = { base, cand };

	init(c, base, cand, threshold, metrics_in, nmetrics);
	c->more = more;
	c->guard = compare_guard;
	if (judge_looks(c, more, pairs_of_folders, &f) == 0)
		return 0;
	snprintf(err, errlen, "out of memory");
	return -1;
}

int compare_folders(struct comparison *c, const struct report *base, const struct report *cand,
		    double threshold, const int *metrics_in, size_t nmetrics, char *err,
		    size_t errlen)
{
	return compare_folders_more(c, base, cand, NULL, threshold, metrics_in, nmetrics, err,
				    errlen);
}

struct along_arg {
	const struct report *r;
	size_t dim;
	const char *base, *cand;
	int seen_base, seen_cand;
};

static int pairs_along(struct comparison *c, const void *arg)
{
	struct along_arg *a = (struct along_arg *)arg;
	const struct report *r = a->r;
	int dim = (int)a->dim;

	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *x = &r->cells[i];
		int is_base = !strcmp(x->dims[dim], a->base), is_cand = !strcmp(x->dims[dim], a->cand);
		a->seen_base |= is_base;
		a->seen_cand |= is_cand;
		if (is_base && add_pair(c, x, match(r, r, x, dim, a->cand), r, dim) < 0)
			return -1;
		if (is_cand && !match(r, r, x, dim, a->base) && add_pair(c, NULL, x, r, dim) < 0)
			return -1;
	}
	return 0;
}

int compare_along_more(struct comparison *c, const struct report *r, const struct report *more,
		       size_t dim, const char *base, const char *cand, double threshold,
		       const int *metrics_in, size_t nmetrics, char *err, size_t errlen)
{
	struct along_arg a = { r, dim, base, cand, 0, 0 };

	init(c, r, r, threshold, metrics_in, nmetrics);
	c->along = (int)dim;
	/* a merged folder's rounds ran on other machines (its shards'): a
	 * round's two cells were not side by side, so they are not paired */
	c->paired = !*report_meta(r, "merged_from");
	c->more = more;
	/* a dry pass: are both values there? */
	for (size_t i = 0; i < r->ncells; i++) {
		a.seen_base |= !strcmp(r->cells[i].dims[dim], base);
		a.seen_cand |= !strcmp(r->cells[i].dims[dim], cand);
	}
	if (!a.seen_base || !a.seen_cand) {
		snprintf(err, errlen, "no cell has %s %s", r->dimnames[dim], a.seen_base ? cand : base);
		return -1;
	}
	if (judge_looks(c, more, pairs_along, &a) == 0)
		return 0;
	snprintf(err, errlen, "out of memory");
	return -1;
}

int compare_along(struct comparison *c, const struct report *r, size_t dim, const char *base,
		  const char *cand, double threshold, const int *metrics_in, size_t nmetrics,
		  char *err, size_t errlen)
{
	return compare_along_more(c, r, NULL, dim, base, cand, threshold, metrics_in, nmetrics,
				  err, errlen);
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
		/* a host as an older folder wrote it (ssh://H:22) is this one's */
		if (!strcmp(va, vb) || (strstr(keys[i], "_host") && host_url_same(va, vb)))
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
