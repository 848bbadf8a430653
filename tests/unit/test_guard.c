/*
 * Unit tests for gate/guard.c on reports made by hand: each bound of
 * guard_judge just inside and just outside, either side the busier one,
 * a figure missing on a side, the load average as the fallback of a
 * folder without other_cpus, and guard_busy on a cell and on a run.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "guard.h"
#include "unit.h"

/* A run by hand: one cell, meta.csv's cores (NULL: none). */
struct hand {
	struct report r;
	struct rcell cell;
	char *dimv[1];
	struct { char *key, *value; } meta[1];
};

static void hand_init(struct hand *h, const char *cores)
{
	static char *names[] = { "transport" };
	static const double thr[] = { 100, 101, 99 };

	memset(h, 0, sizeof(*h));
	h->r.dir = "hand";
	h->r.dimnames = names;
	h->r.ndims = 1;
	unit_hand_cell(&h->cell, 1, h->dimv, "unix", thr, NULL, 3);
	h->r.cells = &h->cell;
	h->r.ncells = 1;
	if (cores) {
		h->meta[0].key = "cores";
		h->meta[0].value = (char *)cores;
		h->r.meta = (void *)h->meta;
		h->r.nmeta = 1;
	}
}

/* The cell's machine: NAN for a figure it lacks. */
static void state(struct hand *h, double other, double steal, double load, double mhz)
{
	h->cell.state.other_cpus = other;
	h->cell.state.steal_pct = steal;
	h->cell.state.loadavg = load;
	h->cell.state.cpu_mhz = mhz;
}

/* guard_judge(base, new) is want, with that reason ("" when comparable) */
static void judge(struct hand *b, struct hand *n, int want, const char *why)
{
	char buf[512] = "junk";

	assert_int_equal(guard_judge(&b->r, &b->cell, &n->r, &n->cell, buf, sizeof(buf)), want);
	assert_string_equal(buf, why);
}

static void test_other_cpus(void **s)
{
	struct hand b, n;

	(void)s;
	hand_init(&b, "2");
	hand_init(&n, "2");
	/* 2 cores: the bound is 0.25 CPUs (12.5% of 2 is less) */
	state(&b, 0.10, 0, 0.9, NAN);
	state(&n, 0.34, 0, 1.0, NAN);
	judge(&b, &n, 0, "");
	state(&n, 0.36, 0, 1.0, NAN);
	judge(&b, &n, 1, "the new run's machine was busier: other processes used 0.36 CPUs "
	      "against 0.10 (load 1.0 against 0.9 on 2 CPUs)");
	judge(&n, &b, 1, "the base run's machine was busier: other processes used 0.36 CPUs "
	      "against 0.10 (load 1.0 against 0.9 on 2 CPUs)");
	/* no load on a side: no load in the reason */
	n.cell.state.loadavg = NAN;
	judge(&b, &n, 1, "the new run's machine was busier: other processes used 0.36 CPUs "
	      "against 0.10");
	/* 8 cores: 12.5% of them, 1 CPU */
	hand_init(&b, "8");
	hand_init(&n, "8");
	state(&b, 0.5, NAN, NAN, NAN);
	state(&n, 1.45, NAN, NAN, NAN);
	judge(&b, &n, 0, "");
	state(&n, 1.55, NAN, NAN, NAN);
	judge(&b, &n, 1, "the new run's machine was busier: other processes used 1.55 CPUs "
	      "against 0.50");
	/* the cores unknown: 0.25 CPUs */
	hand_init(&b, NULL);
	hand_init(&n, NULL);
	state(&b, 0.5, NAN, NAN, NAN);
	state(&n, 0.8, NAN, NAN, NAN);
	judge(&b, &n, 1, "the new run's machine was busier: other processes used 0.80 CPUs "
	      "against 0.50");
}

static void test_steal(void **s)
{
	struct hand b, n;

	(void)s;
	hand_init(&b, "2");
	hand_init(&n, "2");
	state(&b, 0, 2.0, NAN, NAN);
	state(&n, 0, 6.9, NAN, NAN);
	judge(&b, &n, 0, "");
	state(&n, 0, 7.1, NAN, NAN);
	judge(&b, &n, 1, "the new run's machine lost more of its CPUs' time to the hypervisor: "
	      "steal 7.1% against 2.0%");
	judge(&n, &b, 1, "the base run's machine lost more of its CPUs' time to the hypervisor: "
	      "steal 7.1% against 2.0%");
	/* missing on a side: not checked */
	b.cell.state.steal_pct = NAN;
	judge(&b, &n, 0, "");
}

static void test_cpu_mhz(void **s)
{
	struct hand b, n;

	(void)s;
	hand_init(&b, "2");
	hand_init(&n, "2");
	state(&b, 0, 0, 0.1, 2000);
	state(&n, 0, 0, 0.1, 1901);	/* -4.95% */
	judge(&b, &n, 0, "");
	state(&n, 0, 0, 0.1, 2099);	/* +4.95% */
	judge(&b, &n, 0, "");
	state(&n, 0, 0, 0.1, 1899);	/* -5.05% */
	judge(&b, &n, 1, "the new run's machine ran its CPUs at a lower clock: 1899 MHz against 2000 MHz");
	state(&n, 0, 0, 0.1, 2101);	/* +5.05%: the base ran slower */
	judge(&b, &n, 1, "the base run's machine ran its CPUs at a lower clock: 2000 MHz against 2101 MHz");
	/* a machine that does not say: not checked */
	n.cell.state.cpu_mhz = NAN;
	judge(&b, &n, 0, "");
}

