/*
 * aggregate: the result records of one cell repetition (a server's and each
 * client's) as one row of figures.
 *
 * pingpong, echo: messages are round trips counted by the clients; the
 *   window runs from the earliest client's first request to the latest
 *   client's last response; RTT percentiles come from the clients'
 *   histograms merged; bytes count request and response.  Paced cells
 *   (rate:) time each round trip from when it was due (pace.h).  With
 *   record: totals the clients keep no histogram: the percentiles are NaN
 *   (empty), mean, min and max come from the totals.
 * stream: messages and bytes are what the server received (whole messages
 *   only, every timed one); the rate's window runs from the earliest
 *   sender's start (the start signal) to the receiver's last timed read, so
 *   what was queued in the socket before the receiver ran is inside it.
 *   The sender-side rate (sent_msgs_per_s) is reported beside it.  A row
 *   whose receiver finished before the last send began (beyond the clock's
 *   resolution) fails its check: its receiver rate would exceed what the
 *   senders could send.
 * CPU: client_cpu_s and server_cpu_s are whole-process figures from wait4
 *   (setup and warmup included); cpu_us_per_msg (per message each way: a
 *   round trip is two) and cpu_us_per_rtt (per round trip) use the CPU the
 *   workers measured over the timed window only.  ctx_switches is every
 *   worker's voluntary + involuntary switches from wait4.
 * Start: start_spread_us is how far apart the worker clients' first clock
 *   reads after the start signal were; start_offsets_us each one's delay
 *   after the runner released them.
 * Lossy transports (udp): `lost` counts stream messages sent but never
 *   received, or pingpong requests never answered in time; `duplicated`
 *   and `reordered` what the stream receiver saw.  Loss makes the row
 *   `loss: ...` (not ok, figures kept) unless the cell allows it.
 * Program clients (programs:): the runner knows their wall time (spawn to
 *   reap), rusage and share of the count, so messages and msgs_per_s are
 *   whole-process figures (measured_by = process); figures the programs
 *   print (result: regexes) replace them (measured_by = printed), combined
 *   over clients as the metric table says (vocab.h enum combine), so that
 *   they mean what the built-in figures mean; a percentile printed by
 *   several clients is left empty.
 * Stream cells with programs: a program receiver's messages are the count
 *   it printed (else what the senders sent), its time the seconds it
 *   printed (or messages / its printed msgs_per_s or mib_per_s), else
 *   whole-process: from the first sender's spawn to its exit; a printed
 *   count is checked against what was sent.  Program senders: spawn to
 *   exit, or their printed sent_msgs_per_s (or messages / seconds).  Such
 *   a row's measured_by names both sides: "receiver=X;senders=Y", X and Y
 *   each worker, process or printed.
 * The kernel's view (tcp, tcp6): TCP_INFO of every connection our workers
 *   hold, read at the end of the timed window (wire.h tcp lines); a stream
 *   takes its senders' ends (a sender's retransmits, cwnd and delivery
 *   rate are on its side), pingpong, echo and pipeline both ends (both
 *   send).  tcp_retrans, tcp_delivery_rate and tcp_bytes_retrans are their
 *   sums, tcp_rtt_us, tcp_rttvar_us, tcp_cwnd and tcp_mss their medians
 *   (the metric table's combine); NaN (empty) for other transports.
 * direction: bidir (stream): the server also streams back to every client;
 *   rev_messages and rev_bytes are what the clients received (every one
 *   the server sent: a reliable transport loses none, else the row is not
 *   ok), their rates over the window from the earliest sender's start to
 *   the clients' last read of them.  NaN (empty) in a one-way cell.
 * Zero-copy senders (zerocopy: true): zc_sends, zc_completions and
 *   zc_copied are the clients' counts summed (zerocopy.h: one send call
 *   takes one id; the kernel merges a run of completed ids into one
 *   notification, so completions <= sends).
 * A failed repetition keeps its status and error, and no figures (NaN).
 */
#ifndef MATRIX_AGGREGATE_H
#define MATRIX_AGGREGATE_H

#include <stdint.h>

#include "cell.h"
#include "hist.h"

