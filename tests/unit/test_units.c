/*
 * Unit tests for base/units.c: the tables below are input -> expected
 * value or input -> a part of the reason, in the manner of jq's tests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "units.h"

#include "arrays.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)
#define TIB (1024ull * GIB)
#define US 1000ull
#define MS (1000ull * US)
#define S (1000ull * MS)

typedef int parse_fn(const char *s, uint64_t *out, char *why, size_t whylen);

struct good {
	const char *in;
	uint64_t want;
};

struct bad {
	const char *in;
	const char *why;	/* a part of the reason */
};

static void check_good(parse_fn *parse, const struct good *t, size_t n)
{
	int failed = 0;

	for (size_t i = 0; i < n; i++) {
		char why[256] = "";
		uint64_t v = 0xdeadbeef;

		if (parse(t[i].in, &v, why, sizeof why)) {
			print_error("'%s': refused: %s\n", t[i].in, why);
			failed++;
		} else if (v != t[i].want) {
			print_error("'%s': got %llu, want %llu\n", t[i].in,
				    (unsigned long long)v,
				    (unsigned long long)t[i].want);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

static void check_bad(parse_fn *parse, const struct bad *t, size_t n)
{
	int failed = 0;

	for (size_t i = 0; i < n; i++) {
		char why[256] = "";
		uint64_t v = 0;

		if (!parse(t[i].in, &v, why, sizeof why)) {
			print_error("'%s': accepted as %llu\n", t[i].in,
				    (unsigned long long)v);
			failed++;
		} else if (!strstr(why, t[i].why)) {
			print_error("'%s': reason '%s', want '%s'\n", t[i].in,
				    why, t[i].why);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

static void size_good(void **state)
{
	static const struct good t[] = {
		{ "0", 0 }, { "10", 10 }, { "64B", 64 }, { "64b", 64 },
		{ "1K", KIB }, { "1k", KIB }, { "1KB", KIB }, { "1kb", KIB },
		{ "1KiB", KIB }, { "1kib", KIB }, { "4M", 4 * MIB },
		{ "4MiB", 4 * MIB }, { "4MB", 4 * MIB }, { "2G", 2 * GIB },
		{ "2GiB", 2 * GIB }, { "1TiB", TIB },
		{ "18446744073709551615", UINT64_MAX },
		{ "16777215T", 16777215 * TIB },
		{ "007", 7 },
	};

	(void)state;
	check_good(units_parse_size, t, ARRAY_SIZE(t));
}

static void size_bad(void **state)
{
	static const struct bad t[] = {
		{ "", "empty" },
		{ "1.5K", "fractions are not allowed" },
		{ "1.5", "fractions are not allowed" },
		{ "1,000", "separators" },
		{ "1_000K", "separators" },
		{ "18446744073709551616", "too large" },
		{ "99999999999999999999999", "too large" },
		{ "16777216T", "too large" },
		{ "17179869184G", "too large" },
		{ "-1", "negative" },
		{ "+1", "sign" },
		{ " 1", "whitespace" },
		{ "1 ", "unknown unit ' '" },
		{ "1 K", "unknown unit ' K'" },
		{ "1x", "unknown unit 'x'" },
		{ "1KiBB", "unknown unit 'KiBB'" },
		{ "1Ki", "unknown unit 'Ki'" },
		{ "K", "not a number" },
		{ "ten", "not a number" },
	};

	(void)state;
	check_bad(units_parse_size, t, ARRAY_SIZE(t));
}

static void duration_good(void **state)
{
	static const struct good t[] = {
		{ "0s", 0 }, { "5s", 5 * S }, { "1.5s", 1500 * MS },
		{ "250ms", 250 * MS }, { "100us", 100 * US },
		{ "1500us", 1500 * US }, { "100ns", 100 }, { "2m", 120 * S },
		{ "1h", 3600 * S }, { "0.5ms", 500 * US },
		{ "0.000000001s", 1 },
		{ "1.0000000005s", S + 1 },	/* half a ns rounds up */
		{ "1.0000000004s", S },
		{ "0.5ns", 1 }, { "0.4ns", 0 },
		{ "0.1h", 360 * S },
		{ "0.333333333333333333333333333333m", 20 * S },
		{ "18446744073s", 18446744073ull * S },
		{ "18446744073709551615ns", UINT64_MAX },
	};

	(void)state;
	check_good(units_parse_duration, t, ARRAY_SIZE(t));
}

static void duration_bad(void **state)
{
	static const struct bad t[] = {
		{ "5", "missing unit: write 5s or 500ms" },
		{ "1.5", "missing unit" },
		{ "", "empty" },
		{ "5S", "unknown unit 'S'" },
		{ "5sec", "unknown unit 'sec'" },
		{ "5 s", "unknown unit ' s'" },
		{ "5MS", "unknown unit 'MS'" },
		{ ".5s", "not a number" },
		{ "5.s", "not a number" },
		{ "-5s", "negative" },
		{ "18446744074s", "too large" },
		{ "18446744073709551616ns", "too large" },
		{ "18446744073709551615.9ns", "too large" },
	};

	(void)state;
	check_bad(units_parse_duration, t, ARRAY_SIZE(t));
}

static void count_good(void **state)
{
	static const struct good t[] = {
		{ "0", 0 }, { "1", 1 }, { "500000", 500000 },
		{ "18446744073709551615", UINT64_MAX },
	};

	(void)state;
	check_good(units_parse_count, t, ARRAY_SIZE(t));
}

static void count_bad(void **state)
{
	static const struct bad t[] = {
		{ "", "empty" },
		{ "1_000", "separators" },
		{ "1,000", "separators" },
		{ "1.5", "not a whole number" },
		{ "1e3", "not a number" },
		{ "1K", "not a number" },
		{ "-5", "negative" },
		{ "+5", "sign" },
		{ "18446744073709551616", "too large" },
	};

	(void)state;
	check_bad(units_parse_count, t, ARRAY_SIZE(t));
}

static void bool_words(void **state)
{
	static const struct {
		const char *in;
		int want;
	} t[] = {
		{ "true", 1 }, { "yes", 1 }, { "on", 1 }, { "TRUE", 1 },
		{ "Yes", 1 }, { "On", 1 }, { "false", 0 }, { "no", 0 },
		{ "off", 0 }, { "False", 0 }, { "NO", 0 }, { "OFF", 0 },
	};
	static const char *const bad[] = { "", "1", "0", "y", "n", "maybe",
					   "true ", "enabled" };
	char why[128];
	int b;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		b = -1;
		assert_int_equal(units_parse_bool(t[i].in, &b, why, sizeof why), 0);
		assert_int_equal(b, t[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		why[0] = 0;
		assert_int_equal(units_parse_bool(bad[i], &b, why, sizeof why), -1);
		assert_non_null(strstr(why, "true/false"));
	}
}

/* A reason is truncated, not overflowed, and a NULL why is allowed. */
static void why_buffer(void **state)
{
	char why[8];
	uint64_t v;

	(void)state;
	memset(why, 'x', sizeof why);
	assert_int_equal(units_parse_size("1xyzxyzxyz", &v, why, sizeof why), -1);
	assert_int_equal(why[sizeof why - 1], '\0');
	assert_int_equal(units_parse_size("1x", &v, NULL, 0), -1);
	assert_int_equal(units_parse_duration("5", &v, NULL, 0), -1);
}

static void format_size(void **state)
{
	static const struct {
		uint64_t in;
		const char *want;
	} t[] = {
		{ 0, "0B" }, { 10, "10B" }, { 64, "64B" }, { 1023, "1023B" },
		{ KIB, "1KiB" }, { 1025, "1025B" }, { 1536, "1.5KiB" },
		{ 10 * KIB, "10KiB" }, { 64 * KIB, "64KiB" },
		{ MIB, "1MiB" }, { 3 * MIB / 2, "1.5MiB" },
		{ 1100000, "1.05MiB" }, { 4 * GIB, "4GiB" }, { TIB, "1TiB" },
		{ 1025 * KIB, "1.00MiB" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		assert_string_equal(units_format_size(t[i].in, buf, sizeof buf),
				    t[i].want);
}

static void format_duration(void **state)
{
	static const struct {
		uint64_t in;
		const char *want;
	} t[] = {
		{ 0, "0ns" }, { 100, "100ns" }, { 1500, "1.5us" },
		{ 250 * MS, "250ms" }, { 5 * S, "5s" }, { 1500 * MS, "1.5s" },
		{ 60 * S, "1m" }, { 120 * S, "2m" }, { 90 * S, "90s" },
		{ 3600 * S, "1h" }, { 5400 * S, "90m" }, { 1234567, "1.23ms" },
		{ 1250 * US, "1.25ms" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		assert_string_equal(units_format_duration(t[i].in, buf, sizeof buf),
				    t[i].want);
}

/* What the formatters print for an exact value parses back to it. */
static void round_trip(void **state)
{
	static const uint64_t sizes[] = { 1, 10, 1024, 1536, 4 * MIB, 3 * GIB };
	static const uint64_t durs[] = { 1, 1500, 250 * MS, 1500 * MS, 120 * S,
					 90 * S, 7200 * S };
	char buf[32], why[128];
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		units_format_size(sizes[i], buf, sizeof buf);
		if (strchr(buf, '.'))
			continue;	/* the size parser refuses fractions */
		assert_int_equal(units_parse_size(buf, &v, why, sizeof why), 0);
		assert_int_equal(v, sizes[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(durs); i++) {
		units_format_duration(durs[i], buf, sizeof buf);
		assert_int_equal(units_parse_duration(buf, &v, why, sizeof why), 0);
		assert_int_equal(v, durs[i]);
	}
}

static void rate_good(void **state)
{
	static const struct good t[] = {
		{ "20000/s", 20000 }, { "20k/s", 20000 }, { "20K/s", 20000 },
		{ "1.5k/s", 1500 }, { "1M/s", 1000000 }, { "2.5M/s", 2500000 },
		{ "1.000001M/s", 1000001 }, { "1.2340k/s", 1234 }, { "0/s", 0 },
		{ "1/s", 1 }, { "0.5k/s", 500 }, { "1000M/s", 1000000000 },
		{ "1000000000/s", 1000000000 }, { "007/s", 7 },
	};

	(void)state;
	check_good(units_parse_rate, t, ARRAY_SIZE(t));
}

static void rate_bad(void **state)
{
	static const struct bad t[] = {
		{ "", "empty" },
		{ "20000", "missing unit" },
		{ "1.5/s", "not a whole number" },
		{ "1.2345k/s", "not a whole number" },
		{ "20k", "unknown unit 'k'" },
		{ "20m/s", "unknown unit 'm/s'" },	/* milli, not mega */
		{ "20ks", "unknown unit 'ks'" },
		{ "20 k/s", "unknown unit ' k/s'" },
		{ "20/ms", "unknown unit '/ms'" },
		{ "1001M/s", "too large" },
		{ "1000000001/s", "too large" },
		{ "1000.5M/s", "too large" },
		{ "99999999999999999999999/s", "too large" },
		{ "-1/s", "negative" },
		{ "+1/s", "sign" },
		{ "k/s", "not a number" },
		{ "1./s", "not a number" },
	};

	(void)state;
	check_bad(units_parse_rate, t, ARRAY_SIZE(t));
}

/* topology: link: rate: and loss: (tc's spellings) */
static void link_values(void **state)
{
	static const struct good rates[] = {
		{ "1gbit", 1000000000 }, { "100mbit", 100000000 }, { "1.5mbit", 1500000 },
		{ "64kbit", 64000 }, { "9600bit", 9600 }, { "1Gbit", 1000000000 },
		{ "100tbit", 100000000000000ull },
	};
	static const struct bad bad_rates[] = {
		{ "100", "missing unit" }, { "1gb", "unknown unit 'gb'" },
		{ "101tbit", "too large" }, { "mbit", "not a number" },
	};
	static const struct good losses[] = {
		{ "0%", 0 }, { "0.5%", 500000 }, { "100%", 100000000 }, { "0.000001%", 1 },
		{ "12.25%", 12250000 },
	};
	static const struct bad bad_losses[] = {
		{ "5", "missing unit" }, { "101%", "above 100%" }, { "100.5%", "above 100%" },
		{ "5 %", "unknown unit ' %'" }, { "0.5", "missing unit" },
	};

	(void)state;
	check_good(units_parse_bitrate, rates, ARRAY_SIZE(rates));
	check_bad(units_parse_bitrate, bad_rates, ARRAY_SIZE(bad_rates));
	check_good(units_parse_percent, losses, ARRAY_SIZE(losses));
	check_bad(units_parse_percent, bad_losses, ARRAY_SIZE(bad_losses));
}

/* Rates read back as written, in the largest unit that is exact. */
static void format_rate(void **state)
{
	static const struct good t[] = {
		{ "500/s", 500 }, { "20k/s", 20000 }, { "1.5k/s", 1500 }, { "1.234k/s", 1234 },
		{ "1M/s", 1000000 }, { "2.5M/s", 2500000 }, { "1000.001k/s", 1000001 },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		uint64_t back = 0;
		assert_string_equal(units_format_rate(t[i].want, buf, sizeof buf), t[i].in);
		assert_int_equal(units_parse_rate(buf, &back, NULL, 0), 0);
		assert_int_equal(back, t[i].want);
	}
	assert_int_equal(units_rate_factor("k/s"), 1000);
	assert_int_equal(units_rate_factor("ms"), 0);
}

/* A small buffer truncates the formatted text. */
static void format_truncates(void **state)
{
	char buf[4];

	(void)state;
	assert_string_equal(units_format_size(1536, buf, sizeof buf), "1.5");
	assert_string_equal(units_format_duration(250 * MS, buf, sizeof buf),
			    "250");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(size_good),
		cmocka_unit_test(size_bad),
		cmocka_unit_test(duration_good),
		cmocka_unit_test(duration_bad),
		cmocka_unit_test(count_good),
		cmocka_unit_test(count_bad),
		cmocka_unit_test(bool_words),
		cmocka_unit_test(why_buffer),
		cmocka_unit_test(format_size),
		cmocka_unit_test(format_duration),
		cmocka_unit_test(round_trip),
		cmocka_unit_test(format_truncates),
		cmocka_unit_test(rate_good),
		cmocka_unit_test(rate_bad),
		cmocka_unit_test(format_rate),
		cmocka_unit_test(link_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
