/* pipe: a pair of named FIFOs per connection in the private directory,
 * ADDR.c2s.N (client to server) and ADDR.s2c.N (server to client) for
 * client N.  Byte streams with full-size replies and the same framing as
 * the stream sockets.  The server opens pair N as the Nth connection; each
 * side opens the client-to-server FIFO first, so the opens always pair up. */
#include "transport.h"
#include "fdio.h"
#include "vocab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static char base[4096];
static unsigned made, accepted;

static void fifo_path(char *buf, size_t len, const char *prefix, const char *dir, unsigned n)
{
	snprintf(buf, len, "%s.%s.%u", prefix, dir, n);
}

static void pipe_unlisten(int lfd, const char *addr);

static int pipe_listen(const struct transport_opts *o, const char *path, char *addr,
		       size_t addrlen, char *err, size_t errlen)
{
	char p[4200];
	int fd;

	snprintf(base, sizeof(base), "%s", path);
	for (made = 0; made < o->connections; made++)
		for (int d = 0; d < 2; d++) {
			fifo_path(p, sizeof(p), base, d ? "s2c" : "c2s", made + 1);
			if (mkfifo(p, 0600) < 0) {
				snprintf(err, errlen, "mkfifo %s: %s", p, strerror(errno));
				if (d)	/* the pair's first FIFO was made */
					made++;
				pipe_unlisten(-1, path);
				return -1;
			}
		}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);	/* nothing listens: a token */
	if (fd < 0) {
		snprintf(err, errlen, "open /dev/null: %s", strerror(errno));
		return -1;
	}
	snprintf(addr, addrlen, "%s", path);
	return fd;
}

static int open_fifo(const char *path, int flags, char *err, size_t errlen)
{
	int fd;

	do
		fd = open(path, flags | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		snprintf(err, errlen, "open %s: %s", path, strerror(errno));
	return fd;
}

static int pipe_accept(int lfd, const struct transport_opts *o, struct conn *c, char *err,
		       size_t errlen)
{
	char in[4200], out[4200];

	(void)lfd;
	(void)o;
	if (accepted >= made) {
		snprintf(err, errlen, "accept: no more FIFO pairs");
		return -1;
	}
	accepted++;
	fifo_path(in, sizeof(in), base, "c2s", accepted);
	fifo_path(out, sizeof(out), base, "s2c", accepted);
	c->handle = NULL;
	c->streams = 1;
	if ((c->fd = open_fifo(in, O_RDONLY, err, errlen)) < 0)
		return -1;
	if ((c->wfd = open_fifo(out, O_WRONLY, err, errlen)) < 0) {
		close(c->fd);
		return -1;
	}
	snprintf(c->peer, sizeof(c->peer), "pipe client %u", accepted);
	return 0;
}

static int pipe_connect(const struct transport_opts *o, const char *path, struct conn *c,
			char *err, size_t errlen)
{
	char in[4200], out[4200];

	fifo_path(out, sizeof(out), path, "c2s", o->id);
	fifo_path(in, sizeof(in), path, "s2c", o->id);
	c->handle = NULL;
	c->streams = 1;
	if ((c->wfd = open_fifo(out, O_WRONLY, err, errlen)) < 0)
		return -1;
	if ((c->fd = open_fifo(in, O_RDONLY, err, errlen)) < 0) {
		close(c->wfd);
		return -1;
	}
	snprintf(c->peer, sizeof(c->peer), "%.100s server", path);
	return 0;
}

static void pipe_info(struct conn *c, struct conn_info *ci)
{
	ci->sndbuf = fcntl(c->wfd, F_GETPIPE_SZ);
	ci->rcvbuf = fcntl(c->fd, F_GETPIPE_SZ);
	ci->nodelay = -1;
}

static void pipe_unlisten(int lfd, const char *addr)
{
	char p[4200];

	(void)addr;
	if (lfd >= 0)
		close(lfd);
	for (unsigned n = 1; n <= made; n++)
		for (int d = 0; d < 2; d++) {
			fifo_path(p, sizeof(p), base, d ? "s2c" : "c2s", n);
			unlink(p);
		}
}

const struct transport transport_pipe = {
	.name = "pipe",
	.summary = "a pair of named FIFOs per connection, full-size replies",
	.max_size = UINT64_MAX,
	.default_bind = NULL,
	.family = 0,		/* FIFOs, no socket */
	.socktype = 0,
	.listen = pipe_listen,
	.accept = pipe_accept,
	.connect = pipe_connect,
	.send = fd_send_all,
	.recv = fd_recv_all,
	.recv_some = fd_recv_some,
	.info = pipe_info,
	.close = fd_close,
	.unlisten = pipe_unlisten,
};
