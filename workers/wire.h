/*
 * wire: the worker -> runner result protocol, shared by both sides.
 *
 * A worker writes lines of text on its report descriptor (fd 3 when the
 * runner starts it, stdout when run by hand and stdout is not a terminal).
 * Each line is a keyword followed by space-separated key=value pairs.
 * Values are percent-encoded: every byte outside '!'..'~', and '%' and '=',
 * is written as %XX.  Readers ignore keywords and keys they do not know, so
 * newer workers can add fields without breaking older runners; a change
 * that breaks old readers bumps WIRE_VERSION.  Lines, in order:
 *
 *   hello version=1 role=server|client pid=N
 *   listen address=ADDR                      server, once bound
 *   ready                                    client, connected and warmed up
 *   result role=R messages=N bytes=N sent_messages=N sent_bytes=N
 *          start_ns=N end_ns=N cpu_ns=N mismatches=N last_send_ns=N t0_ns=N
 *          lost=N duplicated=N reordered=N    lossy transports
 *          sndbuf=N rcvbuf=N nodelay=N       figures of the timed window
 *          interval_ns=N                     stream receiver: its timeline's
 *                                            interval (picked when --interval=auto)
 *          hwm_kib=N                         the worker's peak resident set
 *                                            (VmHWM) when it writes the record
 *          mss=N congestion=NAME             tcp: TCP_MAXSEG and TCP_CONGESTION
 *                                            read back (-1 and empty elsewhere);
 *                                            a server's congestion names every
 *                                            one its connections had (a;b)
 *          zc_sends=N zc_completions=N zc_copied=N  zerocopy stream sender
 *   hist count=N overflow=N min=N max=N sum=N [totals=1]
 *                                            totals=1: record: totals, no buckets
 *                                            lines follow (hist.h totals)
 *   buckets I:C,I:C,...                      0 or more lines, sparse histogram.h buckets
 *   timeline index=I messages=N bytes=N      0 or more, per --interval since start
 *            [cpu_ns=N]                      the receiving threads' CPU in it
 *                                            (CLOCK_THREAD_CPUTIME_ID)
 *   reverse messages=N bytes=N end_ns=N      client of a --direction bidir
 *                                            stream: what it received from
 *                                            the server, and its last read
 *   tcp retrans=N rtt_us=N rttvar_us=N cwnd=N delivery_rate=N bytes_retrans=N mss=N
 *                                            0 or more: one per TCP connection of
 *                                            the worker (a client 1, a server one
 *                                            per client), TCP_INFO read at the end
 *                                            of the timed window (transport.h
 *                                            tcp_view); a field the kernel did not
 *                                            give is left out; at most WIRE_MAX_TCP
 *   error stage=STAGE message=TEXT           what went wrong (bind, connect, send...)
 *   end                                      the record is complete; its hist
 *                                            (if any) must add up: buckets plus
 *                                            overflow equal count
 *
 * Timestamps are CLOCK_MONOTONIC nanoseconds, comparable between processes
 * on one host.  "messages" is what the worker counted in the timed window:
 * round trips for a pingpong client, messages received for a stream
 * receiver; "sent_messages" what it sent.  A client's window runs from
 * its first clock read after the start signal (start_ns) to the end of its
 * last response or send (end_ns); a stream sender's "last_send_ns" is read
 * just before its last send began, so no receiver can finish before it.
 * A stream receiver's start_ns and end_ns are the ends of its first and
 * last timed reads: the runner times its rate from the senders' start.
 * "t0_ns" is when the server saw the start signal: timeline intervals count
 * from there.
 *
 * Runner -> worker: the control descriptor (fd 4).  A client (and the
 * server) reads one byte: 'g' starts the timed window; end of file without
 * it means the runner is gone and the worker stops.  The runner starts every
 * worker of a cell with one write of one 'g' per worker on one shared pipe.
 * The workers wait for it in poll(), which one write wakes all together; a
 * read() blocked on a pipe would be woken one at a time (exclusive waits,
 * Linux 5.5 and later), each after the one before had run.
 */
