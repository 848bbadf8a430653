/* tcp and tcp6: stream sockets over IPv4 and IPv6 loopback, TCP_NODELAY on
 * unless the matrix says `nodelay: false`.  Addresses are "HOST:PORT" and
 * "[HOST]:PORT"; the runner binds port 0 and passes the port the kernel
 * chose to the clients.  One file for both: they differ in the address
 * family alone. */
#include "transport.h"
#include "fdio.h"
#include "sockets.h"
#include "tcp_view.h"
#include "vocab.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

static int set_nodelay(int fd, const struct transport_opts *o, char *err, size_t errlen)
{
	int on = o->nodelay ? 1 : 0;

	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) < 0) {
		snprintf(err, errlen, "setsockopt TCP_NODELAY: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int listen_family(int family, const struct transport_opts *o, const char *bind_addr,
			 char *addr, size_t addrlen, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	unsigned sl;
	int fd;

	if (ip_resolve(family, bind_addr, &ss, &sl, err, errlen) < 0)
		return -1;
	fd = sock_listen(family, SOCK_STREAM, o, (struct sockaddr *)&ss, sl, bind_addr, err, errlen);
	if (fd >= 0 && ip_local_name(fd, addr, addrlen) < 0) {
		snprintf(err, errlen, "getsockname %s: %s", bind_addr, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int connect_family(int family, const struct transport_opts *o, const char *addr,
			  struct conn *c, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	unsigned sl;

	if (ip_resolve(family, addr, &ss, &sl, err, errlen) < 0 ||
	    sock_connect(family, SOCK_STREAM, o, (struct sockaddr *)&ss, sl, addr, c, err,
			 errlen) < 0)
		return -1;
	/* set after connect: the option in force is what the row reports */
	if (set_nodelay(c->fd, o, err, errlen) < 0) {
		fd_close(c);
		return -1;
	}
	return 0;
}

static int tcp_listen(const struct transport_opts *o, const char *bind_addr,
		      char *addr, size_t addrlen, char *err, size_t errlen)
{
	return listen_family(AF_INET, o, bind_addr, addr, addrlen, err, errlen);
}

static int tcp6_listen(const struct transport_opts *o, const char *bind_addr,
		       char *addr, size_t addrlen, char *err, size_t errlen)
{
	return listen_family(AF_INET6, o, bind_addr, addr, addrlen, err, errlen);
}

static int tcp_connect(const struct transport_opts *o, const char *addr,
		       struct conn *c, char *err, size_t errlen)
{
	return connect_family(AF_INET, o, addr, c, err, errlen);
}

static int tcp6_connect(const struct transport_opts *o, const char *addr,
			struct conn *c, char *err, size_t errlen)
{
	return connect_family(AF_INET6, o, addr, c, err, errlen);
}

static int tcp_accept(int lfd, const struct transport_opts *o, struct conn *c,
		      char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (sock_accept(lfd, c, err, errlen) < 0)
		return -1;
	if (getpeername(c->fd, (struct sockaddr *)&ss, &sl) < 0 ||
	    ip_local_name(c->fd, c->peer, sizeof(c->peer)) < 0)
		snprintf(c->peer, sizeof(c->peer), "tcp peer");
	if (set_nodelay(c->fd, o, err, errlen) < 0) {
		fd_close(c);
		return -1;
	}
	return 0;
}

static void tcp_info(struct conn *c, struct conn_info *ci)
{
	socklen_t sl = sizeof(int);

	sock_info(c, ci);
	sock_tcp_info(c, ci);
	if (getsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &ci->nodelay, &sl) < 0)
		ci->nodelay = -1;
	else
		ci->nodelay = ci->nodelay != 0;
}

#define TCP_COMMON \
	.max_size = UINT64_MAX, \
	.has_nodelay = 1, \
	.socktype = SOCK_STREAM, \
	.options = "nodelay, zerocopy (stream)", \
	.accept = tcp_accept, \
	.send = fd_send_all, \
	.recv = fd_recv_all, \
	.recv_some = fd_recv_some, \
	.info = tcp_info, \
	.tcp_view = tcp_view_read, \
	.close = fd_close, \
	.unlisten = sock_unlisten

const struct transport transport_tcp = {
	.name = "tcp",
	.summary = "TCP over IPv4 loopback (127.0.0.1)",
	.default_bind = "127.0.0.1:0",
	.family = AF_INET,
	.listen = tcp_listen,
	.connect = tcp_connect,
	TCP_COMMON,
};

const struct transport transport_tcp6 = {
	.name = "tcp6",
	.summary = "TCP over IPv6 loopback (::1); cells are skipped where there is none",
	.default_bind = "[::1]:0",
	.family = AF_INET6,
	.listen = tcp6_listen,
	.connect = tcp6_connect,
	TCP_COMMON,
};
