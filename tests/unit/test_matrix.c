/*
 * Unit tests for base/matrix.c.  Error cases are data: a YAML text, the
 * "FILE:LINE:COL:" the message must start with, and a part of the message.
 */
#include <errno.h>
#include <math.h>
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
#include "suggest.h"
#include "transport.h"

#include "arrays.h"
#define S 1000000000ull

static int load(struct matrix *m, const char *yaml, char *err, size_t errlen)
{
	return matrix_load_buffer(m, "t.yaml", yaml, strlen(yaml), err, errlen);
}

/* The index of a transport the registry must have. */
static uint64_t transport_index(const char *name)
{
	const struct transport *t = transport_find(name);

	assert_non_null(t);
	for (size_t i = 0; i < transport_count(); i++)
		if (transport_at(i) == t)
			return i;
	fail_msg("transport '%s' found but not listed", name);
	return 0;
}

struct error_case {
	const char *yaml;
	const char *where;	/* "t.yaml:L:C: " */
	const char *msg;	/* a part of what follows */
};

#define HEAD "name: t\n"
#define M(body) HEAD "matrix:\n" body

static const struct error_case error_cases[] = {
	/* the document */
	{ "", "t.yaml:1:1: ", "empty matrix file" },
	{ "# only a comment\n", "t.yaml:1:1: ", "empty matrix file" },
	{ "- a\n- b\n", "t.yaml:1:1: ", "expected a mapping" },
	{ "just text\n", "t.yaml:1:1: ", "expected a mapping" },
	{ M("  size: 1\n") "---\nname: u\n", "t.yaml:5:1: ", "one YAML document" },
	{ M("  size: 1\n") "---\n- [\n", "t.yaml:", "did not find expected" },
	/* libyaml's own errors, at its mark */
	{ "name: t\n  b: c\n", "t.yaml:2:4: ",
	  "mapping values are not allowed in this context" },
	{ "name: t\nmatrix: {size: [1, 2}\n", "t.yaml:2:21: ",
	  "did not find expected ',' or ']'" },
	{ "name: \"t\n", "t.yaml:2:1: ", "found unexpected end of stream" },
	{ "name: t\nmatrix:\n\tsize: 1\n", "t.yaml:3:1: ",
	  "found character that cannot start any token" },
	{ "name: t\nmatrix: {size: *a}\n", "t.yaml:2:16: ", "undefined alias" },
	{ "name: t\xff\n", "t.yaml:1:8: ", "invalid leading UTF-8 octet" },
	/* top-level keys */
	{ M("  size: 1\n") "repat: 3\n", "t.yaml:4:1: ",
	  "unknown key 'repat'; did you mean 'repeat'?" },
	{ M("  size: 1\n") "Name: x\n", "t.yaml:4:1: ",
	  "unknown key 'Name'; did you mean 'name'?" },
	{ M("  size: 1\n") "colour: red\n", "t.yaml:4:1: ",
	  "unknown key 'colour' (known: name, description, repeat" },
	{ M("  size: 1\n") "name: u\n", "t.yaml:4:1: ",
	  "duplicate key 'name' (first at line 1)" },
	{ M("  size: 1\n") "? [a]\n: b\n", "t.yaml:4:3: ",
	  "expected a plain key, not a list" },
	{ "matrix: {size: 1}\n", "t.yaml:1:1: ", "missing required key 'name'" },
	{ "name: t\n", "t.yaml:1:1: ", "missing required key 'matrix'" },
	{ "description: d\nname: t\n", "t.yaml:1:1: ",
	  "missing required key 'matrix'" },
	{ "name:\nmatrix: {size: 1}\n", "t.yaml:1:1: ", "name: must not be empty" },
	{ "name: ''\nmatrix: {size: 1}\n", "t.yaml:1:7: ",
	  "name: must not be empty" },
	{ "name: a b\nmatrix: {size: 1}\n", "t.yaml:1:7: ",
	  "name: 'a b' may only contain letters, digits" },
	{ "name: a/b\nmatrix: {size: 1}\n", "t.yaml:1:7: ", "may only contain" },
	{ "name: [a]\nmatrix: {size: 1}\n", "t.yaml:1:7: ",
	  "name: expected a scalar, not a list" },
	{ HEAD "description: {a: b}\nmatrix: {size: 1}\n", "t.yaml:2:14: ",
	  "description: expected a scalar, not a mapping" },
	{ M("  size: 1\n") "repeat: 0\n", "t.yaml:4:9: ",
	  "repeat: invalid count '0': must be greater than zero" },
	{ M("  size: 1\n") "repeat: -1\n", "t.yaml:4:9: ", "must not be negative" },
	{ M("  size: 1\n") "repeat: 1.5\n", "t.yaml:4:9: ", "not a whole number" },
	{ M("  size: 1\n") "repeat: 100001\n", "t.yaml:4:9: ",
	  "repeat: at most 100000" },
	{ M("  size: 1\n") "repeat:\n", "t.yaml:4:1: ", "repeat: missing value" },
	{ M("  size: 1\n") "repeat: [1]\n", "t.yaml:4:9: ", "expected a scalar" },
	{ M("  size: 1\n") "warmup: -1\n", "t.yaml:4:9: ",
	  "warmup: invalid count '-1': must not be negative" },
	{ M("  size: 1\n") "warmup: 1_000\n", "t.yaml:4:9: ", "separators" },
	{ M("  size: 1\n") "warmup:\n", "t.yaml:4:1: ", "warmup: missing value" },
	{ M("  size: 1\n") "timeout: 5\n", "t.yaml:4:10: ",
	  "timeout: invalid duration '5': missing unit" },
	{ M("  size: 1\n") "timeout: 0s\n", "t.yaml:4:10: ",
	  "must be greater than zero" },
	{ M("  size: 1\n") "timeout: 5 minutes\n", "t.yaml:4:10: ",
	  "unknown unit ' minutes'" },
	/* matrix: */
	{ HEAD "matrix:\n", "t.yaml:2:1: ", "matrix: must not be empty" },
	{ HEAD "matrix: {}\n", "t.yaml:2:9: ", "matrix: must not be empty" },
	{ HEAD "matrix: [size]\n", "t.yaml:2:9: ", "matrix: expected a mapping" },
	{ HEAD "matrix: size\n", "t.yaml:2:9: ", "matrix: expected a mapping" },
	{ M("  sise: 1\n"), "t.yaml:3:3: ",
	  "matrix: unknown dimension 'sise'; did you mean 'size'?" },
	{ M("  concurency: 1\n"), "t.yaml:3:3: ", "did you mean 'concurrency'?" },
	{ M("  colour: red\n"), "t.yaml:3:3: ",
	  "unknown dimension 'colour' (known: pattern, transport, size" },
	{ M("  size: 1\n  size: 2\n"), "t.yaml:4:3: ",
	  "duplicate key 'size' (first at line 3)" },
	{ M("  count: 5\n  duration: 1s\n"), "t.yaml:4:3: ",
	  "count and duration are exclusive: a cell runs for a count of messages or for a duration" },
	{ M("  duration: 1s\n  size: 1\n  count: 5\n"), "t.yaml:5:3: ",
	  "count and duration are exclusive" },
	/* values */
	{ M("  size:\n"), "t.yaml:3:3: ", "size: missing value" },
	{ M("  size: []\n"), "t.yaml:3:9: ", "size: empty list" },
	{ M("  size: [1, [2]]\n"), "t.yaml:3:13: ",
	  "size: expected a scalar or a list of scalars" },
	{ M("  size: [1, {a: 2}]\n"), "t.yaml:3:13: ",
	  "expected a scalar or a list of scalars" },
	{ M("  size: {a: 1}\n"), "t.yaml:3:9: ",
	  "expected a scalar or a list of scalars" },
	{ M("  size:\n    - 1\n    -\n"), "t.yaml:5:6: ", "size: missing value" },
	{ M("  size: [1, \"\"]\n"), "t.yaml:3:13: ", "size: missing value" },
	{ M("  size: [10, 1KiB, 1024]\n"), "t.yaml:3:20: ",
	  "size: duplicate value '1024' (same as '1KiB' at line 3)" },
	{ M("  size:\n    - 1024\n    - 1KiB\n"), "t.yaml:5:7: ",
	  "duplicate value '1KiB' (same as '1024' at line 4)" },
	{ M("  size: [\"10\", 10]\n"), "t.yaml:3:16: ", "duplicate value '10' (same as '10' at line 3)" },
	{ M("  nodelay: [yes, true]\n"), "t.yaml:3:18: ",
	  "duplicate value 'true' (same as 'yes'" },
	{ M("  transport: [tcp, tcp]\n"), "t.yaml:3:20: ", "duplicate value 'tcp'" },
	{ M("  interval: [1s, 1000ms]\n"), "t.yaml:3:18: ",
	  "duplicate value '1000ms' (same as '1s' at line 3)" },
	{ M("  size: 0\n"), "t.yaml:3:9: ",
	  "size: invalid size '0': must be greater than zero" },
	{ M("  response_size: 0B\n"), "t.yaml:3:18: ",
	  "response_size: invalid size '0B': must be greater than zero" },
	{ M("  count: 0\n"), "t.yaml:3:10: ", "must be greater than zero" },
	{ M("  duration: 0ms\n"), "t.yaml:3:13: ", "must be greater than zero" },
	{ M("  interval: 0s\n"), "t.yaml:3:13: ", "must be greater than zero" },
	{ M("  inflight: 0\n"), "t.yaml:3:13: ", "must be greater than zero" },
	{ M("  concurrency: [1, 0]\n"), "t.yaml:3:20: ",
	  "must be greater than zero" },
	{ M("  size: -1\n"), "t.yaml:3:9: ", "must not be negative" },
	{ M("  size: 1.5K\n"), "t.yaml:3:9: ",
	  "size: invalid size '1.5K': fractions are not allowed" },
	{ M("  size: 18446744073709551616\n"), "t.yaml:3:9: ", "too large" },
	{ M("  size: 1XB\n"), "t.yaml:3:9: ", "unknown unit 'XB'" },
	{ M("  count: 1.5\n"), "t.yaml:3:10: ", "not a whole number" },
	{ M("  count: 1K\n"), "t.yaml:3:10: ", "invalid count '1K'" },
	{ M("  count: 18446744073709551616\n"), "t.yaml:3:10: ", "too large" },
	{ M("  concurrency: 1025\n"), "t.yaml:3:16: ",
	  "concurrency: '1025' is too large: at most 1024" },
	{ M("  inflight: 1025\n"), "t.yaml:3:13: ", "inflight: '1025' is too large: at most 1024" },
	{ M("  duration: 5\n"), "t.yaml:3:13: ",
	  "duration: invalid duration '5': missing unit: write 5s or 500ms" },
	{ M("  interval: 1 s\n"), "t.yaml:3:13: ", "unknown unit ' s'" },
	{ M("  nodelay: maybe\n"), "t.yaml:3:12: ",
	  "nodelay: invalid boolean 'maybe': expected true/false" },
	{ M("  nodelay: 1\n"), "t.yaml:3:12: ", "invalid boolean '1'" },
	{ M("  pattern: pingpon\n"), "t.yaml:3:12: ",
	  "pattern: unknown pattern 'pingpon'; did you mean 'pingpong'?" },
	{ M("  pattern: [echo, Stream]\n"), "t.yaml:3:19: ",
	  "unknown pattern 'Stream'; did you mean 'stream'?" },
	{ M("  pattern: rpc\n"), "t.yaml:3:12: ",
	  "unknown pattern 'rpc' (known: pingpong, echo, stream, pipeline)" },
	{ M("  poll: [block, epoll]\n"), "t.yaml:3:17: ",
	  "poll: unknown poll 'epoll' (known: block, busy, uring)" },
	{ M("  poll: urnig\n"), "t.yaml:3:9: ", "unknown poll 'urnig'; did you mean 'uring'?" },
	{ M("  direction: both\n"), "t.yaml:3:14: ",
	  "direction: unknown direction 'both' (known: one, bidir)" },
	{ M("  direction: [one, bidr]\n"), "t.yaml:3:20: ",
	  "unknown direction 'bidr'; did you mean 'bidir'?" },
	{ M("  transport: tpc\n"), "t.yaml:3:14: ",
	  "transport: unknown transport 'tpc'; did you mean 'tcp'?" },
	{ M("  transport: [unix, carrier-pigeon]\n"), "t.yaml:3:21: ",
	  "unknown transport 'carrier-pigeon' (known: " },
	/* exclude: */
	{ M("  size: [1, 2]\n") "exclude: {size: 1}\n", "t.yaml:4:10: ",
	  "exclude: expected a list of mappings" },
	{ M("  size: [1, 2]\n") "exclude: 3\n", "t.yaml:4:10: ",
	  "exclude: expected a list of mappings" },
	{ M("  size: [1, 2]\n") "exclude:\n  - 1\n", "t.yaml:5:5: ",
	  "exclude: each entry must be a mapping" },
	{ M("  size: [1, 2]\n") "exclude:\n  - [size, 1]\n", "t.yaml:5:5: ",
	  "each entry must be a mapping" },
	{ M("  size: [1, 2]\n") "exclude:\n  - {}\n", "t.yaml:5:5: ",
	  "exclude: empty rule" },
	{ M("  size: [1, 2]\n") "exclude:\n  - {sise: 1}\n", "t.yaml:5:6: ",
	  "exclude: 'sise' is not a dimension of this matrix; did you mean 'size'?" },
	{ M("  size: [1, 2]\n") "exclude:\n  - {transport: tcp}\n", "t.yaml:5:6: ",
	  "exclude: 'transport' is not a dimension of this matrix (dimensions: size)" },
	{ M("  size: [1, 2]\n") "exclude:\n  - {size: 1, size: 2}\n", "t.yaml:5:15: ",
	  "duplicate key 'size' (first at line 5)" },
	{ M("  size: [1, 2]\n") "exclude:\n  - {size: [1]}\n", "t.yaml:5:12: ",
	  "exclude: size: expected a scalar, not a list" },
	{ M("  size: [1, 2]\n") "exclude:\n  - {size: 2KiB}\n", "t.yaml:5:12: ",
	  "exclude: size 2KiB is not a value of dimension 'size'" },
	{ M("  size: [1, 2]\n") "exclude:\n  - {size: 1.5K}\n", "t.yaml:5:12: ",
	  "exclude: size: invalid size '1.5K': fractions are not allowed" },
	{ M("  size: [1, 2]\n") "exclude:\n  - size:\n", "t.yaml:5:5: ",
	  "exclude: size: missing value" },
	{ M("  size: [1, 2]\n  transport: [tcp, unix]\n")
	  "exclude:\n  - size: 1\n    transport: tpc\n", "t.yaml:7:16: ",
	  "unknown transport 'tpc'; did you mean 'tcp'?" },
	/* exclude: is checked against matrix: wherever it is written */
	{ "exclude:\n  - {size: 3}\n" M("  size: [1, 2]\n"), "t.yaml:2:12: ",
	  "not a value of dimension 'size'" },
	{ "exclude:\n  - {size: 1}\nname: t\n", "t.yaml:1:1: ",
	  "missing required key 'matrix'" },
	/* report: compare: */
#define AB M("  transport: [tcp, unix]\n") "report:\n  compare: "
	{ AB "[tcp]\n", "t.yaml:5:12: ", "compare: expected a mapping with dimension:" },
	{ AB "{dimension: transprt, baseline: tcp, candidate: unix}\n", "t.yaml:5:24: ",
	  "compare: unknown dimension 'transprt'; did you mean 'transport'?" },
	{ AB "{dimension: transport, baseline: tcp}\n", "t.yaml:5:12: ",
	  "compare: missing candidate:" },
	{ AB "{dimension: transport, baseline: tcp, candidate: tcp}\n", "t.yaml:5:61: ",
	  "compare: baseline and candidate are the same value" },
	{ AB "{dimension: transport, baseline: tcp, candidate: udp}\n", "t.yaml:5:61: ",
	  "candidate: udp is not a value of dimension 'transport'" },
	{ AB "{dimension: transport, baseline: tcp, candidate: unix, threshold: 5}\n",
	  "t.yaml:5:78: ", "compare: threshold: '5' is not a percentage such as 5%" },
	{ AB "{dimension: transport, baseline: tcp, candidate: unix, metric: x}\n",
	  "t.yaml:5:67: ", "compare: unknown key 'metric'" },
#undef AB
	/* a name of dots would be a folder of its own: ./STAMP, results/ */
	{ "name: ..\nmatrix:\n  size: 1\n", "t.yaml:1:7: ",
	  "name: '..' is made of dots only; give it a letter or a digit" },
	{ "name: .\nmatrix:\n  size: 1\n", "t.yaml:1:7: ", "name: '.' is made of dots only" },
	/* repeat: auto */
	{ "repeat: {min: 9, max: 5}\n" M("  size: 1\n"), "t.yaml:1:9: ",
	  "repeat: min 9 is above max 5" },
	{ "repeat: {width: 5}\n" M("  size: 1\n"), "t.yaml:1:17: ",
	  "repeat: width: '5' is not a percentage such as 5%" },
	{ "repeat: {mn: 5}\n" M("  size: 1\n"), "t.yaml:1:10: ",
	  "repeat: unknown key 'mn'; did you mean 'min'?" },
	{ "repeat: {max: 0}\n" M("  size: 1\n"), "t.yaml:1:15: ",
	  "max: invalid count '0': must be greater than zero" },
	{ "repeat: {max: 100001}\n" M("  size: 1\n"), "t.yaml:1:15: ",
	  "repeat: max: between 1 and 100000" },
	{ "repeat: automatic\n" M("  size: 1\n"), "t.yaml:1:9: ", "repeat:" },
};

