/* Medians, order-statistic intervals, bootstrap ratios: see stats.h. */
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

uint64_t stats_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Median of a resample of v (n values) drawn into tmp. */
static double resample_median(const double *v, size_t n, double *tmp, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[stats_rng_next(rng) % n];
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return stats_median_sorted(tmp, n);
}

int stats_ratio_ci(const double *num, size_t nn, const double *den, size_t nd,
		   unsigned resamples, uint64_t seed, double level,
		   double *ratio, double *lo, double *hi)
{
	struct stat_summary a, b;
	double *tmp, *r;
	size_t nr = 0;
	uint64_t rng = seed;

	*ratio = *lo = *hi = NAN;
	stats_summarize(num, nn, &a);
	stats_summarize(den, nd, &b);
	if (!a.n || !b.n || b.median == 0)
		return -1;
	*ratio = a.median / b.median;
	tmp = malloc((nn > nd ? nn : nd) * sizeof(*tmp));
	r = malloc(resamples * sizeof(*r));
	double *xa = malloc(a.n * sizeof(*xa)), *xb = malloc(b.n * sizeof(*xb));
	if (!tmp || !r || !xa || !xb) {
		free(tmp), free(r), free(xa), free(xb);
		return 0;
	}
	size_t ia = 0, ib = 0;
	for (size_t i = 0; i < nn; i++)
		if (!isnan(num[i]))
			xa[ia++] = num[i];
	for (size_t i = 0; i < nd; i++)
		if (!isnan(den[i]))
			xb[ib++] = den[i];
	for (unsigned i = 0; i < resamples; i++) {
		double ma = resample_median(xa, ia, tmp, &rng);
		double mb = resample_median(xb, ib, tmp, &rng);
		if (mb != 0)
			r[nr++] = ma / mb;
	}
	if (nr) {
		qsort(r, nr, sizeof(*r), cmp_double);
		double alpha = (1 - level) / 2;
		size_t ilo = (size_t)floor(alpha * (double)(nr - 1));
		size_t ihi = (size_t)ceil((1 - alpha) * (double)(nr - 1));
		*lo = r[ilo];
		*hi = r[ihi];
	}
	free(tmp), free(r), free(xa), free(xb);
	return 0;
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
