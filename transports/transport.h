/*
 * transport: one ops table per way of moving bytes between a server worker
 * and a client worker.  A new transport is one new file defining a
 * `const struct transport` and one line in the registry (registry.c).
 * What descriptor transports share lives beside this contract: fdio.h
 * (send/recv/close on descriptors), sockets.h (making, naming and giving
 * back sockets), dgram.h (connections over datagram sockets).
 *
 * Call order, server side:
 *   lfd = t->listen(&opts, bind, addr_out, ...)   bound and listening; addr_out
 *                                                 is what clients connect to
 *   t->accept(lfd, &opts, &conn, ...)             once per expected connection
 *   t->send / t->recv on conn ...
 *   t->close(&conn); t->unlisten(lfd, addr_out)   unlisten also removes any
 *                                                 file the listen created
 * Client side:
 *   t->connect(&opts, addr, &conn, ...); send/recv;
 *   t->finish(&conn, ...) when there is one; t->close(&conn)
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
 * with poll() and read()/write() directly (busy: without the poll()).
 *
 * Busy polling (opts.busy, matrix `poll: busy`): nothing sleeps in the
 * kernel waiting for a message.  A worker accepts and connects through
 * transport_accept and transport_connect (below), which make a descriptor
 * connection's descriptors non-blocking and set conn.busy; fdio.h's send
 * and receive then retry a call that would block at once, in a spin, and
 * a lossy transport's receive gives up with EAGAIN once conn.recv_timeout_ns
 * has passed since it began waiting (as SO_RCVTIMEO does a blocking one).
 * zmq, which has no descriptor, spins with ZMQ_DONTWAIT on its data
 * messages itself; shm spins on its rings (shm.c).  opts.busy_poll_ns sets SO_BUSY_POLL on every
 * connection's socket; only transports with a socket (family != 0) take
 * it.  Listening sockets, handshakes and
 * zmq's end of stream keep blocking.
 *
 * io_uring (opts.uring, matrix `poll: uring`): transport_accept and
 * transport_connect give a byte-stream descriptor connection (tcp, tcp6,
 * unix, pipe) a ring of its own, conn.ring (fdio.h); fdio's send, recv
 * and recv_some then submit each transfer to it and wait for its
 * completion.  The connection is used from one thread.
 */
#ifndef MATRIX_TRANSPORT_H
#define MATRIX_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pattern.h"

struct transport_opts {
	int nodelay;		/* TCP_NODELAY: 1 on, 0 off */
	uint64_t size;		/* request / stream message size, for buffer hints */
	uint64_t response_size;
	enum pattern pattern;	/* pattern.h: a transport asks its table (one_way) */
	unsigned inflight;	/* requests a client keeps outstanding */
	unsigned connections;	/* server: how many clients will connect */
	unsigned id;		/* client: its number, 1..connections */
	int endpoint_ipc;	/* zmq: ipc:// instead of tcp:// */
	int wake_eventfd;	/* shm: a sleeper waits on an eventfd, not a futex */
	uint64_t recv_timeout_ns;	/* lossy transports: give up a receive after this */
	int busy;		/* poll: busy: spin on non-blocking calls, never sleep */
	uint64_t busy_poll_ns;	/* SO_BUSY_POLL, whole microseconds; 0: not set */
	int uring;		/* poll: uring: fdio moves bytes through an io_uring */
	/* Socket options (matrix sndbuf, rcvbuf, congestion, mss; sockets.h's
	 * sock_knobs): set on the listening socket before listen, on every
	 * connection's socket (a client's before connect), 0 or "" not set.
	 * Only transports with a socket (family != 0) take them; congestion
	 * and mss tcp and tcp6 only. */
	int sndbuf, rcvbuf;	/* SO_SNDBUF, SO_RCVBUF: bytes asked (the kernel doubles) */
	char congestion[16];	/* TCP_CONGESTION */
	int mss;		/* TCP_MAXSEG */
};

