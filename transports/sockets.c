/* Socket helpers shared by the socket transports: see sockets.h. */
#include "sockets.h"
#include "fdio.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

void sock_info(struct conn *c, struct conn_info *ci)
{
	socklen_t sl = sizeof(int);

	ci->sndbuf = ci->rcvbuf = ci->nodelay = -1;
	if (getsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &ci->sndbuf, &sl) < 0)
		ci->sndbuf = -1;
	sl = sizeof(int);
	if (getsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &ci->rcvbuf, &sl) < 0)
		ci->rcvbuf = -1;
}

void sock_tcp_info(struct conn *c, struct conn_info *ci)
{
	socklen_t sl = sizeof(ci->mss);

	if (getsockopt(c->fd, IPPROTO_TCP, TCP_MAXSEG, &ci->mss, &sl) < 0)
		ci->mss = -1;
	sl = sizeof(ci->congestion) - 1;
	memset(ci->congestion, 0, sizeof(ci->congestion));
	if (getsockopt(c->fd, IPPROTO_TCP, TCP_CONGESTION, ci->congestion, &sl) < 0)
		ci->congestion[0] = '\0';
}

static int knob(int fd, int level, int opt, const char *name, const void *val, socklen_t len,
		const char *shown, char *err, size_t errlen)
{
	if (setsockopt(fd, level, opt, val, len) == 0)
		return 0;
	snprintf(err, errlen, "setsockopt %s %s: %s", name, shown, strerror(errno));
	return -1;
}

int sock_knobs(int fd, const struct transport_opts *o, int tcp, char *err, size_t errlen)
{
	char shown[32];

	if (!o)
		return 0;
	snprintf(shown, sizeof(shown), "%d", o->sndbuf);
	if (o->sndbuf && knob(fd, SOL_SOCKET, SO_SNDBUF, "SO_SNDBUF", &o->sndbuf,
			      sizeof(o->sndbuf), shown, err, errlen) < 0)
		return -1;
	snprintf(shown, sizeof(shown), "%d", o->rcvbuf);
	if (o->rcvbuf && knob(fd, SOL_SOCKET, SO_RCVBUF, "SO_RCVBUF", &o->rcvbuf,
			      sizeof(o->rcvbuf), shown, err, errlen) < 0)
		return -1;
	if (!tcp)
		return 0;
	if (o->congestion[0] && knob(fd, IPPROTO_TCP, TCP_CONGESTION, "TCP_CONGESTION",
				     o->congestion, (socklen_t)strlen(o->congestion),
				     o->congestion, err, errlen) < 0)
		return -1;
	snprintf(shown, sizeof(shown), "%d", o->mss);
	if (o->mss && knob(fd, IPPROTO_TCP, TCP_MAXSEG, "TCP_MAXSEG", &o->mss, sizeof(o->mss),
			   shown, err, errlen) < 0)
		return -1;
	return 0;
}

/* A socket of (domain, type) with o's options; -1 with err, errno kept. */
static int new_socket(int domain, int type, const struct transport_opts *o, char *err,
		      size_t errlen)
{
	int fd = socket(domain, type | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "socket: %s", strerror(e));
		errno = e;
		return -1;
	}
	if (sock_knobs(fd, o, domain != AF_UNIX && type == SOCK_STREAM, err, errlen) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int sock_listen(int domain, int type, const struct transport_opts *o, const struct sockaddr *sa,
		unsigned salen, const char *name, char *err, size_t errlen)
{
	int one = 1, fd = new_socket(domain, type, o, err, errlen);

	if (fd < 0)
		return -1;
	if (domain != AF_UNIX)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, sa, salen) < 0 ||
	    ((type == SOCK_STREAM || type == SOCK_SEQPACKET) && listen(fd, 1024) < 0)) {
		int e = errno;
		snprintf(err, errlen, "bind %s: %s", name, strerror(e));
		close(fd);
		errno = e;	/* the caller tells "no such address here" apart */
		return -1;
	}
	return fd;
}

