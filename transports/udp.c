/* udp: IPv4 datagrams on loopback.  Nothing is resent: the worker counts
 * what is lost, duplicated or reordered (sequence numbers in the first 8
 * bytes of every message, hence the 8-byte minimum), and a lost reply ends
 * its request after opts.recv_timeout_ns.  Each connection is a pair of
 * connected sockets made by the datagram handshake (dgram.h). */
#include "transport.h"
#include "dgram.h"
#include "fdio.h"
#include "sockets.h"
#include "vocab.h"

#include <stdio.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define UDP_MAX_PAYLOAD 65507u	/* 65535 - 20 (IPv4 header) - 8 (UDP header) */

static int udp_listen(const struct transport_opts *o, const char *bind_addr, char *addr,
		      size_t addrlen, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	unsigned sl;
	int fd;

	if (ip_resolve(AF_INET, bind_addr, &ss, &sl, err, errlen) < 0)
		return -1;
	fd = sock_listen(AF_INET, SOCK_DGRAM, o, (struct sockaddr *)&ss, sl, bind_addr, err, errlen);
	if (fd >= 0 && ip_local_name(fd, addr, addrlen) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int udp_accept(int lfd, const struct transport_opts *o, struct conn *c, char *err,
		      size_t errlen)
{
	/* the connection's socket on the listening socket's address (loopback,
	 * or the link of topology: netns), a port of its own */
	struct sockaddr_in any = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(any);

	if (getsockname(lfd, (struct sockaddr *)&any, &len) < 0 || any.sin_family != AF_INET)
		any = (struct sockaddr_in){ .sin_family = AF_INET,
					    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	any.sin_port = 0;
	if (dgram_accept(lfd, AF_INET, (struct sockaddr *)&any, sizeof(any), o, 1, c, err,
			 errlen) < 0)
		return -1;
	if (ip_local_name(c->fd, c->peer, sizeof(c->peer)) < 0)
		snprintf(c->peer, sizeof(c->peer), "udp peer");
	return 0;
}

static int udp_connect(const struct transport_opts *o, const char *addr, struct conn *c,
		       char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	unsigned sl;

	if (ip_resolve(AF_INET, addr, &ss, &sl, err, errlen) < 0)
		return -1;
	return dgram_connect(AF_INET, (struct sockaddr *)&ss, sl, NULL, 0, addr, o, 1, c, err,
			     errlen);
}

const struct transport transport_udp = {
	.name = "udp",
	.summary = "UDP over IPv4 loopback: nothing resent, loss counted",
	.max_size = UDP_MAX_PAYLOAD,
	.min_size = 8,
	.lossy = 1,
	.max_inflight = 1,
	.cannot = PATTERN_NEEDS_DUPLEX,	/* a lost echo would be waited for */
	.options = "allow_loss, loss_timeout, batch (stream)",
	.default_bind = "127.0.0.1:0",
	.family = AF_INET,
	.socktype = SOCK_DGRAM,
	.listen = udp_listen,
	.accept = udp_accept,
	.connect = udp_connect,
	.send = fd_msg_send,
	.recv = fd_msg_recv,
	.recv_some = fd_msg_recv_some,
	.set_recv_timeout = sock_set_recv_timeout,
	.info = sock_info,
	.close = fd_msg_close,
	.unlisten = sock_unlisten,
};
