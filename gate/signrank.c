/* The signed-rank test, its interval, and the median's order-statistic
 * interval: see signrank.h. */
#include "signrank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The null distribution of a sum of a random subset of the integer scores
 * s[0..n) (each in or out with probability 1/2): dist[0..total] (total the
 * sum of all scores), probabilities; NULL when memory runs out. */
static double *subset_sums(const long *s, size_t n, long total)
{
	double *p = calloc((size_t)total + 1, sizeof(*p));
	long top = 0;

	if (!p)
		return NULL;
	p[0] = 1;
	for (size_t i = 0; i < n; i++) {
		top += s[i];
		for (long w = top; w >= 0; w--)	/* in place, from the top down */
			p[w] = (p[w] + (w >= s[i] ? p[w - s[i]] : 0)) / 2;
	}
	return p;
}

/* The standard normal's P(Z <= z). */
static double phi(double z)
{
	return 0.5 * erfc(-z / sqrt(2));
}

double signrank_cdf(size_t n, long w)
{
	long total = (long)(n * (n + 1) / 2);

	if (w < 0)
		return 0;
	if (w >= total)
		return 1;
	if (n > SIGNRANK_EXACT_MAX) {
		double mu = (double)total / 2, var = (double)n * (double)(n + 1) * (double)(2 * n + 1) / 24;
		return phi(((double)w + 0.5 - mu) / sqrt(var));
	}
	long *s = malloc(n * sizeof(*s));
	double *p = NULL, v = NAN;
	if (s) {
		for (size_t i = 0; i < n; i++)
			s[i] = (long)i + 1;
		p = subset_sums(s, n, total);
	}
	if (p) {
		v = 0;
		for (long k = 0; k <= w; k++)
			v += p[k];
	}
	free(s);
	free(p);
	return v > 1 ? 1 : v;
}

struct absd {
	double a;
	int pos;
};

static int cmp_absd(const void *x, const void *y)
{
	double a = ((const struct absd *)x)->a, b = ((const struct absd *)y)->a;

	return (a > b) - (a < b);
}

double signrank_p_upper(const double *d, size_t n)
{
	struct absd *v = malloc((n ? n : 1) * sizeof(*v));
	long *r2 = malloc((n ? n : 1) * sizeof(*r2));
	size_t m = 0;
	double p = NAN;

	if (!v || !r2)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (!isnan(d[i]) && d[i] != 0)
			v[m++] = (struct absd){ fabs(d[i]), d[i] > 0 };
	if (!m)
		goto out;
	qsort(v, m, sizeof(*v), cmp_absd);
	/* doubled mean ranks: positions i..j-1 (1-based i+1..j) tie at
	 * (i + 1 + j) / 2, doubled i + 1 + j */
	long w2 = 0, total = 0;
	double ties = 0;	/* sum of t^3 - t over tie groups */
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i + 1; j < m && v[j].a == v[i].a; j++)
			;
		for (size_t k = i; k < j; k++) {
			r2[k] = (long)(i + 1 + j);
			total += r2[k];
			if (v[k].pos)
				w2 += r2[k];
		}
		double t = (double)(j - i);
		ties += t * t * t - t;
	}
	if (m > SIGNRANK_EXACT_MAX) {
		/* W+ = w2 / 2; its mean and tie-corrected variance */
		double mu = (double)total / 4;
		double var = (double)m * (double)(m + 1) * (double)(2 * m + 1) / 24 - ties / 48;
		p = var > 0 ? 1 - phi(((double)w2 / 2 - 0.5 - mu) / sqrt(var)) : 1;
		goto out;
	}
	double *dist = subset_sums(r2, m, total);
	if (dist) {
		p = 0;
		for (long w = w2; w <= total; w++)
			p += dist[w];
		p = p > 1 ? 1 : p;
	}
	free(dist);
out:
	free(v);
	free(r2);
	return p;
}

/* The n(n+1)/2 Walsh averages of the values of d that are not NaN, sorted,
 * into a new array (*nw of them, *nd the values used); NULL when there are
 * none or memory runs out. */
static double *walsh(const double *d, size_t n, size_t *nw, size_t *nd)
{
	double *x = malloc((n ? n : 1) * sizeof(*x)), *w = NULL;
	size_t m = 0, k = 0;

	*nw = *nd = 0;
	if (!x)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!isnan(d[i]))
			x[m++] = d[i];
	if (m && (w = malloc(m * (m + 1) / 2 * sizeof(*w)))) {
		for (size_t i = 0; i < m; i++)
			for (size_t j = i; j < m; j++)
				w[k++] = (x[i] + x[j]) / 2;
		qsort(w, k, sizeof(*w), cmp_double);
		*nw = k;
		*nd = m;
	}
	free(x);
	return w;
}

int signrank_interval(const double *d, size_t n, double alpha, double *lo, double *hi,
		      double *level)
{
	size_t nw, m;
	double *w = walsh(d, n, &nw, &m);

	*lo = *hi = *level = NAN;
	if (!w)
		return -1;
	/* the largest k with P(W+ <= k - 1) <= alpha; P grows with k */
	size_t k = 0;
	double err = 0;
	for (size_t j = 1; j <= nw / 2; j++) {
		double e = signrank_cdf(m, (long)j - 1);
		if (!(e <= alpha))
			break;
		k = j;
		err = e;
	}
	if (k) {
		*lo = w[k - 1];
		*hi = w[nw - k];
		*level = 1 - 2 * err;
	}
	free(w);
	return k ? 0 : -1;
}

double signrank_hl(const double *d, size_t n)
{
	size_t nw, m;
	double *w = walsh(d, n, &nw, &m), v = NAN;

	if (w)
		v = nw % 2 ? w[nw / 2] : (w[nw / 2 - 1] + w[nw / 2]) / 2;
	free(w);
	return v;
}

/* P(Binomial(n, 1/2) <= j). */
static double binom_half_cdf(size_t n, size_t j)
{
	double s = 0;

	for (size_t i = 0; i <= j && i <= n; i++)
		s += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
			 (double)n * log(2));
	return s > 1 ? 1 : s;
}

int median_os_interval(const double *x, size_t n, double level, double *lo, double *hi,
		       double *got)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));
	size_t m = 0, k = 0;
	double cover = NAN;

	*lo = *hi = *got = NAN;
	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i]))
			s[m++] = x[i];
	qsort(s, m, sizeof(*s), cmp_double);
	for (size_t j = 1; j <= m / 2; j++) {
		double c = 1 - 2 * binom_half_cdf(m, j - 1);
		if (!(c >= level))
			break;
		k = j;
		cover = c;
	}
	if (k) {
		*lo = s[k - 1];
		*hi = s[m - k];
		*got = cover;
	}
	free(s);
	return k ? 0 : -1;
}
