/*
 * cell_params: one cell's parameters, every key of the matrix resolved
 * (its value in the cell, else the default), and what follows from them
 * alone: a client's share of the count, the socket family of a program,
 * the memory and the open files the cell needs.  plan.h builds the cells;
 * plan_check.h says whether each can run.
 */
#ifndef MATRIX_CELL_PARAMS_H
#define MATRIX_CELL_PARAMS_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix.h"
#include "pattern.h"
#include "placement.h"
#include "transport.h"

/* Defaults for keys a matrix leaves out. */
#define PLAN_DEFAULT_SIZE 1024
#define PLAN_DEFAULT_COUNT 10000
/* interval: 0 is auto: each stream receiver picks its timeline's interval
 * as it goes, 20 to 100 intervals a repetition (workers/timeline.h) */
#define PLAN_DEFAULT_INTERVAL_NS 0ull
#define PLAN_DEFAULT_LOSS_TIMEOUT_NS 100000000ull
/* Descriptors the runner keeps for itself on top of two per worker: 16
 * were seen at most (a run under ulimit -n 64 ran 23 clients, not 24), and
 * some room for what a run may open later. */
#define PLAN_FD_RESERVE 24

struct cell_params {
	enum pattern pattern;
	const struct transport *transport;
	uint64_t size, response_size;	/* response_size = size unless set */
	uint64_t count;			/* 0 when duration_ns is set */
	uint64_t duration_ns;
	uint64_t interval_ns;		/* 0: auto (PLAN_DEFAULT_INTERVAL_NS) */
	unsigned concurrency, inflight;
	int nodelay;
	int allow_loss;
	uint64_t loss_timeout_ns;
	int endpoint;			/* enum endpoint */
	uint64_t spin_ns;		/* test aid: server busy-wait per message, 0 none */
	uint64_t rate;			/* requests (stream: messages) per second per
					 * connection; 0: unpaced */
	int record;			/* enum record */
	int poll;			/* enum poll_mode: how our workers wait */
	int wake;			/* enum wake_mode: how a sleeping shm worker is woken */
	uint64_t busy_poll_ns;		/* SO_BUSY_POLL, whole µs; 0: not set */
	int direction;			/* enum direction: stream one way, or both */
	uint64_t sndbuf, rcvbuf;	/* SO_SNDBUF, SO_RCVBUF asked, bytes; 0: auto */
	const char *congestion;		/* TCP_CONGESTION; NULL: not set */
	uint64_t mss;			/* TCP_MAXSEG; 0: auto */
	int zerocopy;			/* stream senders over tcp, tcp6: MSG_ZEROCOPY */
	unsigned batch;			/* stream over udp, unix_dgram: messages per
					 * sendmmsg/recvmmsg call; 1: one send each */
	const struct program *server_prog;	/* NULL: matrix's own worker */
	const struct program *client_prog;
	const char *cpu;		/* the cpu: value's text (placement.h), NULL
					 * when not written (none) */
	int netns;			/* topology: netns: the server and the clients
					 * in the namespaces of launch/netns.h */
	/* topology: netns: the link of the cell, each way (the link process,
	 * launch/link.h); zero for a key not written */
	struct cell_link {
		uint64_t delay_ns, jitter_ns;
		uint64_t rate_bps;	/* 0: no limit */
		uint64_t loss;		/* millionths of a percent */
	} link;
};

/* The value of key in the cell whose values are choice (choice[d]: the
 * index into m->dims[d].values), or NULL when the matrix does not set
 * key. */
const struct mvalue *plan_cell_value(const struct matrix *m, const size_t *choice,
				     const char *key);

/* The cell of choice's parameters into p: each key's value in the cell,
 * else its default (above; pattern.h's, transport.h's). */
void plan_resolve_params(const struct matrix *m, const size_t *choice, struct cell_params *p);

/* The CPUs of p's cpu: on the CPUs allowed (placement_parse, then
 * placement_resolve): 0, or -1 with why. */
int plan_resolve_placement(const cpu_set_t *allowed, const struct cell_params *p,
			   struct placement *out, char *why, size_t whylen);

/* Client id's share of the cell's count (id 1..concurrency): the count is
 * split exactly, the first count % concurrency clients take one more. */
uint64_t plan_client_share(const struct cell_params *p, unsigned id);

/* The socket family a program of the cell reaches its server with:
 * the transport's, or for zmq its endpoint's (tcp: AF_INET, ipc:
 * AF_UNIX). */
int plan_program_family(const struct cell_params *p);

/* Bytes of message buffers a cell's workers allocate, all connections
 * together (UINT64_MAX when it does not fit); plan_build() refuses a cell
 * that needs more than the machine's available memory. */
uint64_t plan_cell_memory(const struct cell_params *p);
/* Open files the runner needs while the cell runs; plan_build() refuses
 * a cell that needs more than RLIMIT_NOFILE. */
uint64_t plan_cell_fds(const struct cell_params *p);

#endif
