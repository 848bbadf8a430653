/* Unit tests for the programs: section of runner/matrix.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "matrix.h"
#include "plan.h"
#include "program.h"
#include "setup.h"

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

/* setup: and teardown: in each form: one command as a string or a list
 * of words, or a list of commands (lists or strings). */
static void test_program_steps_loaded(void **state)
{
	struct matrix m;
	char err[512];

	(void)state;
	if (load(&m, "name: p\n"
		     "programs:\n"
		     "  one:\n"
		     "    setup: go build -o {tmp}/srv srv.go\n"
		     "    teardown: [rm, -f, \"{tmp}/x\"]\n"
		     "    server: [\"{tmp}/srv\", \"{port}\"]\n"
		     "  many:\n"
		     "    setup:\n"
		     "      - [go, build, -o, \"{tmp}/srv\", srv.go]\n"
		     "      - javac -d {tmp} Client.java\n"
		     "      - [sh, -c, 'awk \"{{print $1}}\" <x >\"$0/y\"', \"{tmp}\"]\n"
		     "    client: [sh, -c, 'echo ${{x}}']\n"
		     "matrix:\n"
		     "  server: one\n"
		     "  client: many\n", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	const struct program *one = matrix_program(&m, "one"), *many = matrix_program(&m, "many");
	assert_int_equal(one->nsetup, 1);
	assert_int_equal(one->setup[0].argc, 5);
	assert_string_equal(one->setup[0].argv[3], "{tmp}/srv");
	assert_int_equal(one->setup[0].pos.line, 4);
	assert_int_equal(one->nteardown, 1);
	assert_int_equal(one->teardown[0].argc, 3);
	assert_string_equal(one->teardown[0].argv[2], "{tmp}/x");
	assert_int_equal(many->nsetup, 3);
	assert_int_equal(many->setup[0].argc, 5);
	assert_int_equal(many->setup[1].argc, 4);	/* a string, split */
	assert_string_equal(many->setup[1].argv[0], "javac");
	assert_int_equal(many->setup[1].pos.line, 10);
	assert_string_equal(many->setup[2].argv[2], "awk \"{{print $1}}\" <x >\"$0/y\"");
	assert_int_equal(many->nteardown, 0);
	assert_null(many->teardown);
	matrix_release(&m);
}

static void test_program_step_errors(void **state)
{
	static const struct bad cases[] = {
		{ "name: p\nprograms:\n  a:\n    client: x\n    setup: []\nmatrix:\n  size: 1\n",
		  "p.yaml:5:12: setup: empty command" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    setup: ''\nmatrix:\n  size: 1\n",
		  "p.yaml:5:12: setup: empty command" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    teardown: [[a], []]\nmatrix:\n  size: 1\n",
		  "p.yaml:5:21: teardown: empty command" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    setup:\nmatrix:\n  size: 1\n",
		  "p.yaml:5:5: setup: empty command" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    setup: [[go, {a: b}]]\nmatrix:\n  size: 1\n",
		  "p.yaml:5:18: setup: each word must be a scalar" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    setup: [[go], {a: b}]\nmatrix:\n  size: 1\n",
		  "p.yaml:5:19: setup: each step must be a list of words or a string" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    setup: {a: b}\nmatrix:\n  size: 1\n",
		  "p.yaml:5:12: setup: expected a list of words or a string" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    setup: [go, run, \"{port}\"]\nmatrix:\n  size: 1\n",
		  "p.yaml:5:22: setup: {port}: setup: and teardown: steps run once, outside any cell: "
		  "{tmp} is their only placeholder" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    teardown: rm {size}.txt\nmatrix:\n  size: 1\n",
		  "p.yaml:5:15: teardown: {size}: setup: and teardown: steps run once" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    setup: [sh, -c, 'echo {tmp']\nmatrix:\n  size: 1\n",
		  "p.yaml:5:21: 'echo {tmp': a '{' without a placeholder name and '}' (a literal brace is {{ or }})" },
		{ "name: p\nprograms:\n  a:\n    client: [x, \"{tmpp}\"]\nmatrix:\n  size: 1\n",
		  "p.yaml:4:17: unknown placeholder {tmpp}; did you mean {tmp}?" },
		{ "name: p\nprograms:\n  a:\n    client: [x, \"{}\"]\nmatrix:\n  size: 1\n",
		  "p.yaml:4:17: '{}': a '{' without a placeholder name" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    setpu: y\nmatrix:\n  size: 1\n",
		  "p.yaml:5:5: programs: a: unknown key 'setpu'; did you mean 'setup'?" },
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

/* {{ and }} are literal braces in what the loader takes and in the argv
 * a program gets; {tmp} is the run's private folder. */
static void test_placeholder_escapes(void **state)
{
	static const char *const want[] = {
		"{", "}", "{size}", "{64}", "awk '{print $1}'", "${x}", "a}b",
		"/tmp/matrix.Ab12Cd/srv", "{{", "}}64",
	};
	struct matrix m;
	struct plan pl;
	char err[512];

	(void)state;
	if (load(&m, "name: p\n"
		     "programs:\n"
		     "  p:\n"
		     "    client: ['{{', '}}', '{{size}}', '{{{size}}}', \"awk '{{print $1}}'\", "
		     "'${{x}}', 'a}b', '{tmp}/srv', '{{{{', '}}}}{size}']\n"
		     "matrix:\n"
		     "  transport: unix\n"
		     "  size: 64\n"
		     "  client: p\n", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	struct server_addr sa = { .tmp = "/tmp/matrix.Ab12Cd" };
	struct spawn_argv *a = calloc(1, sizeof(*a));
	assert_non_null(a);
	program_argv(&m, &pl.cells[0], &sa, matrix_program(&m, "p"), 1, a);
	assert_int_equal(a->argc, sizeof(want) / sizeof(want[0]));
	assert_false(a->overflow);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(a->argv[i], want[i]);
	/* {{host}} is no {host}: a unix cell takes it */
	assert_false(matrix_word_uses("{{host}}", "host"));
	assert_true(matrix_word_uses("x{{{host}}}", "host"));
	assert_true(matrix_word_uses("{tmp}/a", "tmp"));
	free(a);
	plan_release(&pl);
	matrix_release(&m);
}

/* A step's words as the console, the errors and `matrix plan` show them. */
static void test_step_words_shown(void **state)
{
	char *const w[] = { "go", "build", "-o", "{tmp}/my srv", "it's", "" };
	char buf[64], small[16];

	(void)state;
	setup_format_words(w, 6, buf, sizeof(buf));
	assert_string_equal(buf, "go build -o '{tmp}/my srv' 'it'\\''s' ''");
	setup_format_words(w, 6, small, sizeof(small));
	assert_string_equal(small, "go build -o ...");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_programs_loaded),
		cmocka_unit_test(test_program_errors),
		cmocka_unit_test(test_program_steps_loaded),
		cmocka_unit_test(test_program_step_errors),
		cmocka_unit_test(test_placeholder_escapes),
		cmocka_unit_test(test_step_words_shown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
