/* The shared words: see vocab.h. */
#include "vocab.h"

#include <string.h>

const char *const pattern_names[PAT__COUNT] = {
	[PAT_PINGPONG] = "pingpong",
	[PAT_ECHO] = "echo",
	[PAT_STREAM] = "stream",
};

const char *const endpoint_names[EP__COUNT] = { "tcp", "ipc" };

const char *const record_names[REC__COUNT] = { "full", "totals" };
const char *const poll_names[POLL__COUNT] = { [POLL_BLOCK] = "block", [POLL_BUSY] = "busy" };

const char *const transport_names[VOCAB_NTRANSPORTS] = {
	"tcp", "unix", "tcp6", "udp", "unix_dgram", "unix_seqpacket", "pipe", "zmq",
};

/* One line a metric: the column names keep their results.csv order.  A
 * round trip is two messages (request and response); a stream message is
 * one.  The windows are those of README "How it measures". */
#define METRICS(X) \
	X(msgs_per_s, "messages per second", "msg/s", HIGHER_IS_BETTER, COMBINE_RATE, \
	  "pingpong/echo: round trips completed per second of the clients' window; " \
	  "stream: messages received per second, from the senders' start to the last read") \
	X(mib_per_s, "MiB per second", "MiB/s", HIGHER_IS_BETTER, COMBINE_RATE, \
	  "the bytes of msgs_per_s (request and response for a round trip), in MiB") \
	X(rtt_mean_us, "round-trip time, mean", "µs", LOWER_IS_BETTER, COMBINE_MEAN, \
	  "mean of every answered request's time, from the first try to send it to " \
	  "the end of its whole response") \
	X(rtt_p50_us, "round-trip time, median (p50)", "µs", LOWER_IS_BETTER, COMBINE_ONE, \
	  "median of the same round-trip times (all clients' samples merged)") \
	X(rtt_p90_us, "round-trip time, p90", "µs", LOWER_IS_BETTER, COMBINE_ONE, \
	  "90th percentile of the round-trip times") \
	X(rtt_p99_us, "round-trip time, p99", "µs", LOWER_IS_BETTER, COMBINE_ONE, \
	  "99th percentile of the round-trip times") \
	X(rtt_p999_us, "round-trip time, p99.9", "µs", LOWER_IS_BETTER, COMBINE_ONE, \
	  "99.9th percentile of the round-trip times") \
	X(rtt_max_us, "round-trip time, max", "µs", LOWER_IS_BETTER, COMBINE_MAX, \
	  "the longest round trip") \
	X(cpu_us_per_msg, "CPU time per message, each way (all workers)", "µs/msg", \
	  LOWER_IS_BETTER, COMBINE_MEAN, \
	  "user + system CPU of the server and every client over the timed window, " \
	  "per message moved one way (a round trip moves two)") \
	X(sent_msgs_per_s, "messages per second at the senders", "msg/s", HIGHER_IS_BETTER, \
	  COMBINE_RATE, "messages (stream) or requests (pingpong/echo) sent per second " \
	  "of the senders' window") \
	X(cpu_us_per_rtt, "CPU time per round trip (all workers)", "µs/rtt", LOWER_IS_BETTER, \
	  COMBINE_MEAN, "the same CPU per round trip (pingpong/echo; empty for stream)")

#define AS_METRIC(n, t, u, b, cb, what) { #n, t, u, b, cb, what },
#define AS_NAME(n, t, u, b, cb, what) #n,

const struct metric metrics[MATRIX_NMETRICS] = { METRICS(AS_METRIC) };
const char *const matrix_metrics[MATRIX_NMETRICS] = { METRICS(AS_NAME) };

int matrix_metric_index(const char *name)
{
	for (int i = 0; i < MATRIX_NMETRICS; i++)
		if (!strcmp(name, matrix_metrics[i]))
			return i;
	return -1;
}