int sock_connect(int domain, int type, const struct transport_opts *o, const struct sockaddr *sa,
		 unsigned salen, const char *name, struct conn *c, char *err, size_t errlen)
{
	int rc, fd = new_socket(domain, type, o, err, errlen);

	if (fd < 0)
		return -1;
	do
		rc = connect(fd, sa, salen);
	while (rc < 0 && errno == EINTR);
	if (rc < 0) {
		snprintf(err, errlen, "connect %s: %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	fd_conn_set(c, fd, name);
	return 0;
}

int sock_accept(int lfd, struct conn *c, char *err, size_t errlen)
{
	int fd;

	do
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		snprintf(err, errlen, "accept: %s", strerror(errno));
		return -1;
	}
	c->fd = c->wfd = fd;
	c->handle = NULL;
	c->streams = 1;
	return 0;
}

int sock_unix_addr(struct sockaddr_un *sun, const char *path, char *err, size_t errlen)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (!*path || strlen(path) >= sizeof(sun->sun_path)) {
		snprintf(err, errlen, "socket path '%s' is empty or longer than %zu bytes", path,
			 sizeof(sun->sun_path) - 1);
		return -1;
	}
	strcpy(sun->sun_path, path);
	return 0;
}

int sock_recv_timeout(int fd, uint64_t ns)
{
	struct timeval tv = { .tv_sec = (time_t)(ns / 1000000000ull),
			      .tv_usec = (suseconds_t)(ns % 1000000000ull / 1000) };

	if (!ns)
		return 0;
	if (!tv.tv_sec && !tv.tv_usec)
		tv.tv_usec = 1;
	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

int sock_set_recv_timeout(struct conn *c, uint64_t ns)
{
	if (c->busy) {	/* the spin's own deadline (fdio.h) */
		c->recv_timeout_ns = ns;
		return 0;
	}
	return sock_recv_timeout(c->fd, ns);
}

int ip_resolve(int family, const char *addr, struct sockaddr_storage *ss, unsigned *len,
	       char *err, size_t errlen)
{
	char host[256];
	const char *colon = strrchr(addr, ':'), *h = addr;
	size_t hlen;
	struct addrinfo hints = { .ai_family = family, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res;
	int rc;

	if (!colon || colon == addr || !colon[1]) {
		snprintf(err, errlen, "bad address '%s': expected HOST:PORT", addr);
		return -1;
	}
	hlen = (size_t)(colon - addr);
	if (*h == '[' && hlen >= 2 && h[hlen - 1] == ']') {	/* [::1]:port */
		h++;
		hlen -= 2;
	}
	if (hlen >= sizeof(host)) {
		snprintf(err, errlen, "bad address '%s': host too long", addr);
		return -1;
	}
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	rc = getaddrinfo(host, colon + 1, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "resolve %s: %s", addr, gai_strerror(rc));
		return -1;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = (unsigned)res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int ip_local_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char ip[INET6_ADDRSTRLEN];

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return -1;
	if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
		inet_ntop(AF_INET6, &s6->sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "[%s]:%u", ip, (unsigned)ntohs(s6->sin6_port));
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
		inet_ntop(AF_INET, &s4->sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s:%u", ip, (unsigned)ntohs(s4->sin_port));
	}
	return 0;
}

void sock_unlisten(int lfd, const char *addr)
{
	(void)addr;
	close(lfd);
}

void sock_unlisten_path(int lfd, const char *path)
{
	close(lfd);
	if (path && *path)
		unlink(path);
}

int sock_unix_listen(int type, const struct transport_opts *o, const char *path, char *addr,
		     size_t addrlen, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	int fd;

	if (sock_unix_addr(&sun, path, err, errlen) < 0)
		return -1;
	fd = sock_listen(AF_UNIX, type, o, (struct sockaddr *)&sun, sizeof(sun), path, err, errlen);
	if (fd >= 0)
		snprintf(addr, addrlen, "%s", path);
	return fd;
}

int sock_unix_connect(int type, const struct transport_opts *o, const char *path, struct conn *c,
		      char *err, size_t errlen)
{
	struct sockaddr_un sun;

	if (sock_unix_addr(&sun, path, err, errlen) < 0)
		return -1;
	return sock_connect(AF_UNIX, type, o, (struct sockaddr *)&sun, sizeof(sun), path, c, err,
			    errlen);
}
