/*
 * Unit tests for gate/history.c on reports made by hand (as
 * test_compare.c makes them): the order of the runs (start_utc, else the
 * folder's name), the groups (another kernel, another matrix.yaml), and the
 * steps: each point judged against the previous run of its group that has
 * a figure of the cell, with compare_folders' verdict.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "history.h"
#include "unit.h"

/* 7 repetitions each, spread about 1% */
static const double thr[] = { 100, 101, 99, 100.5, 99.5, 100.2, 99.8 };
static const double thr_slow[] = { 80, 80.8, 79.2, 80.4, 79.6, 80.1, 79.9 };	/* -20% */
static const double thr_same[] = { 101, 100, 100.3, 99.6, 100.8, 99.9, 100.1 };
static const double rtt[] = { 50, 50.5, 49.5, 50.2, 49.8, 50.1, 49.9 };

#define MAXCELLS 2

/* A run folder by hand: a folder of its own holding matrix.yaml (whose
 * content is in the fingerprint), meta.csv's start_utc and kernel, and
 * cells of one dimension "transport". */
struct hand {
	struct report r;
	struct rcell cells[MAXCELLS];
	char *dimv[MAXCELLS][1];
	struct { char *key, *value; } meta[2];
	char dir[512];
};

static char root[256];

static void hand_init(struct hand *h, const char *name, const char *start, const char *kernel,
		      const char *yaml)
{
	static char *names[] = { "transport" };
	char path[600];
	FILE *f;

	memset(h, 0, sizeof(*h));
	snprintf(h->dir, sizeof(h->dir), "%s/%s", root, name);
	assert_int_equal(mkdir(h->dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/matrix.yaml", h->dir);
	assert_non_null(f = fopen(path, "w"));
	fputs(yaml, f);
	fclose(f);
	h->r.dir = h->dir;
	h->r.dimnames = names;
	h->r.ndims = 1;
	h->r.cells = h->cells;
	h->meta[0].key = "start_utc";
	h->meta[0].value = (char *)start;
	h->meta[1].key = "kernel";
	h->meta[1].value = (char *)kernel;
	h->r.meta = (void *)h->meta;
	h->r.nmeta = 2;
}

/* Cell i: transport, its msgs_per_s and rtt_p50_us values (NULL: none),
 * n repetitions (0: every one failed). */
static void hand_cell(struct hand *h, size_t i, const char *transport, const double *t,
		      const double *r, size_t n)
{
	unit_hand_cell(&h->cells[i], (unsigned)i + 1, h->dimv[i], transport, t, r, n);
	if (h->r.ncells < i + 1)
		h->r.ncells = i + 1;
}

static int setup(void **state)
{
	(void)state;
	return unit_tmpdir(root, sizeof(root), "test_history");
}

static int teardown(void **state)
{
	(void)state;
	return unit_remove_tree(root);
}

static const char yaml_a[] = "name: h\nmatrix:\n  transport: [unix, tcp]\n";
static const char yaml_b[] = "name: h\nmatrix:\n  transport: [unix, tcp]\n# edited\n";

static void test_order(void **state)
{
	static struct hand a, b, c, d;
	const struct report *rs[] = { &a.r, &b.r, &c.r, &d.r };
	struct history h;
	char err[256];

	(void)state;
	/* start_utc orders, whatever the names; without one, the name does
	 * (the same form: 20261202T000000Z); a tie goes by name */
	hand_init(&a, "zzz", "2026-12-01T00:00:00Z", "k", yaml_a);
	hand_init(&b, "20261202T000000Z", "", "k", yaml_a);
	hand_init(&c, "bbb", "2026-12-03T00:00:00Z", "k", yaml_a);
	hand_init(&d, "aaa", "2026-12-03T00:00:00Z", "k", yaml_a);
	hand_cell(&a, 0, "unix", thr, rtt, 7);
	hand_cell(&b, 0, "unix", thr, rtt, 7);
	hand_cell(&c, 0, "unix", thr, rtt, 7);
	hand_cell(&d, 0, "unix", thr, rtt, 7);
	assert_int_equal(history_build(&h, rs, 4, 0.05, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(h.nruns, 4);
	assert_string_equal(h.runs[0].name, "zzz");
	assert_string_equal(h.runs[1].name, "20261202T000000Z");
	assert_string_equal(h.runs[2].name, "aaa");
	assert_string_equal(h.runs[3].name, "bbb");
	assert_string_equal(h.runs[2].start, "2026-12-03T00:00:00Z");
	assert_int_equal(h.ngroups, 1);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(h.runs[i].index, i + 1);
	/* the default metrics: msgs_per_s and rtt_p50_us, a point each per run */
	assert_int_equal(h.npoints, 8);
	assert_int_equal(h.points[0].verdict, V__COUNT);	/* the first: no verdict */
	assert_int_equal(h.points[2].prev, 0);
	history_release(&h);
	assert_int_equal(history_build(&h, rs, 0, 0.05, NULL, 0, err, sizeof(err)), -1);
	history_release(&h);
}

static void test_groups(void **state)
{
	static struct hand a, b, c, d, e;
	const struct report *rs[] = { &e.r, &d.r, &c.r, &b.r, &a.r };
	int mt = matrix_metric_index("msgs_per_s");
	struct history h;
	char err[256];

	(void)state;
	hand_init(&a, "g1", "2026-12-01T00:00:00Z", "Linux 6.1", yaml_a);
	hand_init(&b, "g2", "2026-12-02T00:00:00Z", "Linux 6.6", yaml_a);	/* another kernel */
	hand_init(&c, "g3", "2026-12-03T00:00:00Z", "Linux 6.1", yaml_a);
	hand_init(&d, "g4", "2026-12-04T00:00:00Z", "Linux 6.1", yaml_b);	/* another matrix */
	hand_init(&e, "g5", "2026-12-05T00:00:00Z", "Linux 6.6", yaml_a);
	hand_cell(&a, 0, "unix", thr, rtt, 7);
	hand_cell(&b, 0, "unix", thr_slow, rtt, 7);	/* -20%, but not a's group */
	hand_cell(&c, 0, "unix", thr_same, rtt, 7);
	hand_cell(&d, 0, "unix", thr_slow, rtt, 7);
	hand_cell(&e, 0, "unix", thr, rtt, 7);
	assert_int_equal(history_build(&h, rs, 5, 0.05, &mt, 1, err, sizeof(err)), 0);
	assert_int_equal(h.ngroups, 3);
	const size_t want_group[] = { 1, 2, 1, 3, 2 }, want_index[] = { 1, 1, 2, 1, 2 };
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(h.runs[i].group, want_group[i]);
		assert_int_equal(h.runs[i].index, want_index[i]);
	}
	assert_string_equal(h.groups[0].differs, "");
	assert_non_null(strstr(h.groups[1].differs, "kernel: Linux 6.1 vs Linux 6.6"));
	assert_non_null(strstr(h.groups[2].differs, "matrix.yaml: the two files differ"));
	assert_null(strstr(h.groups[2].differs, "kernel"));
	/* points group by group: g1, g3 | g2, g5 | g4; g3 against g1, g5
	 * against g2 (+25%: improved), never across groups */
	assert_int_equal(h.npoints, 5);
	const size_t want_run[] = { 0, 2, 1, 4, 3 };
	for (size_t k = 0; k < 5; k++)
		assert_int_equal(h.points[k].run, want_run[k]);
	assert_int_equal(h.points[1].prev, 0);
	assert_int_equal(h.points[1].verdict, V_UNCHANGED);
	assert_int_equal(h.points[3].prev, 1);
	assert_int_equal(h.points[3].verdict, V_IMPROVED);
	assert_int_equal(h.points[3].step, 1);
	assert_int_equal(h.points[4].verdict, V__COUNT);
	assert_int_equal(h.nsteps, 1);
	assert_int_equal(h.groups[1].nsteps, 1);
	history_release(&h);
}

static void test_steps(void **state)
{
	static struct hand a, b, c, d, e;
	const struct report *rs[] = { &a.r, &b.r, &c.r, &d.r, &e.r };
	int mt = matrix_metric_index("msgs_per_s"), mr = matrix_metric_index("rtt_p50_us");
	struct history h;
	char err[256];

	(void)state;
	hand_init(&a, "s1", "2026-12-01T00:00:00Z", "k", yaml_a);
	hand_init(&b, "s2", "2026-12-02T00:00:00Z", "k", yaml_a);
	hand_init(&c, "s3", "2026-12-03T00:00:00Z", "k", yaml_a);
	hand_init(&d, "s4", "2026-12-04T00:00:00Z", "k", yaml_a);
	hand_init(&e, "s5", "2026-12-05T00:00:00Z", "k", yaml_a);
	/* unix: same, same, failed, slow (-20% against s2: the failed run is
	 * passed over), slow; tcp: only in s1 and s5 (no RTT: a stream) */
	hand_cell(&a, 0, "unix", thr, rtt, 7);
	hand_cell(&a, 1, "tcp", thr, NULL, 7);
	hand_cell(&b, 0, "unix", thr_same, rtt, 7);
	hand_cell(&c, 0, "unix", NULL, NULL, 0);
	hand_cell(&d, 0, "unix", thr_slow, rtt, 7);
	hand_cell(&e, 0, "unix", thr_slow, rtt, 7);
	hand_cell(&e, 1, "tcp", thr_slow, NULL, 7);
	assert_int_equal(history_build(&h, rs, 5, 0.05, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(h.ngroups, 1);
	assert_int_equal(h.groups[0].ncells, 2);
	assert_string_equal(h.groups[0].cells[1].label, "transport=tcp");
	assert_string_equal(h.groups[0].cells[1].title, "tcp");
	/* s1: unix x2, tcp x1 (no rtt_p50_us anywhere); s2, s3, s4: unix x2;
	 * s5: unix x2, tcp x1 */
	assert_int_equal(h.npoints, 3 + 2 + 2 + 2 + 3);
	const struct hist_point *p = &h.points[3];	/* s2 unix msgs_per_s */
	assert_int_equal(p->run, 1);
	assert_int_equal(p->metric, mt);
	assert_int_equal(p->verdict, V_UNCHANGED);
	assert_int_equal(p->step, 0);
	p = &h.points[5];				/* s3 unix: failed */
	assert_int_equal(p->n, 0);
	assert_true(isnan(p->median));
	assert_int_equal(p->prev, 1);
	assert_int_equal(p->verdict, V_INCONCLUSIVE);
	assert_string_equal(p->why, "failed on a side");
	p = &h.points[7];				/* s4 unix: against s2 */
	assert_int_equal(p->prev, 1);
	assert_int_equal(p->verdict, V_REGRESSED);
	assert_int_equal(p->step, 1);
	assert_true(fabs(p->change - (80.0 / 100.1 - 1)) < 1e-12);
	assert_true(fabs(p->prev_median - 100.1) < 1e-12);
	p = &h.points[8];				/* its RTT, unchanged */
	assert_int_equal(p->metric, mr);
	assert_int_equal(p->verdict, V_UNCHANGED);
	p = &h.points[9];				/* s5 unix: against s4 */
	assert_int_equal(p->prev, 3);
	assert_int_equal(p->verdict, V_UNCHANGED);
	p = &h.points[11];				/* s5 tcp: against s1 */
	assert_int_equal(p->cell, 1);
	assert_int_equal(p->prev, 0);
	assert_int_equal(p->verdict, V_REGRESSED);
	assert_int_equal(h.nsteps, 2);
	assert_int_equal(h.runs[4].first_point, 9);
	assert_int_equal(h.runs[4].npoints, 3);
	history_release(&h);

	/* at a 25% threshold a 20% change is no step */
	assert_int_equal(history_build(&h, rs, 5, 0.25, &mt, 1, err, sizeof(err)), 0);
	assert_int_equal(h.nsteps, 0);
	assert_int_equal(h.points[4].run, 3);		/* s4 unix */
	assert_int_equal(h.points[4].verdict, V_UNCHANGED);
	history_release(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_steps, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
