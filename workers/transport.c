/* The transport registry and the helpers shared by descriptor transports. */
#include "transport.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

extern const struct transport transport_tcp;
extern const struct transport transport_unix;

/* One line per transport, in the order `matrix transports` lists them. */
static const struct transport *const registry[] = {
	&transport_tcp,
	&transport_unix,
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
		ssize_t n = write(c->fd, p, len);
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
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
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

int sock_listen(int domain, int type, const struct sockaddr *sa, unsigned salen,
		const char *name, char *err, size_t errlen)
{
	int one = 1, fd = socket(domain, type | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (domain != AF_UNIX)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, sa, salen) < 0 ||
	    ((type == SOCK_STREAM || type == SOCK_SEQPACKET) && listen(fd, 1024) < 0)) {
		snprintf(err, errlen, "bind %s: %s", name, strerror(errno));
		close(fd);
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
	c->fd = fd;
	c->handle = NULL;
	snprintf(c->peer, sizeof(c->peer), "%.120s", name);
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
	c->fd = fd;
	c->handle = NULL;
	return 0;
}
