/*
 * transport: one ops table per way of moving bytes between a server worker
 * and a client worker.  A new transport is one new file defining a
 * `const struct transport` and one line in the registry (transport.c).
 *
 * Call order, server side:
 *   lfd = t->listen(&opts, bind, addr_out, ...)   bound and listening; addr_out
 *                                                 is what clients connect to
 *   t->accept(lfd, &opts, &conn, ...)             once per expected connection
 *   t->send / t->recv on conn ...
 *   t->close(&conn); t->unlisten(lfd, addr_out)   unlisten also removes any
 *                                                 file the listen created
 * Client side:
 *   t->connect(&opts, addr, &conn, ...); send/recv; t->close(&conn)
 *
 * All descriptors are created close-on-exec.  send() transfers exactly one
 * message of len bytes (looping over partial writes); recv() fills exactly
 * len bytes (looping over partial reads).  Both return 0 on success, -1 on
 * error with errno set; recv() returns 1 for a clean end of stream before
 * the first byte of a message (the peer closed between messages).  A
 * stream that ends inside a message is an error (errno = EPROTO).
 *
 * For pipelined requests (inflight > 1) a transport whose connection is a
 * plain descriptor sets `conn.fd`; the worker then drives it non-blocking
 * with poll() and read()/write() directly.
 */
#ifndef MATRIX_TRANSPORT_H
#define MATRIX_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct transport_opts {
	int nodelay;		/* TCP_NODELAY: 1 on, 0 off */
	uint64_t size;		/* request / stream message size, for buffer hints */
	uint64_t response_size;
	int pattern;		/* enum pattern (matrix.h) */
	unsigned inflight;	/* requests a client keeps outstanding */
	unsigned connections;	/* server: how many clients will connect */
	unsigned id;		/* client: its number, 1..connections */
	int endpoint_ipc;	/* zmq: ipc:// instead of tcp:// */
	uint64_t recv_timeout_ns;	/* lossy transports: give up a receive after this */
};

struct conn {
	int fd;			/* read side; -1 when the transport has no descriptor */
	int wfd;		/* write side: fd, or another descriptor (pipes) */
	void *handle;		/* transport-private */
	char peer[128];		/* for messages */
	unsigned streams;	/* clients whose messages arrive here: 1, or more when a
				 * transport multiplexes them (zmq), 0 for none */
};

/* Figures a transport reports about a connection, for results.csv. */
struct conn_info {
	int sndbuf, rcvbuf;	/* bytes in force (getsockopt), -1 unknown */
	int nodelay;		/* -1 when not applicable */
};

#define PAT_BIT(p) (1u << (p))

struct transport {
	const char *name;
	const char *summary;		/* one line for `matrix transports`/help */
	unsigned patterns;		/* PAT_BIT(PAT_ECHO) | ... (matrix.h) */
	uint64_t max_size;		/* largest message; UINT64_MAX for streams */
	int has_nodelay;		/* the nodelay option means something */
	const char *default_bind;	/* "127.0.0.1:0"; NULL: a path in the private dir */
	uint64_t min_size;		/* smallest message (0: any) */
	int lossy;			/* messages may be lost, duplicated, reordered */
	unsigned max_inflight;		/* 0: any */
	int quiet_ends;			/* recv may fail with EAGAIN (a receive timeout):
					 * a long silence after the start ends a stream */
	const char *options;		/* matrix keys it reads, for `matrix transports` */

	int (*listen)(const struct transport_opts *o, const char *bind,
		      char *addr, size_t addrlen, char *err, size_t errlen);
	int (*accept)(int lfd, const struct transport_opts *o, struct conn *c,
		      char *err, size_t errlen);
	int (*connect)(const struct transport_opts *o, const char *addr,
		       struct conn *c, char *err, size_t errlen);
	int (*send)(struct conn *c, const void *buf, size_t len);
	int (*recv)(struct conn *c, void *buf, size_t len);
	/* At least one byte (a stream) or one whole message; returns the
	 * length, 0 at end of stream, -1 on error (a stream receiver that
	 * counts whole messages across reads uses this). */
	ssize_t (*recv_some)(struct conn *c, void *buf, size_t cap);
	void (*info)(struct conn *c, struct conn_info *ci);
	void (*close)(struct conn *c);
	void (*unlisten)(int lfd, const char *addr);
};

