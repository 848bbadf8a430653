/* Unit tests for the programs: section of runner/matrix.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "matrix.h"

static int load(struct matrix *m, const char *yaml, char *err, size_t errlen)
{
	return matrix_load_buffer(m, "p.yaml", yaml, strlen(yaml), err, errlen);
}

static void test_programs_loaded(void **state)
{
	struct matrix m;
	char err[512];

	(void)state;
	if (load(&m, "name: p\n"
		     "programs:\n"
		     "  go14:\n"
		     "    server: [./srv, -p, \"{port}\", -r, \"{size}\"]\n"
		     "    client: ./cli -h {host} -p {port} -n {count} -t {transport}\n"
		     "    ready: '^listening'\n"
		     "    result:\n"
		     "      rtt_mean_us: {regex: 'avg rtt ([0-9.]+) ms', unit: ms}\n"
		     "      msgs_per_s: 'rate ([0-9]+)'\n"
		     "matrix:\n"
		     "  transport: [tcp, unix]\n"
		     "  server: [builtin, go14]\n"
		     "  client: go14\n", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.nprograms, 1);
	const struct program *pr = matrix_program(&m, "go14");
	assert_non_null(pr);
	assert_null(matrix_program(&m, "builtin"));
	assert_int_equal(pr->nserver, 5);
	assert_string_equal(pr->server[2], "{port}");
	assert_int_equal(pr->nclient, 9);	/* a string is split into words */
	assert_string_equal(pr->client[8], "{transport}");	/* a key of matrix: */
	assert_string_equal(pr->ready, "^listening");
	assert_int_equal(pr->nresults, 2);
	assert_string_equal(matrix_metrics[pr->results[0].metric], "rtt_mean_us");
	assert_float_equal(pr->results[0].scale, 1000, 1e-9);	/* ms -> us */
	assert_float_equal(pr->results[1].scale, 1, 1e-9);
	const struct dimension *d = matrix_dim(&m, "server");
	assert_int_equal(d->kind, VK_PROGRAM);
	assert_int_equal(d->values[0].num, 0);		/* builtin */
	assert_true(d->values[1].num != 0);
	matrix_release(&m);
}

struct bad {
	const char *yaml, *msg;
};

static void test_program_errors(void **state)
{
	static const struct bad cases[] = {
		{ "name: p\nprograms:\n  builtin:\n    client: x\nmatrix:\n  size: 1\n",
		  "p.yaml:3:3: programs: 'builtin' is the name of matrix's own workers" },
		{ "name: p\nprograms:\n  a:\n    ready: x\nmatrix:\n  size: 1\n",
		  "p.yaml:3:3: programs: a: give a server: or a client: command" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    result:\n      rtt_mean_us: 'no group'\nmatrix:\n  size: 1\n",
		  "p.yaml:6:20: result: rtt_mean_us: the regex needs exactly one group" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    result:\n      rtt_meen_us: '(1)'\nmatrix:\n  size: 1\n",
		  "p.yaml:6:7: result: unknown metric 'rtt_meen_us'; did you mean 'rtt_mean_us'?" },
		{ "name: p\nprograms:\n  a:\n    client: [x, []]\nmatrix:\n  size: 1\n",
		  "p.yaml:4:17: client: each word must be a scalar" },
		{ "name: p\nprograms:\n  a:\n    clinet: x\nmatrix:\n  size: 1\n",
		  "p.yaml:4:5: programs: a: unknown key 'clinet'; did you mean 'client'?" },
		{ "name: p\nprograms:\n  a:\n    client: 'x {size'\nmatrix:\n  size: 1\n",
		  "p.yaml:4:13: '{size': a '{' without a placeholder name and '}'" },
		{ "name: p\nmatrix:\n  server: [builtin, b@d]\n",
		  "p.yaml:3:21: server: 'b@d' is not a program name" },
	};
	struct matrix m;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(load(&m, cases[i].yaml, err, sizeof(err)), -1);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: got '%s', want '%s...'", i, err, cases[i].msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_programs_loaded),
		cmocka_unit_test(test_program_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
