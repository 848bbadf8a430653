/*
 * Unit tests for gate/history.c on reports made by hand (as
 * test_compare.c makes them): the order of the runs (start_utc, else the
 * folder's name), the groups (another kernel, another matrix.yaml), and the
 * steps: each point judged against the previous run of its group that has
 * a figure of the cell, with compare_folders' verdict; the noise (the pure
 * history_noise, history_calibrate and history_why, and what each point
 * learns from the runs before it alone).
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

/* The spread: 1.4826 x the median |change| of the last 20 changes. */
static void test_noise(void **state)
{
	double chg[25] = { 0 };
	size_t used = 99;

	(void)state;
	assert_true(isnan(history_noise(chg, 0, &used)));
	assert_int_equal(used, 0);
	const double three[] = { 0.01, -0.03, 0.02 };	/* |.|: 0.01 0.02 0.03 */
	assert_true(fabs(history_noise(three, 3, &used) - 1.4826 * 0.02) < 1e-15);
	assert_int_equal(used, 3);
	const double four[] = { -0.01, 0.04, 0.02, -0.03 };	/* (0.02 + 0.03) / 2 */
	assert_true(fabs(history_noise(four, 4, &used) - 1.4826 * 0.025) < 1e-15);
	/* the last 20 alone: five huge changes first are forgotten */
	for (size_t i = 0; i < 25; i++)
		chg[i] = i < 5 ? 1.0 : (i % 2 ? 0.01 : -0.01);
	assert_true(fabs(history_noise(chg, 25, &used) - 1.4826 * 0.01) < 1e-15);
	assert_int_equal(used, HISTORY_NOISE_MAX);
	/* robust: a real step among them moves it little */
	chg[24] = 0.5;
	assert_true(fabs(history_noise(chg, 25, &used) - 1.4826 * 0.01) < 1e-15);
}

/* The noise rule: beyond K x the spread, once there are MIN changes. */
static void test_calibrate(void **state)
{
	enum noise_call call;

	(void)state;
	assert_int_equal(history_calibrate(V__COUNT, NAN, NAN, 0, &call), V__COUNT);
	assert_int_equal(call, NOISE_NONE);
	/* too little history: compare's verdict stands, whatever the spread */
	assert_int_equal(history_calibrate(V_REGRESSED, -0.10, 0.5, HISTORY_NOISE_MIN - 1, &call),
			 V_REGRESSED);
	assert_int_equal(call, NOISE_UNKNOWN);
	assert_int_equal(history_calibrate(V_UNCHANGED, 0.0, NAN, 0, &call), V_UNCHANGED);
	assert_int_equal(call, NOISE_UNKNOWN);
	/* -10% is log 0.1054 from the previous night: beyond 4 x 2.6%, within
	 * 4 x 2.7% */
	assert_int_equal(history_calibrate(V_REGRESSED, -0.10, 0.026, 5, &call), V_REGRESSED);
	assert_int_equal(call, NOISE_BEYOND);
	assert_int_equal(history_calibrate(V_REGRESSED, -0.10, 0.027, 5, &call), V_INCONCLUSIVE);
	assert_int_equal(call, NOISE_WITHIN);
	/* +10% is log 0.0953: the rule is on the log change, both ways */
	assert_int_equal(history_calibrate(V_IMPROVED, 0.10, 0.0235, 20, &call), V_IMPROVED);
	assert_int_equal(history_calibrate(V_IMPROVED, 0.10, 0.0240, 20, &call), V_INCONCLUSIVE);
	/* a spread of zero (every night alike): any step is beyond it */
	assert_int_equal(history_calibrate(V_REGRESSED, -0.06, 0.0, 7, &call), V_REGRESSED);
	/* other verdicts stand */
	assert_int_equal(history_calibrate(V_INCONCLUSIVE, -0.10, 0.1, 9, &call), V_INCONCLUSIVE);
	assert_int_equal(call, NOISE_KNOWN);
}

