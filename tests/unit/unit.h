/*
 * unit.h: what the unit tests (tests/unit/test_*.c) share, linked into
 * each of them (tests/unit/unit.c): a folder of their own, whole files
 * read and written, doubles compared with both values printed, a pipe
 * fed to an outlog.  Each check fails the calling cmocka test with what
 * was wrong; the setup helpers return -1 instead, as a cmocka setup must.
 * Include it after <cmocka.h>.
 */
#ifndef MATRIX_TESTS_UNIT_H
#define MATRIX_TESTS_UNIT_H

#include <stddef.h>

struct outlog;
struct rcell;

/* cmocka 1.1's assert_float_equal compares floats: figures need doubles.
 * EXPECT(got, want): got within 1e-12 of want (relative), named by its
 * expression when it is not; EXPECT_NAN(got): got is NaN. */
#define EXPECT(got, want) unit_expect_near((got), (want), #got)
#define EXPECT_NAN(got) unit_expect_nan((got), #got)
void unit_expect_near(double got, double want, const char *what);
void unit_expect_nan(double got, const char *what);

/* Makes a new folder $TMPDIR/NAME.XXXXXX (/tmp without TMPDIR), its path
 * in dir (len bytes).  0, or -1 when it cannot. */
int unit_tmpdir(char *dir, size_t len, const char *name);

/* Removes dir and everything in it.  0, or -1 when something stays. */
int unit_remove_tree(const char *dir);

/* The whole file at path, NUL-terminated, in memory the caller frees;
 * fails the test when it cannot be read. */
char *unit_slurp(const char *path);

/* Writes text to the file dir/name (made or emptied); fails the test on
 * any error. */
void unit_write_file(const char *dir, const char *name, const char *text);

/* Fills *c as cell `number` of a report made by hand (report.h) of one
 * dimension, whose value for this cell goes in dimv[0]: its msgs_per_s
 * values thr and rtt_p50_us values rtt (NULL: none), n repetitions (0:
 * every one of 3 failed, no values), each metric summarized, its machine
 * state (c->state) all NaN. */
void unit_hand_cell(struct rcell *c, unsigned number, char **dimv, const char *value,
		    const double *thr, const double *rtt, size_t n);

/* Writes n bytes of p to wr, the write end of o's pipe (outlog_open), in
 * pieces, reading o after each so that the pipe never fills. */
void unit_feed(struct outlog *o, int wr, const char *p, size_t n);

#endif
