/*
 * vocab: the words every layer shares, each defined once.
 *
 *   patterns     pingpong, echo, stream: how a cell's messages flow
 *   endpoints    tcp, ipc: where a zmq server binds
 *   records      full, totals: what a cell's workers keep of each message
 *   poll modes   block, busy, uring: how a worker waits for a message
 *   transports   the names a matrix may give `transport:`, in the order of
 *                the registry (transports/transport.h), which maps each
 *                name to its ops table; a unit test checks that the two
 *                agree name by name
 *   short window a timed window under which a cell's figures are mostly
 *                start-up: the runner warns, summary.md marks the cell
 *   kept rate    the share of a paced cell's rate under which its
 *                schedule was not kept: the runner warns, summary.md
 *                marks the cell
 *   metrics      the figures of results.csv that reports summarize and
 *                ratios compare, ONE table: name (the column), title (a
 *                table's heading), unit (as a person reads it), which
 *                direction is better, how clients' figures combine, and
 *                what exactly it counts
 *
 * Everything here is a constant: no state, no allocation.
 */
#ifndef MATRIX_VOCAB_H
#define MATRIX_VOCAB_H

#include <stddef.h>

enum pattern { PAT_PINGPONG, PAT_ECHO, PAT_STREAM, PAT_PIPELINE, PAT__COUNT };
extern const char *const pattern_names[PAT__COUNT];	/* "pingpong", ... */

enum endpoint { EP_TCP, EP_IPC, EP__COUNT };
extern const char *const endpoint_names[EP__COUNT];	/* "tcp", "ipc" */

/* record: full keeps every round trip's time (a histogram) and a stream
 * receiver's timeline; totals only counts, sums, min and max */
enum record { REC_FULL, REC_TOTALS, REC__COUNT };
extern const char *const record_names[REC__COUNT];	/* "full", "totals" */
/* How a worker waits for its descriptors (matrix key poll:): in the kernel
 * (blocking calls), or spinning on non-blocking ones (transport.h). */
enum poll_mode { POLL_BLOCK, POLL_BUSY, POLL_URING, POLL__COUNT };
extern const char *const poll_names[POLL__COUNT];	/* "block", "busy", "uring" */

/* How a sleeping shm worker is woken (matrix `wake:`): a futex or an eventfd. */
enum wake_mode { WAKE_FUTEX, WAKE_EVENTFD, WAKE__COUNT };
extern const char *const wake_names[WAKE__COUNT];	/* "futex", "eventfd" */

/* Which ways a stream cell moves its messages (matrix `direction:`): client to
 * server only, or both at once, each counted at its receiver (iperf3 --bidir). */
enum direction { DIR_ONE, DIR_BIDIR, DIR__COUNT };
extern const char *const direction_names[DIR__COUNT];	/* "one", "bidir" */

#define VOCAB_NTRANSPORTS 10
extern const char *const transport_names[VOCAB_NTRANSPORTS];	/* "tcp", "unix", ... */

/* A cell repetition's timed window (results.csv's elapsed_s) shorter than
 * this, in seconds, is mostly start-up (connecting, the first messages,
 * waking the other processes): its rates and times say little about the
 * transport. */
#define MATRIX_SHORT_WINDOW_S 0.1

/* A paced cell (rate: N/s) whose connections achieved under this share
 * of N per connection in a repetition (its msgs_per_s over concurrency; a
 * stream's senders', sent_msgs_per_s) did not keep its schedule: its
 * latencies count from when each request was due, behind a queue that
 * grew for as long as the window lasted. */
#define MATRIX_RATE_KEPT 0.95

enum better { LOWER_IS_BETTER = -1, HIGHER_IS_BETTER = 1 };

/* How one figure per client (what program clients print) makes the cell's
 * figure, with the same meaning as the built-in one:
 *   RATE  total messages over the longest client's window (the clients
 *         start together): sum(share) / max(share / rate)
 *   MEAN  a mean per sample: weighted by each client's share
 *   MAX   the largest
 *   ONE   a percentile: only one client's stands; several cannot be
 *         combined into the percentile of all their samples (left empty)
 *   SUM   a count or a rate of each connection's: the sum
 *   MEDIAN  a state of each connection's (an RTT, a window): the median
 *         (of an even number, the mean of the middle two)
 * The kernel's figures (tcp_*) combine so over the TCP connections' ends
 * too (cell/aggregate.h says which ends). */
enum combine { COMBINE_RATE, COMBINE_MEAN, COMBINE_MAX, COMBINE_ONE, COMBINE_SUM,
	       COMBINE_MEDIAN };

/* The metric table, one line a metric: X(name, title, unit, better,
 * combine, phrase, counts).  The name is the results.csv column and the
 * field of the row (struct result_row, cell/aggregate.h) that holds it;
 * the columns keep their results.csv order (a new metric's column goes
 * after the older ones, before the link's).  The phrase is the headline's
 * sentence around a ratio, the better side first (W, the ratio's text, at
 * least 1×, then L: three %s; NULL: a sentence made of the title).  A round trip is two messages (request
 * and response); a stream message is one.  The windows are those of
 * README "How it measures".  README "Adding a metric" says what else a
 * new line needs: its computation, nothing more. */
