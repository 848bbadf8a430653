/* zmq: ZeroMQ (libzmq) sockets.  stream is PUSH/PULL, as in the source
 * experiment; pingpong and echo are REQ/REP, or DEALER/ROUTER when a client
 * keeps more than one request in flight.  Endpoints are tcp://127.0.0.1
 * (or the host of a --bind HOST:PORT, as topology: netns gives) with a port
 * the kernel picks, or ipc:// in the private directory with `endpoint: ipc`.
 *
 * ZeroMQ has no connections to accept: one server socket takes every
 * client's messages, fair-queued.  So the first accept() returns that
 * socket, as a connection carrying all `connections` clients' streams, and
 * the others return connections that end at once.
 *
 * The end, acknowledged.  libzmq may drop what a closing sender still has
 * queued, whatever its ZMQ_LINGER (libzmq issues 1922, 3774, 4660; seen
 * here over ipc: up to a third of a 2,000-message stream), so a client
 * closes only once the server has confirmed its end (finish()):
 *   pingpong, echo  the client sends a zero-length message; the server
 *                   answers it (REP, or ROUTER to that client) as it
 *                   answers a request; the client waits for that answer.
 *   stream          a PUSH cannot hear back, so the server binds a second
 *                   socket, a ROUTER, and its address is two endpoints:
 *                   "DATA,ACK".  The client ends its stream with a
 *                   zero-length frame and a frame with the count it sent
 *                   (warmup included), behind its last message on the same
 *                   pipe; then asks on a REQ connected to ACK.  Once every
 *                   client's end is in, the server answers each request
 *                   with "received=T sent=S", the totals of all clients.
 * So the shared connection ends when `connections` ends have come, counted,
 * never after a silence; and every wait of a client is bounded by the
 * timeout given to finish(). */
#include "transport.h"
#include "clock.h"
#include "fdio.h"
#include "vocab.h"
#include "zmqlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#define LINGER_MS 10000		/* the server's last answers still get out */
#define ACK_MAX 64		/* "received=T sent=S" */

struct zconn {
	void *sock;
	void *ack;		/* client, stream: its REQ to the server's ROUTER */
	int router;		/* replies go to `peer_id` */
	int stream;
	int busy;		/* poll: busy: the data messages spin (transport.h) */
	int client;		/* its sockets and the context are its own */
	unsigned ends_expected, ends_seen;
	uint64_t count;		/* messages: sent (client), received (server) */
	uint64_t declared;	/* server, stream: the counts the clients' ends carry */
	unsigned char peer_id[256];
	size_t peer_id_len;
};

static void *ctx;
static void *server_sock;
static void *ack_sock;		/* server, stream: where the senders ask for their ack */
static void *monitor;		/* server: the disconnects of the socket clients ask on */
static unsigned accepted, clients;
static int ended;		/* server: every client's end came and was answered */

static int zerr(char *err, size_t errlen, const char *what, const char *where)
{
	snprintf(err, errlen, "%s %s: %s", what, where, zmq_strerror(zmq_errno()));
	return -1;
}

/* busy: ZMQ_DONTWAIT, retried in a spin while it would block (EAGAIN);
 * else a blocking call.  Both retry EINTR. */
static int send_frame(void *sock, const void *buf, size_t len, int flags, int busy)
{
	int rc;

	if (busy)
		flags |= ZMQ_DONTWAIT;
	do
		rc = zmq_send(sock, buf, len, flags);
	while (rc < 0 && (zmq_errno() == EINTR || (busy && zmq_errno() == EAGAIN)));
	if (rc < 0)
		errno = zmq_errno();
	return rc < 0 ? -1 : 0;
}

static int recv_frame(void *sock, void *buf, size_t cap, int busy)
{
	int n;

	do
		n = zmq_recv(sock, buf, cap, busy ? ZMQ_DONTWAIT : 0);
	while (n < 0 && (zmq_errno() == EINTR || (busy && zmq_errno() == EAGAIN)));
	if (n < 0)
		errno = zmq_errno();
	return n;
}

static int more_frames(void *sock)
{
	int more = 0;
	size_t len = sizeof(more);

	return zmq_getsockopt(sock, ZMQ_RCVMORE, &more, &len) == 0 && more;
}

/* A pattern of one way (stream): PUSH/PULL and acknowledged ends. */
static int one_way(const struct transport_opts *o)
{
	return pattern_info(o->pattern)->one_way;
}

static int server_type(const struct transport_opts *o)
{
	if (one_way(o))
		return ZMQ_PULL;
	return o->inflight > 1 ? ZMQ_ROUTER : ZMQ_REP;
}

