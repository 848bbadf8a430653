/*
 * Unit tests for base/placement.c, the cpu: key's values: input ->
 * normalized text, input -> a part of the reason, and placements resolved
 * against a runner's allowed CPUs; and the loader's VK_CPU values
 * (base/matrix.c): one number per placement, however it is spelt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "matrix.h"
#include "placement.h"

#include "arrays.h"

/* text -> as placement_format writes it back */
static void parse_good(void **state)
{
	static const struct { const char *in, *want; } t[] = {
		{ "none", "none" },
		{ "same", "same" },
		{ "split", "split" },
		{ "server=0;clients=1", "server=0;clients=1" },
		{ "server=0;clients=1,2", "server=0;clients=1,2" },
		{ "server=0;clients=1,2,3", "server=0;clients=1-3" },
		{ "server=0;clients=3,1-2", "server=0;clients=1-3" },
		{ "server=5,0;clients=1-1,7,8", "server=0,5;clients=1,7,8" },
		{ "server=0-3,5,9-11;clients=0", "server=0-3,5,9-11;clients=0" },
		{ "server=1023;clients=0", "server=1023;clients=0" },
	};
	struct placement pl;
	char why[256], buf[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		if (placement_parse(t[i].in, &pl, why, sizeof(why)) < 0)
			fail_msg("'%s' refused: %s", t[i].in, why);
		placement_format(&pl, buf, sizeof(buf));
		if (strcmp(buf, t[i].want))
			fail_msg("'%s' -> '%s', expected '%s'", t[i].in, buf, t[i].want);
	}
}

static void parse_bad(void **state)
{
	static const struct { const char *in, *why; } t[] = {
		{ "spilt", "did you mean 'split'?" },
		{ "sme", "did you mean 'same'?" },
		{ "anywhere", "unknown placement 'anywhere' (known: none, same, split" },
		{ "{server: [0], clients: [1]}", "outside a matrix file write one value" },
		{ "server=0", "expected server=CPUS;clients=CPUS" },
		{ "clients=1;server=0", "expected server=CPUS;clients=CPUS" },
		{ "server=0;clients=1;x=2", "expected server=CPUS;clients=CPUS" },
		{ "server=;clients=1", "server: no CPU given" },
		{ "server=0;clients=x", "clients: 'x' is not a CPU number" },
		{ "server=0;clients=1,", "an empty item" },
		{ "server=0;clients=,1", "an empty item" },
		{ "server=0;clients=1,,2", "an empty item" },
		{ "server=0;clients=3-1", "range '3-1' goes down" },
		{ "server=0;clients=-1", "'-1' is not a CPU number" },
		{ "server=0;clients=1024", "CPU 1024 is beyond the 1024" },
		{ "server=0;clients=99999999999999999999", "is beyond the 1024" },
		{ "server=0;clients=1x", "'1x' is not a CPU number" },
	};
	struct placement pl;
	char why[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		why[0] = '\0';
		if (placement_parse(t[i].in, &pl, why, sizeof(why)) == 0)
			fail_msg("'%s' accepted", t[i].in);
		if (!strstr(why, t[i].why))
			fail_msg("'%s': reason '%s' lacks '%s'", t[i].in, why, t[i].why);
	}
}

static void resolved(const char *in, const char *allowed_text, const char *want)
{
	struct placement pl, out;
	cpu_set_t allowed;
	char why[256], buf[512];

	CPU_ZERO(&allowed);
	assert_int_equal(cpus_parse(allowed_text, &allowed, why, sizeof(why)), 0);
	assert_int_equal(placement_parse(in, &pl, why, sizeof(why)), 0);
	why[0] = '\0';
	if (placement_resolve(&pl, &allowed, &out, why, sizeof(why)) < 0) {
		if (!strstr(why, want))
			fail_msg("%s on %s: reason '%s' lacks '%s'", in, allowed_text, why, want);
		return;
	}
	placement_format(&out, buf, sizeof(buf));
	if (strcmp(buf, want))
		fail_msg("%s on %s -> '%s', expected '%s'", in, allowed_text, buf, want);
}

static void resolve(void **state)
{
	(void)state;
	resolved("none", "0", "none");
	resolved("same", "0,1", "server=0;clients=0");
	resolved("same", "2-5", "server=2;clients=2");
	resolved("split", "0,1", "server=0;clients=1");
	resolved("split", "1-4", "server=1;clients=2-4");
	resolved("split", "0,2,4", "server=0;clients=2,4");
	resolved("server=1;clients=0", "0,1", "server=1;clients=0");
	resolved("server=0;clients=0", "0", "server=0;clients=0");
	resolved("split", "0", "split needs two CPUs or more, and this runner may use CPU 0 only");
	resolved("server=0;clients=1", "0", "clients' CPU 1 is not one this runner may use "
		 "(allowed: 0");
	resolved("server=3;clients=0", "0-2", "server's CPU 3 is not one this runner may use "
		 "(allowed: 0-2");
}

/* The loader's number: one per placement, whatever its spelling. */
static void values(void **state)
{
	struct mvalue a = { 0 }, b = { 0 }, c = { 0 };
	char why[256];

	(void)state;
	assert_int_equal(matrix_parse_value(VK_CPU, "none", &a, why, sizeof(why)), 0);
	assert_int_equal(a.num, 0);
	free(a.text);
	assert_int_equal(matrix_parse_value(VK_CPU, "split", &a, why, sizeof(why)), 0);
	assert_int_equal(a.num, 2);
	free(a.text);
	assert_int_equal(matrix_parse_value(VK_CPU, "server=0;clients=2,1,3", &a, why,
					    sizeof(why)), 0);
	assert_int_equal(matrix_parse_value(VK_CPU, "server=0;clients=1-3", &b, why,
					    sizeof(why)), 0);
	assert_int_equal(matrix_parse_value(VK_CPU, "server=0;clients=1-2", &c, why,
					    sizeof(why)), 0);
	assert_string_equal(a.text, "server=0;clients=1-3");	/* kept normalized */
	assert_true(a.num == b.num);
	assert_true(a.num != c.num);
	assert_true(a.num >> 63);	/* never 0, 1 or 2 */
	free(a.text);
	free(b.text);
	free(c.text);
	assert_int_equal(matrix_parse_value(VK_CPU, "spilt", &a, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "did you mean 'split'?"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_good),
		cmocka_unit_test(parse_bad),
		cmocka_unit_test(resolve),
		cmocka_unit_test(values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
