/*
 * sockets: what the socket transports share to make, name and give back
 * their sockets.  Every socket is created close-on-exec.
 *
 * Errors: a function that can fail returns -1 and writes into err a message
 * that names what failed and where ("bind 127.0.0.1:0: Address already in
 * use"), made when errno was still true; on failure nothing is left open.
 *
 * Ownership: a listening descriptor returned to the caller is the caller's,
 * given back with sock_unlisten or sock_unlisten_path.  A descriptor put
 * into a struct conn (connect, accept) belongs to that conn: the
 * transport's close (fd_close, fdio.h) closes it.
 */
#ifndef MATRIX_SOCKETS_H
#define MATRIX_SOCKETS_H

#include <stddef.h>
#include <stdint.h>

#include "transport.h"

struct sockaddr;
struct sockaddr_un;
struct sockaddr_storage;

/* The socket options o asks for (transport.h: sndbuf, rcvbuf, and for
 * tcp congestion and mss) on fd, each one set (none when o is NULL or
 * asks none).  0, or -1 with "setsockopt TCP_CONGESTION bbr: reason". */
int sock_knobs(int fd, const struct transport_opts *o, int tcp, char *err, size_t errlen);

/* A socket of (domain, type) with o's options (sock_knobs; o may be NULL:
 * a control socket, none) bound to sa and, for stream and seqpacket
 * types, listening (SO_REUSEADDR unless AF_UNIX).  Returns the descriptor,
 * or -1 with "socket: reason" or "bind NAME: reason" (NAME is the address
 * as the user wrote it), errno left as the failing call set it (the caller
 * tells "no such address here" apart). */
int sock_listen(int domain, int type, const struct transport_opts *o, const struct sockaddr *sa,
		unsigned salen, const char *name, char *err, size_t errlen);

/* A socket of (domain, type) with o's options (likewise) connected to sa,
 * in c (fd_conn_set: c->peer = name).  0, or -1 with "socket: reason" or
 * "connect NAME: reason". */
int sock_connect(int domain, int type, const struct transport_opts *o, const struct sockaddr *sa,
		 unsigned salen, const char *name, struct conn *c, char *err, size_t errlen);

/* The next connection on the listening lfd (accept4, retried on EINTR)
 * into c->fd = c->wfd, one stream; c->peer is left for the caller to name.
 * 0, or -1 with "accept: reason". */
int sock_accept(int lfd, struct conn *c, char *err, size_t errlen);

/* unlisten ops: close lfd; sock_unlisten_path also removes the socket file
 * at path (the address a unix listener was given). */
void sock_unlisten(int lfd, const char *addr);
void sock_unlisten_path(int lfd, const char *path);

/* An AF_UNIX address for path; -1 with a message when path is empty or
 * does not fit sun_path. */
int sock_unix_addr(struct sockaddr_un *sun, const char *path, char *err, size_t errlen);

/* sock_listen and sock_connect for an AF_UNIX socket of `type` at path
 * (o: as there, NULL for none); the listener's address (addr) is the path
 * itself. */
int sock_unix_listen(int type, const struct transport_opts *o, const char *path, char *addr,
		     size_t addrlen, char *err, size_t errlen);
int sock_unix_connect(int type, const struct transport_opts *o, const char *path, struct conn *c,
		      char *err, size_t errlen);

/* "HOST:PORT" or "[HOST]:PORT" of the given family (AF_INET, AF_INET6),
 * numeric port, into ss and *len; -1 with "bad address ..." or
 * "resolve ADDR: reason". */
int ip_resolve(int family, const char *addr, struct sockaddr_storage *ss, unsigned *len,
	       char *err, size_t errlen);

/* The address socket fd is bound to (getsockname) as ip_resolve reads it:
 * "127.0.0.1:PORT" or "[::1]:PORT".  0, or -1 with errno (no message). */
int ip_local_name(int fd, char *buf, size_t len);

/* SO_RCVTIMEO of ns nanoseconds on fd (0: none, nothing set): a lossy
 * transport's receive gives up with EAGAIN.  0, or -1 with errno. */
int sock_recv_timeout(int fd, uint64_t ns);

/* The set_recv_timeout op of a socket transport: sock_recv_timeout on
 * c->fd; in busy mode (c->busy) c->recv_timeout_ns, the spin's deadline. */
int sock_set_recv_timeout(struct conn *c, uint64_t ns);

/* The info op of a socket transport: SO_SNDBUF and SO_RCVBUF of c->fd in
 * force (-1 where getsockopt fails: the granted sizes, the kernel's
 * double of what was asked); nodelay -1 (not applicable).  sock_tcp_info
 * adds a tcp socket's TCP_MAXSEG and TCP_CONGESTION read back. */
void sock_info(struct conn *c, struct conn_info *ci);
void sock_tcp_info(struct conn *c, struct conn_info *ci);

#endif