static int client_type(const struct transport_opts *o)
{
	if (one_way(o))
		return ZMQ_PUSH;
	return o->inflight > 1 ? ZMQ_DEALER : ZMQ_REQ;
}

static void *new_socket(const struct transport_opts *o, int type)
{
	int hwm = o->inflight * 2 > 1000 ? (int)o->inflight * 2 : 1000, linger = LINGER_MS;
	void *s;

	if (!ctx && !(ctx = zmq_ctx_new()))
		return NULL;
	if (!(s = zmq_socket(ctx, type)))
		return NULL;
	zmq_setsockopt(s, ZMQ_SNDHWM, &hwm, sizeof(hwm));
	zmq_setsockopt(s, ZMQ_RCVHWM, &hwm, sizeof(hwm));
	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof(linger));
	return s;
}

static void close_socket(void **s, int linger_ms)
{
	if (*s) {
		zmq_setsockopt(*s, ZMQ_LINGER, &linger_ms, sizeof(linger_ms));
		zmq_close(*s);
		*s = NULL;
	}
}

/* A new socket of `type` bound to endpoint; its address appended to
 * addr (after a comma when addr has one already).  NULL with err set. */
static void *bind_socket(const struct transport_opts *o, int type, const char *endpoint,
			 char *addr, size_t addrlen, char *err, size_t errlen)
{
	size_t used = strlen(addr), len;
	void *s = new_socket(o, type);

	if (!s) {
		zerr(err, errlen, "socket", endpoint);
		return NULL;
	}
	if (used && used + 1 < addrlen)
		addr[used++] = ',';
	len = addrlen - used;
	if (zmq_bind(s, endpoint) < 0 || zmq_getsockopt(s, ZMQ_LAST_ENDPOINT, addr + used, &len) < 0) {
		zerr(err, errlen, "bind", endpoint);
		close_socket(&s, 0);
	}
	return s;
}

/* The server's answer to a client's end may be dropped if the server
 * closes before it is out (the bug above, on the server's side): so the
 * server watches the socket its clients ask on, and closes only once each
 * client has closed its connection to it, which a client does after its
 * answer came, after its own timeout, or by dying: none is a message that
 * can be lost. */
static int watch_disconnects(void *sock, unsigned n, char *err, size_t errlen)
{
	const char *ep = "inproc://matrix-zmq-disconnects";

	clients = n;
	if (zmq_socket_monitor(sock, ep, ZMQ_EVENT_DISCONNECTED) < 0 ||
	    !(monitor = zmq_socket(ctx, ZMQ_PAIR)) || zmq_connect(monitor, ep) < 0) {
		zerr(err, errlen, "monitor", ep);
		close_socket(&monitor, 0);
		return -1;
	}
	return 0;
}

/* Blocks until `clients` disconnects were seen (bounded by the worker's
 * alarm, which ends a server whose clients never end). */
static void wait_disconnects(void)
{
	unsigned char ev[64], where[512];
	unsigned seen = 0;
	int n;

	while (seen < clients) {
		if ((n = recv_frame(monitor, ev, sizeof(ev), 0)) < 0)
			return;
		while (more_frames(monitor) && recv_frame(monitor, where, sizeof(where), 0) >= 0)
			;
		uint16_t event = 0;	/* the first frame: the event (16 bits), a value (32) */
		if (n >= 2)
			memcpy(&event, ev, sizeof(event));
		if (event == ZMQ_EVENT_DISCONNECTED)
			seen++;
	}
}

/* The tcp endpoint --bind asks for: "HOST:PORT" binds HOST (port 0: one
 * the kernel picks, '*'), anything else (the runner's socket folder, which
 * endpoint ipc uses) 127.0.0.1 with a port the kernel picks. */
static void tcp_endpoint(const char *bind, char *ep, size_t len)
{
	const char *colon = strrchr(bind, ':');

	if (bind[0] == '/' || !colon || colon == bind || !colon[1]) {
		snprintf(ep, len, "tcp://127.0.0.1:*");
		return;
	}
	snprintf(ep, len, "tcp://%.*s:%s", (int)(colon - bind), bind,
		 strcmp(colon + 1, "0") ? colon + 1 : "*");
}

