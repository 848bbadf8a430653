/*
 * Unit tests for base/matrix_set.c: --set KEY=VALUE made in a matrix
 * file's text.  Each case is data: a file, the flags, and the whole text
 * expected after them, which must also load to the values asked for; or
 * the message expected, which names the flag when the overridden value is
 * at fault and keeps the file's own line and column otherwise.
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

#include "arrays.h"

static char path[64];

static void write_matrix(const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/matrix-set.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Loads `text` with the flags; 0 or -1 with err. */
static int load_with(const char *text, const char *const *flags, struct matrix *m,
		     struct matrix_sets *s, char *err, size_t errlen)
{
	int rc;

	memset(s, 0, sizeof(*s));
	write_matrix(text);
	for (size_t i = 0; flags[i]; i++)
		if (matrix_sets_add(s, flags[i], err, errlen) < 0) {
			unlink(path);
			return -1;
		}
	rc = matrix_load_sets(m, path, s, err, errlen);
	if (rc < 0)
		assert_null(s->text);	/* nothing left to release */
	return rc;
}

/* The message after the file's path, which the cases cannot know. */
static const char *after_path(const char *err)
{
	return strncmp(err, path, strlen(path)) ? err : err + strlen(path);
}

static void test_overrides_in_the_text(void **state)
{
	static const struct {
		const char *file, *flags[4], *want;
	} cases[] = {
		/* a scalar, a block list (its comments go with it), a key added
		 * at the end of matrix:, a top-level key replaced */
		{ "name: a   # é é\nrepeat: 7\nmatrix:\n  transport:\n    - unix  # x\n    - tcp\n"
		  "  size: 10  # bytes\nexclude: []\n",
		  { "transport=tcp", "count=50", "repeat=2", NULL },
		  "# matrix: --set transport=tcp --set count=50 --set repeat=2 applied to this copy\n"
		  "name: a   # é é\nrepeat: 2\nmatrix:\n  transport: tcp\n  size: 10  # bytes\n"
		  "  count: 50\nexclude: []\n" },
		/* flow mappings and lists; a top-level key added after report:'s
		 * nested block, at the root's indentation; no newline at the end */
		{ "name: b\nmatrix: {transport: [unix, tcp], size: 1KiB}\nreport:\n  ratios:\n"
		  "    - {dimension: transport, numerator: tcp, denominator: unix}",
		  { "size=64", "concurrency=2", "timeout=5s", NULL },
		  "# matrix: --set size=64 --set concurrency=2 --set timeout=5s applied to this copy\n"
		  "name: b\nmatrix: {transport: [unix, tcp], size: 64, concurrency: 2}\nreport:\n"
		  "  ratios:\n    - {dimension: transport, numerator: tcp, denominator: unix}\n"
		  "timeout: 5s\n" },
		/* the last --set of a key wins; a value YAML would misread is quoted */
		{ "name: c\nmatrix:\n  transport: unix\n  count: 5\n",
		  { "count=7", "count=9", "duration=1s", NULL },
		  NULL },
		/* CRLF lines, a block scalar before the key */
		{ "name: d\r\ndescription: |\r\n  two\r\n  lines\r\nwarmup: 3\r\nmatrix:\r\n"
		  "  transport: unix\r\n",
		  { "warmup=0", NULL },
		  "# matrix: --set warmup=0 applied to this copy\nname: d\r\ndescription: |\r\n"
		  "  two\r\n  lines\r\nwarmup: 0\r\nmatrix:\r\n  transport: unix\r\n" },
	};
	char err[1024];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct matrix_sets s;
		struct matrix m;
		if (!cases[i].want) {
			assert_int_equal(load_with(cases[i].file, cases[i].flags, &m, &s, err,
						   sizeof(err)), -1);
			assert_string_equal(err, "--set duration=1s: count and duration are exclusive: "
					    "a cell runs for a count of messages or for a duration");
			unlink(path);
			continue;
		}
		if (load_with(cases[i].file, cases[i].flags, &m, &s, err, sizeof(err)) < 0)
			fail_msg("case %zu: %s", i, err);
		if (strcmp(s.text, cases[i].want))
			fail_msg("case %zu: text\n%s\nexpected\n%s", i, s.text, cases[i].want);
		assert_int_equal(s.len, strlen(s.text));
		assert_string_equal(m.path, path);
		matrix_release(&m);
		matrix_sets_release(&s);
		unlink(path);
	}
}

