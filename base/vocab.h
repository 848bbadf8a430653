/*
 * vocab: the words every layer shares, each defined once.
 *
 *   patterns     pingpong, echo, stream: how a cell's messages flow
 *   endpoints    tcp, ipc: where a zmq server binds
 *   records      full, totals: what a cell's workers keep of each message
 *   poll modes   block, busy: how a worker waits for a message
 *   transports   the names a matrix may give `transport:`, in the order of
 *                the registry (transports/transport.h), which maps each
 *                name to its ops table; a unit test checks that the two
 *                agree name by name
 *   short window a timed window under which a cell's figures are mostly
 *                start-up: the runner warns, summary.md marks the cell
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

enum pattern { PAT_PINGPONG, PAT_ECHO, PAT_STREAM, PAT__COUNT };
extern const char *const pattern_names[PAT__COUNT];	/* "pingpong", ... */

enum endpoint { EP_TCP, EP_IPC, EP__COUNT };
extern const char *const endpoint_names[EP__COUNT];	/* "tcp", "ipc" */

/* record: full keeps every round trip's time (a histogram) and a stream
 * receiver's timeline; totals only counts, sums, min and max */
enum record { REC_FULL, REC_TOTALS, REC__COUNT };
extern const char *const record_names[REC__COUNT];	/* "full", "totals" */
/* How a worker waits for its descriptors (matrix key poll:): in the kernel
 * (blocking calls), or spinning on non-blocking ones (transport.h). */
enum poll_mode { POLL_BLOCK, POLL_BUSY, POLL__COUNT };
extern const char *const poll_names[POLL__COUNT];	/* "block", "busy" */

#define VOCAB_NTRANSPORTS 8
extern const char *const transport_names[VOCAB_NTRANSPORTS];	/* "tcp", "unix", ... */

/* A cell repetition's timed window (results.csv's elapsed_s) shorter than
 * this, in seconds, is mostly start-up (connecting, the first messages,
 * waking the other processes): its rates and times say little about the
 * transport. */
#define MATRIX_SHORT_WINDOW_S 0.1

enum better { LOWER_IS_BETTER = -1, HIGHER_IS_BETTER = 1 };

/* How one figure per client (what program clients print) makes the cell's
 * figure, with the same meaning as the built-in one:
 *   RATE  total messages over the longest client's window (the clients
 *         start together): sum(share) / max(share / rate)
 *   MEAN  a mean per sample: weighted by each client's share
 *   MAX   the largest
 *   ONE   a percentile: only one client's stands; several cannot be
 *         combined into the percentile of all their samples (left empty) */
enum combine { COMBINE_RATE, COMBINE_MEAN, COMBINE_MAX, COMBINE_ONE };

struct metric {
	const char *name;	/* the results.csv column, "rtt_p50_us" */
	const char *title;	/* "round-trip time, median (p50)" */
	const char *unit;	/* "µs" */
	enum better better;
	enum combine combine;
	const char *counts;	/* what it counts, precisely (README, --help) */
};

#define MATRIX_NMETRICS 11
extern const struct metric metrics[MATRIX_NMETRICS];
/* The metrics' names alone, in the same order (for suggestions and loops). */
extern const char *const matrix_metrics[MATRIX_NMETRICS];

/* Index of a metric name in metrics, or -1. */
int matrix_metric_index(const char *name);

#endif