static int zmq_listen_(const struct transport_opts *o, const char *bind, char *addr,
		       size_t addrlen, char *err, size_t errlen)
{
	char endpoint[4200];
	int fd;

	if (zmqlib_load(err, errlen) < 0)	/* libzmq only now: zmqlib.h */
		return -1;
	if (strstr(bind, "://"))
		snprintf(endpoint, sizeof(endpoint), "%s", bind);
	else if (o->endpoint_ipc)
		snprintf(endpoint, sizeof(endpoint), "ipc://%s", bind);
	else
		tcp_endpoint(bind, endpoint, sizeof(endpoint));
	addr[0] = '\0';
	if (!(server_sock = bind_socket(o, server_type(o), endpoint, addr, addrlen, err, errlen)))
		return -1;
	if (one_way(o)) {	/* the acks: beside the data, a port or file of its own */
		if (!strncmp(endpoint, "ipc://", 6))
			strncat(endpoint, ".ack", sizeof(endpoint) - strlen(endpoint) - 1);
		else
			tcp_endpoint(bind, endpoint, sizeof(endpoint));
		if (!(ack_sock = bind_socket(o, ZMQ_ROUTER, endpoint, addr, addrlen, err, errlen))) {
			close_socket(&server_sock, 0);
			return -1;
		}
	}
	if (watch_disconnects(ack_sock ? ack_sock : server_sock, o->connections, err, errlen) < 0) {
		close_socket(&server_sock, 0);
		close_socket(&ack_sock, 0);
		return -1;
	}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);	/* nothing listens: a token */
	if (fd < 0) {
		snprintf(err, errlen, "open /dev/null: %s", strerror(errno));
		return -1;
	}
	return fd;
}

static int zmq_accept_(int lfd, const struct transport_opts *o, struct conn *c, char *err,
		       size_t errlen)
{
	struct zconn *z = calloc(1, sizeof(*z));

	(void)lfd;
	if (!z) {
		snprintf(err, errlen, "accept: out of memory");
		return -1;
	}
	c->fd = c->wfd = -1;
	c->handle = z;
	c->streams = 0;		/* the first connection carries them all */
	if (accepted++ == 0) {
		z->sock = server_sock;
		z->router = server_type(o) == ZMQ_ROUTER;
		z->stream = one_way(o);
		z->busy = o->busy;
		z->ends_expected = o->connections;
		c->streams = o->connections;
	}
	snprintf(c->peer, sizeof(c->peer), "zmq clients");
	return 0;
}

/* A client's socket of `type` connected to endpoint (its first `len`
 * bytes), queueing messages only on a completed connection.  NULL with
 * err set. */
static void *connect_socket(const struct transport_opts *o, int type, const char *endpoint,
			    size_t len, char *err, size_t errlen)
{
	char ep[4200];
	void *s = new_socket(o, type);
	int one = 1;

	snprintf(ep, sizeof(ep), "%.*s", (int)len, endpoint);
	if (!s) {
		zerr(err, errlen, "socket", ep);
		return NULL;
	}
	zmq_setsockopt(s, ZMQ_IMMEDIATE, &one, sizeof(one));
	if (zmq_connect(s, ep) < 0) {
		zerr(err, errlen, "connect", ep);
		close_socket(&s, 0);
	}
	return s;
}

static void zmq_close_(struct conn *c);

static int zmq_connect_(const struct transport_opts *o, const char *addr, struct conn *c,
			char *err, size_t errlen)
{
	struct zconn *z = calloc(1, sizeof(*z));
	const char *comma = strchr(addr, ',');

	c->fd = c->wfd = -1;
	c->handle = z;
	if (!z) {
		snprintf(err, errlen, "connect %s: out of memory", addr);
		return -1;
	}
	if (zmqlib_load(err, errlen) < 0) {	/* libzmq only now: zmqlib.h */
		zmq_close_(c);
		return -1;
	}
	z->client = 1;
	z->stream = one_way(o);
	z->busy = o->busy;
	if (z->stream && !comma) {
		snprintf(err, errlen, "connect %.200s: a zmq stream server's address is two "
			 "endpoints, DATA,ACK, as its listen line says", addr);
		zmq_close_(c);
		return -1;
	}
	if (!(z->sock = connect_socket(o, client_type(o), addr, comma ? (size_t)(comma - addr)
				       : strlen(addr), err, errlen)) ||
	    (z->stream && !(z->ack = connect_socket(o, ZMQ_REQ, comma + 1, strlen(comma + 1),
						    err, errlen)))) {
		zmq_close_(c);
		return -1;
	}
	snprintf(c->peer, sizeof(c->peer), "%.120s", addr);
	return 0;
}

/* One message, to the peer of the last request on a ROUTER. */
static int send_message(struct zconn *z, const void *buf, size_t len)
{
	if (z->router && send_frame(z->sock, z->peer_id, z->peer_id_len, ZMQ_SNDMORE, z->busy) < 0)
		return -1;
	return send_frame(z->sock, buf, len, 0, z->busy);
}

