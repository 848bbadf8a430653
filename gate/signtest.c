/* The sign test and the median's order-statistic interval: see
 * signtest.h. */
#include "signtest.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double binom_half_cdf(size_t n, size_t k)
{
	double s = 0;

	for (size_t i = 0; i <= k && i <= n; i++)
		s += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
			 (double)n * log(2));
	return s > 1 ? 1 : s;
}

double sign_p_upper(const double *d, size_t n)
{
	size_t m = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(d[i]) && d[i] != 0) {
			m++;
			k += d[i] > 0;
		}
	if (!m)
		return NAN;
	/* P(X >= k) = P(X <= m - k), by symmetry */
	return binom_half_cdf(m, m - k);
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
