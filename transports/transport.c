/* The transport registry and the helpers shared by descriptor transports. */
#include "transport.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

extern const struct transport transport_tcp, transport_tcp6, transport_unix,
	transport_unix_seqpacket, transport_unix_dgram, transport_udp, transport_pipe,
	transport_zmq;

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
};

size_t transport_count(void)
{
	return sizeof(registry) / sizeof(registry[0]);
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

int fd_send_all(struct conn *c, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(c->wfd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fd_recv_all(struct conn *c, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(c->fd, p + got, len - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			if (got == 0)
				return 1;
			errno = EPROTO;
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}

ssize_t fd_recv_some(struct conn *c, void *buf, size_t cap)
{
	ssize_t n;

	do
		n = read(c->fd, buf, cap);
	while (n < 0 && errno == EINTR);
	return n;
}

void fd_close(struct conn *c)
{
	if (c->wfd >= 0 && c->wfd != c->fd)
		close(c->wfd);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = c->wfd = -1;
}

int fd_msg_send(struct conn *c, const void *buf, size_t len)
{
	ssize_t n;

	do
		n = send(c->wfd, buf, len, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

#define HELLO "matrix-hello"
#define OK "matrix-ok"

/* One message into buf; its length, 0 for the end-of-stream message.  A
 * datagram server answers a hello it sees twice (its first "ok" may have
 * been lost) from the client's own socket: such a late "ok" is not data
 * (no message starts with those 8 bytes: as a sequence number they are
 * about 8e18) and is skipped. */
static ssize_t msg_recv(struct conn *c, void *buf, size_t cap)
{
	ssize_t n;

	do
		n = recv(c->fd, buf, cap, MSG_TRUNC);
	while ((n < 0 && errno == EINTR) ||
	       (n == (ssize_t)strlen(OK) && cap >= strlen(OK) && !memcmp(buf, OK, strlen(OK))));
	if (n > (ssize_t)cap) {
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}

int msg_result(ssize_t n, size_t len)
{
	if (n < 0)
		return -1;
	if (n == 0)
		return 1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

int fd_msg_recv(struct conn *c, void *buf, size_t len)
{
	return msg_result(msg_recv(c, buf, len), len);
}

ssize_t fd_msg_recv_some(struct conn *c, void *buf, size_t cap)
{
	return msg_recv(c, buf, cap);
}

void fd_msg_close(struct conn *c)
{
	/* the end-of-stream message, waiting for room like any message (a full
	 * AF_UNIX receiver queue must not swallow it); udp may lose it, so two
	 * more follow, and its receiver also ends on a long silence */
	for (int i = 0; i < 3 && c->wfd >= 0; i++)
		if (send(c->wfd, "", 0, i ? MSG_DONTWAIT : 0) < 0)
			break;
	fd_close(c);
}

void fd_sock_info(struct conn *c, struct conn_info *ci)
{
	socklen_t sl = sizeof(int);

	ci->sndbuf = ci->rcvbuf = ci->nodelay = -1;
	if (getsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &ci->sndbuf, &sl) < 0)
		ci->sndbuf = -1;
	sl = sizeof(int);
	if (getsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &ci->rcvbuf, &sl) < 0)
		ci->rcvbuf = -1;
}

/* A connection on one descriptor, one stream. */
static void conn_set(struct conn *c, int fd, const char *name)
{
	c->fd = c->wfd = fd;
	c->handle = NULL;
	c->streams = 1;
	snprintf(c->peer, sizeof(c->peer), "%.120s", name);
}

int sock_listen(int domain, int type, const struct sockaddr *sa, unsigned salen,
		const char *name, char *err, size_t errlen)
{
	int one = 1, fd = socket(domain, type | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "socket: %s", strerror(e));
		errno = e;
		return -1;
	}
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

int sock_connect(int domain, int type, const struct sockaddr *sa, unsigned salen,
		 const char *name, struct conn *c, char *err, size_t errlen)
{
	int rc, fd = socket(domain, type | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	do
		rc = connect(fd, sa, salen);
	while (rc < 0 && errno == EINTR);
	if (rc < 0) {
		snprintf(err, errlen, "connect %s: %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	conn_set(c, fd, name);
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

#define HANDSHAKE_TRIES 50
#define HANDSHAKE_WAIT_MS 200

/* Clients a server has accepted, so that a repeated hello is answered
 * by the socket made for it, not by a new connection. */
static struct accepted {
	struct sockaddr_storage addr;
	socklen_t len;
	int fd;
} accepted[1024];
static size_t naccepted;

static int same_addr(const struct sockaddr_storage *a, socklen_t alen,
		     const struct sockaddr_storage *b, socklen_t blen)
{
	return alen == blen && !memcmp(a, b, alen);
}

int dgram_accept(int lfd, int domain, const struct sockaddr *local, unsigned locallen,
		 const struct transport_opts *o, int lossy, struct conn *c, char *err,
		 size_t errlen)
{
	struct sockaddr_storage from;
	socklen_t fromlen;
	char buf[64];
	ssize_t n;
	int fd;

	for (;;) {
		fromlen = sizeof(from);
		do
			n = recvfrom(lfd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fromlen);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			snprintf(err, errlen, "accept: %s", strerror(errno));
			return -1;
		}
		if (n != (ssize_t)strlen(HELLO) || memcmp(buf, HELLO, (size_t)n))
			continue;	/* a stray datagram: not a client */
		size_t i;
		for (i = 0; i < naccepted; i++)
			if (same_addr(&accepted[i].addr, accepted[i].len, &from, fromlen))
				break;
		if (i == naccepted)
			break;
		send(accepted[i].fd, OK, strlen(OK), 0);	/* its ok was lost */
	}
	fd = socket(domain, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, local, locallen) < 0 ||
	    connect(fd, (struct sockaddr *)&from, fromlen) < 0 ||
	    (lossy && sock_recv_timeout(fd, o->recv_timeout_ns) < 0) ||
	    send(fd, OK, strlen(OK), 0) < 0) {
		snprintf(err, errlen, "accept: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (naccepted < sizeof(accepted) / sizeof(accepted[0]))
		accepted[naccepted++] = (struct accepted){ .addr = from, .len = fromlen, .fd = fd };
	c->fd = c->wfd = fd;
	c->handle = NULL;
	c->streams = 1;
	return 0;
}

int dgram_connect(int domain, const struct sockaddr *srv, unsigned srvlen,
		  const struct sockaddr *local, unsigned locallen, const char *name,
		  const struct transport_opts *o, int lossy, struct conn *c, char *err,
		  size_t errlen)
{
	struct sockaddr_storage from;
	socklen_t fromlen = sizeof(from);
	char buf[64];
	ssize_t n = -1;
	int fd = socket(domain, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || (local && bind(fd, local, locallen) < 0)) {
		snprintf(err, errlen, "socket %s: %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (int i = 0; i < HANDSHAKE_TRIES && n < 0; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (sendto(fd, HELLO, strlen(HELLO), 0, srv, srvlen) < 0) {
			snprintf(err, errlen, "connect %s: %s", name, strerror(errno));
			close(fd);
			return -1;
		}
		if (poll(&p, 1, HANDSHAKE_WAIT_MS) <= 0)
			continue;
		fromlen = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fromlen);
		if (n >= 0 && (n != (ssize_t)strlen(OK) || memcmp(buf, OK, (size_t)n)))
			n = -1;
	}
	if (n < 0) {
		snprintf(err, errlen, "connect %s: no answer from the server", name);
		close(fd);
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&from, fromlen) < 0 ||
	    (lossy && sock_recv_timeout(fd, o->recv_timeout_ns) < 0)) {
		snprintf(err, errlen, "connect %s: %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	conn_set(c, fd, name);
	return 0;
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

int sock_unix_listen(int type, const char *path, char *addr, size_t addrlen, char *err,
		     size_t errlen)
{
	struct sockaddr_un sun;
	int fd;

	if (sock_unix_addr(&sun, path, err, errlen) < 0)
		return -1;
	fd = sock_listen(AF_UNIX, type, (struct sockaddr *)&sun, sizeof(sun), path, err, errlen);
	if (fd >= 0)
		snprintf(addr, addrlen, "%s", path);
	return fd;
}

int sock_unix_connect(int type, const char *path, struct conn *c, char *err, size_t errlen)
{
	struct sockaddr_un sun;

	if (sock_unix_addr(&sun, path, err, errlen) < 0)
		return -1;
	return sock_connect(AF_UNIX, type, (struct sockaddr *)&sun, sizeof(sun), path, c, err,
			    errlen);
}