#define MATRIX_METRICS(X) \
	X(msgs_per_s, "messages per second", "msg/s", HIGHER_IS_BETTER, COMBINE_RATE, \
	  "%s delivered %s the messages per second of %s", \
	  "pingpong/echo: round trips completed per second of the clients' window; " \
	  "stream: messages received per second, from the senders' start to the last read") \
	X(mib_per_s, "MiB per second", "MiB/s", HIGHER_IS_BETTER, COMBINE_RATE, \
	  "%s delivered %s the MiB per second of %s", \
	  "the bytes of msgs_per_s (request and response for a round trip), in MiB") \
	X(rtt_mean_us, "round-trip time, mean", "µs", LOWER_IS_BETTER, COMBINE_MEAN, \
	  "%s's mean round trip was %s faster than %s's", \
	  "mean of every answered request's time, from the first try to send it to " \
	  "the end of its whole response") \
	X(rtt_p50_us, "round-trip time, median (p50)", "µs", LOWER_IS_BETTER, COMBINE_ONE, \
	  "%s's median round trip was %s faster than %s's", \
	  "median of the same round-trip times (all clients' samples merged)") \
	X(rtt_p90_us, "round-trip time, p90", "µs", LOWER_IS_BETTER, COMBINE_ONE, \
	  "%s's p90 round trip was %s faster than %s's", \
	  "90th percentile of the round-trip times") \
	X(rtt_p99_us, "round-trip time, p99", "µs", LOWER_IS_BETTER, COMBINE_ONE, \
	  "%s's p99 round trip was %s faster than %s's", \
	  "99th percentile of the round-trip times") \
	X(rtt_p999_us, "round-trip time, p99.9", "µs", LOWER_IS_BETTER, COMBINE_ONE, \
	  "%s's p99.9 round trip was %s faster than %s's", \
	  "99.9th percentile of the round-trip times") \
	X(rtt_max_us, "round-trip time, max", "µs", LOWER_IS_BETTER, COMBINE_MAX, \
	  "%s's longest round trip was %s faster than %s's", \
	  "the longest round trip") \
	X(cpu_us_per_msg, "CPU time per message, each way (all workers)", "µs/msg", \
	  LOWER_IS_BETTER, COMBINE_MEAN, \
	  "%s was %s cheaper than %s in CPU time per message", \
	  "user + system CPU of the server and every client over the timed window, " \
	  "per message moved one way (a round trip moves two)") \
	X(sent_msgs_per_s, "messages per second at the senders", "msg/s", HIGHER_IS_BETTER, \
	  COMBINE_RATE, "%s's senders sent %s the messages per second of %s's", \
	  "messages (stream) or requests (pingpong/echo) sent per second " \
	  "of the senders' window") \
	X(cpu_us_per_rtt, "CPU time per round trip (all workers)", "µs/rtt", LOWER_IS_BETTER, \
	  COMBINE_MEAN, "%s was %s cheaper than %s in CPU time per round trip", \
	  "the same CPU per round trip (pingpong/echo; empty for stream)") \
	X(tcp_retrans, "TCP segments retransmitted (kernel)", "segments", LOWER_IS_BETTER, \
	  COMBINE_SUM, NULL, \
	  "tcp, tcp6: TCP_INFO's tcpi_total_retrans at the end of the timed window, " \
	  "summed over the connections' sending ends (stream: the senders'; " \
	  "pingpong, echo, pipeline: both ends'); empty for other transports") \
	X(tcp_rtt_us, "TCP smoothed round-trip time (kernel)", "µs", LOWER_IS_BETTER, \
	  COMBINE_MEDIAN, NULL, \
	  "TCP_INFO's tcpi_rtt (the kernel's smoothed RTT), the median over the same ends") \
	X(tcp_rttvar_us, "TCP round-trip time variation (kernel)", "µs", LOWER_IS_BETTER, \
	  COMBINE_MEDIAN, NULL, "TCP_INFO's tcpi_rttvar, the median over the same ends") \
	X(tcp_cwnd, "TCP congestion window (kernel)", "segments", HIGHER_IS_BETTER, \
	  COMBINE_MEDIAN, NULL, "TCP_INFO's tcpi_snd_cwnd, the median over the same ends") \
	X(tcp_delivery_rate, "TCP delivery rate (kernel)", "B/s", HIGHER_IS_BETTER, \
	  COMBINE_SUM, NULL, \
	  "TCP_INFO's tcpi_delivery_rate (its latest sample), summed over the same ends") \
	X(tcp_bytes_retrans, "TCP bytes retransmitted (kernel)", "B", LOWER_IS_BETTER, \
	  COMBINE_SUM, NULL, "TCP_INFO's tcpi_bytes_retrans, summed over the same ends") \
	X(tcp_mss, "TCP sender's segment size (kernel)", "B", HIGHER_IS_BETTER, \
	  COMBINE_MEDIAN, NULL, "TCP_INFO's tcpi_snd_mss, the median over the same ends")

struct metric {
	const char *name;	/* the results.csv column, "rtt_p50_us" */
	const char *title;	/* "round-trip time, median (p50)" */
	const char *unit;	/* "µs" */
	enum better better;
	enum combine combine;
	const char *phrase;	/* the headline's sentence: N, ratio, D; or NULL */
	const char *counts;	/* what it counts, precisely (README, --help) */
};

#define METRIC_ONE(n, t, u, b, cb, ph, what) +1
/* How many lines the table has. */
#define MATRIX_NMETRICS (0 MATRIX_METRICS(METRIC_ONE))
extern const struct metric metrics[MATRIX_NMETRICS];
/* The metrics' names alone, in the same order (for suggestions and loops). */
extern const char *const matrix_metrics[MATRIX_NMETRICS];

/* Index of a metric name in metrics, or -1. */
int matrix_metric_index(const char *name);

#endif
