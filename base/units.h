/*
 * units: the number syntaxes a matrix file and the command line accept.
 *
 * Every parser takes the whole string (no leading or trailing garbage, no
 * sign, no whitespace) and returns 0 on success, or -1 with a short reason
 * written to `why` ("not a number", "too large", "unknown unit 'kb'", ...)
 * that the caller prefixes with the file:line:col or the flag it came from.
 * Zero is accepted by the parsers; whether zero makes sense is the caller's
 * call (a count of zero is an error in a matrix, a warmup of zero is not).
 */
#ifndef MATRIX_UNITS_H
#define MATRIX_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "10", "1K", "1KiB", "4M", "4MiB" (1024-based, case-insensitive unit,
 * optional "B" after K/M/G: "1KB" is 1024 too); "64B" and "64b" are bytes.
 * Fractions are refused.  Overflow of uint64_t is "too large". */
int units_parse_size(const char *s, uint64_t *bytes, char *why, size_t whylen);

/* "250ms", "5s", "2m", "1500us", "100ns"; a bare number is refused
 * ("missing unit: write 5s or 500ms").  Decimal fractions are accepted
 * ("1.5s"), rounded to the nearest nanosecond. */
int units_parse_duration(const char *s, uint64_t *ns, char *why, size_t whylen);

/* A rate per second, as `rate:` is written: "20000/s", "20k/s", "1.5k/s",
 * "1M/s" (units /s, k/s or K/s, M/s: those of a program timeline's rate:,
 * units_rate_factor).  A fraction is fine while the rate stays a whole
 * number per second ("1.5/s" is "not a whole number of requests per
 * second"); a bare number is "missing unit"; above UNITS_MAX_RATE is
 * "too large". */
#define UNITS_MAX_RATE 1000000000ull	/* one request a nanosecond */
int units_parse_rate(const char *s, uint64_t *per_s, char *why, size_t whylen);
/* The factor of a rate unit to per second: "/s" 1, "k/s" and "K/s" 1000,
 * "M/s" 10^6; 0 for anything else. */
uint64_t units_rate_factor(const char *unit);

/* A link's bit rate as tc writes it: "1gbit", "100mbit", "1.5mbit", "64kbit",
 * "9600bit" (units bit kbit mbit gbit tbit, 1000-based, case-insensitive),
 * in bits per second; a bare number is "missing unit". */
#define UNITS_MAX_BITRATE 100000000000000ull	/* 100tbit */
int units_parse_bitrate(const char *s, uint64_t *bits_per_s, char *why, size_t whylen);
/* A percentage "0%", "0.5%", "100%" (at most 100) in millionths of a
 * percent (0.5% is 500000), rounded to the nearest. */
int units_parse_percent(const char *s, uint64_t *millionths, char *why, size_t whylen);

/* Plain non-negative integer, with optional '_' or ',' digit separators
 * refused (YAML 1.1 treats 1_000 oddly; we keep it simple): "500000". */
int units_parse_count(const char *s, uint64_t *n, char *why, size_t whylen);

/* "true"/"false"/"yes"/"no"/"on"/"off" (case-insensitive). */
int units_parse_bool(const char *s, int *b, char *why, size_t whylen);

/* Human formatting for tables and progress: "1KiB", "10B", "1.5MiB"; "5s",
 * "250ms".  Returns buf. */
char *units_format_size(uint64_t bytes, char *buf, size_t len);
char *units_format_duration(uint64_t ns, char *buf, size_t len);
/* A rate per second as units_parse_rate reads it: "500/s", "20k/s",
 * "1.5k/s", "1M/s". */
char *units_format_rate(uint64_t per_s, char *buf, size_t len);

/* A figure of the metric table (vocab.h) for a person, the one format of
 * summary.md and the console: three significant digits ("10.0", "1.23",
 * "123"), rates scaled to k or M ("1.05M msg/s"), times over 1000 µs in ms
 * ("1.14 ms"); "-" for NaN.  Returns buf. */
char *units_format_metric(const char *metric, double v, char *buf, size_t len);
/* The same with its interval, at the median's scale and precision:
 * "54.7 (53.1–61.1) µs", "10.4k (10.0k–11.0k) msg/s", its ends rounded
 * outwards (the printed interval holds the real one); an interval that is
 * NaN (one value, or none) is left out: "5.92k msg/s".  Returns buf. */
/* A rate in bits per second as iperf3 users read it, three significant
 * digits: "1.05 Gbit/s", "840 Mbit/s", "12.0 kbit/s". */
char *units_format_bits(double bits_per_s, char *buf, size_t len);
char *units_format_metric_ci(const char *metric, double median, double lo, double hi,
			     char *buf, size_t len);

#endif
