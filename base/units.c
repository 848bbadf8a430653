/*
 * units: sizes, durations, counts and booleans as written in a matrix file
 * or on the command line, and their human formatting.  See units.h.
 */
#include "units.h"
#include "vocab.h"

#include <ctype.h>
#include <math.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define NS_PER_US 1000ull
#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull

struct unit {
	const char *name;
	uint64_t mult;
};

/* Accepted after a size; matched case-insensitively. */
static const struct unit size_units[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1ull << 10 }, { "kb", 1ull << 10 }, { "kib", 1ull << 10 },
	{ "m", 1ull << 20 }, { "mb", 1ull << 20 }, { "mib", 1ull << 20 },
	{ "g", 1ull << 30 }, { "gb", 1ull << 30 }, { "gib", 1ull << 30 },
	{ "t", 1ull << 40 }, { "tb", 1ull << 40 }, { "tib", 1ull << 40 },
};

/* Accepted after a duration; matched exactly ("M" is not minutes). */
static const struct unit duration_units[] = {
	{ "ns", 1 }, { "us", NS_PER_US }, { "ms", NS_PER_MS },
	{ "s", NS_PER_S }, { "m", 60 * NS_PER_S }, { "h", 3600 * NS_PER_S },
};

#include "arrays.h"

__attribute__((format(printf, 3, 4)))
static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Reads the leading decimal digits of s into *n; *end points after them.
 * Returns 0, -1 when there is no digit, -2 on uint64_t overflow.
 */
static int read_digits(const char *s, uint64_t *n, const char **end)
{
	uint64_t v = 0;
	const char *p = s;

	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -2;
		v = v * 10 + d;
	}
	*end = p;
	*n = v;
	return p == s ? -1 : 0;
}

/* The reason for text that does not start with a digit. */
static int not_a_number(const char *s, char *why, size_t whylen)
{
	if (!*s)
		return fail(why, whylen, "empty");
	if (*s == '-')
		return fail(why, whylen, "must not be negative");
	if (*s == '+')
		return fail(why, whylen, "no sign allowed");
	if (isspace((unsigned char)*s))
		return fail(why, whylen, "leading whitespace");
	return fail(why, whylen, "not a number");
}

/* A number with an optional fraction ("12", "1.25"): its whole part n,
 * its fraction's digits (frac, nfrac; "" and 0 without a point) and where
 * its unit starts (*end).  0, or -1 with why. */
static int read_decimal(const char *s, uint64_t *n, const char **frac, size_t *nfrac,
			const char **end, char *why, size_t whylen)
{
	int r = read_digits(s, n, end);

	if (r == -1)
		return not_a_number(s, why, whylen);
	if (r == -2)
		return fail(why, whylen, "too large");
	*frac = "";
	*nfrac = 0;
	if (**end == '.') {
		*frac = ++*end;
		while (isdigit((unsigned char)**end))
			++*end;
		*nfrac = (size_t)(*end - *frac);
		if (!*nfrac)
			return fail(why, whylen, "not a number");
	}
	return 0;
}

static const struct unit *find_unit(const struct unit *u, size_t n,
				    const char *name, int nocase)
{
	for (size_t i = 0; i < n; i++) {
		int c = nocase ? strcasecmp(u[i].name, name)
			       : strcmp(u[i].name, name);
		if (!c)
			return &u[i];
	}
	return NULL;
}

int units_parse_size(const char *s, uint64_t *bytes, char *why, size_t whylen)
{
	const struct unit *u;
	const char *end;
	uint64_t n;
	int r = read_digits(s, &n, &end);

	if (r == -1)
		return not_a_number(s, why, whylen);
	if (r == -2)
		return fail(why, whylen, "too large");
	if (*end == '.')
		return fail(why, whylen, "fractions are not allowed");
	if (*end == '_' || *end == ',')
		return fail(why, whylen, "digit separators ('_' or ',') are not allowed");
	u = find_unit(size_units, ARRAY_SIZE(size_units), end, 1);
	if (!u)
		return fail(why, whylen, "unknown unit '%s' (use B, K/KiB, M/MiB, G/GiB or T/TiB)",
			    end);
	if (n > UINT64_MAX / u->mult)
		return fail(why, whylen, "too large");
	*bytes = n * u->mult;
	return 0;
}

/*
 * Nanoseconds in the fraction digits `frac` (after the '.') of a duration
 * whose unit is mult nanoseconds, rounded to nearest.  Exact with 128-bit
 * arithmetic for the first 24 digits; later ones are below a nanosecond
 * even for hours.
 */
