/*
 * plan: a matrix expanded into cells, each with every parameter resolved.
 *
 * Cells are the cartesian product of the dimensions in the order their keys
 * are written (the first key varies slowest), minus `exclude` and minus
 * cells that `--only` filters leave out.  Cell numbers are 1-based and
 * follow that order; they are stable for a given matrix file, whatever
 * --only selects, so results from filtered runs line up.
 *
 * Repetitions run interleaved: repetition 1 of every cell, then repetition 2
 * of every cell, and so on, so slow drift on a shared machine spreads over
 * all cells instead of biasing the ones that ran last; within each round the
 * cells run shuffled by default (order.h).
 *
 * plan_build() also checks every cell against what its transport can do
 * and reports the first impossible one as FILE:LINE:COL of the value at
 * fault; nothing is ever clamped.  It refuses a product of more than
 * PLAN_MAX_CELLS cells before building any, and a selected cell whose
 * buffers exceed the machine's memory or whose workers need more open
 * files than the runner may have.  A cpu: placement is checked against the
 * CPUs the runner may use when it plans (sched_getaffinity): a CPU outside
 * them, or split with one CPU, is an error at the cpu: value.
 */
#ifndef MATRIX_PLAN_H
#define MATRIX_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "matrix.h"
#include "placement.h"
#include "transport.h"

/* Defaults for keys a matrix leaves out. */
#define PLAN_DEFAULT_SIZE 1024
#define PLAN_DEFAULT_COUNT 10000
/* interval: 0 is auto: each stream receiver picks its timeline's interval
 * as it goes, 20 to 100 intervals a repetition (workers/timeline.h) */
#define PLAN_DEFAULT_INTERVAL_NS 0ull
#define PLAN_DEFAULT_LOSS_TIMEOUT_NS 100000000ull
#define PLAN_MAX_INTERVALS (1u << 20)	/* timeline rows per stream repetition */
#define PLAN_MAX_TIMEOUT_NS (86400ull * 1000000000ull)
/* The most cells a plan may have: the product of the dimensions' lengths,
 * counted before exclude and --only, and before any cell is built. */
#define PLAN_MAX_CELLS 100000u
/* cells x repetitions of a run: what its progress and order can count */
#define PLAN_MAX_RUNS 10000000u
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
	uint64_t busy_poll_ns;		/* SO_BUSY_POLL, whole µs; 0: not set */
	const struct program *server_prog;	/* NULL: matrix's own worker */
	const struct program *client_prog;
	const char *cpu;		/* the cpu: value's text (placement.h), NULL
					 * when not written (none) */
	/* topology: netns: the link of the cell, each way (the link process,
	 * launch/link.h); zero for a key not written */
	struct cell_link {
		uint64_t delay_ns, jitter_ns;
		uint64_t rate_bps;	/* 0: no limit */
		uint64_t loss;		/* millionths of a percent */
	} link;
};

struct cell {
	unsigned number;		/* 1-based, in product order */
	size_t *choice;			/* choice[d]: index into dims[d].values */
	struct cell_params p;
};

/* --only KEY=VALUE, parsed against the matrix. */
struct only_filter {
	size_t dim;
	uint64_t num;
};

struct plan {
	const struct matrix *m;
	struct cell *cells;
	size_t ncells;
	unsigned repeat;
	cpu_set_t cpus;			/* the runner's allowed CPUs when planned
					 * (sched_getaffinity): what cpu: places on */
};

/* Parses "KEY=VALUE" for --only; -1 with "--only KEY=VALUE: message". */
int plan_parse_only(const struct matrix *m, const char *arg, struct only_filter *f,
		    char *err, size_t errlen);

/* Expands m.  Returns 0, or -1 with "FILE:LINE:COL: message" (or an
 * --only message) in err. */
int plan_build(struct plan *pl, const struct matrix *m, const struct only_filter *only,
	       size_t nonly, char *err, size_t errlen);
/* plan_build for runs made on other machines (matrix merge's shards): the
 * same cells, not checked against this machine's CPUs (cpu:), memory and
 * open-file limit. */
int plan_build_elsewhere(struct plan *pl, const struct matrix *m,
			 const struct only_filter *only, size_t nonly, char *err, size_t errlen);
void plan_release(struct plan *pl);

/* The index in pl->cells of the cell numbered number (cells are in number
 * order), or -1 when the plan has none (--only left it out). */
long plan_cell_index(const struct plan *pl, unsigned long number);

/* "transport=unix size=10 concurrency=1": the cell's dimension values as
 * written, for progress lines and messages. */
void plan_cell_label(const struct plan *pl, const struct cell *c, char *buf, size_t len);

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

/* The CPUs a cell's workers run on (placement_resolve against pl->cpus):
 * PLACE_NONE, or PLACE_MAP with the server's and the clients' CPUs;
 * plan_build() has checked that it resolves. */
void plan_placement(const struct plan *pl, const struct cell_params *p, struct placement *out);
/* As results.csv's placement column writes it: "none", "server=0;clients=1". */
void plan_placement_text(const struct plan *pl, const struct cell_params *p, char *buf,
			 size_t len);
/* poll: busy: the cell's spinning threads (a server thread per connection,
 * one for zmq's shared socket, and each client) and the CPUs they may run
 * on (its placement, or the runner's allowed CPUs), where they are most
 * crowded: the server's CPUs, the clients', or all of them.  *spinners
 * is 0 for a blocking cell; more than *cpus means some spinner has no CPU
 * of its own. */
void plan_cell_spin(const struct plan *pl, const struct cell_params *p, unsigned *spinners,
		    unsigned *cpus);

/* Worker runs of the whole plan: cells x repeat x (1 + concurrency). */
uint64_t plan_worker_runs(const struct plan *pl);

#endif
