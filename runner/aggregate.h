/*
 * aggregate: the result records of one cell repetition (a server's and each
 * client's) as one row of figures.
 *
 * pingpong, echo: messages are round trips counted by the clients; the
 *   window runs from the earliest client's first request to the latest
 *   client's last response; RTT percentiles come from the clients'
 *   histograms merged; bytes count request and response.
 * stream: messages and bytes are what the server received (whole messages
 *   only); the rate's window runs from the receiver's first timed read to
 *   its last, and counts the messages that arrived inside it (those of the
 *   first read came earlier); the sender-side rate (sent_msgs_per_s) is
 *   reported beside it.
 * CPU: client_cpu_s and server_cpu_s are whole-process figures from wait4
 *   (setup and warmup included); cpu_us_per_msg uses the CPU the workers
 *   measured over the timed window only.  ctx_switches is every worker's
 *   voluntary + involuntary switches from wait4.
 * Lossy transports (udp): `lost` counts stream messages sent but never
 *   received, or pingpong requests never answered in time; `duplicated`
 *   and `reordered` what the stream receiver saw.  Loss makes the row
 *   `loss: ...` (not ok, figures kept) unless the cell allows it.
 * Program clients (programs:): the runner knows their wall time (spawn to
 *   reap), rusage and share of the count, so messages and msgs_per_s are
 *   whole-process figures (measured_by = process); figures the programs
 *   print (result: regexes) replace them: times averaged over the clients,
 *   rates summed.
 * A failed repetition keeps its status and error, and no figures (NaN).
 */
#ifndef MATRIX_AGGREGATE_H
#define MATRIX_AGGREGATE_H

#include <stdint.h>

#include "cell.h"

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
	double client_cpu_s, server_cpu_s, cpu_us_per_msg;
	double ctx_switches, max_rss_kib;
	double sndbuf, rcvbuf, nodelay;
	double wall_s;			/* the whole repetition, fork to reap */
	double lost, duplicated, reordered;	/* lossy transports; NaN for others */
	const char *measured_by;	/* "worker": our clients timed it; "process": a
					 * program client, timed from spawn to exit */
};

void aggregate_row(const struct cell *c, unsigned rep, const struct cell_outcome *o,
		   const char *started_at, struct result_row *row);

#endif