static uint64_t fraction_ns(const char *frac, size_t ndigits, uint64_t mult)
{
	__extension__ typedef unsigned __int128 u128;
	u128 num = 0, den = 1;

	if (ndigits > 24)
		ndigits = 24;
	for (size_t i = 0; i < ndigits; i++) {
		num = num * 10 + (u128)(frac[i] - '0');
		den *= 10;
	}
	/* num < den <= 10^24 and mult < 2^42: num * mult fits in 128 bits. */
	return (uint64_t)((num * mult + den / 2) / den);
}

int units_parse_duration(const char *s, uint64_t *ns, char *why, size_t whylen)
{
	const struct unit *u;
	const char *end, *frac;
	size_t nfrac;
	uint64_t n, extra = 0;

	if (read_decimal(s, &n, &frac, &nfrac, &end, why, whylen) < 0)
		return -1;
	if (!*end)
		return fail(why, whylen, "missing unit: write 5s or 500ms");
	u = find_unit(duration_units, ARRAY_SIZE(duration_units), end, 0);
	if (!u)
		return fail(why, whylen, "unknown unit '%s' (use ns, us, ms, s, m, h)",
			    end);
	if (nfrac)
		extra = fraction_ns(frac, nfrac, u->mult);
	if (n > UINT64_MAX / u->mult || n * u->mult > UINT64_MAX - extra)
		return fail(why, whylen, "too large");
	*ns = n * u->mult + extra;
	return 0;
}

uint64_t units_rate_factor(const char *unit)
{
	static const struct unit rate_units[] = {
		{ "/s", 1 }, { "k/s", 1000 }, { "K/s", 1000 }, { "M/s", 1000000 },
	};
	const struct unit *u = find_unit(rate_units, ARRAY_SIZE(rate_units), unit, 0);

	return u ? u->mult : 0;
}

int units_parse_rate(const char *s, uint64_t *per_s, char *why, size_t whylen)
{
	const char *end, *frac;
	size_t nfrac;
	uint64_t n, mult, v, step;

	if (read_decimal(s, &n, &frac, &nfrac, &end, why, whylen) < 0)
		return -1;
	if (!*end)
		return fail(why, whylen, "missing unit: write 20000/s, 20k/s or 1M/s");
	if (!(mult = units_rate_factor(end)))
		return fail(why, whylen, "unknown unit '%s' (use /s, k/s or M/s)", end);
	if (n > UNITS_MAX_RATE / mult)
		return fail(why, whylen, "too large (at most 1000M/s)");
	v = n * mult;
	/* each digit after the point is worth a tenth of the one before */
	for (step = mult; isdigit((unsigned char)*frac); frac++) {
		if (step % 10) {
			if (*frac != '0')
				return fail(why, whylen, "not a whole number of requests per second");
			continue;
		}
		step /= 10;
		v += (uint64_t)(*frac - '0') * step;
	}
	if (v > UNITS_MAX_RATE)
		return fail(why, whylen, "too large (at most 1000M/s)");
	*per_s = v;
	return 0;
}

int units_parse_count(const char *s, uint64_t *n, char *why, size_t whylen)
{
	const char *end;
	int r = read_digits(s, n, &end);

	if (r == -1)
		return not_a_number(s, why, whylen);
	if (r == -2)
		return fail(why, whylen, "too large");
	if (*end == '_' || *end == ',')
		return fail(why, whylen, "digit separators ('_' or ',') are not allowed");
	if (*end == '.')
		return fail(why, whylen, "not a whole number");
	if (*end)
		return fail(why, whylen, "not a number");
	return 0;
}

int units_parse_bool(const char *s, int *b, char *why, size_t whylen)
{
	static const char *const yes[] = { "true", "yes", "on" };
	static const char *const no[] = { "false", "no", "off" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*b = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*b = 0;
			return 0;
		}
	}
	return fail(why, whylen, "expected true/false, yes/no or on/off");
}

/*
 * Writes v in the largest of u[] (ascending) it reaches: as an integer when
 * exact ("4MiB"), with one or two decimals when that is exact ("1.5MiB"),
 * else rounded to two decimals ("1.05MiB").  A unit flagged exact_only is
 * used only for whole multiples ("2m", but "90s").
 */
struct fmt_unit {
	const char *name;
	uint64_t mult;
	int exact_only;
};

