/*
 * options: one worker's settings, as `matrix worker` parsed them, and the
 * helpers that speak to the runner through them.  Shared by the command
 * line (worker.c), the server (server.c), the client (client.c) and the
 * patterns' loops (rr.c, stream.c).
 *
 * Ownership: worker_main fills one struct wopts on its stack from the
 * command line, checks it, and hands it read-only to server_run or
 * client_run for the whole process; nothing frees it.  The descriptors in
 * it belong to the process: report_fd (fd 3 from the runner, else stdout)
 * and control_fd (fd 4 from the runner, -1 by hand) are never closed here.
 * `t` points into the transport registry; `bind` and `connect` into argv.
 *
 *   role, t, pattern  what to run; topts are handed to the transport as is
 *                     (topts.busy and topts.busy_poll_ns: --poll, --busy-poll)
 *   count, duration_ns  a client's share: messages, or a time (0 = count)
 *   warmup            untimed messages per connection before the window
 *   interval_ns       timeline interval of a stream receiver; 0: auto (timeline.h)
 *   timeout_ns        the whole worker gives up (alarm) after this
 *   loss_timeout_ns   lossy transports: a reply later than this is lost
 *   inflight          outstanding requests per connection (1 = serial)
 *   connections       server: connections to serve, then exit
 *   spin_ns           server, a test aid: busy-wait this long before each
 *                     answer (pingpong, echo) or after each whole message
 *                     received (stream), warmup included; 0 = never
 *   rate              client: requests (stream: messages) per second on a fixed
 *                     schedule from the window's start (pace.h); 0 = unpaced
 *   totals            --record=totals: a client keeps count, sum, min and max
 *                     of its round trips but no histogram (hist.h), a stream
 *                     receiver no timeline
 *   bidir             --direction bidir: a stream also runs server to client
 *                     (bidir.h), counted at the client
 *   id                client number, for messages
 *   human             report_fd is a terminal: readable lines, no protocol
 *   zerocopy, batch   stream: the sender's MSG_ZEROCOPY; both ends' messages
 *                     per sendmmsg/recvmmsg call
 */
#ifndef MATRIX_OPTIONS_H
#define MATRIX_OPTIONS_H

#include <stdint.h>

#include "matrix.h"
#include "transport.h"
#include "wire.h"

struct wopts {
	enum wire_role role;
	const struct transport *t;
	enum pattern pattern;
	struct transport_opts topts;
	uint64_t count, duration_ns, warmup, interval_ns, timeout_ns, loss_timeout_ns;
	uint64_t spin_ns;
	uint64_t rate;
	int totals;
	int bidir;		/* --direction bidir: stream both ways (bidir.h) */
	unsigned inflight, connections, id;
	const char *bind, *connect;
	int report_fd, control_fd, human;
	int stdio;		/* --stdio: started over ssh (hello.h) */
	const char *netns;		/* --netns NAME: enter /run/netns/NAME first */
	int zerocopy;		/* --zerocopy: a tcp stream sender's MSG_ZEROCOPY (zerocopy.h) */
	unsigned batch;		/* --batch N: udp, unix_dgram stream: sendmmsg and
				 * recvmmsg of up to N messages a call (mmsg.h); 1: none */
};

/* A failure: an `error stage=STAGE message=MSG` line on report_fd for the
 * runner, or "matrix worker server|client: MSG" on stderr for a person
 * (o->human).  Returns 1, the worker's exit status for a failure, so a
 * caller writes `return worker_fail(...)` or `rc = worker_fail(...)`. */
int worker_fail(const struct wopts *o, const char *stage, const char *msg);
/* worker_fail() with "WHAT: strerror(errno)" as the message; errno as left by the
 * call that failed. */
int worker_failf(const struct wopts *o, const char *stage, const char *what);

/* Waits for the runner's start byte 'g' on fd (blocking, EINTR retried):
 * 0 when it came, or at once when fd is -1 (run by hand); -1 when the
 * runner is gone (end of file, another byte, a read error). */
int worker_wait_start(int fd);

#endif
