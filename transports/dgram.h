/*
 * dgram: connections over datagram sockets (udp, unix_dgram), so that a
 * datagram transport keeps the accept/connect contract of transport.h and
 * clients never mix.
 *
 * The handshake:
 *   client: a socket bound to `local` (anywhere when NULL) sends "hello"
 *           to the server's listening address, and waits for "ok"
 *   server: the hello arrives on the listening socket; the server makes a
 *           socket for this client alone, bound to its own `local`,
 *           connect()s it to the client and sends "ok" from it
 *   client: connect()s to where the ok came from
 * Each connection is then a pair of connected sockets, like a stream's,
 * and the listening socket only ever sees hellos.  A client retries a lost
 * hello (50 tries, 200 ms apart); the server answers a repeated hello
 * again, from the socket it made for that client, also after its last
 * accept (dgram_answer_late: a lossy link loses oks) (it remembers the first
 * 1024 clients, for the life of the process), and fd_msg_recv (fdio.h)
 * skips such a late "ok".  Receive timeouts (opts.recv_timeout_ns,
 * sock_recv_timeout) are set when `lossy`.
 *
 * Ownership: lfd stays the caller's.  On success the new socket is in
 * c->fd = c->wfd (one stream, no handle) and belongs to c; on failure
 * nothing is left open.
 */
#ifndef MATRIX_DGRAM_H
#define MATRIX_DGRAM_H

#include <stddef.h>

#include "transport.h"

/* The handshake's two messages, as sent (without a terminating NUL). */
#define DGRAM_HELLO "matrix-hello"
#define DGRAM_OK "matrix-ok"

struct sockaddr;

/* Waits on the listening lfd for the next new client's hello (stray
 * datagrams ignored, repeated hellos answered) and makes its connection.
 * c->peer is left for the caller to name.  0, or -1 with "accept: reason". */
int dgram_accept(int lfd, int domain, const struct sockaddr *local, unsigned locallen,
		 const struct transport_opts *o, int lossy, struct conn *c, char *err,
		 size_t errlen);

/* After the last accept (a lossy link: topology: link: loss): answers a
 * hello repeated by a client whose ok was lost, from the socket made for
 * it, until wake is readable; other datagrams are dropped.  The server's
 * accept loop has ended by then, so without this the client retries in
 * vain for 10 s. */
void dgram_answer_late(int lfd, int wake);

/* Makes a connection to the server at srv (name: its address as the user
 * wrote it, for messages and c->peer).  0, or -1 with "socket NAME: reason",
 * "connect NAME: reason" or "connect NAME: no answer from the server". */
int dgram_connect(int domain, const struct sockaddr *srv, unsigned srvlen,
		  const struct sockaddr *local, unsigned locallen, const char *name,
		  const struct transport_opts *o, int lossy, struct conn *c, char *err,
		  size_t errlen);

#endif
