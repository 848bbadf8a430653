/*
 * cpustat: what the machine did besides our own work over a window of
 * time (one cell repetition), for results.csv's machine-state columns
 * (runner/results.h) and the guard that reads them back (gate/guard.h).
 *
 * The source is /proc/stat: its aggregate "cpu" line counts the time of
 * all CPUs since boot in jiffies (1/USER_HZ s, sysconf(_SC_CLK_TCK)),
 *   cpu  user nice system idle iowait irq softirq steal guest guest_nice
 * (guest and guest_nice are inside user and nice already), and its
 * procs_running line the tasks runnable at the moment it is read.  The
 * kernel adds a whole tick to whatever a CPU was doing at each tick
 * (tick-based accounting), and the line is the sum over CPUs rounded down
 * to a jiffy, so a window's figures are good to a few ticks: under
 * CPUSTAT_MIN_WINDOW_S they would be mostly rounding, and are NaN.
 *
 * Call order: cpustat_sample() just before the work, again just after
 * (once every child it made is reaped: a child's CPU time counts as ours
 * only from then), then cpustat_window() on the two.  cpustat_parse and
 * cpustat_window are pure; cpustat_mhz reads the folder it is given.
 */
#ifndef MATRIX_CPUSTAT_H
#define MATRIX_CPUSTAT_H

#include <stdint.h>

#define CPUSTAT_MIN_WINDOW_S 0.1	/* shorter windows give no figures (above) */

/* /proc/stat's counters, in jiffies of all CPUs since boot. */
struct cpustat {
	unsigned long long busy;	/* user + nice + system + irq + softirq */
	unsigned long long iowait, steal;
	unsigned long long total;	/* all eight: busy + idle + iowait + steal */
	long running;			/* procs_running; -1 when the text has none */
};

/* /proc/stat's text (NUL-terminated) into *s: 0, or -1 when it has no
 * aggregate "cpu " line of at least its first four figures (user nice
 * system idle; a figure an older kernel does not write counts 0). */
int cpustat_parse(const char *text, struct cpustat *s);

/* One end of a window. */
struct cpustat_sample {
	struct cpustat cpu;
	int ok;			/* /proc/stat was read and parsed */
	double own_cpu_s;	/* CPU time (user + system) of this process, all
				 * its threads, and of its children reaped so far
				 * (getrusage RUSAGE_SELF + RUSAGE_CHILDREN) */
	uint64_t at_ns;		/* the monotonic clock (clock.h) */
};

/* Takes one: never fails (ok says whether /proc/stat could be read). */
void cpustat_sample(struct cpustat_sample *s);

/* What a window held, each figure NaN when a sample is not ok, the window
 * is under CPUSTAT_MIN_WINDOW_S, or no jiffy passed in it. */
struct cpustat_window {
	double steal_pct;	/* steal jiffies over all jiffies of all CPUs, % */
	double iowait_pct;	/* iowait jiffies likewise, % */
	/* other processes' CPU time over the wall time, in CPUs: the busy
	 * jiffies (of every process, interrupts included) / hz, less our
	 * own_cpu_s, over at_ns's difference; clamped at 0 (the ticks'
	 * rounding can make it a little negative) */
	double other_cpus;
};

/* The window from a to b (b taken after a), hz jiffies a second (USER_HZ;
 * 0 or less: no figures). */
void cpustat_window(const struct cpustat_sample *a, const struct cpustat_sample *b, long hz,
		    struct cpustat_window *w);

/* The CPUs' clock now: the mean of DIR/cpuN/cpufreq/scaling_cur_freq (kHz)
 * over the CPUs N that have one, in MHz; NaN when none has (a machine,
 * like many virtual ones, that does not expose it).  DIR is
 * /sys/devices/system/cpu for the machine itself. */
double cpustat_mhz(const char *dir);

#endif
