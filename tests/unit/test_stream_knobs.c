/*
 * Unit tests of zerocopy: and batch: (issue 29): their values (parsing,
 * FILE:LINE:COL), their defaults, and the plan's refusals where they do
 * not apply, each naming the transports or the pattern they apply to.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arrays.h"
#include "matrix.h"
#include "plan.h"

#include <sys/socket.h>

static void load(struct matrix *m, const char *yaml)
{
	char err[512];

	if (matrix_load_buffer(m, "k.yaml", yaml, strlen(yaml), err, sizeof(err)) < 0)
		fail_msg("load: %s", err);
}

static void test_values_refused_at_their_place(void **state)
{
	static const struct { const char *yaml, *msg; } cases[] = {
		{ "name: k\nmatrix:\n  zerocopy: maybe\n",
		  "k.yaml:3:13: zerocopy: invalid boolean 'maybe'" },
		{ "name: k\nmatrix:\n  batch: 0\n",
		  "k.yaml:3:10: batch: invalid count '0': must be greater than zero" },
		{ "name: k\nmatrix:\n  batch: [1, 2000]\n",
		  "k.yaml:3:14: batch: '2000' is too large: at most 1024" },
		{ "name: k\nmatrix:\n  batch: lots\n", "k.yaml:3:10: batch: invalid count 'lots'" },
	};
	struct matrix m;
	char err[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(matrix_load_buffer(&m, "k.yaml", cases[i].yaml,
						    strlen(cases[i].yaml), err, sizeof(err)), -1);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: got '%s', want '%s...'", i, err, cases[i].msg);
	}
}

static void test_defaults_and_values(void **state)
{
	struct matrix m;
	struct plan pl;
	char err[512];

	(void)state;
	load(&m, "name: k\nmatrix:\n  transport: [tcp, udp]\n  pattern: [pingpong, stream]\n");
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	for (size_t i = 0; i < pl.ncells; i++) {
		assert_int_equal(pl.cells[i].p.zerocopy, 0);
		assert_int_equal(pl.cells[i].p.batch, 1);
	}
	plan_release(&pl);
	matrix_release(&m);
	/* the defaults' values are allowed anywhere; the others where they
	 * apply, the rest excluded */
	load(&m, "name: k\nmatrix:\n  transport: [tcp, tcp6, udp, unix_dgram]\n  pattern: stream\n"
		 "  zerocopy: [false, true]\n  batch: [1, 8]\nexclude:\n"
		 "  - {transport: udp, zerocopy: true}\n  - {transport: unix_dgram, zerocopy: true}\n"
		 "  - {transport: tcp, batch: 8}\n  - {transport: tcp6, batch: 8}\n");
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(pl.ncells, 8);
	unsigned zc = 0, batched = 0;
	for (size_t i = 0; i < pl.ncells; i++) {
		const struct cell_params *p = &pl.cells[i].p;
		zc += p->zerocopy;
		batched += p->batch == 8;
		if (p->zerocopy)
			assert_int_equal(p->transport->socktype, SOCK_STREAM);
		if (p->batch == 8)
			assert_int_equal(p->transport->socktype, SOCK_DGRAM);
	}
	assert_int_equal(zc, 2);
	assert_int_equal(batched, 2);
	plan_release(&pl);
	matrix_release(&m);
}

static void test_refused_where_they_do_not_apply(void **state)
{
	static const struct { const char *yaml, *msg; } cases[] = {
		{ "name: k\nmatrix:\n  transport: [tcp, udp]\n  pattern: stream\n  zerocopy: true\n",
		  "k.yaml:5:13: zerocopy: true (MSG_ZEROCOPY) applies to transports tcp and tcp6, "
		  "not udp (exclude {transport: udp, zerocopy: true})" },
		{ "name: k\nmatrix:\n  transport: unix\n  pattern: stream\n  zerocopy: [false, true]\n",
		  "k.yaml:5:21: zerocopy: true (MSG_ZEROCOPY) applies to transports tcp and tcp6, "
		  "not unix" },
		{ "name: k\nmatrix:\n  pattern: [stream, pingpong]\n  zerocopy: true\n",
		  "k.yaml:4:13: zerocopy: true applies to pattern stream only (a sender's writes), "
		  "not pingpong" },
		{ "name: k\nprograms:\n  c:\n    client: [c, '{port}']\nmatrix:\n  pattern: stream\n"
		  "  client: c\n  zerocopy: true\n",
		  "k.yaml:8:13: zerocopy: true is matrix's own stream sender's; program c" },
		{ "name: k\nmatrix:\n  transport: tcp\n  pattern: stream\n  batch: [1, 8]\n",
		  "k.yaml:5:14: batch: 8 (sendmmsg/recvmmsg) applies to transports udp and "
		  "unix_dgram, not tcp (exclude {transport: tcp, batch: 8})" },
		{ "name: k\nmatrix:\n  transport: unix_seqpacket\n  pattern: stream\n  batch: 4\n",
		  "k.yaml:5:10: batch: 4 (sendmmsg/recvmmsg) applies to transports udp and "
		  "unix_dgram, not unix_seqpacket" },
		{ "name: k\nmatrix:\n  transport: udp\n  pattern: pingpong\n  batch: 4\n",
		  "k.yaml:5:10: batch: 4 applies to pattern stream only" },
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
		matrix_release(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_refused_at_their_place),
		cmocka_unit_test(test_defaults_and_values),
		cmocka_unit_test(test_refused_where_they_do_not_apply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
