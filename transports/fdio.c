/* Descriptor I/O shared by the descriptor transports: see fdio.h. */
#include "fdio.h"
#include "clock.h"
#include "dgram.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

void fd_conn_set(struct conn *c, int fd, const char *name)
{
	c->fd = c->wfd = fd;
	c->handle = NULL;
	c->streams = 1;
	snprintf(c->peer, sizeof(c->peer), "%.120s", name);
}

static int nonblocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static int sockopt(int fd, int opt, const char *name, int val, const char *shown, char *err,
		   size_t errlen)
{
	if (setsockopt(fd, SOL_SOCKET, opt, &val, sizeof(val)) == 0)
		return 0;
	snprintf(err, errlen, "setsockopt %s %s: %s", name, shown, strerror(errno));
	return -1;
}

int fd_conn_poll(struct conn *c, const struct transport_opts *o, int lossy, char *err,
		 size_t errlen)
{
	if (c->fd < 0)
		return 0;
	if (o->busy_poll_ns) {
		char us[32];
		uint64_t v = o->busy_poll_ns / 1000;
		snprintf(us, sizeof(us), "%lluus", (unsigned long long)v);
		if (sockopt(c->fd, SO_BUSY_POLL, "SO_BUSY_POLL", v > INT32_MAX ? INT32_MAX : (int)v,
			    us, err, errlen) < 0)
			return -1;
#ifdef SO_PREFER_BUSY_POLL
		if (sockopt(c->fd, SO_PREFER_BUSY_POLL, "SO_PREFER_BUSY_POLL", 1, "1", err,
			    errlen) < 0)
			return -1;
#endif
	}
	if (!o->busy)
		return 0;
	if (nonblocking(c->fd) < 0 || (c->wfd != c->fd && nonblocking(c->wfd) < 0)) {
		snprintf(err, errlen, "O_NONBLOCK on %s: %s", c->peer, strerror(errno));
		return -1;
	}
	c->busy = 1;
	c->recv_timeout_ns = lossy ? o->recv_timeout_ns : 0;
	return 0;
}

/* A call on c failed with errno: 1 to make it again (EINTR; in busy mode
 * EAGAIN, for a receive (since != NULL) until c->recv_timeout_ns has
 * passed since *since, its first EAGAIN), 0 to fail with errno. */
static inline int again(struct conn *c, uint64_t *since)
{
	uint64_t now;

	if (errno == EINTR)
		return 1;
	if (errno != EAGAIN || !c->busy)
		return 0;
	if (!since || !c->recv_timeout_ns)
		return 1;
	now = clock_now_ns();
	if (!*since)
		*since = now;
	if (now - *since < c->recv_timeout_ns)
		return 1;
	errno = EAGAIN;
	return 0;
}

int fd_send_all(struct conn *c, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(c->wfd, p, len);
		if (n < 0) {
			if (again(c, NULL))
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
	uint64_t since = 0;

	while (got < len) {
		ssize_t n = read(c->fd, p + got, len - got);
		if (n < 0) {
			if (again(c, &since))
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
	uint64_t since = 0;

	do
		n = read(c->fd, buf, cap);
	while (n < 0 && again(c, &since));
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
	while (n < 0 && again(c, NULL));
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

/* One message into buf; its length, 0 for the end-of-stream message.  A
 * datagram server answers a hello it sees twice (its first "ok" may have
 * been lost) from the client's own socket: such a late "ok" is not data
 * (no message starts with those 8 bytes: as a sequence number they are
 * about 8e18) and is skipped. */
static ssize_t msg_recv(struct conn *c, void *buf, size_t cap)
{
	ssize_t n;
	uint64_t since = 0;

	do
		n = recv(c->fd, buf, cap, MSG_TRUNC);
	while ((n < 0 && again(c, &since)) ||
	       (n == (ssize_t)strlen(DGRAM_OK) && cap >= strlen(DGRAM_OK) &&
		!memcmp(buf, DGRAM_OK, strlen(DGRAM_OK))));
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
	for (int i = 0; i < 3 && c->wfd >= 0; i++) {
		ssize_t n;
		do	/* busy: the first waits for room in a spin */
			n = send(c->wfd, "", 0, i ? MSG_DONTWAIT : 0);
		while (n < 0 && !i && again(c, NULL));
		if (n < 0)
			break;
	}
	fd_close(c);
}