/* The registry, in the order `matrix transports` lists them. */
size_t transport_count(void);
const struct transport *transport_at(size_t i);
const struct transport *transport_find(const char *name);	/* NULL if unknown */

/* Helpers shared by descriptor-based transports: streams (all, some),
 * and messages (msg: one send or recv per message, zero length = end). */
int fd_msg_send(struct conn *c, const void *buf, size_t len);
int fd_msg_recv(struct conn *c, void *buf, size_t len);
ssize_t fd_msg_recv_some(struct conn *c, void *buf, size_t cap);
void fd_msg_close(struct conn *c);
int fd_send_all(struct conn *c, const void *buf, size_t len);
int fd_recv_all(struct conn *c, void *buf, size_t len);
ssize_t fd_recv_some(struct conn *c, void *buf, size_t cap);
void fd_close(struct conn *c);
void fd_sock_info(struct conn *c, struct conn_info *ci);

struct sockaddr;
/* A close-on-exec socket of (domain, type) bound to sa and, for stream and
 * seqpacket types, listening.  Returns the descriptor, or -1 with
 * "bind NAME: reason" (NAME is the address as the user wrote it). */
int sock_listen(int domain, int type, const struct sockaddr *sa, unsigned salen,
		const char *name, char *err, size_t errlen);
/* A close-on-exec socket of (domain, type) connected to sa, in c->fd
 * (c->peer = name).  0, or -1 with "connect NAME: reason". */
int sock_connect(int domain, int type, const struct sockaddr *sa, unsigned salen,
		 const char *name, struct conn *c, char *err, size_t errlen);
/* unlisten for sockets: close; and for a socket file, remove it too. */
void sock_unlisten(int lfd, const char *addr);
void sock_unlisten_path(int lfd, const char *path);

/* accept4 with close-on-exec, retried on EINTR; -1 with "accept: reason". */
int sock_accept(int lfd, struct conn *c, char *err, size_t errlen);

/* An AF_UNIX address for path; -1 with a message when it does not fit. */
struct sockaddr_un;
int sock_unix_addr(struct sockaddr_un *sun, const char *path, char *err, size_t errlen);
/* sock_listen and sock_connect for an AF_UNIX socket of `type` at path;
 * the listener's address (addr) is the path itself. */
int sock_unix_listen(int type, const char *path, char *addr, size_t addrlen, char *err,
		     size_t errlen);
int sock_unix_connect(int type, const char *path, struct conn *c, char *err, size_t errlen);

/* One received message's length n (msg_recv style: 0 = end of stream) as
 * recv() returns it for a message of exactly len bytes: 0, 1 at the end,
 * -1 with errno (EMSGSIZE for another length). */
int msg_result(ssize_t n, size_t len);

/* Connections over datagram sockets.  A client binds a socket (to `local`,
 * or anywhere when NULL), sends "hello" to the server's address and waits
 * for "ok", which comes from a socket the server made for this client alone
 * (bound to its own `local`); both then connect() to each other, so each
 * connection is a pair of connected sockets, like a stream's.  The client
 * retries a lost hello; the server answers a repeated one again.
 * Receive timeouts (opts.recv_timeout_ns) are set on lossy transports. */
int dgram_accept(int lfd, int domain, const struct sockaddr *local, unsigned locallen,
		 const struct transport_opts *o, int lossy, struct conn *c, char *err,
		 size_t errlen);
int dgram_connect(int domain, const struct sockaddr *srv, unsigned srvlen,
		  const struct sockaddr *local, unsigned locallen, const char *name,
		  const struct transport_opts *o, int lossy, struct conn *c, char *err,
		  size_t errlen);
/* "HOST:PORT" or "[HOST]:PORT" of the given family (AF_INET, AF_INET6)
 * into ss; -1 with a message. */
struct sockaddr_storage;
int ip_resolve(int family, const char *addr, struct sockaddr_storage *ss, unsigned *len,
	       char *err, size_t errlen);
/* The address a socket is bound to (getsockname), as ip_resolve reads it. */
int ip_local_name(int fd, char *buf, size_t len);

/* SO_RCVTIMEO from opts.recv_timeout_ns (0: none). */
int sock_recv_timeout(int fd, uint64_t ns);

#endif
