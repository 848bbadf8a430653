/* unix_dgram: AF_UNIX datagram sockets.  Reliable and ordered (a full
 * receiver blocks the sender), so nothing is lost; each connection is a
 * pair of connected sockets made by the datagram handshake (dgram.h),
 * with socket files in the private directory, removed on close. */
#include "transport.h"
#include "dgram.h"
#include "fdio.h"
#include "sockets.h"
#include "vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

static char listen_path[108];
static unsigned next_conn;

static int dgram_listen(const struct transport_opts *o, const char *path, char *addr,
			size_t addrlen, char *err, size_t errlen)
{
	int fd;

	fd = sock_unix_listen(SOCK_DGRAM, o, path, addr, addrlen, err, errlen);
	if (fd >= 0)
		snprintf(listen_path, sizeof(listen_path), "%s", path);
	return fd;
}

/* A socket file next to the listening one, removed when the conn closes. */
static int own_path(struct conn *c, const char *base, char kind, unsigned n,
		    struct sockaddr_un *sun, char *err, size_t errlen)
{
	char path[sizeof(sun->sun_path) + 16];

	snprintf(path, sizeof(path), "%s.%c%u", base, kind, n);
	if (sock_unix_addr(sun, path, err, errlen) < 0)
		return -1;
	unlink(path);	/* a leftover of a crashed run with the same name */
	c->handle = strdup(path);
	return 0;
}

static int dgram_unix_accept(int lfd, const struct transport_opts *o, struct conn *c,
			     char *err, size_t errlen)
{
	struct sockaddr_un sun;
	char *path;

	if (own_path(c, listen_path, 's', ++next_conn, &sun, err, errlen) < 0)
		return -1;
	path = c->handle;
	if (dgram_accept(lfd, AF_UNIX, (struct sockaddr *)&sun, sizeof(sun), o, 0, c, err,
			 errlen) < 0) {
		unlink(path);
		free(path);
		return -1;
	}
	c->handle = path;
	snprintf(c->peer, sizeof(c->peer), "unix_dgram peer");
	return 0;
}

static int dgram_unix_connect(const struct transport_opts *o, const char *path, struct conn *c,
			      char *err, size_t errlen)
{
	struct sockaddr_un srv, me;
	char *mine;

	if (sock_unix_addr(&srv, path, err, errlen) < 0 ||
	    own_path(c, path, 'c', o->id, &me, err, errlen) < 0)
		return -1;
	mine = c->handle;
	if (dgram_connect(AF_UNIX, (struct sockaddr *)&srv, sizeof(srv), (struct sockaddr *)&me,
			  sizeof(me), path, o, 0, c, err, errlen) < 0) {
		unlink(mine);
		free(mine);
		return -1;
	}
	c->handle = mine;
	return 0;
}

static void dgram_unix_close(struct conn *c)
{
	fd_msg_close(c);
	if (c->handle) {
		unlink(c->handle);
		free(c->handle);
		c->handle = NULL;
	}
}

const struct transport transport_unix_dgram = {
	.name = "unix_dgram",
	.summary = "AF_UNIX datagrams: reliable, ordered, message boundaries kept",
	.max_size = 128 * 1024,		/* fits the default 208 KiB socket buffer */
	.options = "batch (stream)",
	.default_bind = NULL,
	.family = AF_UNIX,
	.socktype = SOCK_DGRAM,
	.listen = dgram_listen,
	.accept = dgram_unix_accept,
	.connect = dgram_unix_connect,
	.send = fd_msg_send,
	.recv = fd_msg_recv,
	.recv_some = fd_msg_recv_some,
	.info = sock_info,
	.close = dgram_unix_close,
	.unlisten = sock_unlisten_path,
};
