/*
 * test_csv: write with csv_out, check the bytes, read back with
 * csv_table_load.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "csvfile.h"
#include "arrays.h"
#include "unit.h"

struct fixture {
	char dir[64];
	char path[128];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	if (unit_tmpdir(fx->dir, sizeof(fx->dir), "test_csv") < 0) {
		free(fx);
		return -1;
	}
	snprintf(fx->path, sizeof(fx->path), "%s/t.csv", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	int rc = unit_remove_tree(fx->dir);

	free(fx);
	return rc;
}

static void spew(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void test_round_trip_hostile(void **state)
{
	static const char *const fields[] = {
		"plain", "a,b", "say \"hi\"", "two\nlines", "cr\rlf\r\n",
		" leading", "trailing ", "\ttab", "", NULL, "\"", ",", "  ",
		"x\"", "héllo", "1e-3", "-", "'quoted'", "#hash",
	};
	const size_t n = ARRAY_SIZE(fields);
	struct fixture *fx = *state;
	struct csv_table t;
	struct csv_out w;
	char err[256];
	size_t i, r;

	assert_int_equal(csv_out_open(&w, fx->path, "w", err, sizeof(err)), 0);
	for (i = 0; i < n; i++)	/* header: c0, c1, ... */
		csv_out_fieldf(&w, "c%zu", i);
	assert_int_equal(csv_out_end_row(&w), 0);
	for (r = 0; r < 3; r++) {	/* rotated so each field sits in every place */
		for (i = 0; i < n; i++)
			csv_out_field(&w, fields[(i + r) % n]);
		assert_int_equal(csv_out_end_row(&w), 0);
	}
	assert_int_equal(csv_out_close(&w), 0);

	if (csv_table_load(&t, fx->path, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(t.ncols, n);
	assert_int_equal(t.nrows, 3);
	for (r = 0; r < 3; r++)
		for (i = 0; i < n; i++) {
			const char *want = fields[(i + r) % n];

			assert_string_equal(t.rows[r][i], want ? want : "");
		}
	csv_table_release(&t);
	assert_null(t.rows);
	assert_int_equal(t.nrows, 0);
}

/* Writes nrows rows of ncols fields (the first row is the header). */
static void write_table(const char *path, const char *const *f, size_t ncols, size_t nrows)
{
	struct csv_out w;
	char err[256];

	assert_int_equal(csv_out_open(&w, path, "w", err, sizeof(err)), 0);
	for (size_t r = 0; r < nrows; r++) {
		for (size_t c = 0; c < ncols; c++)
			csv_out_field(&w, f[r * ncols + c]);
		assert_int_equal(csv_out_end_row(&w), 0);
	}
	assert_int_equal(csv_out_close(&w), 0);
}

/* Reads path back, plain and with CSV_DROP_UNFINISHED: the same table. */
static void expect_table(const char *path, const char *const *f, size_t ncols, size_t nrows)
{
	for (int flags = 0; flags <= CSV_DROP_UNFINISHED; flags += CSV_DROP_UNFINISHED) {
		struct csv_table t;
		int dropped = -1;
		char err[256];

		if (csv_table_load_opts(&t, path, flags, &dropped, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		assert_int_equal(dropped, 0);
		assert_int_equal(t.ncols, ncols);
		assert_int_equal(t.nrows, nrows - 1);
		for (size_t c = 0; c < ncols; c++)
			assert_string_equal(t.header[c], f[c]);
		for (size_t r = 1; r < nrows; r++)
			for (size_t c = 0; c < ncols; c++)
				assert_string_equal(t.rows[r - 1][c], f[r * ncols + c]);
		csv_table_release(&t);
	}
}

/* A lone CR ends a row for libcsv, as LF does: a field holding one is
 * quoted, wherever it sits in the field, the row and the table. */
static void test_lone_cr(void **state)
{
	static const char *const three[] = {
		"h\r1", "h2", "h3",
		"a\rb", "\r", "x\r",
		"\ry", "", "a\rb",
		"", "x\r", "\r",
		"\r", "\r", "",
	};
	static const char *const one[] = { "h\r", "\r", "", "a\rb", "x\r", "\ry", "", "\r" };
	struct fixture *fx = *state;
	char *bytes;

	write_table(fx->path, three, 3, 5);
	bytes = unit_slurp(fx->path);
	assert_string_equal(bytes,
			    "\"h\r1\",h2,h3\n"
			    "\"a\rb\",\"\r\",\"x\r\"\n"
			    "\"\ry\",,\"a\rb\"\n"
			    ",\"x\r\",\"\r\"\n"
			    "\"\r\",\"\r\",\n");
	free(bytes);
	expect_table(fx->path, three, 3, 5);

	write_table(fx->path, one, 1, 8);
	bytes = unit_slurp(fx->path);
	assert_string_equal(bytes, "\"h\r\"\n\"\r\"\n\n\"a\rb\"\n\"x\r\"\n\"\ry\"\n\n\"\r\"\n");
	free(bytes);
	expect_table(fx->path, one, 1, 8);
}

static void test_bare_numbers(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;
	struct csv_out w;
	char err[256], *bytes;

	assert_int_equal(csv_out_open(&w, fx->path, "w", err, sizeof(err)), 0);
	csv_out_field(&w, "name");
	csv_out_field(&w, "n");
	csv_out_field(&w, "x");
	csv_out_field(&w, "nan");
	csv_out_field(&w, "inf");
	csv_out_field(&w, "y");
	assert_int_equal(csv_out_end_row(&w), 0);
	csv_out_field(&w, "af_unix");
	csv_out_u64(&w, 18446744073709551615ull);
	csv_out_double(&w, 12.5, 6);
	csv_out_double(&w, NAN, 6);
	csv_out_double(&w, -INFINITY, 6);
	csv_out_double(&w, 1.0 / 3, 4);
	assert_int_equal(csv_out_end_row(&w), 0);
	csv_out_fieldf(&w, "%d,%d", 1, 2);	/* a formatted field is quoted too */
	csv_out_u64(&w, 0);
	csv_out_double(&w, 1e-7, 3);
	csv_out_double(&w, NAN, 6);
	csv_out_double(&w, 2e20, 17);
	csv_out_field(&w, NULL);
	assert_int_equal(csv_out_end_row(&w), 0);
	assert_int_equal(csv_out_close(&w), 0);

	bytes = unit_slurp(fx->path);
	assert_string_equal(bytes,
			    "name,n,x,nan,inf,y\n"
			    "af_unix,18446744073709551615,12.5,,,0.3333\n"
			    "\"1,2\",0,1e-07,,2e+20,\n");
	free(bytes);

	if (csv_table_load(&t, fx->path, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.rows[0][3], "");
	assert_string_equal(t.rows[1][0], "1,2");
	assert_string_equal(t.rows[1][5], "");
	csv_table_release(&t);
}

/* User text meant for people: a field a spreadsheet would evaluate gets
 * a leading '; anything else, and every number, is written as is. */
static void test_text_never_a_formula(void **state)
{
	struct fixture *fx = *state;
	struct csv_out w;
	char err[256], *bytes;

	assert_int_equal(csv_out_open(&w, fx->path, "w", err, sizeof(err)), 0);
	csv_out_text(&w, "=1+2");
	csv_out_text(&w, "+cmd");
	csv_out_text(&w, "-x");
	csv_out_text(&w, "@SUM(A1)");
	csv_out_text(&w, "UNIX/TCP");
	csv_out_text(&w, "a=b");
	csv_out_double(&w, -0.25, 6);
	csv_out_text(&w, "");
	assert_int_equal(csv_out_end_row(&w), 0);
	assert_int_equal(csv_out_close(&w), 0);
	bytes = unit_slurp(fx->path);
	assert_string_equal(bytes, "'=1+2,'+cmd,'-x,'@SUM(A1),UNIX/TCP,a=b,-0.25,\n");
	free(bytes);
}

static void test_append(void **state)
{
	struct fixture *fx = *state;
	struct csv_out w;
	char err[256], *bytes;

	assert_int_equal(csv_out_open(&w, fx->path, "w", err, sizeof(err)), 0);
	csv_out_field(&w, "a");
	assert_int_equal(csv_out_end_row(&w), 0);
	assert_int_equal(csv_out_close(&w), 0);
	assert_int_equal(csv_out_open(&w, fx->path, "a", err, sizeof(err)), 0);
	csv_out_u64(&w, 7);
	assert_int_equal(csv_out_end_row(&w), 0);
	/* the row is in the file before close: end_row flushed it */
	bytes = unit_slurp(fx->path);
	assert_string_equal(bytes, "a\n7\n");
	free(bytes);
	assert_int_equal(csv_out_close(&w), 0);

	assert_int_equal(csv_out_open(&w, fx->path, "r+", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "mode"));
}

static void test_one_column_empty(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;
	struct csv_out w;
	char err[256];

	/* A one-column row holding an empty field is an empty line. */
	assert_int_equal(csv_out_open(&w, fx->path, "w", err, sizeof(err)), 0);
	csv_out_field(&w, "only");
	assert_int_equal(csv_out_end_row(&w), 0);
	csv_out_field(&w, "");
	assert_int_equal(csv_out_end_row(&w), 0);
	csv_out_field(&w, "x");
	assert_int_equal(csv_out_end_row(&w), 0);
	assert_int_equal(csv_out_close(&w), 0);
	if (csv_table_load(&t, fx->path, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.rows[0][0], "");
	assert_string_equal(t.rows[1][0], "x");
	csv_table_release(&t);
}

static void test_read_crlf_blank_no_final_newline(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;
	char err[256];

	spew(fx->path, "\na,b\r\n1,2\r\n\r\n\"x\r\ny\",3");
	if (csv_table_load(&t, fx->path, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(t.ncols, 2);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.rows[0][1], "2");
	assert_string_equal(t.rows[1][0], "x\r\ny");
	assert_string_equal(t.rows[1][1], "3");
	csv_table_release(&t);
}

static void expect_error(const char *path, const char *text, const char *want)
{
	struct csv_table t;
	char err[256];

	spew(path, text);
	memset(&t, 0x55, sizeof(t));
	assert_int_equal(csv_table_load(&t, path, err, sizeof(err)), -1);
	if (strncmp(err, path, strlen(path)) != 0 || !strstr(err, want))
		fail_msg("error '%s' does not name %s and '%s'", err, path, want);
	/* nothing to release, and releasing again is harmless */
	assert_null(t.header);
	assert_null(t.rows);
	csv_table_release(&t);
}

static void test_read_errors(void **state)
{
	struct fixture *fx = *state;

	expect_error(fx->path, "a,b\n1,2\n3\n", ":3: row has 1 field, header has 2");
	expect_error(fx->path, "a,b\n1,2,3\n", ":2: row has 3 fields, header has 2");
	/* a multi-line row is reported at the line it starts on */
	expect_error(fx->path, "a,b\n1,2\n\"x\ny\nz\",2,3\n", ":3: row has 3 fields");
	expect_error(fx->path, "a,b\n\"x\ny\"\n", ":2: row has 1 field");
	expect_error(fx->path, "a,b\n1,2\n1,x\"y\n", ":3: ");
	expect_error(fx->path, "a,b\n1,\"x\"y\n", ":2: ");
	expect_error(fx->path, "a,b\n1,2\n1,\"never closed\n\n", ":3: unterminated");
	expect_error(fx->path, "", ":1: empty file");
	expect_error(fx->path, "\n\n", ":1: empty file");
}

/* A last row an interrupted write cut short, wherever the cut falls, is
 * left out and said to be; the rows before it are read as written. */
static void test_drop_unfinished_row(void **state)
{
	static const char *const cuts[] = {
		"h,e\n1,2\n3",			/* no line end */
		"h,e\n1,2\n3,",
		"h,e\n1,2\n3,\"a\rb",		/* inside a quoted field */
		"h,e\n1,2\n3,\"a\nb",		/* after a line end in a quoted field */
		"h,e\n1,2\n3,\"a\n",
		"h,e\n1,2\n3,\"a\r\n",
		"h,e\n1,2\n3,\"a\"\"",		/* after a doubled quote */
		"h,e\n1,2\n3,\"a\"",		/* after the closing quote */
	};
	struct fixture *fx = *state;
	struct csv_table t;
	char err[256];
	int dropped;

	for (size_t i = 0; i < ARRAY_SIZE(cuts); i++) {
		spew(fx->path, cuts[i]);
		dropped = 0;
		if (csv_table_load_opts(&t, fx->path, CSV_DROP_UNFINISHED, &dropped, err,
					sizeof(err)) != 0)
			fail_msg("cut %zu: %s", i, err);
		assert_int_equal(dropped, 1);
		assert_int_equal(t.nrows, 1);
		assert_string_equal(t.rows[0][0], "1");
		assert_string_equal(t.rows[0][1], "2");
		csv_table_release(&t);
	}
	/* whole files: nothing dropped; a header alone with no line end is read */
	spew(fx->path, "h,e\n1,\"x\ny\"\n");
	assert_int_equal(csv_table_load_opts(&t, fx->path, CSV_DROP_UNFINISHED, &dropped, err,
					     sizeof(err)), 0);
	assert_int_equal(dropped, 0);
	assert_string_equal(t.rows[0][1], "x\ny");
	csv_table_release(&t);
	spew(fx->path, "h,e");
	assert_int_equal(csv_table_load_opts(&t, fx->path, CSV_DROP_UNFINISHED, &dropped, err,
					     sizeof(err)), 0);
	assert_int_equal(dropped, 0);
	assert_int_equal(t.ncols, 2);
	assert_int_equal(t.nrows, 0);
	csv_table_release(&t);
	/* without the flag, the same cuts are errors or a short row */
	expect_error(fx->path, "h,e\n1,2\n3,\"a\n", ":3: unterminated");
	expect_error(fx->path, "h,e\n1,2\n3", ":3: row has 1 field");
}

static void test_missing_file(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;
	struct csv_out w;
	char err[256], path[160];

	(void)fx;
	snprintf(path, sizeof(path), "%s/nope.csv", fx->dir);
	assert_int_equal(csv_table_load(&t, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, strerror(ENOENT)));
	csv_table_release(&t);

	snprintf(path, sizeof(path), "%s/no/such/dir.csv", fx->dir);
	assert_int_equal(csv_out_open(&w, path, "w", err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, path));
	assert_int_equal(csv_out_close(&w), 0);	/* nothing open */
}

/* A file that grows row by row is opened only as a regular file, never
 * through a link (a run folder may come from anywhere): a link and a
 * device are refused, saying so, and the file the link names is left
 * as it was.  (A write that fails: test_failure_outlives_later_rows.) */
static void test_write_error(void **state)
{
	struct fixture *fx = *state;
	struct csv_out w;
	char err[256], link[200];
	char *got;

	FILE *f = fopen(fx->path, "w");
	assert_non_null(f);
	fputs("kept\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(link, sizeof(link), "%s/link.csv", fx->dir);
	assert_int_equal(symlink(fx->path, link), 0);
	assert_int_equal(csv_out_open(&w, link, "a", err, sizeof(err)), -1);
	assert_int_equal(errno, ELOOP);
	assert_non_null(strstr(err, "a symbolic link"));
	assert_int_equal(csv_out_open(&w, link, "w", err, sizeof(err)), -1);
	got = unit_slurp(fx->path);
	assert_string_equal(got, "kept\n");
	free(got);
	if (access("/dev/full", W_OK) != 0)
		return;
	assert_int_equal(csv_out_open(&w, "/dev/full", "w", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/dev/full: not a regular file"));
	assert_int_equal(csv_out_close(&w), 0);	/* nothing open */
}

/* Writes beyond `limit` bytes fail with EFBIG (RLIMIT_FSIZE, SIGXFSZ
 * ignored): a disk that fills up in the middle of a file. */
static void limit_file_size(rlim_t limit, struct rlimit *old)
{
	struct rlimit rl;

	assert_int_equal(getrlimit(RLIMIT_FSIZE, old), 0);
	rl = *old;
	rl.rlim_cur = limit;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &rl), 0);
}

/* A row that fails is not forgotten when a later row succeeds: every
 * later end_row and the close report it; the file ends with the rows
 * before the failed one, whole. */
static void test_failure_outlives_later_rows(void **state)
{
	struct fixture *fx = *state;
	struct csv_out w;
	struct rlimit old;
	char err[256], big[300];
	char *got;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(csv_out_open(&w, fx->path, "w", err, sizeof(err)), 0);
	limit_file_size(100, &old);
	csv_out_field(&w, "a");
	csv_out_field(&w, "b");
	assert_int_equal(csv_out_end_row(&w), 0);
	csv_out_field(&w, big);		/* past the limit: cut short */
	csv_out_field(&w, "1");
	assert_int_equal(csv_out_end_row(&w), -1);
	assert_int_equal(errno, EFBIG);
	csv_out_field(&w, "y");		/* would fit: still a failed file */
	csv_out_field(&w, "2");
	assert_int_equal(csv_out_end_row(&w), -1);
	got = unit_slurp(fx->path);		/* and no row follows the one that failed */
	assert_string_equal(got, "a,b\n");
	free(got);
	errno = 0;
	assert_int_equal(csv_out_close(&w), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	got = unit_slurp(fx->path);
	assert_string_equal(got, "a,b\n");	/* the row cut short is cut off */
	free(got);
}

/* csv_out_create: a file that cannot be written whole leaves the file
 * there was, and no temporary file. */
static void test_create_whole_or_nothing(void **state)
{
	struct fixture *fx = *state;
	struct csv_out w;
	struct rlimit old;
	char err[256], big[300];
	char *got;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	spew(fx->path, "old\n");
	assert_int_equal(csv_out_create(&w, fx->path, err, sizeof(err)), 0);
	limit_file_size(100, &old);
	csv_out_field(&w, "new");
	csv_out_end_row(&w);
	csv_out_field(&w, big);
	csv_out_end_row(&w);
	errno = 0;
	assert_int_equal(csv_out_close(&w), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	got = unit_slurp(fx->path);
	assert_string_equal(got, "old\n");
	free(got);
	/* the folder holds t.csv alone */
	DIR *d = opendir(fx->dir);
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' || strstr(e->d_name, ".tmp"))
			assert_string_equal(e->d_name, "t.csv");
	closedir(d);
	/* and written whole it replaces the file */
	assert_int_equal(csv_out_create(&w, fx->path, err, sizeof(err)), 0);
	csv_out_field(&w, "new");
	csv_out_end_row(&w);
	assert_int_equal(csv_out_close(&w), 0);
	got = unit_slurp(fx->path);
	assert_string_equal(got, "new\n");
	free(got);
}

static void test_col(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;
	char err[256];

	spew(fx->path, "cell,transport,p50 ns,p50 ns\n1,unix,100,200\n");
	if (csv_table_load(&t, fx->path, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(csv_table_col(&t, "cell"), 0);
	assert_int_equal(csv_table_col(&t, "transport"), 1);
	assert_int_equal(csv_table_col(&t, "p50 ns"), 2);	/* the first of two */
	assert_int_equal(csv_table_col(&t, "p50"), -1);
	assert_int_equal(csv_table_col(&t, ""), -1);
	assert_int_equal(csv_table_col(&t, "Cell"), -1);
	assert_string_equal(t.rows[0][csv_table_col(&t, "transport")], "unix");
	csv_table_release(&t);
}

/* path holds n bytes of p (NUL bytes too) */
static void spew_n(const char *path, const char *p, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void expect_load_error(const char *path, const char *want)
{
	struct csv_table t;
	char err[512];

	assert_int_equal(csv_table_load(&t, path, err, sizeof(err)), -1);
	if (strncmp(err, path, strlen(path)) != 0 || !strstr(err, want))
		fail_msg("error '%s' does not name %s and '%s'", err, path, want);
	assert_null(t.rows);
}

/* A run folder's file is untrusted input (issue 26): a NUL in a field, a
 * field past CSV_FIELD_MAX (quoted or not, with or without a line end), a
 * row past CSV_MAX_FIELDS, a file past CSV_FILE_MAX and anything but a
 * regular file are refused, by line where there is one. */
static void test_read_bounds(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;
	char err[512];
	size_t big = CSV_FIELD_MAX + 10000;	/* past what libcsv may hold of it too */
	char *buf = malloc(big + 64);

	assert_non_null(buf);
	spew_n(fx->path, "a,b\n1,\"8\0\"\n", 11);
	expect_load_error(fx->path, ":2: field 2 (b) holds a NUL byte");
	spew_n(fx->path, "a,b\n1,8\0\n", 10);
	expect_load_error(fx->path, ":2: field 2 (b) holds a NUL byte");
	/* a field of exactly the bound is read */
	memcpy(buf, "a\n", 2);
	memset(buf + 2, 'x', CSV_FIELD_MAX);
	buf[2 + CSV_FIELD_MAX] = '\n';
	spew_n(fx->path, buf, CSV_FIELD_MAX + 3);
	if (csv_table_load(&t, fx->path, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(strlen(t.rows[0][0]), CSV_FIELD_MAX);
	csv_table_release(&t);
	/* one past it, bare, quoted, or never ended */
	memset(buf + 2, 'x', big);
	buf[2 + big] = '\n';
	spew_n(fx->path, buf, big + 3);
	expect_load_error(fx->path, ":2: field 1 (a) is longer than 65536 bytes");
	spew_n(fx->path, buf, big + 2);
	expect_load_error(fx->path, ":2: field 1 (a) is longer than 65536 bytes");
	buf[2] = '"';
	spew_n(fx->path, buf, big + 2);
	expect_load_error(fx->path, ":2: field 1 (a) is longer than 65536 bytes");
	/* too many fields */
	memcpy(buf, "a\n", 2);
	memset(buf + 2, ',', 5000);
	buf[5002] = '\n';
	spew_n(fx->path, buf, 5003);
	expect_load_error(fx->path, ":2: more than 4096 fields in a row");
	free(buf);
	/* too large, as a sparse file */
	spew(fx->path, "a\n1\n");
	assert_int_equal(truncate(fx->path, CSV_FILE_MAX + 1), 0);
	expect_load_error(fx->path, ": 1073741825 bytes, more than the 1 GiB");
	/* not a regular file: refused before a read could block */
	unlink(fx->path);
	assert_int_equal(mkfifo(fx->path, 0600), 0);
	expect_load_error(fx->path, ": a fifo, not a regular file");
	unlink(fx->path);
	expect_load_error(fx->dir, ": a folder, not a regular file");
	expect_load_error("/dev/zero", ": a character device, not a regular file");
}

/* Each row's line: where it starts, a quoted line end counted. */
static void test_read_lines(void **state)
{
	struct fixture *fx = *state;
	struct csv_table t;
	char err[256];

	spew(fx->path, "a,b\n1,2\n\"x\ny\",3\n\n4,5\n");
	if (csv_table_load(&t, fx->path, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(t.nrows, 3);
	assert_int_equal(t.lines[0], 2);
	assert_int_equal(t.lines[1], 3);
	assert_int_equal(t.lines[2], 6);
	csv_table_release(&t);
}

struct seen {
	size_t header, rows;
	unsigned long last_line;
};

static int seen_header(void *ctx, char **f, size_t n, char *err, size_t errlen)
{
	struct seen *s = ctx;

	(void)err, (void)errlen;
	assert_int_equal(n, 2);
	assert_string_equal(f[1], "b");
	s->header++;
	return 0;
}

static int seen_row(void *ctx, char **f, unsigned long line, char *err, size_t errlen)
{
	struct seen *s = ctx;

	s->rows++;
	s->last_line = line;
	if (!strcmp(f[0], "stop")) {
		snprintf(err, errlen, "stopped at %lu", line);
		return -1;
	}
	return 0;
}

/* csv_read hands each row on as it comes; a callback's -1 stops it with
 * the callback's own message. */
static void test_read_rows_streamed(void **state)
{
	struct fixture *fx = *state;
	struct seen s = { 0 };
	const struct csv_rows cb = { .header = seen_header, .row = seen_row, .ctx = &s };
	char err[256];
	int dropped = 0;

	spew(fx->path, "a,b\n1,2\n3,4\n5");
	assert_int_equal(csv_read(fx->path, CSV_DROP_UNFINISHED, &cb, &dropped, err, sizeof(err)), 0);
	assert_int_equal(s.header, 1);
	assert_int_equal(s.rows, 2);
	assert_int_equal(s.last_line, 3);
	assert_int_equal(dropped, 1);
	memset(&s, 0, sizeof(s));
	spew(fx->path, "a,b\n1,2\nstop,4\n5,6\n");
	assert_int_equal(csv_read(fx->path, 0, &cb, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "stopped at 3");
	assert_int_equal(s.rows, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip_hostile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lone_cr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drop_unfinished_row, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bare_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_never_a_formula, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_column_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_crlf_blank_no_final_newline,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_outlives_later_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_whole_or_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_col, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_bounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_rows_streamed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