/* What the edited text loads to: the values asked for, each parsed as the
 * file's would be; a dimension of one value; the others untouched. */
static void test_effective_matrix(void **state)
{
	static const char *const flags[] = { "count=1k", "size=1KiB", "repeat=3", "nodelay=false",
					     "transport=unix_seqpacket", "concurrency=2", "count=2000",
					     NULL };
	struct matrix_sets s;
	struct matrix m;
	char err[1024];

	(void)state;
	if (load_with("name: e\nrepeat: 9\nmatrix:\n  transport: [unix, tcp]\n  size: [10, 20]\n"
		      "  concurrency: [1, 4]\n  count: 100\n", flags, &m, &s, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.repeat, 3);
	assert_int_equal(m.ndims, 5);
	const struct dimension *d = matrix_dim(&m, "size");
	assert_int_equal(d->nvalues, 1);
	assert_int_equal(d->values[0].num, 1024);
	assert_int_equal(matrix_dim(&m, "count")->values[0].num, 2000);
	assert_int_equal(matrix_dim(&m, "concurrency")->values[0].num, 2);
	assert_string_equal(matrix_dim(&m, "transport")->values[0].text, "unix_seqpacket");
	assert_int_equal(matrix_dim(&m, "transport")->nvalues, 1);
	assert_string_equal(m.dims[4].key, "nodelay");	/* added at the end */
	assert_int_equal(m.dims[4].values[0].num, 0);
	char joined[256];
	matrix_sets_join(&s, joined, sizeof(joined));
	assert_string_equal(joined, "--set count=1k --set size=1KiB --set repeat=3 --set "
			    "nodelay=false --set transport=unix_seqpacket --set concurrency=2 "
			    "--set count=2000");
	matrix_release(&m);
	matrix_sets_release(&s);
	unlink(path);
}

static void test_bad_flags(void **state)
{
	static const struct {
		const char *flag, *msg;
	} cases[] = {
		{ "conut=5", "--set conut=5: unknown key 'conut'; did you mean 'count'?" },
		{ "transprot=unix", "--set transprot=unix: unknown key 'transprot'; did you mean "
		  "'transport'?" },
		{ "name=x", "--set name=x: unknown key 'name' (known: repeat, warmup, timeout, "
		  "pattern, transport," },
		{ "count", "--set count: expected KEY=VALUE, such as --set count=1000" },
		{ "=5", "--set =5: expected KEY=VALUE" },
		{ "count=", "--set count=: no VALUE after '='" },
		{ "count=1\n2", "--set count=1...: VALUE holds a control character" },
	};
	struct matrix_sets s = { .n = 0 };
	char err[1024];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(matrix_sets_add(&s, cases[i].flag, err, sizeof(err)), -1);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("%s: got '%s', want '%s...'", cases[i].flag, err, cases[i].msg);
	}
	assert_int_equal(s.n, 0);
	for (int i = 0; i < MATRIX_MAX_SETS; i++)
		assert_int_equal(matrix_sets_add(&s, "count=1", err, sizeof(err)), 0);
	assert_int_equal(matrix_sets_add(&s, "count=1", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "at most 32 --set flags"));
}

/* A bad value is checked where the file would be, and named by its flag. */
static void test_bad_values(void **state)
{
	static const struct {
		const char *flag, *msg;
	} cases[] = {
		{ "count=abc", "--set count=abc: count: invalid count 'abc'" },
		{ "size=0", "--set size=0: size:" },
		{ "transport=unx", "--set transport=unx: transport: unknown transport 'unx'; "
		  "did you mean 'unix'?" },
		{ "transport=a'b c", "--set transport=a'b c: transport: unknown transport 'a'b c'" },
		{ "repeat=-1", "--set repeat=-1: repeat:" },
		{ "timeout=soon", "--set timeout=soon: timeout:" },
		{ "concurrency=5000", "--set concurrency=5000: concurrency: '5000' is too large" },
	};
	char err[1024];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *flags[] = { cases[i].flag, NULL };
		struct matrix_sets s;
		struct matrix m;
		assert_int_equal(load_with("name: f\nmatrix:\n  transport: [unix, tcp]\n  size: 10\n"
					   "  count: 100\n", flags, &m, &s, err, sizeof(err)), -1);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("%s: got '%s', want '%s...'", cases[i].flag, err, cases[i].msg);
		unlink(path);
	}
}