static void test_why(void **state)
{
	char buf[256];

	(void)state;
	history_why(NOISE_UNKNOWN, NAN, 2, "", buf, sizeof(buf));
	assert_string_equal(buf, "too little history (2 of 5 nights): the normal spread is not known yet");
	history_why(NOISE_UNKNOWN, NAN, 0, "failed on a side", buf, sizeof(buf));
	assert_string_equal(buf, "failed on a side; too little history (0 of 5 nights): the normal "
			    "spread is not known yet");
	history_why(NOISE_WITHIN, 0.00775, 14, "", buf, sizeof(buf));
	assert_string_equal(buf, "within the normal night-to-night spread (±3.1%, 14 nights)");
	history_why(NOISE_BEYOND, 0.00775, 14, "", buf, sizeof(buf));
	assert_string_equal(buf, "beyond the normal night-to-night spread (±3.1%, 14 nights)");
	history_why(NOISE_KNOWN, 0.01, 9, "too noisy", buf, sizeof(buf));
	assert_string_equal(buf, "too noisy");
}

/* Each point learns from the runs before it only; history_noise_before
 * is the same walk. */
static void test_learn(void **state)
{
	enum { NR = 8 };
	static struct hand runs[NR];
	static double vals[NR][7];
	static const double level[NR] = { 100, 102, 99, 101, 98, 100, 103, 80 };
	const struct report *rs[NR];
	int mt = matrix_metric_index("msgs_per_s");
	struct history h;
	char err[256], name[16], start[32];

	(void)state;
	for (size_t i = 0; i < NR; i++) {
		snprintf(name, sizeof(name), "l%zu", i);
		snprintf(start, sizeof(start), "2026-12-%02zuT00:00:00Z", i + 1);
		hand_init(&runs[i], name, strdup(start), "k", yaml_a);
		for (size_t r = 0; r < 7; r++)
			vals[i][r] = level[i] * thr[r] / 100;	/* median: level */
		hand_cell(&runs[i], 0, "unix", vals[i], NULL, 7);
		rs[i] = &runs[i].r;
	}
	assert_int_equal(history_learn(&h, rs, NR, &mt, 1, err, sizeof(err)), 0);
	assert_int_equal(h.npoints, NR);
	assert_true(isnan(h.points[0].noise));
	assert_int_equal(h.points[1].noise_nights, 0);
	assert_int_equal(h.points[1].verdict, V__COUNT);	/* learn alone: no verdict */
	for (size_t i = 2; i < NR; i++) {
		double chg[NR];
		size_t used;
		for (size_t j = 1; j < i; j++)
			chg[j - 1] = log(level[j] / level[j - 1]);
		double want = history_noise(chg, i - 1, &used);
		assert_int_equal(h.points[i].noise_nights, i - 1);
		assert_true(fabs(h.points[i].noise - want) < 1e-12);
		size_t nights;
		assert_true(fabs(history_noise_before(&h, 0, i, &runs[i].r, &runs[i].cells[0], mt,
						      &nights) - want) < 1e-12);
		assert_int_equal(nights, i - 1);
	}
	/* the last run's -20% did not widen its own spread */
	size_t nights;
	double all = history_noise_before(&h, 0, h.nruns, &runs[0].r, &runs[0].cells[0], mt,
					  &nights);
	assert_int_equal(nights, NR - 1);
	assert_true(all > h.points[NR - 1].noise);
	history_release(&h);

	/* judged: the -20% against a spread of about 2%: a step; compare's
	 * verdict is kept apart */
	assert_int_equal(history_build(&h, rs, NR, 0.05, &mt, 1, err, sizeof(err)), 0);
	const struct hist_point *p = &h.points[NR - 1];
	assert_int_equal(p->compared, V_REGRESSED);
	assert_int_equal(p->call, NOISE_BEYOND);
	assert_int_equal(p->verdict, V_REGRESSED);
	assert_int_equal(p->night, V_REGRESSED);
	assert_int_equal(p->gate_verdict, V__COUNT);
	assert_int_equal(h.points[2].call, NOISE_UNKNOWN);	/* 1 change */
	history_release(&h);
	for (size_t i = 0; i < NR; i++)
		free((char *)runs[i].meta[0].value);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_steps, setup, teardown),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_calibrate),
		cmocka_unit_test(test_why),
		cmocka_unit_test_setup_teardown(test_learn, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