struct result_row {
	unsigned cell, rep;
	int ok;
	int skipped;			/* not a failure: the machine cannot run it */
	char status[256];
	char error[1024];
	char started_at[32];		/* UTC, ISO 8601 */
	double elapsed_s;
	double messages, bytes;		/* NaN when failed */
	double msgs_per_s, mib_per_s;
	double rtt_mean_us, rtt_min_us, rtt_p50_us, rtt_p90_us, rtt_p99_us, rtt_p999_us,
	       rtt_max_us;
	double rtt_samples;
	double sent_messages, sent_msgs_per_s, sent_mib_per_s;
	double client_cpu_s, server_cpu_s, cpu_us_per_msg, cpu_us_per_rtt;
	double ctx_switches, max_rss_kib;
	double sndbuf, rcvbuf, nodelay;
	double wall_s;			/* the whole repetition, fork to reap */
	double lost, duplicated, reordered;	/* lossy transports; NaN for others */
	const char *measured_by;	/* "worker": our clients timed it; "process": a
					 * program client, timed from spawn to exit;
					 * "printed": some figures are what program
					 * clients printed (printed_metrics says which) */
	char printed_metrics[256];	/* ';'-separated metric names, "" if none */
	double start_spread_us;		/* last client's start - first client's */
	char start_offsets_us[1024];	/* each worker client's start after the
					 * release, ';'-separated, "" if unknown */
	char repeat_stop[64];		/* repeat: auto: why the cell stopped here */
	double loadavg_before, loadavg_after;	/* the machine's 1-minute load average
						 * just before and after the repetition
						 * (the runner's, not a figure; NaN
						 * until set, or when unreadable) */
	/* the machine around the repetition (cpustat.h; the runner's, not
	 * figures; NaN until set, or when unknown): steal and iowait as % of
	 * all CPUs' time over it, other processes' CPU time over it in CPUs,
	 * procs_running and the CPUs' mean clock (MHz) just after it */
	double steal_pct, iowait_pct, runnable, cpu_mhz, other_cpus;
	/* the kernel's view of the TCP connections (see above): metrics */
	double tcp_retrans, tcp_rtt_us, tcp_rttvar_us, tcp_cwnd, tcp_delivery_rate,
	       tcp_bytes_retrans, tcp_mss;
	/* direction: bidir: server to client, counted at the clients */
	double rev_messages, rev_bytes, rev_msgs_per_s, rev_mib_per_s;
	/* tcp: read back from the sockets (issue 29) */
	double mss;			/* the first client's TCP_MAXSEG; NaN elsewhere */
	char congestion[64];		/* TCP_CONGESTION of every connection, the
					 * clients' then the server's, each name once
					 * (';' between different ones); "" elsewhere */
	/* zerocopy: true (tcp stream senders): MSG_ZEROCOPY send calls,
	 * completion notifications reaped, of them marked copied by the
	 * kernel, summed over the clients; NaN in other cells */
	double zc_sends, zc_completions, zc_copied;
	/* topology: netns: the link process's CPU time over the repetition
	 * (the runner's, not a figure: netns_cpu_ns); NaN elsewhere */
	double link_cpu_s;
};

/* The round-trip times of a repetition: every client's histogram merged
 * into h (empty for a stream cell, a program client, a failed worker).
 * rtt_* figures of the row are this histogram's. */
void aggregate_rtt_hist(const struct cell_outcome *o, struct hist *h);

/* Percentile pct (in (0, 100)) of h, in µs, as the row's rtt_p* figures
 * are taken (percentile.h: the matrix's percentiles: beyond the metric
 * table's); NaN for an empty or totals-only histogram. */
double aggregate_rtt_percentile_us(const struct hist *h, double pct);

void aggregate_row(const struct cell *c, unsigned rep, const struct cell_outcome *o,
		   const char *started_at, struct result_row *row);

/* The field of row that holds the figure NAME (a metric of the table, or
 * another numeric column of results.csv: elapsed_s, messages, lost, ...),
 * or NULL when NAME is no figure of a row. */
double *aggregate_row_field(struct result_row *row, const char *name);
/* Its value; NaN when NAME is no figure. */
double aggregate_row_figure(const struct result_row *row, const char *name);

#endif