struct fd_ring;			/* fdio.c: a connection's io_uring */

struct conn {
	int fd;			/* read side; -1 when the transport has no descriptor */
	int wfd;		/* write side: fd, or another descriptor (pipes) */
	void *handle;		/* transport-private */
	char peer[128];		/* for messages */
	unsigned streams;	/* clients whose messages arrive here: 1, or more when a
				 * transport multiplexes them (zmq), 0 for none */
	int busy;		/* fd and wfd are non-blocking: fdio spins (above) */
	uint64_t recv_timeout_ns;	/* busy, lossy: a receive's spin gives up after
					 * this (EAGAIN); 0: never */
	struct fd_ring *ring;	/* poll: uring: fdio's ring for this connection, or NULL */
};

/* Figures a transport reports about a connection, for results.csv. */
struct conn_info {
	int sndbuf, rcvbuf;	/* bytes in force (getsockopt), -1 unknown */
	int nodelay;		/* -1 when not applicable */
	/* tcp, tcp6 (the caller sets mss -1 and congestion "" first): */
	int mss;		/* TCP_MAXSEG read back, -1 unknown */
	char congestion[16];	/* TCP_CONGESTION read back, "" unknown */
};

/* The kernel's view of a TCP connection (getsockopt TCP_INFO), as one end
 * of it sees it; each field -1 when the kernel did not give it (an older
 * kernel's shorter struct tcp_info). */
enum tcp_view_field {
	TCPV_RETRANS,		/* tcpi_total_retrans: segments retransmitted */
	TCPV_RTT_US,		/* tcpi_rtt: smoothed round-trip time, µs */
	TCPV_RTTVAR_US,		/* tcpi_rttvar: its mean deviation, µs */
	TCPV_CWND,		/* tcpi_snd_cwnd: congestion window, segments */
	TCPV_DELIVERY_RATE,	/* tcpi_delivery_rate: bytes/s, the latest sample */
	TCPV_BYTES_RETRANS,	/* tcpi_bytes_retrans: bytes retransmitted */
	TCPV_MSS,		/* tcpi_snd_mss: the sender's segment size, bytes */
	TCPV__COUNT
};
struct tcp_view {
	int64_t v[TCPV__COUNT];
};

