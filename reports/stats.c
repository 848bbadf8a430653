/* Medians, order-statistic intervals, ratio intervals, the Mann-Whitney
 * distribution: see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median_sorted(const double *sorted, size_t n)
{
	if (!n)
		return NAN;
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* P(Binom(n, 1/2) <= k), each term in log space: 2^-n underflows for
 * n above about 1074. */
static double binom_cdf_half(size_t n, size_t k)
{
	double sum = 0, lnf = lgamma((double)n + 1) - (double)n * log(2.0);

	for (size_t i = 0; i <= k && i <= n; i++)
		sum += exp(lnf - lgamma((double)i + 1) - lgamma((double)(n - i) + 1));
	return sum;
}

void stats_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi,
		     double *achieved)
{
	size_t best = 1;

	*lo = *hi = *achieved = NAN;
	if (!n)
		return;
	/* [x(k), x(n+1-k)] covers the median with 1 - 2 P(B <= k-1); the widest
	 * (k = 1) is the fallback when no k reaches the level */
	*achieved = 1 - 2 * binom_cdf_half(n, 0);
	for (size_t k = 2; k <= (n + 1) / 2; k++) {
		double cover = 1 - 2 * binom_cdf_half(n, k - 1);
		if (cover < level)
			break;
		best = k;
		*achieved = cover;
	}
	*lo = sorted[best - 1];
	*hi = sorted[n - best];
}

