/* zmq: ZeroMQ (libzmq) sockets.  stream is PUSH/PULL, as in the source
 * experiment; pingpong and echo are REQ/REP, or DEALER/ROUTER when a client
 * keeps more than one request in flight.  Endpoints are tcp://127.0.0.1
 * with a port the kernel picks, or ipc:// in the private directory with
 * `endpoint: ipc`.
 *
 * ZeroMQ has no connections to accept: one server socket takes every
 * client's messages, fair-queued.  So the first accept() returns that
 * socket, as a connection carrying all `connections` clients' streams, and
 * the others return connections that end at once.  Each client ends its
 * stream with a zero-length message; the shared connection ends when all
 * of them have. */
#include "transport.h"
#include "fdio.h"
#include "vocab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#define LINGER_MS 10000		/* a closing sender's messages still get out */

struct zconn {
	void *sock;
	int router;		/* replies go to `peer_id` */
	int rep;		/* must answer every request, the end too */
	int ipc;		/* a client over ipc:// */
	unsigned ends_expected, ends_seen;
	unsigned char peer_id[256];
	size_t peer_id_len;
};

static void *ctx;
static void *server_sock;
static unsigned accepted;

static int zerr(char *err, size_t errlen, const char *what, const char *where)
{
	snprintf(err, errlen, "%s %s: %s", what, where, zmq_strerror(zmq_errno()));
	return -1;
}

static int server_type(const struct transport_opts *o)
{
	if (o->pattern == PAT_STREAM)
		return ZMQ_PULL;
	return o->inflight > 1 ? ZMQ_ROUTER : ZMQ_REP;
}