struct transport {
	const char *name;
	const char *summary;		/* one line for `matrix transports`/help */
	unsigned cannot;		/* what patterns need that it cannot give:
					 * PATTERN_NEEDS_* (pattern.h); 0: it does
					 * every pattern */
	uint64_t max_size;		/* largest message; UINT64_MAX for streams */
	int has_nodelay;		/* the nodelay option means something */
	const char *default_bind;	/* "127.0.0.1:0"; NULL: a path in the private dir */
	uint64_t min_size;		/* smallest message (0: any) */
	int lossy;			/* messages may be lost, duplicated, reordered;
					 * recv gives up after a timeout (EAGAIN):
					 * set_recv_timeout is required */
	unsigned max_inflight;		/* 0: any */
	uint64_t max_window;		/* inflight > 1: inflight x the larger of size and
					 * the reply's size at most this (shm: its ring
					 * holds a whole window); 0: any */
	const char *options;		/* matrix keys it reads, for `matrix transports` */
	/* The plain socket a process reaches this transport's server with:
	 * family AF_INET, AF_INET6 or AF_UNIX and type SOCK_STREAM,
	 * SOCK_SEQPACKET or SOCK_DGRAM; both 0 when there is none (FIFOs,
	 * zmq's own framing).  A program of the user's can take part only
	 * where it is a stream socket: see transport_takes_programs. */
	int family;
	int socktype;
	/* Programs take part when server and clients all are (zmq: our
	 * workers add an acknowledged end to a stream, which a program of
	 * the user's would not speak). */
	int program_pairs;
	/* One server connection takes every client's messages (zmq: the first
	 * accept returns a connection with streams = all clients, the later
	 * ones streams = 0), so the server runs one receiving thread, not one
	 * per client. */
	int multiplexes;
	/* Optional (NULL: the constants above are all there is): this
	 * machine's limits, read now, where they are the kernel's settings
	 * (mq: fs.mqueue's sysctls, RLIMIT_MSGQUEUE).  With o NULL, writes
	 * them into msg as `matrix transports` shows them ("size 1B to 8192B,
	 * inflight 10") and returns 0.  With o, whether a cell of o's size,
	 * response_size, pattern, inflight and connections fits them: 0, or
	 * -1 with why in msg and *key the matrix key to blame ("size",
	 * "response_size", "inflight", "concurrency", "transport").  The plan
	 * asks it of each cell it runs on this machine (plan_check_machine);
	 * the transport's listen asks it again. */
	int (*limits_now)(const struct transport_opts *o, const char **key, char *msg,
			  size_t msglen);

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
	/* Lossy transports (NULL elsewhere): how long recv waits for a
	 * message before it fails with EAGAIN, ns > 0.  connect sets
	 * opts.recv_timeout_ns; a client cuts it for one wait and sets it
	 * back.  0, or -1 with errno. */
	int (*set_recv_timeout)(struct conn *c, uint64_t ns);
	/* Client, optional (NULL: closing is the end): ends the client's
	 * messages and waits until the server has confirmed that it got
	 * them, so that close() drops nothing still queued.  Every wait is
	 * bounded by timeout_ns in all.  0, or -1 with a message in err (no
	 * confirmation in time, or the server got fewer messages than were
	 * sent). */
	int (*finish)(struct conn *c, uint64_t timeout_ns, char *err, size_t errlen);
	void (*info)(struct conn *c, struct conn_info *ci);
	/* Optional (NULL: no TCP under it): the kernel's view of the
	 * connection now (TCP_INFO), read at the end of the timed window,
	 * before close.  0, or -1 with errno (nothing known). */
	int (*tcp_view)(struct conn *c, struct tcp_view *tv);
	void (*close)(struct conn *c);
	void (*unlisten)(int lfd, const char *addr);
};

/* The registry (registry.c), in the order `matrix transports` lists them. */
size_t transport_count(void);
const struct transport *transport_at(size_t i);			/* NULL past the end */
const struct transport *transport_find(const char *name);	/* NULL if unknown */

/* The transport of a matrix that names none: tcp. */
const struct transport *transport_default(void);

/* 1 when t can carry pattern p: p needs nothing that t cannot give. */
int transport_does(const struct transport *t, enum pattern p);

/* t->accept and t->connect, then the connection's polling as o asks
 * (busy, busy_poll_ns: see "Busy polling" above).  0, or -1 with err set
 * ("setsockopt SO_BUSY_POLL 50us: Operation not permitted") and nothing
 * left open. */
int transport_accept(const struct transport *t, int lfd, const struct transport_opts *o,
		     struct conn *c, char *err, size_t errlen);
int transport_connect(const struct transport *t, const struct transport_opts *o,
		      const char *addr, struct conn *c, char *err, size_t errlen);

/* Where a program of the user's (matrix `programs:`) can be a server or a
 * client over t:
 *   TAKES_PROGRAMS       beside our workers too: a stream socket (tcp,
 *                        tcp6, unix), whose address the runner hands over
 *                        as {host} and {port}, or as {path} for AF_UNIX
 *   TAKES_PROGRAM_PAIRS  only when the server and the clients are all
 *                        programs (zmq, at {endpoint}: tcp://127.0.0.1:PORT
 *                        or ipc://PATH)
 *   0                    never (datagrams, FIFOs) */
enum { TAKES_PROGRAMS = 1, TAKES_PROGRAM_PAIRS = 2 };
int transport_takes_programs(const struct transport *t);

#endif
