/* The one table of transports: see "The registry" in transport.h.  A new
 * transport is its own file and one line here. */
#include "transport.h"
#include "arrays.h"
#include "fdio.h"
#include "sockets.h"

#include <string.h>
#include <sys/socket.h>

extern const struct transport transport_tcp, transport_tcp6, transport_unix,
	transport_unix_seqpacket, transport_unix_dgram, transport_udp, transport_pipe,
	transport_zmq, transport_shm, transport_mq;

/* One line per transport, in the order `matrix transports` lists them. */
static const struct transport *const registry[] = {
	&transport_tcp,
	&transport_unix,
	&transport_tcp6,
	&transport_udp,
	&transport_unix_dgram,
	&transport_unix_seqpacket,
	&transport_pipe,
	&transport_zmq,
	&transport_shm,
	&transport_mq,
};

size_t transport_count(void)
{
	return ARRAY_SIZE(registry);
}

const struct transport *transport_at(size_t i)
{
	return i < transport_count() ? registry[i] : NULL;
}

const struct transport *transport_find(const char *name)
{
	for (size_t i = 0; i < transport_count(); i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}

const struct transport *transport_default(void)
{
	return transport_find("tcp");
}

int transport_does(const struct transport *t, enum pattern p)
{
	return !(pattern_info(p)->needs & t->cannot);
}

int transport_takes_programs(const struct transport *t)
{
	if (t->family && t->socktype == SOCK_STREAM)
		return TAKES_PROGRAMS;
	return t->program_pairs ? TAKES_PROGRAM_PAIRS : 0;
}

/* A connection just made (made < 0: it was not): its polling as o asks,
 * or closed when that fails. */
static int polled(const struct transport *t, const struct transport_opts *o, struct conn *c,
		  int made, char *err, size_t errlen)
{
	if (made < 0)
		return -1;
	if (fd_conn_poll(c, o, t->lossy, err, errlen) < 0) {
		t->close(c);
		return -1;
	}
	return 0;
}

int transport_accept(const struct transport *t, int lfd, const struct transport_opts *o,
		     struct conn *c, char *err, size_t errlen)
{
	int made = t->accept(lfd, o, c, err, errlen);

	/* the buffers again on the accepted socket: an AF_UNIX one is made
	 * anew by the kernel, not from the listener (tcp's inherits them,
	 * its congestion control and its MSS: set again, they stay) */
	if (made == 0 && t->family && c->fd >= 0 && (o->sndbuf || o->rcvbuf)) {
		struct transport_opts bufs = { .sndbuf = o->sndbuf, .rcvbuf = o->rcvbuf };
		if (sock_knobs(c->fd, &bufs, 0, err, errlen) < 0) {
			t->close(c);
			return -1;
		}
	}
	return polled(t, o, c, made, err, errlen);
}

int transport_connect(const struct transport *t, const struct transport_opts *o,
		      const char *addr, struct conn *c, char *err, size_t errlen)
{
	return polled(t, o, c, t->connect(o, addr, c, err, errlen), err, errlen);
}
