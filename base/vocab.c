/* The shared words: see vocab.h. */
#include "vocab.h"

#include <string.h>

const char *const pattern_names[PAT__COUNT] = {
	[PAT_PINGPONG] = "pingpong",
	[PAT_ECHO] = "echo",
	[PAT_STREAM] = "stream",
};

const char *const endpoint_names[EP__COUNT] = { "tcp", "ipc" };

const char *const transport_names[VOCAB_NTRANSPORTS] = {
	"tcp", "unix", "tcp6", "udp", "unix_dgram", "unix_seqpacket", "pipe", "zmq",
};

/* One line a metric: the column names keep their results.csv order. */
#define METRICS(X) \
	X(msgs_per_s, "messages per second", "msg/s", HIGHER_IS_BETTER, 0) \
	X(mib_per_s, "MiB per second", "MiB/s", HIGHER_IS_BETTER, 0) \
	X(rtt_mean_us, "round-trip time, mean", "µs", LOWER_IS_BETTER, 1) \
	X(rtt_p50_us, "round-trip time, median (p50)", "µs", LOWER_IS_BETTER, 1) \
	X(rtt_p90_us, "round-trip time, p90", "µs", LOWER_IS_BETTER, 1) \
	X(rtt_p99_us, "round-trip time, p99", "µs", LOWER_IS_BETTER, 1) \
	X(rtt_p999_us, "round-trip time, p99.9", "µs", LOWER_IS_BETTER, 1) \
	X(rtt_max_us, "round-trip time, max", "µs", LOWER_IS_BETTER, 1) \
	X(cpu_us_per_msg, "CPU time per message (all workers)", "µs/msg", LOWER_IS_BETTER, 1) \
	X(sent_msgs_per_s, "messages per second at the senders", "msg/s", HIGHER_IS_BETTER, 0)

#define AS_METRIC(n, t, u, b, tm) { #n, t, u, b, tm },
#define AS_NAME(n, t, u, b, tm) #n,

const struct metric metrics[MATRIX_NMETRICS] = { METRICS(AS_METRIC) };
const char *const matrix_metrics[MATRIX_NMETRICS] = { METRICS(AS_NAME) };

int matrix_metric_index(const char *name)
{
	for (int i = 0; i < MATRIX_NMETRICS; i++)
		if (!strcmp(name, matrix_metrics[i]))
			return i;
	return -1;
}
