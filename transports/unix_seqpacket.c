/* unix_seqpacket: AF_UNIX sequenced-packet sockets: connections, like
 * unix, that keep message boundaries.  A message must fit the socket's
 * send buffer; the plan refuses larger sizes. */
#include "transport.h"
#include "fdio.h"
#include "sockets.h"
#include "vocab.h"

#include <stdio.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

static int seqpacket_listen(const struct transport_opts *o, const char *path, char *addr,
			    size_t addrlen, char *err, size_t errlen)
{
	return sock_unix_listen(SOCK_SEQPACKET, o, path, addr, addrlen, err, errlen);
}

static int seqpacket_accept(int lfd, const struct transport_opts *o, struct conn *c, char *err,
			    size_t errlen)
{
	(void)o;
	if (sock_accept(lfd, c, err, errlen) < 0)
		return -1;
	snprintf(c->peer, sizeof(c->peer), "unix_seqpacket peer");
	return 0;
}

static int seqpacket_connect(const struct transport_opts *o, const char *path, struct conn *c,
			     char *err, size_t errlen)
{
	return sock_unix_connect(SOCK_SEQPACKET, o, path, c, err, errlen);
}

const struct transport transport_unix_seqpacket = {
	.name = "unix_seqpacket",
	.summary = "AF_UNIX sequenced packets: connections that keep message boundaries",
	.max_size = 128 * 1024,		/* fits the default 208 KiB socket buffer */
	.default_bind = NULL,
	.family = AF_UNIX,
	.socktype = SOCK_SEQPACKET,
	.listen = seqpacket_listen,
	.accept = seqpacket_accept,
	.connect = seqpacket_connect,
	.send = fd_msg_send,
	.recv = fd_msg_recv,
	.recv_some = fd_msg_recv_some,
	.info = sock_info,
	.close = fd_close,		/* a connection: the peer sees its end */
	.unlisten = sock_unlisten_path,
};
