/* tcp: AF_INET stream sockets, TCP_NODELAY on unless the matrix says
 * `nodelay: false`.  Addresses are "HOST:PORT"; the runner binds
 * 127.0.0.1:0 and passes the port the kernel chose to the clients. */
#include "transport.h"
#include "matrix.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

static int resolve(const char *addr, struct sockaddr_in *sin, char *err, size_t errlen)
{
	char host[256];
	const char *colon = strrchr(addr, ':');
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res;
	int rc;

	if (!colon || colon == addr || (size_t)(colon - addr) >= sizeof(host) || !colon[1]) {
		snprintf(err, errlen, "bad address '%s': expected HOST:PORT", addr);
		return -1;
	}
	memcpy(host, addr, (size_t)(colon - addr));
	host[colon - addr] = '\0';
	rc = getaddrinfo(host, colon + 1, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "resolve %s: %s", addr, gai_strerror(rc));
		return -1;
	}
	memcpy(sin, res->ai_addr, sizeof(*sin));
	freeaddrinfo(res);
	return 0;
}

static int set_nodelay(int fd, const struct transport_opts *o, char *err, size_t errlen)
{
	int on = o->nodelay ? 1 : 0;

	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) < 0) {
		snprintf(err, errlen, "setsockopt TCP_NODELAY: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int tcp_listen(const struct transport_opts *o, const char *bind_addr,
		      char *addr, size_t addrlen, char *err, size_t errlen)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof(sin);
	char ip[INET_ADDRSTRLEN];
	int fd;

	(void)o;
	if (resolve(bind_addr, &sin, err, errlen) < 0)
		return -1;
	fd = sock_listen(AF_INET, SOCK_STREAM, (struct sockaddr *)&sin, sizeof(sin), bind_addr,
			 err, errlen);
	if (fd < 0)
		return -1;
	if (getsockname(fd, (struct sockaddr *)&sin, &sl) < 0) {
		snprintf(err, errlen, "getsockname %s: %s", bind_addr, strerror(errno));
		close(fd);
		return -1;
	}
	inet_ntop(AF_INET, &sin.sin_addr, ip, sizeof(ip));
	snprintf(addr, addrlen, "%s:%u", ip, (unsigned)ntohs(sin.sin_port));
	return fd;
}

static int tcp_accept(int lfd, const struct transport_opts *o, struct conn *c,
		      char *err, size_t errlen)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof(sin);
	char ip[INET_ADDRSTRLEN] = "?";

	if (sock_accept(lfd, c, err, errlen) < 0)
		return -1;
	if (getpeername(c->fd, (struct sockaddr *)&sin, &sl) == 0)
		inet_ntop(AF_INET, &sin.sin_addr, ip, sizeof(ip));
	snprintf(c->peer, sizeof(c->peer), "%s:%u", ip, (unsigned)ntohs(sin.sin_port));
	if (set_nodelay(c->fd, o, err, errlen) < 0) {
		fd_close(c);
		return -1;
	}
	return 0;
}

static int tcp_connect(const struct transport_opts *o, const char *addr,
		       struct conn *c, char *err, size_t errlen)
{
	struct sockaddr_in sin;

	if (resolve(addr, &sin, err, errlen) < 0 ||
	    sock_connect(AF_INET, SOCK_STREAM, (struct sockaddr *)&sin, sizeof(sin), addr, c, err,
			 errlen) < 0)
		return -1;
	/* set after connect: the option in force is what the row reports */
	if (set_nodelay(c->fd, o, err, errlen) < 0) {
		fd_close(c);
		return -1;
	}
	return 0;
}

static void tcp_info(struct conn *c, struct conn_info *ci)
{
	socklen_t sl = sizeof(int);

	fd_sock_info(c, ci);
	if (getsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &ci->nodelay, &sl) < 0)
		ci->nodelay = -1;
	else
		ci->nodelay = ci->nodelay != 0;
}

static void tcp_unlisten(int lfd, const char *addr)
{
	(void)addr;
	close(lfd);
}

const struct transport transport_tcp = {
	.name = "tcp",
	.summary = "AF_INET stream socket on loopback, TCP_NODELAY unless nodelay: false",
	.patterns = PAT_BIT(PAT_PINGPONG) | PAT_BIT(PAT_ECHO) | PAT_BIT(PAT_STREAM),
	.max_size = UINT64_MAX,
	.has_nodelay = 1,
	.default_bind = "127.0.0.1:0",
	.listen = tcp_listen,
	.accept = tcp_accept,
	.connect = tcp_connect,
	.send = fd_send_all,
	.recv = fd_recv_all,
	.recv_some = fd_recv_some,
	.info = tcp_info,
	.close = fd_close,
	.unlisten = tcp_unlisten,
};
