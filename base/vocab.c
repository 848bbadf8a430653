/* The shared words: see vocab.h. */
#include "vocab.h"

#include <string.h>

const char *const pattern_names[PAT__COUNT] = {
	[PAT_PINGPONG] = "pingpong",
	[PAT_ECHO] = "echo",
	[PAT_STREAM] = "stream",
	[PAT_PIPELINE] = "pipeline",
};

const char *const endpoint_names[EP__COUNT] = { "tcp", "ipc" };

const char *const record_names[REC__COUNT] = { "full", "totals" };
const char *const poll_names[POLL__COUNT] = { [POLL_BLOCK] = "block", [POLL_BUSY] = "busy",
						  [POLL_URING] = "uring" };
const char *const wake_names[WAKE__COUNT] = { [WAKE_FUTEX] = "futex", [WAKE_EVENTFD] = "eventfd" };
const char *const direction_names[DIR__COUNT] = { [DIR_ONE] = "one", [DIR_BIDIR] = "bidir" };

const char *const transport_names[VOCAB_NTRANSPORTS] = {
	"tcp", "unix", "tcp6", "udp", "unix_dgram", "unix_seqpacket", "pipe", "zmq",
	"shm", "mq",
};

#define AS_METRIC(n, t, u, b, cb, ph, what) { #n, t, u, b, cb, ph, what },
#define AS_NAME(n, t, u, b, cb, ph, what) #n,

const struct metric metrics[MATRIX_NMETRICS] = { MATRIX_METRICS(AS_METRIC) };
const char *const matrix_metrics[MATRIX_NMETRICS] = { MATRIX_METRICS(AS_NAME) };

int matrix_metric_index(const char *name)
{
	for (int i = 0; i < MATRIX_NMETRICS; i++)
		if (!strcmp(name, matrix_metrics[i]))
			return i;
	return -1;
}
