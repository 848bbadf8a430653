/*
 * fixture: small unit-test binaries that pass, fail, crash, leak and skip
 * on purpose, for the driver's own tests (tests/driver/test_driver.sh).
 * One program; what it does is chosen by the name it runs under
 * (build/fixtures/test_NAME is a link to it), so each case is one line of
 * the Makefile and one entry below.  Built with ASan and UBSan always.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void passes(void **state)
{
	(void)state;
	assert_int_equal(2 + 2, 4);
}

/* A failure whose message is longer than cmocka's 1,023-byte buffer and
 * has no newline: on a shared stream it would swallow the `not ok` line. */
static void fails_long(void **state)
{
	char msg[2000];

	(void)state;
	memset(msg, 'x', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = '\0';
	fail_msg("%s", msg);
}

static void skips(void **state)
{
	(void)state;
	skip();
}

static void killed(void **state)
{
	(void)state;
	raise(SIGKILL);
}

static void quits(void **state)
{
	(void)state;
	fflush(stdout);
	_exit(0);
}

static void *kept;

static void leaks(void **state)
{
	(void)state;
	kept = malloc(100);
	assert_non_null(kept);
	kept = NULL;	/* lost: LeakSanitizer reports it at exit */
}

static void overflows(void **state)
{
	volatile char *p = malloc(8);
	volatile size_t i = 8;

	(void)state;
	assert_non_null((void *)p);
	p[i] = 1;	/* one past the end: AddressSanitizer stops here */
	free((void *)p);
}

static void overflows_int(void **state)
{
	volatile int big = 0x7fffffff;

	(void)state;
	big = big + 1;	/* signed overflow: UndefinedBehaviorSanitizer stops here */
	assert_true(big != 0);
}

#define T(f) cmocka_unit_test(f)

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	(void)argc;
	if (!strcmp(name, "test_pass")) {
		const struct CMUnitTest t[] = { T(passes), T(passes) };
		return cmocka_run_group_tests(t, NULL, NULL);
	}
	if (!strcmp(name, "test_fail")) {
		const struct CMUnitTest t[] = { T(passes), T(fails_long), T(passes) };
		return cmocka_run_group_tests(t, NULL, NULL);
	}
	if (!strcmp(name, "test_skip")) {
		const struct CMUnitTest t[] = { T(passes), T(skips) };
		return cmocka_run_group_tests(t, NULL, NULL);
	}
	if (!strcmp(name, "test_killed")) {
		const struct CMUnitTest t[] = { T(passes), T(killed), T(passes) };
		return cmocka_run_group_tests(t, NULL, NULL);
	}
	if (!strcmp(name, "test_quits")) {
		const struct CMUnitTest t[] = { T(passes), T(quits), T(passes) };
		return cmocka_run_group_tests(t, NULL, NULL);
	}
	if (!strcmp(name, "test_leak")) {
		const struct CMUnitTest t[] = { T(passes), T(leaks) };
		return cmocka_run_group_tests(t, NULL, NULL);
	}
	if (!strcmp(name, "test_overflow")) {
		const struct CMUnitTest t[] = { T(passes), T(overflows) };
		return cmocka_run_group_tests(t, NULL, NULL);
	}
	if (!strcmp(name, "test_ubsan")) {
		const struct CMUnitTest t[] = { T(passes), T(overflows_int) };
		return cmocka_run_group_tests(t, NULL, NULL);
	}
	if (!strcmp(name, "test_noplan")) {	/* TAP results without a plan */
		printf("ok 1 - passes\n");
		return 0;
	}
	if (!strcmp(name, "test_exit1")) {	/* every test ok, and yet exit 1 */
		printf("1..1\nok 1 - passes\n");
		return 1;
	}
	fprintf(stderr, "fixture: unknown name '%s'\n", name);
	return 2;
}