static void test_load_is_the_fallback(void **s)
{
	struct hand b, n;

	(void)s;
	hand_init(&b, "2");
	hand_init(&n, "2");
	/* both sides measured other_cpus: the load average is not asked */
	state(&b, 0.1, 0, 0.2, NAN);
	state(&n, 0.1, 0, 5.4, NAN);
	judge(&b, &n, 0, "");
	/* a folder without other_cpus: 0.5 per core */
	b.cell.state.other_cpus = NAN;
	state(&n, 0.1, 0, 1.1, NAN);	/* 0.1 against 0.55 per core */
	judge(&b, &n, 0, "");
	state(&n, 0.1, 0, 1.3, NAN);	/* 0.1 against 0.65 */
	judge(&b, &n, 1, "the new run's machine was busier: load 1.3 against 0.2 on 2 CPUs");
	judge(&n, &b, 1, "the base run's machine was busier: load 1.3 against 0.2 on 2 CPUs");
	/* each side's load over its own cores: 0.5 against 1.0 is at the bound */
	hand_init(&b, "4");
	state(&b, NAN, NAN, 2.0, NAN);
	state(&n, NAN, NAN, 2.0, NAN);
	judge(&b, &n, 0, "");
	state(&n, NAN, NAN, 2.1, NAN);
	judge(&b, &n, 1, "the new run's machine was busier: load 2.1 against 2.0 on 4 and 2 CPUs");
	/* no cores on a side: nothing to hold the load against */
	hand_init(&b, NULL);
	state(&b, NAN, NAN, 0.1, NAN);
	state(&n, NAN, NAN, 9.0, NAN);
	judge(&b, &n, 0, "");
}

static void test_nothing_known(void **s)
{
	struct hand b, n;

	(void)s;
	hand_init(&b, "2");
	hand_init(&n, "2");	/* unit_hand_cell: every figure NaN, an older folder */
	judge(&b, &n, 0, "");
	state(&n, 1.9, 50, 9, 800);
	judge(&b, &n, 0, "");
	/* why may be left out */
	state(&b, 0, 0, 0, 2000);
	assert_int_equal(guard_judge(&b.r, &b.cell, &n.r, &n.cell, NULL, 0), 1);
}

static void test_busy(void **s)
{
	struct hand h;
	char why[512];

	(void)s;
	hand_init(&h, "2");
	state(&h, 0.49, 9.9, 1.9, NAN);
	assert_int_equal(guard_busy(&h.r, &h.cell, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	state(&h, 0.51, 10.1, 2.1, NAN);
	assert_int_equal(guard_busy(&h.r, &h.cell, why, sizeof(why)), 1);
	assert_string_equal(why, "other processes used 0.51 of the 2 CPUs; the hypervisor took "
			    "10.1% of the CPUs' time (steal); the 1-minute load average was 2.10 "
			    "on 2 cores");
	state(&h, NAN, NAN, NAN, NAN);
	assert_int_equal(guard_busy(&h.r, &h.cell, why, sizeof(why)), 0);
	/* the whole run: its repetitions, as report_load counts them */
	assert_int_equal(guard_busy(&h.r, NULL, why, sizeof(why)), 0);
	h.r.other = (struct rbusy){ .reps = 14, .busy = 3, .max = 1.62 };
	h.r.steal = (struct rbusy){ .reps = 14, .busy = 1, .max = 12.5 };
	assert_int_equal(guard_busy(&h.r, NULL, why, sizeof(why)), 1);
	assert_string_equal(why, "other processes used more than 0.50 of the 2 CPUs in 3 of the "
			    "14 repetitions (up to 1.62); the hypervisor took more than 10% of the "
			    "CPUs' time (steal) in 1 of the 14 repetitions (up to 12.5%)");
	h.r.load = (struct rbusy){ .reps = 14, .busy = 5, .max = 5.4 };
	h.r.steal.busy = 0;
	assert_int_equal(guard_busy(&h.r, NULL, why, sizeof(why)), 1);
	assert_string_equal(why, "the 1-minute load average was above the 2 cores around 5 of the "
			    "14 repetitions (up to 5.40); other processes used more than 0.50 of "
			    "the 2 CPUs in 3 of the 14 repetitions (up to 1.62)");
	report_busy_columns(&h.r, why, sizeof(why));
	assert_string_equal(why, "`loadavg_before`, `loadavg_after`, `other_cpus`");
}

/* Repetitions too short for other_cpus: the tasks runnable at their ends,
 * more than half a task apart, before the load average. */
static void test_runnable_before_the_load(void **s)
{
	struct hand b, n;

	(void)s;
	hand_init(&b, "2");
	hand_init(&n, "2");
	state(&b, NAN, NAN, 0.2, NAN);
	state(&n, NAN, NAN, 0.2, NAN);
	b.cell.state.runnable = 1;
	n.cell.state.runnable = 1.5;	/* the median of an even count: at the bound */
	judge(&b, &n, 0, "");
	n.cell.state.runnable = 2;	/* one task more */
	judge(&b, &n, 1, "the new run's machine was busier: 2 tasks runnable against 1 (load 0.2 "
	      "against 0.2 on 2 CPUs)");
	/* with other_cpus on both sides, runnable is not asked */
	state(&b, 0.1, NAN, 0.2, NAN);
	state(&n, 0.1, NAN, 0.2, NAN);
	judge(&b, &n, 0, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_other_cpus),
		cmocka_unit_test(test_steal),
		cmocka_unit_test(test_cpu_mhz),
		cmocka_unit_test(test_load_is_the_fallback),
		cmocka_unit_test(test_runnable_before_the_load),
		cmocka_unit_test(test_nothing_known),
		cmocka_unit_test(test_busy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
