/*
 * Unit tests for plan/plan.c: expansion order, exclude, --only, defaults,
 * per-cell checks with their FILE:LINE:COL, labels and worker counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "matrix.h"
#include "arrays.h"
#include "plan.h"

static void load(struct matrix *m, const char *yaml)
{
	char err[512];

	if (matrix_load_buffer(m, "p.yaml", yaml, strlen(yaml), err, sizeof(err)) < 0)
		fail_msg("load: %s", err);
}

static const char *label(const struct plan *pl, size_t i)
{
	static char buf[256];

	plan_cell_label(pl, &pl->cells[i], buf, sizeof(buf));
	return buf;
}

static void test_product_order_first_key_slowest(void **state)
{
	struct matrix m;
	struct plan pl;
	char err[512];

	(void)state;
	load(&m, "name: p\nmatrix:\n  transport: [unix, tcp]\n  size: [10, 1KiB, 4KiB]\n"
		 "  concurrency: [1, 2]\n  count: 10\n");
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(pl.ncells, 12);
	assert_string_equal(label(&pl, 0), "transport=unix size=10 concurrency=1");
	assert_string_equal(label(&pl, 1), "transport=unix size=10 concurrency=2");
	assert_string_equal(label(&pl, 2), "transport=unix size=1KiB concurrency=1");
	assert_string_equal(label(&pl, 11), "transport=tcp size=4KiB concurrency=2");
	for (size_t i = 0; i < pl.ncells; i++)
		assert_int_equal(pl.cells[i].number, i + 1);
	assert_string_equal(pl.cells[11].p.transport->name, "tcp");
	assert_int_equal(pl.cells[11].p.size, 4096);
	assert_int_equal(pl.cells[11].p.concurrency, 2);
	/* 6 cells x (1+1) + 6 x (1+2), x 7 repetitions by default */
	assert_int_equal(plan_worker_runs(&pl), (6 * 2 + 6 * 3) * 7);
	plan_release(&pl);
	matrix_release(&m);
}

static void test_defaults(void **state)
{
	struct matrix m;
	struct plan pl;
	char err[512];

	(void)state;
	load(&m, "name: p\nmatrix:\n  size: 64\n");
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(pl.ncells, 1);
	const struct cell_params *p = &pl.cells[0].p;
	assert_int_equal(p->pattern, PAT_PINGPONG);
	assert_string_equal(p->transport->name, "tcp");
	assert_int_equal(p->response_size, 64);
	assert_int_equal(p->count, PLAN_DEFAULT_COUNT);
	assert_int_equal(p->duration_ns, 0);
	assert_int_equal(p->concurrency, 1);
	assert_int_equal(p->inflight, 1);
	assert_int_equal(p->nodelay, 1);
	assert_int_equal(p->interval_ns, PLAN_DEFAULT_INTERVAL_NS);
	assert_int_equal(p->spin_ns, 0);
	assert_string_equal(label(&pl, 0), "cell 1");	/* no dimension varies */
	plan_release(&pl);
	matrix_release(&m);

	load(&m, "name: p\nmatrix:\n  duration: 2s\n  response_size: 5\n  nodelay: false\n");
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	p = &pl.cells[0].p;
	assert_int_equal(p->count, 0);
	assert_int_equal(p->duration_ns, 2000000000ull);
	assert_int_equal(p->size, PLAN_DEFAULT_SIZE);
	assert_int_equal(p->response_size, 5);
	assert_int_equal(p->nodelay, 0);
	plan_release(&pl);
	matrix_release(&m);
}

/* spin: each cell's own, 0 a value like the others (--only spin=0us). */
static void test_spin(void **state)
{
	struct matrix m;
	struct plan pl;
	struct only_filter f;
	char err[512];

	(void)state;
	load(&m, "name: p\nmatrix:\n  transport: unix\n  spin: [0us, 3us]\n  count: 10\n");
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(pl.ncells, 2);
	assert_int_equal(pl.cells[0].p.spin_ns, 0);
	assert_int_equal(pl.cells[1].p.spin_ns, 3000);
	assert_string_equal(label(&pl, 1), "spin=3us");
	plan_release(&pl);
	assert_int_equal(plan_parse_only(&m, "spin=0ns", &f, err, sizeof(err)), 0);
	assert_int_equal(plan_build(&pl, &m, &f, 1, err, sizeof(err)), 0);
	assert_int_equal(pl.ncells, 1);
	assert_int_equal(pl.cells[0].p.spin_ns, 0);
	plan_release(&pl);
	assert_int_equal(plan_parse_only(&m, "spin=1us", &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "spin has no value 1us (its values: 0us, 3us)"));
	matrix_release(&m);
}

static void test_exclude_keeps_numbers(void **state)
{
	struct matrix m;
	struct plan pl;
	char err[512];

	(void)state;
	load(&m, "name: p\nmatrix:\n  transport: [unix, tcp]\n  size: [10, 1KiB]\n"
		 "  concurrency: [1, 4]\n  count: 100\n"
		 "exclude:\n  - {transport: unix, size: 1KiB, concurrency: 4}\n  - {size: 10, concurrency: 4}\n");
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	/* 8 - 1 (unix,1K,4) - 2 (*,10,4) = 5; numbers are product positions */
	assert_int_equal(pl.ncells, 5);
	unsigned want[] = { 1, 3, 5, 7, 8 };
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(pl.cells[i].number, want[i]);
	plan_release(&pl);
	matrix_release(&m);
}

