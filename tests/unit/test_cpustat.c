/*
 * Unit tests for base/cpustat.c: /proc/stat's text parsed (the aggregate
 * line, not a CPU's; an older kernel's shorter line; no line at all), a
 * window's figures from two samples made by hand (the busy jiffies less
 * our own CPU time, over the wall time; a short window, a counter that
 * went back), and the CPUs' clock from a sysfs tree made in a folder.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "cpustat.h"
#include "unit.h"

static void test_parse(void **state)
{
	static const char text[] =
		"cpu  2158863 90384 831477 957624 6397 100 44759 23324 5 0\n"
		"cpu0 1084755 46058 415127 473384 3732 0 21575 11697 0 0\n"
		"intr 123 4 5 6\n"
		"ctxt 99\n"
		"procs_running 3\n"
		"procs_blocked 0\n";
	struct cpustat s;

	(void)state;
	assert_int_equal(cpustat_parse(text, &s), 0);
	/* user nice system irq softirq; guest (5) is inside user already */
	assert_int_equal(s.busy, 2158863ull + 90384 + 831477 + 100 + 44759);
	assert_int_equal(s.iowait, 6397);
	assert_int_equal(s.steal, 23324);
	assert_int_equal(s.total, s.busy + 957624 + 6397 + 23324);
	assert_int_equal(s.running, 3);
	/* an older kernel: four figures, no steal; no procs_running */
	assert_int_equal(cpustat_parse("cpu  10 20 30 40\n", &s), 0);
	assert_int_equal(s.busy, 60);
	assert_int_equal(s.total, 100);
	assert_int_equal(s.steal, 0);
	assert_int_equal(s.running, -1);
	/* a CPU's line is not the machine's; three figures are too few */
	assert_int_equal(cpustat_parse("cpu0 1 2 3 4 5 6 7 8\n", &s), -1);
	assert_int_equal(cpustat_parse("cpu  1 2 3\n", &s), -1);
	assert_int_equal(cpustat_parse("", &s), -1);
}

static void sample(struct cpustat_sample *s, unsigned long long busy, unsigned long long idle,
		   unsigned long long iowait, unsigned long long steal, double own, double at_s)
{
	memset(s, 0, sizeof(*s));
	s->ok = 1;
	s->cpu.busy = busy;
	s->cpu.iowait = iowait;
	s->cpu.steal = steal;
	s->cpu.total = busy + idle + iowait + steal;
	s->cpu.running = 1;
	s->own_cpu_s = own;
	s->at_ns = (uint64_t)(at_s * 1e9);
}

static void test_window(void **state)
{
	struct cpustat_sample a, b;
	struct cpustat_window w;

	(void)state;
	/* 2 CPUs for 0.5 s at 100 jiffies a second: 100 jiffies in all; 60
	 * busy (0.6 s), 30 idle, 5 iowait, 5 steal; our own 0.2 s of CPU */
	sample(&a, 1000, 5000, 100, 200, 1.0, 10);
	sample(&b, 1060, 5030, 105, 205, 1.2, 10.5);
	cpustat_window(&a, &b, 100, &w);
	EXPECT(w.steal_pct, 5);
	EXPECT(w.iowait_pct, 5);
	EXPECT(w.other_cpus, (0.6 - 0.2) / 0.5);
	/* more of our own than the ticks counted: 0, not below */
	b.own_cpu_s = 1.9;
	cpustat_window(&a, &b, 100, &w);
	EXPECT(w.other_cpus, 0);
	/* a window under CPUSTAT_MIN_WINDOW_S: no figures */
	b.at_ns = a.at_ns + (uint64_t)(0.099 * 1e9);
	cpustat_window(&a, &b, 100, &w);
	EXPECT_NAN(w.other_cpus);
	EXPECT_NAN(w.steal_pct);
	EXPECT_NAN(w.iowait_pct);
	/* a sample unread, a counter that went back, no hz: none either */
	sample(&b, 1060, 5030, 105, 205, 1.2, 10.5);
	b.ok = 0;
	cpustat_window(&a, &b, 100, &w);
	EXPECT_NAN(w.other_cpus);
	sample(&b, 900, 5030, 105, 205, 1.2, 10.5);
	cpustat_window(&a, &b, 100, &w);
	EXPECT_NAN(w.other_cpus);
	sample(&b, 1060, 5030, 105, 205, 1.2, 10.5);
	cpustat_window(&a, &b, 0, &w);
	EXPECT_NAN(w.steal_pct);
}

static void put(const char *root, const char *cpu, const char *khz)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s", root, cpu);
	assert_int_equal(mkdir(dir, 0755), 0);
	if (!khz)
		return;
	snprintf(dir, sizeof(dir), "%s/%s/cpufreq", root, cpu);
	assert_int_equal(mkdir(dir, 0755), 0);
	unit_write_file(dir, "scaling_cur_freq", khz);
}

static void test_mhz(void **state)
{
	char root[256];

	(void)state;
	assert_int_equal(unit_tmpdir(root, sizeof(root), "test_cpustat"), 0);
	EXPECT_NAN(cpustat_mhz(root));		/* no CPU has one */
	put(root, "cpu0", "2400000\n");
	put(root, "cpu1", "1800000\n");
	put(root, "cpu2", NULL);		/* offline, or no cpufreq: not counted */
	put(root, "cpufreq", "9999999\n");	/* not a CPU */
	put(root, "cpu3", "garbage\n");
	EXPECT(cpustat_mhz(root), 2100);
	assert_int_equal(unit_remove_tree(root), 0);
	EXPECT_NAN(cpustat_mhz(root));		/* no folder at all */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_mhz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
