/* unix: AF_UNIX stream sockets.  The address is a socket path; the runner
 * puts it in a private 0700 directory made with mkdtemp, and unlisten
 * removes the socket file. */
#include "transport.h"
#include "fdio.h"
#include "sockets.h"
#include "vocab.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

static int unix_listen(const struct transport_opts *o, const char *path,
		       char *addr, size_t addrlen, char *err, size_t errlen)
{
	return sock_unix_listen(SOCK_STREAM, o, path, addr, addrlen, err, errlen);
}

static int unix_accept(int lfd, const struct transport_opts *o, struct conn *c,
		       char *err, size_t errlen)
{
	(void)o;
	if (sock_accept(lfd, c, err, errlen) < 0)
		return -1;
	snprintf(c->peer, sizeof(c->peer), "unix peer");
	return 0;
}

static int unix_connect(const struct transport_opts *o, const char *path,
			struct conn *c, char *err, size_t errlen)
{
	return sock_unix_connect(SOCK_STREAM, o, path, c, err, errlen);
}

const struct transport transport_unix = {
	.name = "unix",
	.summary = "AF_UNIX stream socket, path in a private 0700 directory",
	.max_size = UINT64_MAX,
	.has_nodelay = 0,
	.default_bind = NULL,
	.family = AF_UNIX,
	.socktype = SOCK_STREAM,
	.listen = unix_listen,
	.accept = unix_accept,
	.connect = unix_connect,
	.send = fd_send_all,
	.recv = fd_recv_all,
	.recv_some = fd_recv_some,
	.info = sock_info,
	.close = fd_close,
	.unlisten = sock_unlisten_path,
};