static int zmq_send_(struct conn *c, const void *buf, size_t len)
{
	struct zconn *z = c->handle;

	if (send_message(z, buf, len) < 0)
		return -1;
	z->count++;
	return 0;
}

/* Server, stream, once every client's end is in: each client's request on
 * the ack socket, then the same answer to all of them. */
static int stream_acks(struct zconn *z)
{
	unsigned char (*ids)[256] = calloc(z->ends_expected, sizeof(*ids));
	size_t *idlen = calloc(z->ends_expected, sizeof(*idlen));
	char req[ACK_MAX], ack[ACK_MAX];
	int rc = -1, n = 0;
	unsigned i;

	if (!ids || !idlen) {
		errno = ENOMEM;
		goto out;
	}
	for (i = 0; i < z->ends_expected; i++) {	/* [id]["" of REQ][N] */
		if ((n = recv_frame(ack_sock, ids[i], sizeof(ids[i]), 0)) < 0)
			goto out;
		idlen[i] = (size_t)n;
		while (more_frames(ack_sock) && (n = recv_frame(ack_sock, req, sizeof(req), 0)) >= 0)
			;
		if (n < 0)
			goto out;
	}
	n = snprintf(ack, sizeof(ack), "received=%llu sent=%llu", (unsigned long long)z->count,
		     (unsigned long long)z->declared);
	for (i = 0; i < z->ends_expected; i++)
		if (send_frame(ack_sock, ids[i], idlen[i], ZMQ_SNDMORE, 0) < 0 ||
		    send_frame(ack_sock, "", 0, ZMQ_SNDMORE, 0) < 0 ||
		    send_frame(ack_sock, ack, (size_t)n, 0, 0) < 0)
			goto out;
	rc = 0;
out:
	free(ids);
	free(idlen);
	return rc;
}

/* A client's end (its zero-length message just read): answered at once
 * (pingpong), or its count taken (stream).  0, or -1 with errno. */
static int take_end(struct zconn *z)
{
	char num[32];
	int n;

	if (!z->stream)		/* a REP must answer before its next receive; a ROUTER answers too */
		return send_message(z, "", 0);
	if (!more_frames(z->sock)) {
		errno = EPROTO;	/* an end without its count */
		return -1;
	}
	if ((n = recv_frame(z->sock, num, sizeof(num) - 1, 0)) < 0)
		return -1;
	if (n == 0 || (size_t)n >= sizeof(num) || more_frames(z->sock)) {
		errno = EPROTO;
		return -1;
	}
	num[n] = '\0';
	z->declared += strtoull(num, NULL, 10);
	return 0;
}

/* One message (after the peer's identity on a ROUTER); its length, 0 for
 * the end of everything (all clients' ends seen and, for a stream,
 * acknowledged). */
static ssize_t recv_message(struct conn *c, void *buf, size_t cap)
{
	struct zconn *z = c->handle;
	int n;

	if (!z->sock)
		return 0;	/* an idle connection: the shared one has the clients */
	for (;;) {
		if (z->router) {
			if ((n = recv_frame(z->sock, z->peer_id, sizeof(z->peer_id), z->busy)) < 0)
				return -1;
			z->peer_id_len = (size_t)n;
		}
		if ((n = recv_frame(z->sock, buf, cap, z->busy)) < 0)
			return -1;
		if (n > 0) {
			if ((size_t)n > cap) {
				errno = EMSGSIZE;
				return -1;
			}
			if (z->stream)
				z->count++;
			return n;
		}
		if (take_end(z) < 0)
			return -1;
		if (++z->ends_seen >= z->ends_expected) {
			if (z->stream && stream_acks(z) < 0)
				return -1;
			ended = 1;
			return 0;
		}
	}
}

static int zmq_recv_(struct conn *c, void *buf, size_t len)
{
	return fd_msg_result(recv_message(c, buf, len), len);
}

static ssize_t zmq_recv_some_(struct conn *c, void *buf, size_t cap)
{
	return recv_message(c, buf, cap);
}

/* Client: the end of its messages, and the server's answer to it, each
 * within what is left of timeout_ns. */