static char *format_units(uint64_t v, const struct fmt_unit *u, size_t n,
			  char *buf, size_t len)
{
	size_t i = n;

	while (i > 1 && (v < u[i - 1].mult ||
			 (u[i - 1].exact_only && v % u[i - 1].mult)))
		i--;
	const struct fmt_unit *best = &u[i - 1];
	uint64_t q = v / best->mult, r = v % best->mult;

	if (!r) {
		snprintf(buf, len, "%" PRIu64 "%s", q, best->name);
	} else if (r * 10 % best->mult == 0) {
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "%s", q,
			 r * 10 / best->mult, best->name);
	} else if (r * 100 % best->mult == 0) {
		snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 "%s", q,
			 r * 100 / best->mult, best->name);
	} else {
		snprintf(buf, len, "%.2f%s", (double)v / (double)best->mult,
			 best->name);
	}
	return buf;
}

char *units_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const struct fmt_unit u[] = {
		{ "B", 1, 0 }, { "KiB", 1ull << 10, 0 }, { "MiB", 1ull << 20, 0 },
		{ "GiB", 1ull << 30, 0 }, { "TiB", 1ull << 40, 0 },
	};

	/* Below 10KiB an inexact size reads better in bytes ("1025B"). */
	if (bytes < 10240 && bytes % 1024 && bytes * 10 % 1024)
		return format_units(bytes, u, 1, buf, len);
	return format_units(bytes, u, ARRAY_SIZE(u), buf, len);
}

char *units_format_duration(uint64_t ns, char *buf, size_t len)
{
	static const struct fmt_unit u[] = {
		{ "ns", 1, 0 }, { "us", NS_PER_US, 0 }, { "ms", NS_PER_MS, 0 },
		{ "s", NS_PER_S, 0 }, { "m", 60 * NS_PER_S, 1 },
		{ "h", 3600 * NS_PER_S, 1 },
	};

	return format_units(ns, u, ARRAY_SIZE(u), buf, len);
}

char *units_format_rate(uint64_t per_s, char *buf, size_t len)
{
	static const struct fmt_unit u[] = {
		{ "/s", 1, 0 }, { "k/s", 1000, 0 }, { "M/s", 1000000, 0 },
	};
	size_t i = ARRAY_SIZE(u);

	/* the largest unit that writes it exactly in at most three decimals */
	while (i > 1 && (per_s < u[i - 1].mult || per_s * 1000 % u[i - 1].mult))
		i--;
	uint64_t q = per_s / u[i - 1].mult, r = per_s % u[i - 1].mult;
	int dec = !r ? 0 : r * 10 % u[i - 1].mult == 0 ? 1 : r * 100 % u[i - 1].mult == 0 ? 2 : 3;

	if (!dec)
		snprintf(buf, len, "%" PRIu64 "%s", q, u[i - 1].name);
	else
		snprintf(buf, len, "%.*f%s", dec, (double)per_s / (double)u[i - 1].mult, u[i - 1].name);
	return buf;
}

/* ---- figures of the metric table ---- */

struct metric_unit {
	const char *suffix;	/* "msg/s": the metric table's unit */
	double scale;
	const char *prefix;	/* "k", "M" or "" */
};

/* How a figure of the metric table is written: rates in msg/s with k and
 * M, times in µs or, from 1000 µs, ms; other units as the table says. */
static struct metric_unit metric_unit_of(const char *metric, double median)
{
	int m = matrix_metric_index(metric);
	const char *unit = m >= 0 ? metrics[m].unit : "µs";

	if (!strcmp(unit, "msg/s")) {
		if (fabs(median) >= 1e6)
			return (struct metric_unit){ unit, 1e6, "M" };
		if (fabs(median) >= 1e3)
			return (struct metric_unit){ unit, 1e3, "k" };
		return (struct metric_unit){ unit, 1, "" };
	}
	if (strcmp(unit, "µs"))
		return (struct metric_unit){ unit, 1, "" };
	if (fabs(median) >= 1000)
		return (struct metric_unit){ "ms", 1000, "" };
	return (struct metric_unit){ "µs", 1, "" };
}

/* v rounded to the three significant digits it is printed with: the unit
 * and the decimals are picked from that, so that 999.7 µs is 1.00 ms, not
 * "1000 µs", and 999,600 msg/s 1.00M, not "1000k". */
static double round3(double v)
{
	if (v == 0 || !isfinite(v))
		return v;
	double f = pow(10, floor(log10(fabs(v))) - 2);
	return round(v / f) * f;
}

