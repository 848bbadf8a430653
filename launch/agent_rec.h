/*
 * agent_rec: the records between a runner and a remote host's agent
 * (`matrix agent`, agent.h), both ways over one ssh session.
 *
 * A record is a header line and a payload:
 *   TYPE SEQ.SLOT LEN\n  then LEN bytes
 * TYPE a word of agent_rec_names[]; SEQ the runner's number of the
 * repetition (1 to 4294967295), SLOT the worker's place in it (0 the
 * server, N client N; at most AGENT_MAX_SLOT); LEN decimal, at most
 * AGENT_REC_MAX.  Plain decimal, no sign, no leading zero, single spaces:
 * anything else is an error.  The header is at most AGENT_HDR_MAX bytes.
 *
 * Runner to agent:
 *   spawn   NUL-terminated words: the worker's CPU list ("" for none,
 *           placement.h's "0,2-3" form), then its argv (argv[0] is
 *           replaced by the agent's own binary)
 *   go      the start byte (no payload)
 *   end     the runner is done with the worker: stopped (SIGKILL) if it
 *           still runs (no payload; its exit record, if any, is dropped
 *           by the runner)
 *   kill    a signal number in decimal
 * Agent to runner:
 *   started the worker's pid there, decimal
 *   report  bytes of its report pipe (wire.h text)
 *   log     bytes of its stdout and stderr
 *   exit    "STATUS UTIME_US STIME_US MAXRSS_KB NVCSW NIVCSW": its wait
 *           status and rusage, after every report and log byte it wrote
 *   error   the spawn failed: why, text (no exit record follows)
 *
 * The agent's output reaches the runner through ssh from another host:
 * the decoder takes it as untrusted input (a bad header, an unknown type,
 * a bad tag, an oversized or truncated record are errors, never a crash
 * or an unbounded buffer).
 */
#ifndef MATRIX_AGENT_REC_H
#define MATRIX_AGENT_REC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#define AGENT_REC_MAX (1u << 20)
#define AGENT_HDR_MAX 64
#define AGENT_MAX_SLOT 4096

enum agent_rec_type {
	AGENT_SPAWN = 1, AGENT_GO, AGENT_END, AGENT_KILL,
	AGENT_STARTED, AGENT_REPORT, AGENT_LOG, AGENT_EXIT, AGENT_ERROR,
	AGENT_NTYPES
};
extern const char *const agent_rec_names[AGENT_NTYPES];

/* A growing byte buffer: bytes [off, len) are live. */
struct agent_buf {
	char *p;
	size_t off, len, cap;
};

void agent_buf_release(struct agent_buf *b);
/* Appends n bytes; 0, or -1 (out of memory, or more than limit live). */
int agent_buf_add(struct agent_buf *b, const void *data, size_t n, size_t limit);
/* Drops n bytes from the front. */
void agent_buf_consume(struct agent_buf *b, size_t n);
static inline size_t agent_buf_size(const struct agent_buf *b)
{
	return b->len - b->off;
}

/* Appends one record to b: 0, or -1 (len over AGENT_REC_MAX, a bad tag
 * or type, out of memory). */
int agent_rec_put(struct agent_buf *b, enum agent_rec_type type, uint32_t seq, unsigned slot,
		  const void *data, size_t len);

struct agent_rec {
	enum agent_rec_type type;
	uint32_t seq;
	unsigned slot;
	const char *data;	/* into the decoder's buffer, until its next feed */
	size_t len;
};

/* What arrives, record by record: feed what was read, then take records
 * until 0. */
struct agent_dec {
	struct agent_buf in;
	size_t taken;		/* bytes of in's front of the record last returned */
};

/* 0, or -1 with why (more than a record's worth waiting: the stream is
 * no records; out of memory). */
int agent_dec_feed(struct agent_dec *d, const void *data, size_t n, char *why, size_t whylen);
/* 1 with the next whole record in *rec, 0 when it has not all come yet,
 * -1 with why for bytes that are no record (the stream is then unusable). */
int agent_dec_next(struct agent_dec *d, struct agent_rec *rec, char *why, size_t whylen);
/* 1 when bytes of a record not yet whole are waiting (at end of file:
 * a truncated record). */
int agent_dec_partial(const struct agent_dec *d);
void agent_dec_release(struct agent_dec *d);

/* A spawn record's payload as its words: *cpus the CPU list, argv[0..]
 * the command (NULL-terminated, at most max - 1 words), pointing into
 * data.  0, or -1 with why (not NUL-terminated, no command, too many
 * words). */
int agent_spawn_words(const char *data, size_t len, const char **cpus, char **argv, int max,
		      char *why, size_t whylen);

/* An exit record's payload: "STATUS UTIME_US ..." made (into buf, its
 * length returned) and read back (0, or -1 with why). */
size_t agent_exit_format(int status, const struct rusage *ru, char *buf, size_t len);
int agent_exit_parse(const char *data, size_t len, int *status, struct rusage *ru, char *why,
		     size_t whylen);

/* A decimal of data[0..len) without sign or leading zero, at most max:
 * 0 with *v, or -1. */
int agent_decimal(const char *data, size_t len, uint64_t max, uint64_t *v);

/* Text of the agent's (an error record) made safe for one line of a row:
 * a byte outside printable ASCII as '?', cut to outlen - 1. */
void agent_plain_text(const char *data, size_t len, char *out, size_t outlen);
#endif
