/*
 * Unit tests for base/matrix_hosts.c: a host's identity.  ssh://h and
 * ssh://h:22 are one host (ssh's default port), and so are ssh://H and
 * ssh://h (DNS names have no case); ssh://root@h and ssh://h are not (the
 * user picks the account), nor is ssh://h:22 beside ssh: words that choose
 * another port.  Then the two readers of meta.csv that ask "one host?"
 * (report_cross_host, compare_fingerprint), on old folders' values too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "matrix.h"
#include "report.h"
#include "unit.h"

#include "arrays.h"

/* Loads a matrix whose hosts: block has the lines `hosts` (two-space
 * indented), failing the test when it does not load. */
static void load_hosts(struct matrix *m, const char *hosts)
{
	char yaml[2048], err[512];

	snprintf(yaml, sizeof(yaml), "name: t\nmatrix:\n  transport: [tcp]\nhosts:\n%s", hosts);
	if (matrix_load_buffer(m, "t.yaml", yaml, strlen(yaml), err, sizeof(err)) < 0)
		fail_msg("%s: %s", yaml, err);
}

struct url_case {
	const char *hosts;		/* the hosts: block's lines */
	const char *server, *client;	/* their urls; NULL: local */
};

static void test_url_canonical(void **state)
{
	static const struct url_case cases[] = {
		{ "  server: ssh://root@127.0.0.1:22\n  client: ssh://root@127.0.0.1\n",
		  "ssh://root@127.0.0.1", "ssh://root@127.0.0.1" },
		{ "  server: ssh://Lab-1.Example.ORG\n  client: ssh://lab-1.example.org:022\n",
		  "ssh://lab-1.example.org", "ssh://lab-1.example.org" },
		/* another port stays; the user, with its case, too */
		{ "  server: ssh://root@h:2222\n  client: ssh://Root@H:2222\n",
		  "ssh://root@h:2222", "ssh://Root@h:2222" },
		{ "  server: ssh://root@h\n  client: ssh://h\n", "ssh://root@h", "ssh://h" },
		{ "  server: ssh://[FE80::1]:22\n  client: ssh://u@[::1]:2200\n",
		  "ssh://[fe80::1]", "ssh://u@[::1]:2200" },
		{ "  server: local\n  client: ssh://h:22\n  server_address: 10.0.0.1\n", NULL,
		  "ssh://h" },
		/* ssh: words that choose the port: a URL without one is not
		 * port 22, so :22 is kept, whichever key comes first */
		{ "  ssh: [-p, 2200]\n  server: ssh://h:22\n  client: ssh://h\n", "ssh://h:22",
		  "ssh://h" },
		{ "  server: ssh://h:22\n  client: ssh://h\n  ssh: [-oPort=2200]\n", "ssh://h:22",
		  "ssh://h" },
		{ "  server: ssh://h:22\n  client: ssh://h\n  ssh: [-o, port 2200]\n", "ssh://h:22",
		  "ssh://h" },
		{ "  server: ssh://h:22\n  client: ssh://h\n  ssh: [-p2200]\n", "ssh://h:22", "ssh://h" },
		/* other options do not */
		{ "  server: ssh://h:22\n  client: ssh://h\n  ssh: [-o, PortForwarding=no, -F, /x]\n",
		  "ssh://h", "ssh://h" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct matrix m;
		load_hosts(&m, cases[i].hosts);
		const struct host_url *s = matrix_remote_host(&m, 0), *c = matrix_remote_host(&m, 1);
		const char *gs = s ? s->url : NULL, *gc = c ? c->url : NULL;
		if ((gs == NULL) != (cases[i].server == NULL) || (gs && strcmp(gs, cases[i].server)) ||
		    (gc == NULL) != (cases[i].client == NULL) || (gc && strcmp(gc, cases[i].client)))
			fail_msg("%s: server %s, client %s; expected %s, %s", cases[i].hosts,
				 gs ? gs : "local", gc ? gc : "local",
				 cases[i].server ? cases[i].server : "local",
				 cases[i].client ? cases[i].client : "local");
		matrix_release(&m);
	}
}

/* The parts stay as written: ssh is run with them (-p 22 when written). */
static void test_parts_as_written(void **state)
{
	struct matrix m;

	(void)state;
	load_hosts(&m, "  server: ssh://bench@Lab:22\n  client: ssh://lab\n");
	assert_string_equal(m.hosts.server.host, "Lab");
	assert_string_equal(m.hosts.server.user, "bench");
	assert_int_equal(m.hosts.server.port, 22);
	assert_int_equal(m.hosts.client.port, 0);
	assert_string_equal(m.hosts.client.user, "");
	matrix_release(&m);
}

struct same_case {
	const char *a, *b;
	int same;
};

static void test_meta_values_same(void **state)
{
	static const struct same_case cases[] = {
		{ "local", "local", 1 },
		{ "local", "ssh://h", 0 },
		{ "ssh://h", "ssh://h:22", 1 },		/* an old folder's :22 */
		{ "ssh://root@H:22", "ssh://root@h", 1 },
		{ "ssh://root@h", "ssh://h", 0 },
		{ "ssh://h:2222", "ssh://h", 0 },
		{ "ssh://h:2222", "ssh://H:2222", 1 },
		{ "ssh://[::1]:22", "ssh://[::1]", 1 },
		{ "ssh://h", "ssh://h2", 0 },
		{ "", "", 1 },				/* a folder without hosts: */
		{ "not a url", "not a url", 1 },
		{ "not a url", "ssh://h", 0 },
		{ "ssh://U@Host.Example:22", "ssh://U@host.example", 1 },
		{ "ssh://u@h", "ssh://U@h", 0 },
		{ "ssh://h:22", "ssh://h:220", 0 },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (host_url_same(cases[i].a, cases[i].b) != cases[i].same ||
		    host_url_same(cases[i].b, cases[i].a) != cases[i].same)
			fail_msg("'%s' and '%s': expected %s", cases[i].a, cases[i].b,
				 cases[i].same ? "one host" : "two");
}

/* A hand-made report of no cells whose meta.csv has these pairs. */
static void hand_report(struct report *r, const char *dir, const char *const *kv, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->dir = (char *)dir;
	r->meta = calloc(n / 2, sizeof(*r->meta));
	assert_non_null(r->meta);
	for (size_t i = 0; i + 1 < n; i += 2) {
		r->meta[i / 2].key = (char *)kv[i];
		r->meta[i / 2].value = (char *)kv[i + 1];
	}
	r->nmeta = n / 2;
}

static void test_reports_ask_one_host(void **state)
{
	static const char *const older[] = { "server_host", "ssh://root@Lab:22", "client_host",
					     "ssh://root@lab" };
	static const char *const newer[] = { "server_host", "ssh://root@lab", "client_host",
					     "ssh://root@lab" };
	static const char *const two[] = { "server_host", "ssh://root@lab", "client_host",
					   "local" };
	char dir[512], out[2048];
	struct report a, b, c;

	(void)state;
	assert_int_equal(unit_tmpdir(dir, sizeof(dir), "hosts"), 0);
	unit_write_file(dir, "matrix.yaml", "name: t\n");
	hand_report(&a, dir, older, ARRAY_SIZE(older));
	hand_report(&b, dir, newer, ARRAY_SIZE(newer));
	hand_report(&c, dir, two, ARRAY_SIZE(two));
	/* an old folder's server on ssh://root@Lab:22, its clients on
	 * ssh://root@lab: one host, no upper bounds */
	assert_int_equal(report_cross_host(&a), 0);
	assert_int_equal(report_cross_host(&b), 0);
	assert_int_equal(report_cross_host(&c), 1);
	/* and the same machine as a new folder's canonical URL */
	if (compare_fingerprint(&a, &b, out, sizeof(out)))
		fail_msg("old and new folders of one host differ:\n%s", out);
	assert_int_equal(compare_fingerprint(&b, &c, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "client_host: ssh://root@lab vs local"));
	free(a.meta);
	free(b.meta);
	free(c.meta);
	assert_int_equal(unit_remove_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_url_canonical),
		cmocka_unit_test(test_parts_as_written),
		cmocka_unit_test(test_meta_values_same),
		cmocka_unit_test(test_reports_ask_one_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
