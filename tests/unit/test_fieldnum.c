/*
 * test_fieldnum: a run folder's field read as a number (base/fieldnum.h):
 * what csv_out writes reads back, and nothing else does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fieldnum.h"
#include "unit.h"

static double read_ok(const char *s, enum fieldnum_kind k)
{
	const char *why = NULL;
	double v;

	if (fieldnum_parse(s, k, &v, &why) != 0)
		fail_msg("'%s' refused: %s", s, why);
	return v;
}

static void refused(const char *s, enum fieldnum_kind k, const char *want)
{
	const char *why = NULL;
	double v;

	if (fieldnum_parse(s, k, &v, &why) != -1)
		fail_msg("'%s' read as %g", s, v);
	if (!strstr(why, want))
		fail_msg("'%s': '%s', expected '%s'", s, why, want);
}

static void test_what_the_writer_writes(void **state)
{
	(void)state;
	EXPECT(read_ok("12", FIELDNUM_WHOLE), 12);
	EXPECT(read_ok("0", FIELDNUM_WHOLE), 0);
	EXPECT(read_ok("190119.1286", FIELDNUM_AMOUNT), 190119.1286);
	EXPECT(read_ok("1.25e+06", FIELDNUM_AMOUNT), 1.25e6);
	EXPECT(read_ok("4.111e-05", FIELDNUM_AMOUNT), 4.111e-05);
	EXPECT(read_ok(".5", FIELDNUM_AMOUNT), 0.5);
	EXPECT(read_ok("5.", FIELDNUM_AMOUNT), 5);
	EXPECT(read_ok("-0.25", FIELDNUM_SIGNED), -0.25);
	EXPECT(read_ok("+3", FIELDNUM_AMOUNT), 3);
	/* "-0" is 0, not a negative */
	assert_false(signbit(read_ok("-0", FIELDNUM_AMOUNT)));
	EXPECT(read_ok("9007199254740991", FIELDNUM_WHOLE), 9007199254740991.0);
	EXPECT(read_ok("1e15", FIELDNUM_WHOLE), 1e15);
}

/* A subnormal is read as the number it is, one smaller still as 0. */
static void test_tiny_numbers(void **state)
{
	(void)state;
	double v = read_ok("1e-320", FIELDNUM_AMOUNT);
	assert_true(v > 0 && v < 1e-300);
	EXPECT(read_ok("1e-400", FIELDNUM_AMOUNT), 0);
	refused("1e400", FIELDNUM_AMOUNT, "too large");
	refused("-1e400", FIELDNUM_SIGNED, "too large");
}

static void test_refused(void **state)
{
	(void)state;
	refused("0x10", FIELDNUM_AMOUNT, "hex");
	refused("0X1f", FIELDNUM_WHOLE, "hex");
	refused("-0x1", FIELDNUM_SIGNED, "hex");
	refused("inf", FIELDNUM_AMOUNT, "not a number");
	refused("nan", FIELDNUM_SIGNED, "not a number");
	refused("infinity", FIELDNUM_AMOUNT, "not a number");
	refused(" 1", FIELDNUM_AMOUNT, "not a number");
	refused("1 ", FIELDNUM_AMOUNT, "not a number");
	refused("1x", FIELDNUM_AMOUNT, "not a number");
	refused("1e", FIELDNUM_AMOUNT, "not a number");
	refused("1e+", FIELDNUM_AMOUNT, "not a number");
	refused(".", FIELDNUM_AMOUNT, "not a number");
	refused("-", FIELDNUM_SIGNED, "not a number");
	refused("1,5", FIELDNUM_AMOUNT, "not a number");
	refused("", FIELDNUM_AMOUNT, "empty");
	refused("-5000000000", FIELDNUM_AMOUNT, "negative");
	refused("-1", FIELDNUM_WHOLE, "negative");
	refused("1.5", FIELDNUM_WHOLE, "not a whole number");
	refused("18446744073709551616", FIELDNUM_WHOLE, "2^53 (9007199254740992) or more");
	refused("1e30", FIELDNUM_WHOLE, "2^53 (9007199254740992) or more");
	refused("9007199254740992", FIELDNUM_WHOLE, "2^53 (9007199254740992) or more");
	refused("9007199254740993", FIELDNUM_WHOLE, "2^53 (9007199254740992) or more");
}

/* The message names the file, line and column, and shows the field. */
static void test_message(void **state)
{
	char err[256];
	double v;

	(void)state;
	assert_int_equal(fieldnum_read("", FIELDNUM_AMOUNT, 1, &v, "d/results.csv", 3, "lost", err,
				       sizeof(err)), 0);
	assert_true(isnan(v));
	assert_int_equal(fieldnum_read("-5", FIELDNUM_AMOUNT, 1, &v, "d/results.csv", 3, "msgs_per_s",
				       err, sizeof(err)), -1);
	assert_string_equal(err, "d/results.csv:3: msgs_per_s '-5' is negative: no such figure is");
	assert_int_equal(fieldnum_read("tcp\n\x01'\\", FIELDNUM_AMOUNT, 0, &v, "f", 1, "c", err,
				       sizeof(err)), -1);
	assert_string_equal(err, "f:1: c 'tcp\\n\\x01\\'\\\\' is not a number (decimal digits only)");
	char buf[256], longer[200];
	memset(longer, 'y', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	fieldnum_show(longer, buf, sizeof(buf));
	assert_int_equal(strlen(buf), 48 + 3);
	assert_string_equal(buf + 48, "...");
	assert_string_equal(fieldnum_show("\xc3\xa9", buf, sizeof(buf)), "\\xc3\\xa9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_the_writer_writes),
		cmocka_unit_test(test_tiny_numbers),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