static int client_type(const struct transport_opts *o)
{
	if (o->pattern == PAT_STREAM)
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

static int zmq_listen_(const struct transport_opts *o, const char *bind, char *addr,
		       size_t addrlen, char *err, size_t errlen)
{
	char endpoint[4200];
	size_t len = addrlen;
	int fd;

	if (strstr(bind, "://"))
		snprintf(endpoint, sizeof(endpoint), "%s", bind);
	else if (o->endpoint_ipc)
		snprintf(endpoint, sizeof(endpoint), "ipc://%s", bind);
	else
		snprintf(endpoint, sizeof(endpoint), "tcp://127.0.0.1:*");
	if (!(server_sock = new_socket(o, server_type(o))))
		return zerr(err, errlen, "socket", endpoint);
	/* the server ends last, when every client's end has come: nothing it
	 * still holds matters, and a linger would only delay its exit */
	int zero = 0;
	zmq_setsockopt(server_sock, ZMQ_LINGER, &zero, sizeof(zero));
	/* wake up now and then: a receiver whose senders' end messages were
	 * dropped (libzmq over ipc, closing right after sending) must not wait
	 * forever; the runner then reports what never arrived */
	int wake_ms = 500;
	zmq_setsockopt(server_sock, ZMQ_RCVTIMEO, &wake_ms, sizeof(wake_ms));
	if (zmq_bind(server_sock, endpoint) < 0 ||
	    zmq_getsockopt(server_sock, ZMQ_LAST_ENDPOINT, addr, &len) < 0) {
		zerr(err, errlen, "bind", endpoint);
		zmq_close(server_sock);
		server_sock = NULL;
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
		z->rep = server_type(o) == ZMQ_REP;
		z->ends_expected = o->connections;
		c->streams = o->connections;
	}
	snprintf(c->peer, sizeof(c->peer), "zmq clients");
	return 0;
}

static int zmq_connect_(const struct transport_opts *o, const char *addr, struct conn *c,
			char *err, size_t errlen)
{
	struct zconn *z = calloc(1, sizeof(*z));

	if (!z || !(z->sock = new_socket(o, client_type(o)))) {
		free(z);
		return zerr(err, errlen, "socket", addr);
	}
	/* queue messages only on a completed connection: nothing waits in a
	 * pipe that a closing context may drop */
	int one = 1;
	zmq_setsockopt(z->sock, ZMQ_IMMEDIATE, &one, sizeof(one));
	if (zmq_connect(z->sock, addr) < 0) {
		zerr(err, errlen, "connect", addr);
		zmq_close(z->sock);
		free(z);
		return -1;
	}
	c->fd = c->wfd = -1;
	c->handle = z;
	z->ipc = !strncmp(addr, "ipc://", 6);
	snprintf(c->peer, sizeof(c->peer), "%.120s", addr);
	return 0;
}

static int send_frame(void *sock, const void *buf, size_t len, int flags)
{
	int rc;

	do
		rc = zmq_send(sock, buf, len, flags);
	while (rc < 0 && zmq_errno() == EINTR);
	if (rc < 0)
		errno = zmq_errno();
	return rc < 0 ? -1 : 0;
}

static int zmq_send_(struct conn *c, const void *buf, size_t len)
{
	struct zconn *z = c->handle;

	if (z->router && send_frame(z->sock, z->peer_id, z->peer_id_len, ZMQ_SNDMORE) < 0)
		return -1;
	return send_frame(z->sock, buf, len, 0);
}

/* One message (after the peer's identity on a ROUTER); its length, 0 for
 * the end of everything (all clients' ends seen). */
static ssize_t recv_message(struct conn *c, void *buf, size_t cap)
{
	struct zconn *z = c->handle;
	int n;

	if (!z->sock)
		return 0;	/* an idle connection: the shared one has the clients */
	for (;;) {
		if (z->router) {
			do
				n = zmq_recv(z->sock, z->peer_id, sizeof(z->peer_id), 0);
			while (n < 0 && zmq_errno() == EINTR);
			if (n < 0)
				break;
			z->peer_id_len = (size_t)n;
		}
		do
			n = zmq_recv(z->sock, buf, cap, 0);
		while (n < 0 && zmq_errno() == EINTR);
		if (n < 0)
			break;
		if (n > 0) {
			if ((size_t)n > cap) {
				errno = EMSGSIZE;
				return -1;
			}
			return n;
		}
		/* a client's end; a REP must still answer before its next receive */
		if (z->rep && zmq_send(z->sock, "", 0, 0) < 0)
			break;
		if (++z->ends_seen >= z->ends_expected)
			return 0;
	}
	errno = zmq_errno();
	return -1;
}

static int zmq_recv_(struct conn *c, void *buf, size_t len)
{
	return msg_result(recv_message(c, buf, len), len);
}

static ssize_t zmq_recv_some_(struct conn *c, void *buf, size_t cap)
{
	return recv_message(c, buf, cap);
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

static void zmq_close_(struct conn *c)
{
	struct zconn *z = c->handle;

	if (!z)
		return;
	if (z->sock && z->sock != server_sock) {
		/* the end of this client's stream, queued behind its last messages
		 * (a full PUSH queue must not drop it: the receiver would wait for
		 * it forever); a REQ is not waiting for the reply */
		int wait_ms = LINGER_MS;
		zmq_setsockopt(z->sock, ZMQ_SNDTIMEO, &wait_ms, sizeof(wait_ms));
		send_frame(z->sock, "", 0, 0);
		/* libzmq 4.3 over ipc drops what is still queued when the context
		 * ends right after the sends, linger or not: give it time to flush
		 * (outside any timed window) */
		if (z->ipc)
			usleep(300000);
		zmq_close(z->sock);
		zmq_ctx_term(ctx);	/* waits (up to the linger) until it is delivered */
		ctx = NULL;
	}
	free(z);
	c->handle = NULL;
}

static void zmq_unlisten_(int lfd, const char *addr)
{
	(void)addr;
	close(lfd);
	if (server_sock) {
		int zero = 0;
		zmq_setsockopt(server_sock, ZMQ_LINGER, &zero, sizeof(zero));
		zmq_close(server_sock);
		server_sock = NULL;
	}
	if (ctx) {
		zmq_ctx_term(ctx);
		ctx = NULL;
	}
}

const struct transport transport_zmq = {
	.name = "zmq",
	.summary = "ZeroMQ: PUSH/PULL streams, REQ/REP (DEALER/ROUTER for inflight > 1)",
	.patterns = PAT_BIT(PAT_PINGPONG) | PAT_BIT(PAT_ECHO) | PAT_BIT(PAT_STREAM),
	.max_size = UINT64_MAX,
	.min_size = 1,		/* a zero-length message ends a stream */
	.quiet_ends = 1,	/* libzmq can drop an ipc sender's last messages */
	.options = "endpoint (tcp | ipc)",
	.default_bind = NULL,
	.family = 0,		/* zmq's own framing: no plain socket to reach */
	.socktype = 0,
	.listen = zmq_listen_,
	.accept = zmq_accept_,
	.connect = zmq_connect_,
	.send = zmq_send_,
	.recv = zmq_recv_,
	.recv_some = zmq_recv_some_,
	.info = zmq_info_,
	.close = zmq_close_,
	.unlisten = zmq_unlisten_,
};