#ifndef MATRIX_WIRE_H
#define MATRIX_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "transport.h"

#define WIRE_VERSION 1
#define WIRE_MAX_TCP 65536	/* tcp lines a record may hold */

enum wire_role { ROLE_SERVER, ROLE_CLIENT };

struct worker_result {
	int version;
	enum wire_role role;
	long pid;
	char address[256];	/* listen */
	int ready;
	int has_result;
	uint64_t messages, bytes, sent_messages, sent_bytes;
	uint64_t start_ns, end_ns, cpu_ns, mismatches;
	uint64_t last_send_ns;		/* stream sender; see above */
	uint64_t t0_ns;			/* server: the start signal */
	uint64_t lost;			/* pingpong client: requests never answered */
	uint64_t duplicated, reordered;	/* stream receiver */
	int sndbuf, rcvbuf, nodelay;
	struct hist *hist;	/* NULL when no hist line */
	uint64_t *tl_messages, *tl_bytes;
	size_t tl_len;
	uint64_t tl_interval_ns;	/* interval_ns=: 0 when the record has none */
	uint64_t *tl_cpu_ns;		/* [tl_len] cpu_ns=, or NULL (tl_has_cpu 0) */
	int tl_has_cpu;			/* the timeline lines carry cpu_ns= */
	int has_reverse;		/* a `reverse` line: bidir client */
	uint64_t rev_messages, rev_bytes, rev_end_ns;
	uint64_t hwm_kib;		/* 0 when the record has none */
	struct tcp_view *tcp;		/* tcp lines, one per connection (NULL, 0: none) */
	size_t ntcp;
	int mss;			/* TCP_MAXSEG read back; -1 none */
	char congestion[64];		/* TCP_CONGESTION read back, ';' between
					 * different ones; "" none */
	/* stream sender, zerocopy: MSG_ZEROCOPY send calls, notifications
	 * reaped, of them marked copied (zerocopy.h); 0 otherwise */
	uint64_t zc_sends, zc_completions, zc_copied;
	char error_stage[32];
	char error[512];	/* "" when none */
	int ended;
};

void worker_result_init(struct worker_result *r);
void worker_result_release(struct worker_result *r);

/* Writer side.  Each call writes whole lines to fd (looping over partial
 * writes); -1 with errno on a write error. */
int wire_write_hello(int fd, enum wire_role role);
int wire_write_listen(int fd, const char *address);
int wire_write_ready(int fd);
int wire_write_error(int fd, const char *stage, const char *message);
/* result, hist and buckets (if r->hist), timeline lines, then end. */
int wire_write_result(int fd, const struct worker_result *r);

/* Reader side: bytes in, whole lines out. */
struct wire_reader {
	char *buf;
	size_t len, cap;
};
void wire_reader_init(struct wire_reader *rd);
void wire_reader_release(struct wire_reader *rd);
/* Reads what fd has now (one read).  Returns bytes read, 0 at EOF, -1 on
 * error (errno EAGAIN when nothing is there yet). */
long wire_reader_fill(struct wire_reader *rd, int fd);
/* Takes the next complete line (without its newline) into *line (malloc'd,
 * caller frees); 1 when one was taken, 0 when none is complete.  A line
 * longer than 1 MiB is an error (-1). */
int wire_reader_next(struct wire_reader *rd, char **line);

/* Applies one line to r.  -1 with a message for a malformed line or a
 * version this runner does not speak. */
int wire_apply(struct worker_result *r, const char *line, char *err, size_t errlen);

/* The tcp line's key of each tcp_view field ("retrans", "rtt_us", ...). */
extern const char *const wire_tcp_keys[TCPV__COUNT];
/* Each name of names (one, or a ';'-separated list such as a server's
 * congestion) added to the ';'-separated list unless it holds it already;
 * empty names are skipped, a name that does not fit is left out. */
void wire_name_join(char *list, size_t len, const char *names);

/* Percent-encoding of one value (exposed for tests). */
void wire_escape(const char *in, char *out, size_t outlen);
void wire_unescape(const char *in, char *out, size_t outlen);

#endif