void stats_summarize(const double *v, size_t n, struct stat_summary *s)
{
	double *x = malloc((n ? n : 1) * sizeof(*x)), sum = 0, ss = 0;
	size_t m = 0;

	memset(s, 0, sizeof(*s));
	s->median = s->min = s->max = s->mean = s->stdev = s->cv = NAN;
	s->ci_lo = s->ci_hi = s->ci_level = NAN;
	if (!x)
		return;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			x[m++] = v[i];
	s->n = m;
	if (!m) {
		free(x);
		return;
	}
	qsort(x, m, sizeof(*x), cmp_double);
	for (size_t i = 0; i < m; i++)
		sum += x[i];
	s->mean = sum / (double)m;
	for (size_t i = 0; i < m; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->min = x[0];
	s->max = x[m - 1];
	s->median = stats_median_sorted(x, m);
	if (m >= 2) {
		s->stdev = sqrt(ss / (double)(m - 1));
		s->cv = s->mean != 0 ? s->stdev / fabs(s->mean) : NAN;
	}
	stats_median_ci(x, m, STATS_LEVEL, &s->ci_lo, &s->ci_hi, &s->ci_level);
	free(x);
}

int stats_has_interval(const struct stat_summary *s)
{
	return s->n >= 2;
}

/*
 * P(U = u) for u = 0..d, samples of m and n, into p (d + 1 values): the
 * counting recursion c(i, j, u) = c(i-1, j, u-j) + c(i, j-1, u) (is the
 * largest of all i + j values one of the first sample's, beating all j of
 * the second, or not), over the smaller size as j, in place: row i - 1 is
 * overwritten by row i, j ascending and u descending, so that c(i, j-1, .)
 * is already new and c(i-1, j, u-j) still old.  Only additions: the counts
 * are exact while they fit a double's 53 bits (to 28 and 28), and off by a
 * few units in the 15th digit beyond.  -1 when memory runs out.
 */
static int mw_exact(size_t m, size_t n, size_t d, double *p)
{
	size_t rows = m > n ? m : n, cols = m > n ? n : m, w = d + 1;
	double *c = calloc((cols + 1) * w, sizeof(*c)), *total = malloc((cols + 1) * sizeof(*total));

	if (!c || !total) {
		free(c), free(total);
		return -1;
	}
	for (size_t j = 0; j <= cols; j++) {	/* no value in the first sample: U = 0 */
		c[j * w] = 1;
		total[j] = 1;
	}
	for (size_t i = 1; i <= rows; i++)
		for (size_t j = 1; j <= cols; j++) {
			double *cur = c + j * w, *left = c + (j - 1) * w;
			for (size_t u = d + 1; u-- > 0;)
				cur[u] = (u >= j ? cur[u - j] : 0) + left[u];
			total[j] += total[j - 1];	/* C(i + j, j) */
		}
	for (size_t u = 0; u <= d; u++)
		p[u] = c[cols * w + u] / total[cols];
	free(c), free(total);
	return 0;
}

/* P(U <= u) by the normal approximation with continuity correction. */
static double mw_normal_cdf(size_t m, size_t n, size_t u)
{
	double mn = (double)m * (double)n, sd = sqrt(mn * ((double)m + (double)n + 1) / 12);

	return 0.5 * erfc(-((double)u + 0.5 - mn / 2) / (sd * sqrt(2.0)));
}

/* Is m * n small enough for the exact distribution (stats.h)? */
static int mw_is_exact(size_t m, size_t n)
{
	return (double)m * (double)n <= STATS_MW_EXACT_MAX;
}

/* P(U <= u) for u = 0..d into cdf, exactly; -1 when memory runs out. */
static int mw_exact_cdf(size_t m, size_t n, size_t d, double *cdf)
{
	if (mw_exact(m, n, d, cdf) < 0)
		return -1;
	for (size_t u = 1; u <= d; u++)
		cdf[u] += cdf[u - 1];
	return 0;
}

double stats_mw_cdf(size_t m, size_t n, size_t u)
{
	double *cdf, v;

	if (!m || !n)
		return NAN;
	if (u >= m * n)
		return 1;
	if (!mw_is_exact(m, n))
		return mw_normal_cdf(m, n, u);
	if (!(cdf = malloc((u + 1) * sizeof(*cdf))) || mw_exact_cdf(m, n, u, cdf) < 0) {
		free(cdf);
		return NAN;
	}
	v = cdf[u];
	free(cdf);
	return v;
}

/* The values of v that are not NaN, into a new array (*n of them); NULL
 * when memory runs out. */
static double *present(const double *v, size_t nv, size_t *n)
{
	double *x = malloc((nv ? nv : 1) * sizeof(*x));

	*n = 0;
	for (size_t i = 0; x && i < nv; i++)
		if (!isnan(v[i]))
			x[(*n)++] = v[i];
	return x;
}

static double min2(double x, double y)
{
	return x < y ? x : y;
}

static double max2(double x, double y)
{
	return x > y ? x : y;
}

int stats_ratio_ci(const double *num, size_t nn, const double *den, size_t nd, double level,
		   double *ratio, double *lo, double *hi, double *achieved)
{
	size_t m, n;
	double *a = present(num, nn, &m), *b = present(den, nd, &n);
	double side = sqrt(level), nlo, nhi, nlvl, dlo, dhi, dlvl;
	int rc = -1;

	*ratio = *lo = *hi = *achieved = NAN;
	if (!a || !b || !m || !n)
		goto out;
	qsort(a, m, sizeof(*a), cmp_double);
	qsort(b, n, sizeof(*b), cmp_double);
	if (stats_median_sorted(b, n) == 0)
		goto out;
	*ratio = stats_median_sorted(a, m) / stats_median_sorted(b, n);
	rc = 0;
	if (m < 2 || n < 2)	/* a side of one value: a point, no interval */
		goto out;
	stats_median_ci(a, m, side, &nlo, &nhi, &nlvl);
	stats_median_ci(b, n, side, &dlo, &dhi, &dlvl);
	if (!(dlo > 0))		/* a denominator that may be 0 bounds no ratio */
		goto out;
	/* num / den over the box [nlo, nhi] x [dlo, dhi], den > 0: its least
	 * and greatest values are at corners, whatever num's sign */
	*lo = min2(nlo / dhi, nlo / dlo);
	*hi = max2(nhi / dlo, nhi / dhi);
	*achieved = nlvl * dlvl;
out:
	free(a), free(b);
	return rc;
}

double stats_geomean(const double *v, size_t n)
{
	double s = 0;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > 0 && isfinite(v[i])) {
			s += log(v[i]);
			m++;
		}
	return m ? exp(s / (double)m) : NAN;
}
