/*
 * pattern: what each pattern is, the one table every layer reads.
 *
 * A pattern is how a cell's messages flow (vocab.h names them: pingpong,
 * echo, stream).  The code never asks which pattern a cell has; it asks
 * the pattern's table what it needs to know: whether anything comes back
 * and how big it is, who times the window, the words messages use, which
 * file its cells write beside results.csv, which metrics its summary
 * tables show.  How our own workers run a pattern is the worker side's
 * ops table (workers/pattern_ops.h), a file per pattern.
 *
 *   pingpong  the client sends `size` bytes, the server answers with
 *             `response_size` bytes of its own; the clients time each
 *             round trip (hist.csv)
 *   echo      as pingpong, but the answer is the request itself, which
 *             the client checks byte for byte
 *   stream    one way: the clients send back to back and the receiver
 *             (the server) counts what arrives, per interval (timeline.csv)
 *   pipeline  as echo, but each client's writer sends back to back and
 *             never waits for a reply; its reader counts and checks the
 *             echoes (seed 002's clients; netperf's TCP_RR burst with no
 *             limit).  Its rate is the echoes' per second; no round trip
 *             is timed
 *
 * A new pattern is one line of vocab.h's enum and names, one entry here,
 * and its worker file (workers/pattern_ops.c lists it).  Everything here
 * is a constant: no state, no allocation.
 */
#ifndef MATRIX_PATTERN_H
#define MATRIX_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "vocab.h"

/* The pattern of a matrix that names none. */
#define PATTERN_DEFAULT PAT_PINGPONG

/* What the server sends back for each request. */
enum pattern_reply {
	PATTERN_REPLY_NONE,	/* nothing: one way */
	PATTERN_REPLY_REQUEST,	/* the request itself, byte for byte (size bytes) */
	PATTERN_REPLY_SIZED,	/* response_size bytes of the server's own (the matrix
				 * key response_size applies) */
};

/* What a pattern needs of a transport.  A transport names those it
 * cannot give (struct transport's cannot, transport.h); it does every
 * pattern that needs none of them. */
#define PATTERN_NEEDS_REPLIES 1u	/* the server answers each request on the
					 * connection it came on */
#define PATTERN_NEEDS_ONE_WAY 2u	/* messages back to back, nothing back, and an
					 * end of them that the receiver sees */
#define PATTERN_NEEDS_DUPLEX 4u		/* descriptors that one thread writes while
					 * another reads, nothing lost: neither a
					 * lossy transport nor one without them */

/* The file a pattern's repetitions write beside results.csv. */
#define PATTERN_FILE_HIST 1u		/* hist.csv: the round trips' histogram */
#define PATTERN_FILE_TIMELINE 2u	/* timeline.csv: the receiver's counts per interval */

struct pattern_info {
	enum pattern id;
	const char *name;		/* vocab.h's pattern_names[id] */
	enum pattern_reply reply;
	int one_way;			/* nothing comes back (reply NONE): no round
					 * trips, no inflight, a message each way is one */
	int receiver_times;		/* the receiver (the server) times the window and
					 * counts what arrived, losses too, and a program
					 * receiver may print figures; else each client
					 * times its round trips and counts its losses */
	const char *timer;		/* who times it, as messages say: "client",
					 * "receiver" */
	const char *sent;		/* what the clients send, as messages count it:
					 * "requests", "messages" */
	const char *rate_metric;	/* the clients' rate (vocab.h's metrics): what a
					 * program client's messages and seconds make */
	int windowed;			/* takes inflight: requests written ahead of
					 * their replies, at most N */
	unsigned needs;			/* PATTERN_NEEDS_* */
	unsigned files;			/* PATTERN_FILE_* */
	/* the metrics its summary tables show, in order; NULL ends the list */
	const char *table_metrics[MATRIX_NMETRICS + 1];
};

/* The table's entry of p (p < PAT__COUNT). */
const struct pattern_info *pattern_info(enum pattern p);

/* The entry named name ("stream"), or NULL when no pattern has that name
 * (a results.csv's value, a command line's). */
const struct pattern_info *pattern_find(const char *name);

/* 1 when name (a results.csv's value) is a one-way pattern's: a stream. */
int pattern_named_one_way(const char *name);

/* 1 when name (a results.csv's value) is a pattern whose clients time no
 * round trip (no hist.csv): stream, pipeline. */
int pattern_named_untimed(const char *name);

/* "pingpong and echo": the patterns that take inflight, into buf. */
void pattern_list_windowed(char *buf, size_t len);

/* The bytes of each answer of pi for requests of size bytes: size (echo),
 * response_size (pingpong), 0 (one way). */
uint64_t pattern_reply_size(const struct pattern_info *pi, uint64_t size, uint64_t response_size);

#endif