static int zmq_finish_(struct conn *c, uint64_t timeout_ns, char *err, size_t errlen)
{
	struct zconn *z = c->handle;
	uint64_t t0 = clock_now_ns(), ms = timeout_ns / 1000000 + 1;
	int wait_ms = ms > INT32_MAX ? INT32_MAX : (int)ms;
	char num[32], ack[ACK_MAX];
	void *ask = z->stream ? z->ack : z->sock;
	int n = snprintf(num, sizeof(num), "%llu", (unsigned long long)z->count);

	zmq_setsockopt(z->sock, ZMQ_SNDTIMEO, &wait_ms, sizeof(wait_ms));
	zmq_setsockopt(ask, ZMQ_SNDTIMEO, &wait_ms, sizeof(wait_ms));
	if (send_frame(z->sock, "", 0, z->stream ? ZMQ_SNDMORE : 0, 0) < 0 ||
	    (z->stream && (send_frame(z->sock, num, (size_t)n, 0, 0) < 0 ||
			   send_frame(z->ack, num, (size_t)n, 0, 0) < 0))) {
		snprintf(err, errlen, "send the end to %s: %s", c->peer,
			 errno == EAGAIN ? "the server took nothing for the timeout" : strerror(errno));
		return -1;
	}
	uint64_t used_ms = (clock_now_ns() - t0) / 1000000;
	wait_ms = used_ms >= (uint64_t)wait_ms ? 1 : wait_ms - (int)used_ms;
	zmq_setsockopt(ask, ZMQ_RCVTIMEO, &wait_ms, sizeof(wait_ms));
	if ((n = recv_frame(ask, ack, sizeof(ack) - 1, 0)) < 0) {
		snprintf(err, errlen, "ack from %s: %s", c->peer, errno == EAGAIN ?
			 "no acknowledgement of the end within the timeout" : strerror(errno));
		return -1;
	}
	ack[n < (int)sizeof(ack) ? n : (int)sizeof(ack) - 1] = '\0';
	unsigned long long got, sent;
	if (z->stream && sscanf(ack, "received=%llu sent=%llu", &got, &sent) != 2) {
		snprintf(err, errlen, "ack from %s: not an acknowledgement: '%.40s'", c->peer, ack);
		return -1;
	}
	if (z->stream && got != sent) {	/* what the runner says of a short stream */
		snprintf(err, errlen, "ack from %s: the receiver got %llu of the %llu messages its "
			 "senders sent: %llu of %llu received", c->peer, got, sent, got, sent);
		return -1;
	}
	return 0;
}

static void zmq_info_(struct conn *c, struct conn_info *ci)
{
	struct zconn *z = c->handle;
	size_t len = sizeof(int);

	ci->sndbuf = ci->rcvbuf = ci->nodelay = -1;
	if (z && z->sock) {	/* -1 there means "the kernel's default" */
		zmq_getsockopt(z->sock, ZMQ_SNDBUF, &ci->sndbuf, &len);
		len = sizeof(int);
		zmq_getsockopt(z->sock, ZMQ_RCVBUF, &ci->rcvbuf, &len);
	}
}

/* A client's sockets go at once: after finish() nothing is left to send,
 * and without it (a failure) nothing sent matters. */
static void zmq_close_(struct conn *c)
{
	struct zconn *z = c->handle;

	if (!z)
		return;
	if (z->client) {
		close_socket(&z->sock, 0);
		close_socket(&z->ack, 0);
		if (ctx)
			zmq_ctx_term(ctx);
		ctx = NULL;
	}
	free(z);
	c->handle = NULL;
}

/* After a normal end the server's last answers are on their way: it
 * waits for its clients to leave, and its sockets keep their linger.
 * After a failure nothing it holds matters. */
static void zmq_unlisten_(int lfd, const char *addr)
{
	int linger = ended ? LINGER_MS : 0;

	(void)addr;
	close(lfd);
	if (ended && monitor)
		wait_disconnects();
	close_socket(&monitor, 0);
	close_socket(&server_sock, linger);
	close_socket(&ack_sock, linger);
	if (ctx) {
		zmq_ctx_term(ctx);
		ctx = NULL;
	}
}

const struct transport transport_zmq = {
	.name = "zmq",
	.summary = "ZeroMQ: PUSH/PULL streams, REQ/REP (DEALER/ROUTER for inflight > 1)",
	.max_size = UINT64_MAX,
	.min_size = 1,		/* a zero-length message ends a stream */
	.options = "endpoint (tcp | ipc)",
	.default_bind = NULL,
	.family = 0,		/* zmq's own framing: no plain socket to reach */
	.socktype = 0,
	.program_pairs = 1,	/* a program PUSH and PULL pair with each other */
	.multiplexes = 1,	/* one socket takes every client's messages */
	.cannot = PATTERN_NEEDS_DUPLEX,	/* no descriptor; a socket is one thread's */
	.listen = zmq_listen_,
	.accept = zmq_accept_,
	.connect = zmq_connect_,
	.send = zmq_send_,
	.recv = zmq_recv_,
	.recv_some = zmq_recv_some_,
	.finish = zmq_finish_,
	.info = zmq_info_,
	.close = zmq_close_,
	.unlisten = zmq_unlisten_,
};