/* The decimals of three significant digits of v (at most 3 below 1). */
static int sig3_decimals(double v)
{
	double a = fabs(v);

	return a >= 99.95 ? 0 : a >= 9.995 ? 1 : a >= 1 ? 2 : 3;
}

char *units_format_bits(double bits_per_s, char *buf, size_t len)
{
	static const struct { double mult; const char *name; } u[] = {
		{ 1e12, "Tbit/s" }, { 1e9, "Gbit/s" }, { 1e6, "Mbit/s" }, { 1e3, "kbit/s" },
	};
	double r = round3(bits_per_s);
	size_t i = 0;

	if (!isfinite(bits_per_s)) {
		snprintf(buf, len, "-");
		return buf;
	}
	while (i < ARRAY_SIZE(u) && fabs(r) < u[i].mult)
		i++;
	if (i == ARRAY_SIZE(u)) {
		snprintf(buf, len, "%.*f bit/s", sig3_decimals(r), bits_per_s);
		return buf;
	}
	snprintf(buf, len, "%.*f %s", sig3_decimals(r / u[i].mult), bits_per_s / u[i].mult,
		 u[i].name);
	return buf;
}

char *units_format_metric(const char *metric, double v, char *buf, size_t len)
{
	return units_format_metric_ci(metric, v, NAN, NAN, buf, len);
}

char *units_format_metric_ci(const char *metric, double median, double lo, double hi,
			     char *buf, size_t len)
{
	struct metric_unit u = metric_unit_of(metric, round3(median));
	double m = median / u.scale, mr = round3(median) / u.scale;
	int dec = sig3_decimals(mr);

	if (isnan(median)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (fabs(mr) < 1 && mr != 0)	/* 0.190, 0.0123: three significant digits */
		dec = 2 - (int)floor(log10(fabs(mr)));
	if (dec > 6)
		dec = 6;
	if (isnan(lo) || isnan(hi)) {
		snprintf(buf, len, "%.*f%s %s", dec, m, u.prefix, u.suffix);
		return buf;
	}
	/* rounded outwards, so that the printed interval holds the real one
	 * (the tolerance keeps 10.0 from becoming 9.9 by a binary fraction) */
	double p10 = pow(10, dec), l = lo / u.scale * p10, h = hi / u.scale * p10;
	l = floor(l + 1e-9 * fabs(l)) / p10;
	h = ceil(h - 1e-9 * fabs(h)) / p10;
	snprintf(buf, len, "%.*f%s (%.*f%s–%.*f%s) %s", dec, m, u.prefix, dec, l, u.prefix, dec,
		 h, u.prefix, u.suffix);
	return buf;
}

int units_parse_bitrate(const char *s, uint64_t *bits_per_s, char *why, size_t whylen)
{
	static const struct unit bit_units[] = {
		{ "bit", 1 }, { "kbit", 1000 }, { "mbit", 1000000 }, { "gbit", 1000000000 },
		{ "tbit", 1000000000000ull },
	};
	const struct unit *u;
	const char *end, *frac;
	size_t nfrac;
	uint64_t n, extra = 0;

	if (read_decimal(s, &n, &frac, &nfrac, &end, why, whylen) < 0)
		return -1;
	if (!*end)
		return fail(why, whylen, "missing unit: write 100mbit or 1gbit");
	if (!(u = find_unit(bit_units, ARRAY_SIZE(bit_units), end, 1)))
		return fail(why, whylen, "unknown unit '%s' (use bit, kbit, mbit, gbit, tbit)", end);
	if (nfrac)
		extra = fraction_ns(frac, nfrac, u->mult);
	if (n > UNITS_MAX_BITRATE / u->mult || n * u->mult + extra > UNITS_MAX_BITRATE)
		return fail(why, whylen, "too large (at most 100tbit)");
	*bits_per_s = n * u->mult + extra;
	return 0;
}

int units_parse_percent(const char *s, uint64_t *millionths, char *why, size_t whylen)
{
	const char *end, *frac;
	size_t nfrac;
	uint64_t n;

	if (read_decimal(s, &n, &frac, &nfrac, &end, why, whylen) < 0)
		return -1;
	if (strcmp(end, "%"))
		return fail(why, whylen, *end ? "unknown unit '%s': a percentage ends in %%"
			    : "missing unit: write 1%% or 0.1%%", end);
	if (n > 100)
		return fail(why, whylen, "above 100%%");
	*millionths = n * 1000000 + (nfrac ? fraction_ns(frac, nfrac, 1000000) : 0);
	if (*millionths > 100000000)
		return fail(why, whylen, "above 100%%");
	return 0;
}
