/*
 * Unit tests for the socket options of issue 29 (sndbuf, rcvbuf,
 * congestion, mss): their values as the matrix file writes them (auto,
 * sizes with units, names), the refusals at FILE:LINE:COL with what is
 * allowed named, --only, --set and exclude: over them, the buffer the
 * kernel grants and the warning above its cap, and the read-back
 * congestion names joined (wire_name_join).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "matrix.h"
#include "matrix_set.h"
#include "plan.h"
#include "plan_sockopt.h"
#include "wire.h"

#include "arrays.h"

static int load(struct matrix *m, const char *yaml, char *err, size_t errlen)
{
	return matrix_load_buffer(m, "k.yaml", yaml, strlen(yaml), err, errlen);
}

static void load_ok(struct matrix *m, const char *yaml)
{
	char err[512];

	if (load(m, yaml, err, sizeof(err)) < 0)
		fail_msg("load: %s", err);
}

/* A congestion list of the test's own, as the kernel's file reads. */
static char ccfile[64];

static int setup(void **state)
{
	(void)state;
	snprintf(ccfile, sizeof(ccfile), "/tmp/matrix-cc.XXXXXX");
	int fd = mkstemp(ccfile);
	if (fd < 0 || write(fd, "reno cubic\n", 11) != 11)
		return -1;
	close(fd);
	setenv("MATRIX_CONGESTION_FILE", ccfile, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(ccfile);
	unsetenv("MATRIX_CONGESTION_FILE");
	return 0;
}

static void test_values_parse_and_format(void **state)
{
	struct matrix m;
	struct plan pl;
	char err[512], buf[64];

	(void)state;
	load_ok(&m, "name: k\nmatrix:\n  transport: tcp\n  sndbuf: [auto, 64KiB, 1M]\n"
		    "  rcvbuf: 4096\n  congestion: [cubic, reno]\n  mss: [auto, 1000]\n");
	const struct dimension *d = matrix_dim(&m, "sndbuf");
	assert_non_null(d);
	assert_int_equal(d->kind, VK_AUTOSIZE);
	assert_int_equal(d->values[0].num, 0);
	assert_int_equal(d->values[1].num, 65536);
	matrix_format_value(d, &d->values[0], buf, sizeof(buf));
	assert_string_equal(buf, "auto");	/* results.csv's column */
	matrix_format_value(d, &d->values[1], buf, sizeof(buf));
	assert_string_equal(buf, "65536");
	assert_int_equal(matrix_key_kind("congestion"), VK_NAME);
	assert_int_equal(matrix_key_kind("mss"), VK_AUTOSIZE);
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(pl.ncells, 12);
	/* the last key fastest: sndbuf 1M, rcvbuf 4096, reno, mss 1000 */
	const struct cell_params *p = &pl.cells[11].p;
	assert_int_equal(p->sndbuf, 1048576);	/* M is MiB, as size: takes it */
	assert_int_equal(p->rcvbuf, 4096);
	assert_string_equal(p->congestion, "reno");
	assert_int_equal(p->mss, 1000);
	assert_int_equal(pl.cells[0].p.sndbuf, 0);	/* auto: nothing set */
	assert_int_equal(pl.cells[0].p.mss, 0);
	plan_release(&pl);
	matrix_release(&m);
	/* a matrix without them sets nothing */
	load_ok(&m, "name: k\nmatrix:\n  transport: unix\n");
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(pl.cells[0].p.sndbuf + pl.cells[0].p.rcvbuf + pl.cells[0].p.mss, 0);
	assert_null(pl.cells[0].p.congestion);
	plan_release(&pl);
	matrix_release(&m);
}

struct refusal {
	const char *yaml;
	const char *msg;	/* the message's start */
	const char *also;	/* and a part of it further on, or NULL */
};

static void test_bad_values_at_their_place(void **state)
{
	static const struct refusal cases[] = {
		{ "name: k\nmatrix:\n  sndbuf: [auto, lots]\n",
		  "k.yaml:3:18: sndbuf: invalid size 'lots'", NULL },
		{ "name: k\nmatrix:\n  rcvbuf: 0\n",
		  "k.yaml:3:11: rcvbuf: invalid size '0': must be greater than zero", NULL },
		{ "name: k\nmatrix:\n  sndbuf: 2GiB\n",
		  "k.yaml:3:11: sndbuf: '2GiB' is too large: at most 1073741824", NULL },
		{ "name: k\nmatrix:\n  sndbuf: [auto, auto]\n",
		  "k.yaml:3:18: sndbuf: duplicate value 'auto'", NULL },
		{ "name: k\nmatrix:\n  mss: 40000\n",
		  "k.yaml:3:8: mss: '40000' is too large: at most 32767", NULL },
		{ "name: k\nmatrix:\n  congestion: 'cu bic'\n",
		  "k.yaml:3:15: congestion: 'cu bic' is not a name", NULL },
		{ "name: k\nmatrix:\n  congestion: averyveryverylongname\n",
		  "k.yaml:3:15: congestion: 'averyveryverylongname' is not a name: at most 15", NULL },
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

static void test_plan_refusals_name_what_is_allowed(void **state)
{
	static const struct refusal cases[] = {
		{ "name: k\nmatrix:\n  transport: [tcp, pipe]\n  sndbuf: 64KiB\n",
		  "k.yaml:4:11: sndbuf is a socket option (SO_SNDBUF) of tcp, unix, tcp6, udp, "
		  "unix_dgram, unix_seqpacket; ",
		  "transport pipe has no socket of its own (exclude {sndbuf: 64KiB, transport: pipe})" },
		{ "name: k\nmatrix:\n  transport: zmq\n  rcvbuf: 64KiB\n",
		  "k.yaml:4:11: rcvbuf is a socket option (SO_RCVBUF) of ", "(zmq's are libzmq's)" },
		{ "name: k\nmatrix:\n  transport: [tcp, unix]\n  congestion: reno\n",
		  "k.yaml:4:15: congestion is a socket option (TCP_CONGESTION) of tcp, tcp6; "
		  "transport unix has no TCP socket", NULL },
		{ "name: k\nmatrix:\n  transport: udp\n  mss: 1000\n",
		  "k.yaml:4:8: mss is a socket option (TCP_MAXSEG) of tcp, tcp6; transport udp", NULL },
		{ "name: k\nmatrix:\n  transport: tcp\n  mss: [auto, 64]\n",
		  "k.yaml:4:15: mss 64 is below 88, the least TCP_MAXSEG takes", NULL },
		{ "name: k\nprograms:\n  s:\n    server: [s, '{port}']\nmatrix:\n"
		  "  server: [builtin, s]\n  sndbuf: 64KiB\n",
		  "k.yaml:7:11: sndbuf is set on matrix's own workers' sockets; program s opens its "
		  "own (exclude {sndbuf: 64KiB, server: s})", NULL },
		/* the machine's: this test's own list, reno and cubic */
		{ "name: k\nmatrix:\n  transport: tcp\n  congestion: [cubic, renno]\n",
		  "k.yaml:4:23: congestion: 'renno' is not a congestion control this kernel offers (",
		  ": reno cubic; a module may add one: modprobe tcp_NAME); did you mean 'reno'?" },
		{ "name: k\nmatrix:\n  transport: tcp6\n  congestion: bbr\n",
		  "k.yaml:4:15: congestion: 'bbr' is not a congestion control", NULL },
		{ "name: k\nmatrix:\n  transport: unix_dgram\n  size: 8KiB\n  sndbuf: 4KiB\n",
		  "k.yaml:5:11: sndbuf 4096: the kernel grants a 8192-byte send buffer, and a "
		  "unix_dgram message of 8192 bytes must fit it less 32 bytes", NULL },
	};
	struct matrix m;
	struct plan pl;
	char err[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		load_ok(&m, cases[i].yaml);
		assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), -1);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: got '%s', want '%s...'", i, err, cases[i].msg);
		if (cases[i].also && !strstr(err, cases[i].also))
			fail_msg("case %zu: got '%s', want '...%s'", i, err, cases[i].also);
		assert_null(pl.cells);
		matrix_release(&m);
	}
	/* a merge elsewhere asks nothing of this kernel */
	load_ok(&m, "name: k\nmatrix:\n  transport: tcp\n  congestion: bbr\n");
	assert_int_equal(plan_build_elsewhere(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	plan_release(&pl);
	matrix_release(&m);
}

static void test_only_exclude_and_set(void **state)
{
	struct matrix m;
	struct plan pl;
	struct only_filter f[2];
	struct matrix_sets s = { 0 };
	char err[512], path[64];

	(void)state;
	load_ok(&m, "name: k\nmatrix:\n  transport: tcp\n  sndbuf: [auto, 64KiB, 1MiB]\n"
		    "  congestion: [cubic, reno]\nexclude:\n  - {sndbuf: 1MiB, congestion: reno}\n");
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(pl.ncells, 5);
	plan_release(&pl);
	assert_int_equal(plan_parse_only(&m, "sndbuf=2KiB", &f[0], err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sndbuf has no value 2KiB (its values: auto, 64KiB, 1MiB)"));
	assert_int_equal(plan_parse_only(&m, "sndbuf=65536", &f[0], err, sizeof(err)), 0);
	assert_int_equal(plan_parse_only(&m, "congestion=reno", &f[1], err, sizeof(err)), 0);
	assert_int_equal(plan_build(&pl, &m, f, 2, err, sizeof(err)), 0);
	assert_int_equal(pl.ncells, 1);
	assert_int_equal(pl.cells[0].number, 4);
	plan_release(&pl);
	assert_int_equal(plan_parse_only(&m, "sndbuf=auto", &f[0], err, sizeof(err)), 0);
	assert_int_equal(plan_build(&pl, &m, f, 1, err, sizeof(err)), 0);
	assert_int_equal(pl.ncells, 2);
	assert_int_equal(pl.cells[0].p.sndbuf, 0);
	plan_release(&pl);
	matrix_release(&m);

	/* --set: a key the file does not write, and a bad value named at the flag */
	snprintf(path, sizeof(path), "/tmp/matrix-knobs.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "name: k\nmatrix:\n  transport: tcp\n", 33), 33);
	close(fd);
	assert_int_equal(matrix_sets_add(&s, "rcvbuf=[auto, 256KiB]", err, sizeof(err)), 0);
	assert_int_equal(matrix_sets_add(&s, "mss=1000", err, sizeof(err)), 0);
	assert_int_equal(matrix_load_sets(&m, path, &s, err, sizeof(err)), 0);
	assert_int_equal(matrix_dim(&m, "rcvbuf")->nvalues, 2);
	assert_int_equal(matrix_dim(&m, "rcvbuf")->values[1].num, 262144);
	assert_int_equal(matrix_dim(&m, "mss")->values[0].num, 1000);
	matrix_release(&m);
	matrix_sets_release(&s);
	memset(&s, 0, sizeof(s));
	assert_int_equal(matrix_sets_add(&s, "congestion=no way", err, sizeof(err)), 0);
	assert_int_equal(matrix_load_sets(&m, path, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--set congestion=no way"));
	assert_non_null(strstr(err, "is not a name"));
	matrix_sets_release(&s);
	unlink(path);
}

/* /proc/sys/net/core/wmem_max as the kernel has it now (0: unreadable). */
static uint64_t wmem_max(void)
{
	FILE *f = fopen("/proc/sys/net/core/wmem_max", "r");
	unsigned long long v = 0;

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static void test_granted_and_the_cap(void **state)
{
	uint64_t cap, max = wmem_max();
	char msg[512], want[256];

	(void)state;
	assert_int_equal(plan_sockbuf_granted("sndbuf", 65536, &cap), max && 65536 > max ? 2 * max
			 : 131072);
	assert_int_equal(cap, max);
	if (!max)
		skip();
	assert_int_equal(plan_sockbuf_cap("sndbuf", max, msg, sizeof(msg)), 0);
	assert_int_equal(plan_sockbuf_granted("sndbuf", max + 1, &cap), 2 * max);
	assert_int_equal(plan_sockbuf_cap("sndbuf", max + 1, msg, sizeof(msg)), 1);
	snprintf(want, sizeof(want), "is above net.core.wmem_max (%llu): the kernel grants at most "
		 "%llu; raise it with sysctl -w net.core.wmem_max=%llu", (unsigned long long)max,
		 (unsigned long long)(2 * max), (unsigned long long)(max + 1));
	if (!strstr(msg, want) || strncmp(msg, "sndbuf ", 7))
		fail_msg("got '%s', want 'sndbuf ... %s'", msg, want);
}

static void test_names_joined_once(void **state)
{
	char list[16] = "";

	(void)state;
	wire_name_join(list, sizeof(list), "reno");
	wire_name_join(list, sizeof(list), "");
	wire_name_join(list, sizeof(list), "reno");
	assert_string_equal(list, "reno");
	wire_name_join(list, sizeof(list), "cubic");
	wire_name_join(list, sizeof(list), "ren");	/* a prefix is another name */
	assert_string_equal(list, "reno;cubic;ren");
	wire_name_join(list, sizeof(list), "bbr");	/* does not fit: left out */
	assert_string_equal(list, "reno;cubic;ren");
	list[0] = '\0';	/* a list joins name by name */
	wire_name_join(list, sizeof(list), "reno;;cubic");
	wire_name_join(list, sizeof(list), "cubic;bbr");
	assert_string_equal(list, "reno;cubic;bbr");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_parse_and_format),
		cmocka_unit_test(test_bad_values_at_their_place),
		cmocka_unit_test(test_plan_refusals_name_what_is_allowed),
		cmocka_unit_test(test_only_exclude_and_set),
		cmocka_unit_test(test_granted_and_the_cap),
		cmocka_unit_test(test_names_joined_once),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