/* Errors elsewhere keep the file's own line and column, after lines the
 * overrides took away or added, and say which overrides were made; the
 * file's own mistakes come first, as without --set. */
static void test_positions_are_the_files(void **state)
{
	static const char *const flags[] = { "transport=tcp", "repeat=2", NULL };
	static const char *const text =
		"name: g\nmatrix:\n  transport:\n    - unix\n    - tcp\n  size: [10, 20]\n"
		"exclude:\n  - {transport: unix, size: 20}\n";
	static const char *const bad = "name: g\nmatrix:\n  transport: unix\n  sise: 10\n";
	struct matrix_sets s;
	struct matrix m;
	struct plan pl;
	char err[1024];

	(void)state;
	assert_int_equal(load_with(text, flags, &m, &s, err, sizeof(err)), -1);
	assert_string_equal(after_path(err), ":8:17: exclude: transport unix is not a value of "
			    "dimension 'transport' (with --set transport=tcp --set repeat=2)");
	unlink(path);
	assert_int_equal(load_with(bad, flags, &m, &s, err, sizeof(err)), -1);
	assert_string_equal(after_path(err), ":4:3: matrix: unknown dimension 'sise'; did you "
			    "mean 'size'?");
	unlink(path);
	/* plan_build's messages: at the value --set wrote, the flag */
	const char *flags2[] = { "concurrency=8", "count=4", NULL };
	if (load_with("name: h\nmatrix:\n  transport: unix\n  count: 100\n  concurrency: 2\n",
		      flags2, &m, &s, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), -1);
	matrix_sets_explain(&s, path, err, sizeof(err));
	assert_string_equal(err, "--set count=4: count 4 is less than concurrency 8: every client "
			    "needs at least one message");
	matrix_release(&m);
	matrix_sets_release(&s);
	unlink(path);
	/* the file's own value, after a line --set added above it */
	const char *flags3[] = { "size=64", NULL };
	if (load_with("name: i\nmatrix:\n  pattern: stream\n  transport: unix\n  inflight: 4\n"
		      "repeat: 2\n", flags3, &m, &s, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(plan_build(&pl, &m, NULL, 0, err, sizeof(err)), -1);
	matrix_sets_explain(&s, path, err, sizeof(err));
	if (strncmp(after_path(err), ":5:13: ", 7) || !strstr(err, "(with --set size=64)"))
		fail_msg("got '%s'", err);
	matrix_release(&m);
	matrix_sets_release(&s);
	unlink(path);
}

/* A change the text cannot take is refused, never made somewhere else. */
static void test_cannot_apply(void **state)
{
	static const char *const flags[] = { "count=5", NULL };
	struct matrix_sets s;
	struct matrix m;
	char err[1024];

	(void)state;
	assert_int_equal(load_with("name: j\nwarmup: &w 10\nmatrix:\n  transport: unix\n  count: *w\n",
				   flags, &m, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--set count=5: cannot make this change in "));
	assert_non_null(strstr(err, "edit the file instead"));
	unlink(path);
	/* no --set: exactly matrix_load, no text */
	const char *none[] = { NULL };
	if (load_with("name: k\nmatrix:\n  transport: unix\n", none, &m, &s, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_null(s.text);
	strcpy(err, "x.yaml:1:1: left alone");
	matrix_sets_explain(&s, "x.yaml", err, sizeof(err));
	assert_string_equal(err, "x.yaml:1:1: left alone");
	matrix_release(&m);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overrides_in_the_text),
		cmocka_unit_test(test_effective_matrix),
		cmocka_unit_test(test_bad_flags),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_positions_are_the_files),
		cmocka_unit_test(test_cannot_apply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
