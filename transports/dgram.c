/* The datagram handshake: see dgram.h. */
#include "dgram.h"
#include "arrays.h"
#include "fdio.h"
#include "sockets.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

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
		if (n != (ssize_t)strlen(DGRAM_HELLO) || memcmp(buf, DGRAM_HELLO, (size_t)n))
			continue;	/* a stray datagram: not a client */
		size_t i;
		for (i = 0; i < naccepted; i++)
			if (same_addr(&accepted[i].addr, accepted[i].len, &from, fromlen))
				break;
		if (i == naccepted)
			break;
		send(accepted[i].fd, DGRAM_OK, strlen(DGRAM_OK), 0);	/* its ok was lost */
	}
	fd = socket(domain, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && sock_knobs(fd, o, 0, err, errlen) < 0) {
		close(fd);
		return -1;
	}
	if (fd < 0 || bind(fd, local, locallen) < 0 ||
	    connect(fd, (struct sockaddr *)&from, fromlen) < 0 ||
	    (lossy && sock_recv_timeout(fd, o->recv_timeout_ns) < 0) ||
	    send(fd, DGRAM_OK, strlen(DGRAM_OK), 0) < 0) {
		snprintf(err, errlen, "accept: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (naccepted < ARRAY_SIZE(accepted))
		accepted[naccepted++] = (struct accepted){ .addr = from, .len = fromlen, .fd = fd };
	c->fd = c->wfd = fd;
	c->handle = NULL;
	c->streams = 1;
	return 0;
}

void dgram_answer_late(int lfd, int wake)
{
	for (;;) {
		struct pollfd p[2] = { { .fd = lfd, .events = POLLIN }, { .fd = wake, .events = POLLIN } };
		struct sockaddr_storage from;
		socklen_t fromlen = sizeof(from);
		char buf[64];

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			return;
		if (p[1].revents)
			return;
		if (!(p[0].revents & POLLIN))
			continue;
		ssize_t n = recvfrom(lfd, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&from,
				     &fromlen);
		if (n != (ssize_t)strlen(DGRAM_HELLO) || memcmp(buf, DGRAM_HELLO, (size_t)n))
			continue;
		for (size_t i = 0; i < naccepted; i++)
			if (same_addr(&accepted[i].addr, accepted[i].len, &from, fromlen))
				send(accepted[i].fd, DGRAM_OK, strlen(DGRAM_OK), 0);
	}
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

	if (fd >= 0 && sock_knobs(fd, o, 0, err, errlen) < 0) {
		close(fd);
		return -1;
	}
	if (fd < 0 || (local && bind(fd, local, locallen) < 0)) {
		snprintf(err, errlen, "socket %s: %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (int i = 0; i < HANDSHAKE_TRIES && n < 0; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (sendto(fd, DGRAM_HELLO, strlen(DGRAM_HELLO), 0, srv, srvlen) < 0) {
			snprintf(err, errlen, "connect %s: %s", name, strerror(errno));
			close(fd);
			return -1;
		}
		if (poll(&p, 1, HANDSHAKE_WAIT_MS) <= 0)
			continue;
		fromlen = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fromlen);
		if (n >= 0 && (n != (ssize_t)strlen(DGRAM_OK) || memcmp(buf, DGRAM_OK, (size_t)n)))
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
	fd_conn_set(c, fd, name);
	return 0;
}
