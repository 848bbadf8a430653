/* Unit tests for the programs: section of base/matrix.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "matrix.h"
#include "matrix_command.h"
#include "arrays.h"
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
		{ "name: p\nprograms:\n  a:\n    client: 'x size}'\nmatrix:\n  size: 1\n",
		  "p.yaml:4:13: 'size}': a '}' that closes no placeholder (a literal brace is {{ or }})" },
		{ "name: p\nmatrix:\n  server: [builtin, b@d]\n",
		  "p.yaml:3:21: server: 'b@d' is not a program name" },
	};
	struct matrix m;
	char err[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(load(&m, cases[i].yaml, err, sizeof(err)), -1);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: got '%s', want '%s...'", i, err, cases[i].msg);
	}
}

/* server: and client: as a mapping by transport name: a command each. */
static void test_command_per_transport(void **state)
{
	struct matrix m;
	char err[512], has[64];
	size_t n;

	(void)state;
	if (load(&m, "name: p\n"
		     "programs:\n"
		     "  r:\n"
		     "    server: {unix: [srv, -s, \"{path}\"], tcp: [srv, -p, \"{port}\", -b, x]}\n"
		     "    client:\n"
		     "      tcp: cli -p {port}\n"
		     "matrix:\n"
		     "  transport: [unix, tcp]\n"
		     "  server: r\n"
		     "  client: r\n", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	const struct program *pr = matrix_program(&m, "r");
	assert_non_null(pr);
	assert_int_equal(pr->nserver_by, 2);
	char **w = matrix_program_command(pr, 0, "unix", &n);
	assert_int_equal(n, 3);
	assert_string_equal(w[2], "{path}");
	w = matrix_program_command(pr, 0, "tcp", &n);
	assert_int_equal(n, 5);
	assert_string_equal(w[2], "{port}");
	assert_null(matrix_program_command(pr, 0, "tcp6", &n));
	assert_int_equal(n, 0);
	w = matrix_program_command(pr, 1, "tcp", &n);
	assert_int_equal(n, 3);			/* a string is split into words */
	assert_null(matrix_program_command(pr, 1, "unix", &n));
	matrix_program_transports(pr, 0, has, sizeof has);
	assert_string_equal(has, "unix, tcp");
	matrix_program_transports(pr, 1, has, sizeof has);
	assert_string_equal(has, "tcp");
	matrix_release(&m);

	static const struct bad cases[] = {
		{ "name: p\nprograms:\n  a:\n    client: {unx: [x]}\nmatrix:\n  size: 1\n",
		  "p.yaml:4:14: programs: a: client: unknown transport 'unx'; did you mean 'unix'?" },
		{ "name: p\nprograms:\n  a:\n    server: {}\nmatrix:\n  size: 1\n",
		  "p.yaml:4:13: server: an empty mapping" },
		{ "name: p\nprograms:\n  a:\n    server: {tcp: []}\nmatrix:\n  size: 1\n",
		  "p.yaml:4:19: server: empty command" },
		{ "name: p\nprograms:\n  a:\n    server: {tcp: [x, \"{prot}\"]}\nmatrix:\n  size: 1\n",
		  "p.yaml:4:23: unknown placeholder {prot}; did you mean {port}?" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
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
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
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
		     "'${{x}}', 'a}}b', '{tmp}/srv', '{{{{', '}}}}{size}']\n"
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
	assert_int_equal(a->argc, ARRAY_SIZE(want));
	assert_false(a->overflow);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
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

/* result: per role, and the plain form of a program without a client:
 * its server's; messages and seconds beside the metrics. */
static void test_result_roles(void **state)
{
	struct matrix m;
	char err[512];

	(void)state;
	if (load(&m, "name: p\n"
		     "programs:\n"
		     "  both:\n"
		     "    server: [./recv, \"{port}\", \"{count}\"]\n"
		     "    client: [./send, \"{port}\"]\n"
		     "    result:\n"
		     "      server: {messages: 'got ([0-9]+)', seconds: {regex: 'in ([0-9.]+) ms', unit: ms}}\n"
		     "      client:\n"
		     "        messages: 'sent ([0-9]+)'\n"
		     "        seconds: {regex: 'in ([0-9]+) us', unit: us}\n"
		     "  recv:\n"
		     "    server: ./recv {port}\n"
		     "    result: {msgs_per_s: {regex: 'rate ([0-9.]+)', unit: k/s}, messages: 'n=([0-9]+)'}\n"
		     "  send:\n"
		     "    client: ./send {port}\n"
		     "    result: {sent_msgs_per_s: 'rate ([0-9.]+)'}\n"
		     "matrix:\n"
		     "  pattern: stream\n"
		     "  server: [both, recv]\n"
		     "  client: [both, send]\n", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	const struct program *both = matrix_program(&m, "both"), *recv = matrix_program(&m, "recv");
	const struct program *send = matrix_program(&m, "send");
	assert_int_equal(both->nserver_results, 2);
	assert_int_equal(both->server_results[0].metric, PROGRAM_MESSAGES);
	assert_int_equal(both->server_results[1].metric, PROGRAM_SECONDS);
	assert_float_equal(both->server_results[1].scale, 1e-3, 1e-15);	/* ms -> s */
	assert_int_equal(both->nresults, 2);
	assert_string_equal(both->results[0].regex, "sent ([0-9]+)");
	assert_float_equal(both->results[1].scale, 1e-6, 1e-15);		/* us -> s */
	/* no client: the plain form is the server's */
	assert_int_equal(recv->nresults, 0);
	assert_int_equal(recv->nserver_results, 2);
	assert_string_equal(program_figure_name(recv->server_results[0].metric), "msgs_per_s");
	assert_float_equal(recv->server_results[0].scale, 1e3, 1e-9);
	assert_string_equal(program_figure_name(recv->server_results[1].metric), "messages");
	/* a client's plain form, as before */
	assert_int_equal(send->nserver_results, 0);
	assert_int_equal(send->nresults, 1);
	matrix_release(&m);
}

static void test_result_role_errors(void **state)
{
	static const struct bad cases[] = {
		{ "name: p\nprograms:\n  a:\n    server: x\n    result: {seconds: 'in ([0-9.]+) s'}\n"
		  "matrix:\n  size: 1\n",
		  "p.yaml:5:23: result: seconds without messages: the rate is messages / seconds" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    result: {messages: 'n ([0-9]+)'}\n"
		  "matrix:\n  size: 1\n",
		  "p.yaml:5:24: result: messages without seconds: a client's rate is messages / seconds" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    result:\n      server: {messages: '([0-9]+)'}\n"
		  "matrix:\n  size: 1\n",
		  "p.yaml:6:7: result: server: program a has no server: command" },
		{ "name: p\nprograms:\n  a:\n    result:\n      client: {msgs_per_s: '([0-9]+)'}\n"
		  "    server: x\nmatrix:\n  size: 1\n",
		  "p.yaml:5:7: result: client: program a has no client: command" },
		{ "name: p\nprograms:\n  a:\n    server: x\n    result: {rtt_mean_us: '([0-9]+)'}\n"
		  "matrix:\n  size: 1\n",
		  "p.yaml:5:27: result: rtt_mean_us means nothing for program a's server (a stream "
		  "receiver prints messages and seconds, msgs_per_s or mib_per_s); it has no client:, "
		  "so result: is its server's" },
		{ "name: p\nprograms:\n  a:\n    server: x\n    client: y\n    result:\n"
		  "      server: {sent_msgs_per_s: '([0-9]+)'}\nmatrix:\n  size: 1\n",
		  "p.yaml:7:33: result: sent_msgs_per_s means nothing for program a's server" },
		{ "name: p\nprograms:\n  a:\n    server: x\n    client: y\n    result:\n"
		  "      server: {messages: '([0-9]+)'}\n      msgs_per_s: '([0-9]+)'\nmatrix:\n  size: 1\n",
		  "p.yaml:8:7: result: 'msgs_per_s' beside server:/client:" },
		{ "name: p\nprograms:\n  a:\n    server: x\n    result: {messages: {regex: '([0-9]+)', unit: k}}\n"
		  "matrix:\n  size: 1\n",
		  "p.yaml:5:50: result: messages: a count has no unit" },
		{ "name: p\nprograms:\n  a:\n    server: x\n    result:\n      messages: '([0-9]+)'\n"
		  "      seconds: {regex: '([0-9.]+)', unit: h}\nmatrix:\n  size: 1\n",
		  "p.yaml:7:43: result: seconds: unit 'h' does not fit" },
		{ "name: p\nprograms:\n  a:\n    server: x\n    result:\n      server: 'x'\n"
		  "matrix:\n  size: 1\n",
		  "p.yaml:6:15: result: server: expected a mapping of metric: regex" },
		{ "name: p\nprograms:\n  a:\n    client: x\n    result: {mesages: '([0-9]+)'}\n"
		  "matrix:\n  size: 1\n",
		  "p.yaml:5:14: result: unknown metric 'mesages'; did you mean 'messages'?" },
	};
	struct matrix m;
	char err[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
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
		cmocka_unit_test(test_command_per_transport),
		cmocka_unit_test(test_program_steps_loaded),
		cmocka_unit_test(test_program_step_errors),
		cmocka_unit_test(test_placeholder_escapes),
		cmocka_unit_test(test_step_words_shown),
		cmocka_unit_test(test_result_roles),
		cmocka_unit_test(test_result_role_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
