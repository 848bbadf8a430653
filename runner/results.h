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
 *                               printed (some figures are the programs' own)
 *   cpu_us_per_rtt              CPU per round trip (cpu_us_per_msg is per
 *                               message each way since this column came)
 *   start_spread_us start_offsets_us   how far apart the clients started;
 *                               each one's delay after the release (';' list)
 *   printed_metrics             the metrics program clients printed (';' list)
 *   loadavg_before loadavg_after   the machine's 1-minute load average
 *                               (/proc/loadavg) just before the repetition's
 *                               workers start and just after they are reaped;
 *                               failed rows have them too
 * (see aggregate.h for what each figure means).  Columns are only ever
 * added at the end; readers find them by name.
 *
 * timeline.csv, when the plan has stream cells: one row per interval of
 * each stream repetition, counted at the receiver from the start signal:
 *   cell rep interval_start_s interval_s messages bytes covered_s
 * covered_s is interval_s except in the last interval, which ends with the
 * last message: the rate of an interval is messages / covered_s.  When a
 * repetition's timeline rows cannot all be written, none of them stays.
 */
#ifndef MATRIX_RESULTS_H
#define MATRIX_RESULTS_H

#include <stddef.h>

#include "aggregate.h"
#include "csvfile.h"
#include "plan.h"

struct results_writer {
	const struct plan *plan;
	struct csv_out results;
	struct csv_out timeline;
	int has_timeline;
	unsigned long rows;	/* rows of results.csv written whole */
};

/* Creates DIR/results.csv (and DIR/timeline.csv) with their headers. */
int results_open(struct results_writer *w, const char *dir, const struct plan *pl,
		 char *err, size_t errlen);
/* Appends one row (and its timeline rows); -1 with err ("results.csv:
 * reason") on a write error, after which the file ends with the rows
 * before it (csvfile.h), and the run must stop. */
int results_write(struct results_writer *w, const struct cell *c, const struct result_row *row,
		  const struct cell_outcome *o, char *err, size_t errlen);
int results_close(struct results_writer *w);

/* The columns of results.csv for pl, in order, as results_open writes them
 * (names[] lives as long as pl): their count, at most max are filled. */
size_t results_columns(const struct plan *pl, const char **names, size_t max);
/* `matrix run --resume`: opens DIR/results.csv (and DIR/timeline.csv) to
 * append to, as results_open would have left them (a file the run was
 * killed before making is made, with its header); -1 with err. */
int results_reopen(struct results_writer *w, const char *dir, const struct plan *pl,
		   char *err, size_t errlen);

#endif