static int check_error_case(const struct error_case *c)
{
	struct matrix m;
	char err[512] = "";
	int rc = load(&m, c->yaml, err, sizeof err);

	if (rc == 0) {
		matrix_release(&m);
		print_error("--- loaded, want error '%s%s':\n%s", c->where,
			    c->msg, c->yaml);
		return 1;
	}
	if (rc != -1 || strncmp(err, c->where, strlen(c->where)) ||
	    !strstr(err + strlen(c->where), c->msg)) {
		print_error("--- got '%s', want '%s...%s':\n%s", err, c->where,
			    c->msg, c->yaml);
		return 1;
	}
	if (strchr(err, '\n') || m.name || m.dims || m.excludes || m.path) {
		print_error("--- not one line, or not released: %s\n", err);
		return 1;
	}
	return 0;
}

static void errors(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(error_cases); i++)
		failed += check_error_case(&error_cases[i]);
	assert_int_equal(failed, 0);
}

/* report: compare: an in-run A/B along a dimension. */
static void compare_spec(void **state)
{
	struct matrix m;
	char err[512];

	(void)state;
	if (load(&m, M("  size: [64, 1KiB]\n  transport: [tcp, unix]\n")
		 "report:\n  compare: {dimension: size, baseline: 1KiB, candidate: 64, "
		 "threshold: 2.5%}\n", err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_true(m.report.compare.set);
	assert_int_equal(m.report.compare.dim, 0);
	assert_int_equal(m.report.compare.baseline.num, 1024);
	assert_string_equal(m.report.compare.baseline.text, "1KiB");
	assert_int_equal(m.report.compare.candidate.num, 64);
	assert_true(fabs(m.report.compare.threshold - 0.025) < 1e-12);
	matrix_release(&m);
	if (load(&m, M("  size: 64\n"), err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_false(m.report.compare.set);	/* none asked for */
	matrix_release(&m);
}

/* repeat: auto, and its mapping form. */
static void repeat_auto(void **state)
{
	struct matrix m;
	char err[512];

	(void)state;
	if (load(&m, "repeat: auto\n" M("  size: 1\n"), err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.repeat_min, MATRIX_AUTO_MIN);
	assert_int_equal(m.repeat, MATRIX_AUTO_MAX);
	assert_true(m.repeat_width == MATRIX_AUTO_WIDTH);
	matrix_release(&m);
	if (load(&m, "repeat: {min: 4, max: 9, width: 2.5%}\n" M("  size: 1\n"), err,
		 sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.repeat_min, 4);
	assert_int_equal(m.repeat, 9);
	assert_true(fabs(m.repeat_width - 0.025) < 1e-12);
	matrix_release(&m);
	if (load(&m, "repeat: 5\n" M("  size: 1\n"), err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(m.repeat_min, 0);	/* a fixed number */
	assert_int_equal(m.repeat, 5);
	matrix_release(&m);
}

static const char full_example[] =
	"name: af_unix_vs_inet\n"
	"description: Unix domain sockets against TCP on loopback\n"
	"repeat: 5\n"
	"warmup: 0\n"
	"timeout: 90s\n"
	"matrix:\n"
	"  pattern: echo\n"
	"  transport: [unix, tcp]\n"
	"  size: [10, 1KiB]\n"
	"  response_size: 1KiB\n"
	"  concurrency: [1, 4]\n"
	"  count: 500000\n"
	"  inflight: 1\n"
	"  nodelay: true\n"
	"  interval: 1s\n"
	"exclude:\n"
	"  - {transport: unix, size: 1KiB}\n";

static void full(void **state)
{
	struct matrix m;
	char err[512] = "";
	const struct dimension *d;

	(void)state;
	assert_int_equal(load(&m, full_example, err, sizeof err), 0);
	assert_string_equal(m.path, "t.yaml");
	assert_string_equal(m.name, "af_unix_vs_inet");
	assert_string_equal(m.description,
			    "Unix domain sockets against TCP on loopback");
	assert_int_equal(m.repeat, 5);
	assert_int_equal(m.warmup, 0);
	assert_int_equal(m.timeout_ns, 90 * S);
	assert_int_equal(m.repeat_pos.line, 3);
	assert_int_equal(m.repeat_pos.col, 9);
	assert_int_equal(m.warmup_pos.line, 4);
	assert_int_equal(m.timeout_pos.line, 5);
	assert_int_equal(m.ndims, 9);

	/* in the order written */
	static const char *const keys[] = { "pattern", "transport", "size",
		"response_size", "concurrency", "count", "inflight", "nodelay",
		"interval" };
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		assert_string_equal(m.dims[i].key, keys[i]);
		assert_int_equal(m.dims[i].kind, matrix_key_kind(keys[i]));
		assert_int_equal(m.dims[i].pos.line, 7 + (int)i);
		assert_int_equal(m.dims[i].pos.col, 3);
	}

	d = matrix_dim(&m, "pattern");
	assert_ptr_equal(d, &m.dims[0]);
	assert_int_equal(d->kind, VK_PATTERN);
	assert_false(d->is_list);
	assert_int_equal(d->nvalues, 1);
	assert_int_equal(d->values[0].num, PAT_ECHO);

	d = matrix_dim(&m, "transport");
	assert_true(d->is_list);
	assert_int_equal(d->nvalues, 2);
	assert_string_equal(d->values[0].text, "unix");
	assert_int_equal(d->values[0].num, transport_index("unix"));
	assert_int_equal(d->values[1].num, transport_index("tcp"));
	assert_int_equal(d->values[1].pos.line, 8);
	assert_int_equal(d->values[1].pos.col, 21);

	d = matrix_dim(&m, "size");
	assert_int_equal(d->values[0].num, 10);
	assert_int_equal(d->values[1].num, 1024);
	assert_string_equal(d->values[1].text, "1KiB");
	assert_int_equal(matrix_dim(&m, "response_size")->values[0].num, 1024);
	assert_int_equal(matrix_dim(&m, "concurrency")->values[1].num, 4);
	assert_int_equal(matrix_dim(&m, "count")->values[0].num, 500000);
	assert_int_equal(matrix_dim(&m, "inflight")->values[0].num, 1);
	assert_int_equal(matrix_dim(&m, "nodelay")->values[0].num, 1);
	assert_int_equal(matrix_dim(&m, "interval")->values[0].num, S);
	assert_null(matrix_dim(&m, "duration"));

	assert_int_equal(m.nexcludes, 1);
	assert_int_equal(m.excludes[0].pos.line, 17);
	assert_int_equal(m.excludes[0].pos.col, 5);
	assert_int_equal(m.excludes[0].nterms, 2);
	assert_int_equal(m.excludes[0].terms[0].dim, 1);
	assert_int_equal(m.excludes[0].terms[0].value.num,
			 transport_index("unix"));
	assert_int_equal(m.excludes[0].terms[1].dim, 2);
	assert_int_equal(m.excludes[0].terms[1].value.num, 1024);
	assert_string_equal(m.excludes[0].terms[1].value.text, "1KiB");
	assert_int_equal(m.excludes[0].terms[1].value.pos.line, 17);
	assert_int_equal(m.excludes[0].terms[1].value.pos.col, 29);

	matrix_release(&m);
	assert_null(m.dims);
	assert_null(m.name);
	matrix_release(&m);	/* twice is harmless */
}

static void defaults(void **state)
{
	struct matrix m;
	char err[512] = "";

	(void)state;
	assert_int_equal(load(&m, "name: a.b-c_1\nmatrix:\n  size: 64B\n",
			      err, sizeof err), 0);
	assert_string_equal(m.name, "a.b-c_1");
	assert_string_equal(m.description, "");
	assert_int_equal(m.repeat, MATRIX_DEFAULT_REPEAT);
	assert_int_equal(m.warmup, MATRIX_DEFAULT_WARMUP);
	assert_int_equal(m.timeout_ns, MATRIX_DEFAULT_TIMEOUT_NS);
	assert_int_equal(m.repeat_pos.line, 0);
	assert_int_equal(m.warmup_pos.col, 0);
	assert_int_equal(m.timeout_pos.line, 0);
	assert_int_equal(m.ndims, 1);
	assert_false(m.dims[0].is_list);
	assert_int_equal(m.dims[0].values[0].num, 64);
	assert_int_equal(m.nexcludes, 0);
	assert_null(m.excludes);
	matrix_release(&m);
}

/* spin: a duration that may be 0 (the other durations may not), in
 * seconds in results.csv like every duration. */
static void spin_key(void **state)
{
	struct matrix m;
	char err[512] = "", buf[32];

	(void)state;
	assert_int_equal(matrix_key_kind("spin"), VK_DURATION);
	assert_int_equal(load(&m, "name: s\nmatrix:\n  spin: [0us, 3us, 1.5ms]\n", err,
			      sizeof err), 0);
	const struct dimension *d = matrix_dim(&m, "spin");
	assert_non_null(d);
	assert_int_equal(d->kind, VK_DURATION);
	assert_int_equal(d->nvalues, 3);
	assert_int_equal(d->values[0].num, 0);
	assert_int_equal(d->values[1].num, 3000);
	assert_int_equal(d->values[2].num, 1500000);
	matrix_format_value(d, &d->values[0], buf, sizeof buf);
	assert_string_equal(buf, "0");
	matrix_format_value(d, &d->values[1], buf, sizeof buf);
	assert_string_equal(buf, "3e-06");
	matrix_release(&m);

	assert_int_equal(load(&m, "name: s\nmatrix:\n  spin: 0s\n", err, sizeof err), 0);
	assert_int_equal(matrix_dim(&m, "spin")->values[0].num, 0);
	matrix_release(&m);
	/* --only and --compare parse values without a key: 0 is a duration */
	struct mvalue v = { 0 };
	assert_int_equal(matrix_parse_value(VK_DURATION, "0us", &v, err, sizeof err), 0);
	assert_int_equal(v.num, 0);
	free(v.text);

	assert_int_equal(load(&m, "name: s\nmatrix:\n  spin: [0us, 0ns]\n", err, sizeof err), -1);
	assert_string_equal(err, "t.yaml:3:15: spin: duplicate value '0ns' (same as '0us' at line 3)");
	assert_int_equal(load(&m, "name: s\nmatrix:\n  spin: 5\n", err, sizeof err), -1);
	assert_string_equal(err, "t.yaml:3:9: spin: invalid duration '5': missing unit: write 5s "
			    "or 500ms");
	assert_int_equal(load(&m, "name: s\nmatrix:\n  loss_timeout: [1ms, 0us]\n", err,
			      sizeof err), -1);
	assert_string_equal(err, "t.yaml:3:23: loss_timeout: invalid duration '0us': must be "
			    "greater than zero");
}

/* Flow and block lists, quoted scalars, a list of one, an empty exclude. */
static void lists_and_quotes(void **state)
{
	static const char yaml[] =
		"matrix:\n"
		"  size:\n"
		"    - \"10\"\n"
		"    - '1K'\n"
		"    - 4MiB\n"
		"  concurrency: [1]\n"
		"  nodelay: [\"on\", off]\n"
		"  duration: '1.5s'\n"
		"  transport: \"tcp\"\n"
		"name: \"quoted\"\n"
		"description:\n"
		"exclude: []\n";
	struct matrix m;
	char err[512] = "";
	const struct dimension *d;

	(void)state;
	assert_int_equal(load(&m, yaml, err, sizeof err), 0);
	assert_string_equal(m.name, "quoted");
	assert_string_equal(m.description, "");
	d = matrix_dim(&m, "size");
	assert_true(d->is_list);
	assert_int_equal(d->nvalues, 3);
	assert_string_equal(d->values[0].text, "10");
	assert_int_equal(d->values[0].num, 10);
	assert_int_equal(d->values[0].pos.line, 3);
	assert_int_equal(d->values[0].pos.col, 7);
	assert_int_equal(d->values[1].num, 1024);
	assert_int_equal(d->values[2].num, 4u << 20);
	d = matrix_dim(&m, "concurrency");
	assert_true(d->is_list);
	assert_int_equal(d->nvalues, 1);
	d = matrix_dim(&m, "nodelay");
	assert_int_equal(d->values[0].num, 1);
	assert_int_equal(d->values[1].num, 0);
	assert_int_equal(matrix_dim(&m, "duration")->values[0].num, 1500000000);
	assert_int_equal(matrix_dim(&m, "transport")->values[0].num,
			 transport_index("tcp"));
	assert_int_equal(m.nexcludes, 0);
	matrix_release(&m);
}

/* Block-style exclude entries, several rules, every kind of value. */
static void excludes(void **state)
{
	static const char yaml[] =
		"name: x\n"
		"matrix:\n"
		"  pattern: [pingpong, stream]\n"
		"  size: [1K, 1M]\n"
		"  duration: [1s, 2s]\n"
		"  nodelay: [yes, no]\n"
		"exclude:\n"
		"  - pattern: stream\n"
		"    size: 1024\n"
		"  - {duration: 2000ms}\n"
		"  - nodelay: off\n";
	struct matrix m;
	char err[512] = "";

	(void)state;
	assert_int_equal(load(&m, yaml, err, sizeof err), 0);
	assert_int_equal(m.nexcludes, 3);
	assert_int_equal(m.excludes[0].nterms, 2);
	assert_int_equal(m.excludes[0].pos.line, 8);
	assert_int_equal(m.excludes[0].terms[0].dim, 0);
	assert_int_equal(m.excludes[0].terms[0].value.num, PAT_STREAM);
	assert_int_equal(m.excludes[0].terms[1].dim, 1);
	assert_int_equal(m.excludes[0].terms[1].value.num, 1024);
	assert_string_equal(m.excludes[0].terms[1].value.text, "1024");
	assert_int_equal(m.excludes[1].terms[0].dim, 2);
	assert_int_equal(m.excludes[1].terms[0].value.num, 2 * S);
	assert_int_equal(m.excludes[2].terms[0].dim, 3);
	assert_int_equal(m.excludes[2].terms[0].value.num, 0);
	matrix_release(&m);
}

/* An exclude that comes before matrix: and an exclude: with no value. */
static void exclude_order(void **state)
{
	struct matrix m;
	char err[512] = "";

	(void)state;
	assert_int_equal(load(&m, "exclude:\n  - {size: 2}\nname: x\n"
				  "matrix: {size: [1, 2]}\n", err, sizeof err), 0);
	assert_int_equal(m.nexcludes, 1);
	assert_int_equal(m.excludes[0].terms[0].value.num, 2);
	matrix_release(&m);
	assert_int_equal(load(&m, "name: x\nmatrix: {size: 1}\nexclude:\n",
			      err, sizeof err), 0);
	assert_int_equal(m.nexcludes, 0);
	matrix_release(&m);
}

/* Anchors and aliases are YAML; they work as copies. */
static void aliases(void **state)
{
	struct matrix m;
	char err[512] = "";

	(void)state;
	assert_int_equal(load(&m, "name: x\nmatrix:\n  size: &s [1, 2]\n"
				  "  response_size: *s\n", err, sizeof err), 0);
	assert_int_equal(matrix_dim(&m, "response_size")->nvalues, 2);
	matrix_release(&m);
}

static void err_buffer(void **state)
{
	struct matrix m;
	char err[16];

	(void)state;
	memset(err, 'x', sizeof err);
	assert_int_equal(load(&m, "name: t\nrepat: 1\n", err, sizeof err), -1);
	assert_int_equal(err[sizeof err - 1], '\0');
	assert_int_equal(strncmp(err, "t.yaml:2:1: ", 12), 0);
	assert_int_equal(load(&m, "name: t\nrepat: 1\n", NULL, 0), -1);
}

static void parse_value(void **state)
{
	struct mvalue v = { 0 };
	char why[256];

	(void)state;
	assert_int_equal(matrix_parse_value(VK_SIZE, "1KiB", &v, why, sizeof why), 0);
	assert_int_equal(v.num, 1024);
	assert_string_equal(v.text, "1KiB");
	free(v.text);
	assert_int_equal(matrix_parse_value(VK_BOOL, "off", &v, why, sizeof why), 0);
	assert_int_equal(v.num, 0);
	free(v.text);
	assert_int_equal(matrix_parse_value(VK_PATTERN, "stream", &v, why,
					    sizeof why), 0);
	assert_int_equal(v.num, PAT_STREAM);
	free(v.text);
	assert_int_equal(matrix_parse_value(VK_TRANSPORT, "unix", &v, why,
					    sizeof why), 0);
	assert_int_equal(v.num, transport_index("unix"));
	free(v.text);

	v.text = NULL;
	assert_int_equal(matrix_parse_value(VK_COUNT, "0", &v, why, sizeof why), -1);
	assert_string_equal(why, "invalid count '0': must be greater than zero");
	assert_null(v.text);
	assert_int_equal(matrix_parse_value(VK_DURATION, "5", &v, why, sizeof why), -1);
	assert_string_equal(why,
		"invalid duration '5': missing unit: write 5s or 500ms");
	assert_int_equal(matrix_parse_value(VK_SIZE, "", &v, why, sizeof why), -1);
	assert_string_equal(why, "missing value");
	assert_int_equal(matrix_parse_value(VK_TRANSPORT, "tpc", &v, why,
					    sizeof why), -1);
	assert_string_equal(why, "unknown transport 'tpc'; did you mean 'tcp'?");
	assert_int_equal(matrix_parse_value(VK_PATTERN, "ehco", &v, why,
					    sizeof why), -1);
	assert_string_equal(why, "unknown pattern 'ehco'; did you mean 'echo'?");
	assert_null(v.text);
}

/* rate: a rate per second, or unpaced (0); record: full or totals. */
static void parse_rate_and_record(void **state)
{
	struct mvalue v = { 0 };
	struct dimension d = { .kind = VK_RATE };
	char why[256], buf[32];

	(void)state;
	assert_int_equal(matrix_key_kind("rate"), VK_RATE);
	assert_int_equal(matrix_key_kind("record"), VK_RECORD);
	assert_int_equal(matrix_parse_value(VK_RATE, "1.5k/s", &v, why, sizeof why), 0);
	assert_int_equal(v.num, 1500);
	matrix_format_value(&d, &v, buf, sizeof buf);
	assert_string_equal(buf, "1500");	/* per second in results.csv */
	free(v.text);
	assert_int_equal(matrix_parse_value(VK_RATE, "unpaced", &v, why, sizeof why), 0);
	assert_int_equal(v.num, 0);
	free(v.text);
	v.text = NULL;
	assert_int_equal(matrix_parse_value(VK_RATE, "0k/s", &v, why, sizeof why), -1);
	assert_string_equal(why, "invalid rate '0k/s': must be greater than zero (unpaced: as "
			    "fast as it goes)");
	assert_int_equal(matrix_parse_value(VK_RATE, "fast", &v, why, sizeof why), -1);
	assert_string_equal(why, "invalid rate 'fast': not a number");
	assert_int_equal(matrix_parse_value(VK_RECORD, "totals", &v, why, sizeof why), 0);
	assert_int_equal(v.num, REC_TOTALS);
	d.kind = VK_RECORD;
	matrix_format_value(&d, &v, buf, sizeof buf);
	assert_string_equal(buf, "totals");
	free(v.text);
	v.text = NULL;
	assert_int_equal(matrix_parse_value(VK_RECORD, "total", &v, why, sizeof why), -1);
	assert_string_equal(why, "unknown record 'total'; did you mean 'totals'?");
	assert_null(v.text);
}

/* direction: one or bidir. */
static void parse_direction(void **state)
{
	struct mvalue v = { 0 };
	struct dimension d = { .kind = VK_DIRECTION };
	char why[256], buf[32];

	(void)state;
	assert_int_equal(matrix_key_kind("direction"), VK_DIRECTION);
	assert_int_equal(matrix_parse_value(VK_DIRECTION, "bidir", &v, why, sizeof why), 0);
	assert_int_equal(v.num, DIR_BIDIR);
	matrix_format_value(&d, &v, buf, sizeof buf);
	assert_string_equal(buf, "bidir");
	free(v.text);
	v.text = NULL;
	assert_int_equal(matrix_parse_value(VK_DIRECTION, "one", &v, why, sizeof why), 0);
	assert_int_equal(v.num, DIR_ONE);
	free(v.text);
	v.text = NULL;
	assert_int_equal(matrix_parse_value(VK_DIRECTION, "Bidir", &v, why, sizeof why), -1);
	assert_string_equal(why, "unknown direction 'Bidir'; did you mean 'bidir'?");
}

static void key_kind(void **state)
{
	(void)state;
	assert_int_equal(matrix_key_kind("pattern"), VK_PATTERN);
	assert_int_equal(matrix_key_kind("transport"), VK_TRANSPORT);
	assert_int_equal(matrix_key_kind("size"), VK_SIZE);
	assert_int_equal(matrix_key_kind("response_size"), VK_SIZE);
	assert_int_equal(matrix_key_kind("concurrency"), VK_COUNT);
	assert_int_equal(matrix_key_kind("count"), VK_COUNT);
	assert_int_equal(matrix_key_kind("duration"), VK_DURATION);
	assert_int_equal(matrix_key_kind("inflight"), VK_COUNT);
	assert_int_equal(matrix_key_kind("nodelay"), VK_BOOL);
	assert_int_equal(matrix_key_kind("interval"), VK_DURATION);
	assert_int_equal(matrix_key_kind("Size"), -1);
	assert_int_equal(matrix_key_kind("name"), -1);
	assert_int_equal(matrix_key_kind(""), -1);
	assert_string_equal(pattern_names[PAT_PINGPONG], "pingpong");
	assert_string_equal(pattern_names[PAT_ECHO], "echo");
	assert_string_equal(pattern_names[PAT_STREAM], "stream");
}

static void suggest(void **state)
{
	static const char *const keys[] = { "name", "description", "repeat",
		"warmup", "timeout", "matrix", "exclude" };
	static const char *const tie[] = { "cat", "bat" };
	static const char *const trans[] = { "tcp", "unix" };

	(void)state;
	assert_string_equal(suggest_closest("repat", keys, 7), "repeat");
	assert_string_equal(suggest_closest("REPEAT", keys, 7), "repeat");
	assert_string_equal(suggest_closest("discription", keys, 7), "description");
	assert_string_equal(suggest_closest("timeuot", keys, 7), "timeout");
	assert_string_equal(suggest_closest("matrixx", keys, 7), "matrix");
	assert_string_equal(suggest_closest("tpc", trans, 2), "tcp");
	assert_string_equal(suggest_closest("unx", trans, 2), "unix");
	assert_null(suggest_closest("colour", keys, 7));
	assert_null(suggest_closest("rpt", keys, 7));
	assert_null(suggest_closest("at", tie, 2));	/* two at distance 1 */
	assert_null(suggest_closest("x", trans, 2));
	assert_null(suggest_closest("", trans, 2));
	assert_null(suggest_closest("tcp", trans, 0));
}

/* A temporary file; the caller unlinks path. */
static void write_temp(char *path, const char *text)
{
	int fd = mkstemp(path);
	size_t len = strlen(text);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

static void from_file(void **state)
{
	char path[] = "/tmp/test_matrix_XXXXXX";
	char want[128], err[512] = "";
	struct matrix m;

	(void)state;
	write_temp(path, full_example);
	assert_int_equal(matrix_load(&m, path, err, sizeof err), 0);
	assert_string_equal(m.path, path);
	assert_string_equal(m.name, "af_unix_vs_inet");
	assert_int_equal(m.ndims, 9);
	matrix_release(&m);
	unlink(path);

	strcpy(path, "/tmp/test_matrix_XXXXXX");
	write_temp(path, "name: t\nmatrix:\n  size: 0\n");
	assert_int_equal(matrix_load(&m, path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:3:9: size: ", path);
	assert_int_equal(strncmp(err, want, strlen(want)), 0);
	unlink(path);
}

static void missing_file(void **state)
{
	struct matrix m;
	char err[512] = "";

	(void)state;
	assert_int_equal(matrix_load(&m, "/nonexistent/m.yaml", err, sizeof err), -1);
	assert_string_equal(err, "/nonexistent/m.yaml: cannot open: No such file or directory");
	assert_null(m.name);
	assert_null(m.path);
	assert_int_equal(matrix_load(&m, "/tmp", err, sizeof err), -1);
	assert_string_equal(err, "/tmp: not a regular file: a matrix is read from a file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(errors),
		cmocka_unit_test(compare_spec),
		cmocka_unit_test(repeat_auto),
		cmocka_unit_test(full),
		cmocka_unit_test(defaults),
		cmocka_unit_test(spin_key),
		cmocka_unit_test(lists_and_quotes),
		cmocka_unit_test(excludes),
		cmocka_unit_test(exclude_order),
		cmocka_unit_test(aliases),
		cmocka_unit_test(err_buffer),
		cmocka_unit_test(parse_value),
		cmocka_unit_test(parse_rate_and_record),
		cmocka_unit_test(parse_direction),
		cmocka_unit_test(key_kind),
		cmocka_unit_test(suggest),
		cmocka_unit_test(from_file),
		cmocka_unit_test(missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