static void test_only_filters(void **state)
{
	struct matrix m;
	struct plan pl;
	struct only_filter f[3];
	char err[512];

	(void)state;
	load(&m, "name: p\nmatrix:\n  transport: [unix, tcp]\n  size: [10, 1KiB, 4KiB]\n  count: 100\n");
	assert_int_equal(plan_parse_only(&m, "size=1024", &f[0], err, sizeof(err)), 0);
	assert_int_equal(plan_parse_only(&m, "size=4K", &f[1], err, sizeof(err)), 0);
	assert_int_equal(plan_parse_only(&m, "transport=tcp", &f[2], err, sizeof(err)), 0);
	assert_int_equal(plan_build(&pl, &m, f, 3, err, sizeof(err)), 0);
	/* same key: either value; different keys: both */
	assert_int_equal(pl.ncells, 2);
	assert_int_equal(pl.cells[0].number, 5);
	assert_int_equal(pl.cells[1].number, 6);
	plan_release(&pl);

	assert_int_equal(plan_parse_only(&m, "sise=10", &f[0], err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--only sise=10: 'sise' is not a key"));
	assert_non_null(strstr(err, "did you mean 'size'?"));
	assert_int_equal(plan_parse_only(&m, "size=2KiB", &f[0], err, sizeof(err)), -1);
	assert_non_null(strstr(err, "size has no value 2KiB (its values: 10, 1KiB, 4KiB)"));
	assert_int_equal(plan_parse_only(&m, "size", &f[0], err, sizeof(err)), -1);
	assert_non_null(strstr(err, "expected KEY=VALUE"));
	assert_int_equal(plan_parse_only(&m, "size=lots", &f[0], err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--only size=lots: "));
	matrix_release(&m);
}

struct cell_error {
	const char *yaml;
	const char *msg;	/* the whole message's start */
};

static void test_cell_errors_name_the_value(void **state)
{
	static const struct cell_error cases[] = {
		{ "name: p\nmatrix:\n  concurrency: [1, 8]\n  count: [4, 100]\n",
		  "p.yaml:4:11: count 4 is less than concurrency 8" },
		{ "name: p\nmatrix:\n  pattern: [pingpong, echo]\n  response_size: 8\n",
		  "p.yaml:4:18: response_size applies to pattern pingpong only" },
		{ "name: p\nmatrix:\n  pattern: [echo, stream]\n  inflight: 4\n",
		  "p.yaml:4:13: inflight applies to pingpong and echo" },
		{ "name: p\ntimeout: 5s\nmatrix:\n  duration: [1s, 5s]\n",
		  "p.yaml:4:18: duration must be shorter than the timeout (5 s)" },
		{ "name: p\nprograms:\n  s:\n    server: [s, '{port}']\nmatrix:\n"
		  "  server: [builtin, s]\n  spin: 1us\n",
		  "p.yaml:7:9: spin is a busy-wait of matrix's own server; program s cannot" },
		{ "name: p\nmatrix:\n  transport: [unix, zmq]\n  poll: [block, uring]\n",
		  "p.yaml:4:17: poll: uring moves a byte stream's reads and writes through io_uring "
		  "(tcp, tcp6, unix, pipe); transport zmq has no descriptor of its own" },
		{ "name: p\nmatrix:\n  transport: [tcp, unix_dgram]\n  poll: uring\n",
		  "p.yaml:4:9: poll: uring moves a byte stream's reads and writes through io_uring "
		  "(tcp, tcp6, unix, pipe); transport unix_dgram sends messages" },
		{ "name: p\nmatrix:\n  transport: [shm, mq]\n  poll: uring\n",
		  "p.yaml:4:9: poll: uring moves a byte stream's reads and writes through io_uring "
		  "(tcp, tcp6, unix, pipe); transport shm has no descriptor of its own" },
		{ "name: p\nmatrix:\n  pattern: echo\n  inflight: [1, 4]\n  poll: uring\n",
		  "p.yaml:5:9: poll: uring runs one transfer at a time; inflight 4 drives its "
		  "descriptor with poll()" },
		{ "name: p\nmatrix:\n  pattern: [echo, pipeline]\n  poll: uring\n",
		  "p.yaml:4:9: poll: uring gives a connection one ring, used from one thread" },
		{ "name: p\nprograms:\n  s:\n    server: [s, '{port}']\nmatrix:\n"
		  "  server: [builtin, s]\n  poll: uring\n",
		  "p.yaml:7:9: poll: uring is how matrix's own workers move bytes; program s" },
		{ "name: p\nmatrix:\n  size: 1\nexclude:\n  - {size: 1}\n",
		  "p.yaml: every cell is excluded" },
	};
	struct matrix m;
	struct plan pl;
	char err[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		load(&m, cases[i].yaml);
		assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), -1);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: got '%s', want '%s...'", i, err, cases[i].msg);
		assert_null(pl.cells);
		matrix_release(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_product_order_first_key_slowest),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_spin),
		cmocka_unit_test(test_exclude_keeps_numbers),
		cmocka_unit_test(test_only_filters),
		cmocka_unit_test(test_cell_errors_name_the_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
