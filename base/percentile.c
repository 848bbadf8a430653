/* The percentiles' names: see percentile.h. */
#include "percentile.h"
#include "vocab.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const double percentile_default[PERCENTILE_NDEFAULT] = { 50, 90, 99, 99.9 };

/* p as written, without trailing zeros: "99.99", "50" */
static void number(double p, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%.*f", PERCENTILE_DECIMALS, p);

	while (n > 0 && (size_t)n < len && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && (size_t)n < len && buf[n - 1] == '.')
		buf[--n] = '\0';
}

void percentile_column(double p, char *buf, size_t len)
{
	char num[32], digits[32];
	size_t o = 0;

	number(p, num, sizeof(num));
	if (p < 10)
		digits[o++] = '0';
	for (const char *s = num; *s && o + 1 < sizeof(digits); s++)
		if (*s != '.')
			digits[o++] = *s;
	digits[o] = '\0';
	snprintf(buf, len, "rtt_p%s_us", digits);
}

void percentile_label(double p, char *buf, size_t len)
{
	char num[32];

	number(p, num, sizeof(num));
	snprintf(buf, len, "p%s", num);
}

int percentile_metric(double p)
{
	char name[48];

	for (size_t i = 0; i < PERCENTILE_NDEFAULT; i++)
		if (fabs(p - percentile_default[i]) < 1e-9) {
			percentile_column(p, name, sizeof(name));
			return matrix_metric_index(name);
		}
	return -1;
}
