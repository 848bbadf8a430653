/*
 * results: the run folder's raw CSV files, written through csvfile.h.
 *
 * results.csv, one row per cell repetition, flushed as each one ends:
 *   cell                 cell number (plan.h)
 *   <one column per key of `matrix:`, in file order>
 *                        sizes in bytes, durations in seconds, booleans
 *                        true/false, names as written
 *   rep, status, error   repetition (1-based), "ok" or what went wrong, detail
 *   elapsed_s messages bytes msgs_per_s mib_per_s
 *   rtt_mean_us rtt_p50_us rtt_p90_us rtt_p99_us rtt_p999_us rtt_max_us
 *   client_cpu_s server_cpu_s cpu_us_per_msg ctx_switches
 *   rtt_min_us rtt_samples sent_messages sent_msgs_per_s sent_mib_per_s
 *   sndbuf rcvbuf nodelay max_rss_kib wall_s started_at
 *   lost duplicated reordered   (lossy transports only; empty for others)
 *   measured_by                 worker (our clients timed it), process (a
 *                               program client timed from spawn to exit) or
 *                               printed (some figures are the programs' own);
 *                               a stream row with a program names both sides:
 *                               receiver=X;senders=Y, each one of the three
 *   cpu_us_per_rtt              CPU per round trip (cpu_us_per_msg is per
 *                               message each way since this column came)
 *   start_spread_us start_offsets_us   how far apart the clients started;
 *                               each one's delay after the release (';' list)
 *   printed_metrics             the metrics programs printed (';' list)
 *   loadavg_before loadavg_after   the machine's 1-minute load average
 *                               (/proc/loadavg) just before the repetition's
 *                               workers start and just after they are reaped;
 *                               failed rows have them too
 *   repeat_stop                 repeat: auto: why the cell stopped where it did
 *   placement                   the CPUs the workers ran on (the cpu: key,
 *                               placement.h): none, or server=0;clients=1
 *                               (lists 1,2, runs 1-3); every row has it
 *   steal_pct iowait_pct        the machine around the repetition, from
 *   runnable cpu_mhz other_cpus /proc/stat read just before its workers
 *                               start and just after they are reaped
 *                               (cpustat.h), failed rows too: steal and
 *                               iowait jiffies as % of all CPUs' jiffies
 *                               between; procs_running just after (the
 *                               runner itself, reading it, is one; the
 *                               workers are reaped by then); the mean of
 *                               the CPUs' scaling_cur_freq just after, in
 *                               MHz, empty where sysfs has none; the CPU
 *                               time other processes used, in CPUs (the
 *                               busy jiffies less the runner's and its
 *                               reaped children's own CPU time, over the
 *                               wall time; >= 0).  steal_pct, iowait_pct
 *                               and other_cpus are empty for a repetition
 *                               under CPUSTAT_MIN_WINDOW_S (0.1 s: the
 *                               counters tick in 10 ms) or without /proc
 *   congestion mss              tcp: TCP_CONGESTION of every connection (each
 *                               name once, ';' between) and the first client's
 *                               TCP_MAXSEG, read back; empty elsewhere
 *   link_cpu_s                  topology: netns only: the link process's CPU
 *                               time over the repetition (netns.h), seconds;
 *                               empty when it did not run
 *   link_delay link_jitter link_rate link_loss   topology: link:'s keys the
 *                               matrix writes (dimensions, matrix.h), after
 *                               every other column: durations in seconds,
 *                               the rate in bits per second, the loss in
 *                               percent; an older folder has none (no link)
 * (see aggregate.h for what each figure means).  Columns are only ever
 * added at the end; readers find them by name.
 *
 * timeline.csv, when the plan has stream cells: one row per interval of
 * each stream repetition, counted at the receiver from the start signal:
 *   cell rep interval_start_s interval_s messages bytes covered_s
 * covered_s is interval_s except in the last interval, which ends with the
 * last message: the rate of an interval is messages / covered_s.  A
 * program receiver with `timeline:` gives its own lines instead, counted
 * from its first sender's spawn, each as long as the program's interval
 * was (prog_timeline.h); bytes = messages x size.  When a repetition's
 * timeline rows cannot all be written, none of them stays.  A record:
 * totals cell has none (its receiver kept no timeline).
 *
 * hist.csv, when the plan has pingpong or echo cells: each ok
 * repetition's round-trip times, every client's histogram merged
 * (aggregate_rtt_hist, the one its rtt_* figures come from), one row per
 * non-empty bucket in ascending order:
 *   cell rep low_us high_us count
 * count round trips took low_us <= t < high_us (exact decimals of whole
 * ns).  The counts add up to the row's rtt_samples.  A bucket is at most
 * 1/128 of its low bound wide (hist.h), so a percentile taken as its
 * bucket's midpoint is within 0.4% of the true value.  A record: totals
 * cell has no rows (its clients kept no buckets).  At most
 * HIST_CSV_ROWS rows per repetition: a histogram with more non-empty
 * buckets has adjacent pairs merged (64 per octave, then 32, ...) until
 * it fits, and its percentiles are then within half a row's width, as
 * (high_us - low_us) / low_us / 2 says.  The overflow (2^40 ns and more),
 * when any, is a last row up to the maximum.  The rows of a repetition
 * come before its results row, whole or none: a resume drops rows without
 * one.
 */
#ifndef MATRIX_RESULTS_H
#define MATRIX_RESULTS_H

#include <stddef.h>

#include "aggregate.h"
#include "csvfile.h"
#include "plan.h"

#define HIST_CSV_ROWS 512	/* hist.csv rows per repetition, at most */

struct results_writer {
	const struct plan *plan;
	struct csv_out results;
	struct csv_out timeline;
	struct csv_out hist;
	int has_timeline;
	int has_hist;
	unsigned long rows;	/* rows of results.csv written whole */
};

/* Creates DIR/results.csv (and DIR/timeline.csv, DIR/hist.csv) with their
 * headers. */
int results_open(struct results_writer *w, const char *dir, const struct plan *pl,
		 char *err, size_t errlen);
/* Appends one row (and its timeline or hist rows); -1 with err ("results.csv:
 * reason") on a write error, after which the file ends with the rows
 * before it (csvfile.h), and the run must stop. */
int results_write(struct results_writer *w, const struct cell *c, const struct result_row *row,
		  const struct cell_outcome *o, char *err, size_t errlen);
int results_close(struct results_writer *w);

/* The columns of results.csv for pl, in order, as results_open writes them
 * (names[] lives as long as pl): their count, at most max are filled. */
size_t results_columns(const struct plan *pl, const char **names, size_t max);
/* `matrix run --resume`: opens DIR/results.csv (and timeline.csv, hist.csv) to
 * append to, as results_open would have left them (a file the run was
 * killed before making is made, with its header); -1 with err. */
int results_reopen(struct results_writer *w, const char *dir, const struct plan *pl,
		   char *err, size_t errlen);

#endif
