/* unix: AF_UNIX stream sockets.  The address is a socket path; the runner
 * puts it in a private 0700 directory made with mkdtemp, and unlisten
 * removes the socket file. */
#include "transport.h"
#include "matrix.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

static int fill_sun(struct sockaddr_un *sun, const char *path, char *err, size_t errlen)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (!*path || strlen(path) >= sizeof(sun->sun_path)) {
		snprintf(err, errlen, "socket path '%s' is empty or longer than %zu bytes",
			 path, sizeof(sun->sun_path) - 1);
		return -1;
	}
	strcpy(sun->sun_path, path);
	return 0;
}

static int unix_listen(const struct transport_opts *o, const char *path,
		       char *addr, size_t addrlen, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	int fd;

	(void)o;
	if (fill_sun(&sun, path, err, errlen) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		snprintf(err, errlen, "bind %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (listen(fd, 1024) < 0) {
		snprintf(err, errlen, "listen %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	snprintf(addr, addrlen, "%s", path);
	return fd;
}

static int unix_accept(int lfd, const struct transport_opts *o, struct conn *c,
		       char *err, size_t errlen)
{
	int fd;

	(void)o;
	do
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		snprintf(err, errlen, "accept: %s", strerror(errno));
		return -1;
	}
	c->fd = fd;
	c->handle = NULL;
	snprintf(c->peer, sizeof(c->peer), "unix peer");
	return 0;
}

static int unix_connect(const struct transport_opts *o, const char *path,
			struct conn *c, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	int fd, rc;

	(void)o;
	if (fill_sun(&sun, path, err, errlen) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	do
		rc = connect(fd, (struct sockaddr *)&sun, sizeof(sun));
	while (rc < 0 && errno == EINTR);
	if (rc < 0) {
		snprintf(err, errlen, "connect %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	c->fd = fd;
	c->handle = NULL;
	snprintf(c->peer, sizeof(c->peer), "%.120s", path);
	return 0;
}

static void unix_unlisten(int lfd, const char *addr)
{
	close(lfd);
	if (addr && *addr)
		unlink(addr);
}

const struct transport transport_unix = {
	.name = "unix",
	.summary = "AF_UNIX stream socket, path in a private 0700 directory",
	.patterns = PAT_BIT(PAT_PINGPONG) | PAT_BIT(PAT_ECHO) | PAT_BIT(PAT_STREAM),
	.max_size = UINT64_MAX,
	.has_nodelay = 0,
	.default_bind = NULL,
	.listen = unix_listen,
	.accept = unix_accept,
	.connect = unix_connect,
	.send = fd_send_all,
	.recv = fd_recv_all,
	.recv_some = fd_recv_some,
	.info = fd_sock_info,
	.close = fd_close,
	.unlisten = unix_unlisten,
};
