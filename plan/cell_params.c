/* A cell's parameters read from the matrix, and what follows from them
 * alone.  See cell_params.h. */
#include "cell_params.h"
#include "zerocopy.h"

#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

const struct mvalue *plan_cell_value(const struct matrix *m, const size_t *choice,
				     const char *key)
{
	for (size_t d = 0; d < m->ndims; d++)
		if (!strcmp(m->dims[d].key, key))
			return &m->dims[d].values[choice[d]];
	return NULL;
}

void plan_resolve_params(const struct matrix *m, const size_t *choice, struct cell_params *p)
{
	const struct mvalue *v;

	memset(p, 0, sizeof(*p));
	p->pattern = (v = plan_cell_value(m, choice, "pattern")) ? (enum pattern)v->num
		     : PATTERN_DEFAULT;
	p->transport = (v = plan_cell_value(m, choice, "transport")) ? transport_at((size_t)v->num)
		       : transport_default();
	p->size = (v = plan_cell_value(m, choice, "size")) ? v->num : PLAN_DEFAULT_SIZE;
	p->response_size = (v = plan_cell_value(m, choice, "response_size")) ? v->num : p->size;
	p->duration_ns = (v = plan_cell_value(m, choice, "duration")) ? v->num : 0;
	p->count = (v = plan_cell_value(m, choice, "count")) ? v->num
			: p->duration_ns ? 0 : PLAN_DEFAULT_COUNT;
	p->interval_ns = (v = plan_cell_value(m, choice, "interval")) ? v->num
			 : PLAN_DEFAULT_INTERVAL_NS;
	p->concurrency = (v = plan_cell_value(m, choice, "concurrency")) ? (unsigned)v->num : 1;
	p->inflight = (v = plan_cell_value(m, choice, "inflight")) ? (unsigned)v->num : 1;
	p->nodelay = (v = plan_cell_value(m, choice, "nodelay")) ? (int)v->num : 1;
	p->allow_loss = (v = plan_cell_value(m, choice, "allow_loss")) ? (int)v->num : 0;
	p->loss_timeout_ns = (v = plan_cell_value(m, choice, "loss_timeout")) ? v->num
			     : PLAN_DEFAULT_LOSS_TIMEOUT_NS;
	p->endpoint = (v = plan_cell_value(m, choice, "endpoint")) ? (int)v->num : EP_TCP;
	p->spin_ns = (v = plan_cell_value(m, choice, "spin")) ? v->num : 0;
	p->rate = (v = plan_cell_value(m, choice, "rate")) ? v->num : 0;
	p->record = (v = plan_cell_value(m, choice, "record")) ? (int)v->num : REC_FULL;
	p->poll = (v = plan_cell_value(m, choice, "poll")) ? (int)v->num : POLL_BLOCK;
	p->wake = (v = plan_cell_value(m, choice, "wake")) ? (int)v->num : WAKE_FUTEX;
	p->busy_poll_ns = (v = plan_cell_value(m, choice, "busy_poll")) ? v->num : 0;
	p->direction = (v = plan_cell_value(m, choice, "direction")) ? (int)v->num : DIR_ONE;
	p->sndbuf = (v = plan_cell_value(m, choice, "sndbuf")) ? v->num : 0;
	p->rcvbuf = (v = plan_cell_value(m, choice, "rcvbuf")) ? v->num : 0;
	p->congestion = (v = plan_cell_value(m, choice, "congestion")) ? v->text : NULL;
	p->mss = (v = plan_cell_value(m, choice, "mss")) ? v->num : 0;
	p->zerocopy = (v = plan_cell_value(m, choice, "zerocopy")) ? (int)v->num : 0;
	p->batch = (v = plan_cell_value(m, choice, "batch")) ? (unsigned)v->num : 1;
	p->server_prog = (v = plan_cell_value(m, choice, "server")) && v->num
			 ? matrix_program(m, v->text) : NULL;
	p->client_prog = (v = plan_cell_value(m, choice, "client")) && v->num
			 ? matrix_program(m, v->text) : NULL;
	p->cpu = (v = plan_cell_value(m, choice, "cpu")) ? v->text : NULL;
	p->netns = m->topology.netns;
	p->link.delay_ns = (v = plan_cell_value(m, choice, "link_delay")) ? v->num : 0;
	p->link.jitter_ns = (v = plan_cell_value(m, choice, "link_jitter")) ? v->num : 0;
	p->link.rate_bps = (v = plan_cell_value(m, choice, "link_rate")) ? v->num : 0;
	p->link.loss = (v = plan_cell_value(m, choice, "link_loss")) ? v->num : 0;
}

int plan_resolve_placement(const cpu_set_t *allowed, const struct cell_params *p,
			   struct placement *out, char *why, size_t whylen)
{
	struct placement pl = { .mode = PLACE_NONE };

	if (p->cpu && placement_parse(p->cpu, &pl, why, whylen) < 0)
		return -1;
	return placement_resolve(&pl, allowed, out, why, whylen);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return __builtin_add_overflow(a, b, &a) ? UINT64_MAX : a;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return __builtin_mul_overflow(a, b, &a) ? UINT64_MAX : a;
}

/* The message buffers a cell's own workers allocate (workers/client.c,
 * rr.c, stream.c), per connection: the server's receive and reply buffers (a
 * stream receiver reads into at least 64 KiB; zerocopy: the sender's pool,
 * zerocopy.h; batch: N messages at each end), the client's request, its
 * copy of the expected pattern and its reply buffer, and the requests and
 * replies in flight, which a transport may hold copies of (zmq does).  A
 * program's own buffers are not known and not counted. */
uint64_t plan_cell_memory(const struct cell_params *p)
{
	const struct pattern_info *pi = pattern_info(p->pattern);
	uint64_t size = p->size, resp = pattern_reply_size(pi, p->size, p->response_size);
	uint64_t conn = 0;

	if (pi->one_way) {
		conn = p->server_prog ? 0 : size > 65536 ? size : 65536;
		conn = sat_add(conn, p->client_prog ? 0 : sat_mul(2, size));
		/* zerocopy: the sender's pool; batch: N messages each side */
		if (p->zerocopy)
			conn = sat_add(conn, sat_mul(zc_pool_buffers(size), size));
		if (p->batch > 1)
			conn = sat_add(conn, sat_mul(2 * (uint64_t)p->batch, size));
	} else {
		conn = p->server_prog ? 0 : sat_add(size, resp);
		conn = sat_add(conn, p->client_prog ? 0 : sat_add(sat_mul(2, size), resp));
		if (!p->server_prog && !p->client_prog)
			conn = sat_add(conn, sat_mul(p->inflight, sat_add(size, resp)));
		if (!pi->windowed && !p->client_prog)	/* pipeline: the reader's buffer */
			conn = sat_add(conn, size > 65536 ? size : 65536);
	}
	return sat_mul(conn, p->concurrency);
}

/* The descriptors the runner holds while a cell runs (cell/cell.c,
 * spawn.c): a report pipe and a pidfd per worker (a program: its output
 * pipe, a pidfd and its log file while it writes one: three), and
 * PLAN_FD_RESERVE for itself (standard streams, the run's files, the
 * start pipe and the ten a start makes for a moment). */
uint64_t plan_cell_fds(const struct cell_params *p)
{
	return PLAN_FD_RESERVE + (p->server_prog ? 3u : 2u) +
	       (p->client_prog ? 3u : 2u) * (uint64_t)p->concurrency;
}

int plan_program_family(const struct cell_params *p)
{
	if (transport_takes_programs(p->transport) == TAKES_PROGRAM_PAIRS)
		return p->endpoint == EP_IPC ? AF_UNIX : AF_INET;
	return p->transport->family;
}

uint64_t plan_client_share(const struct cell_params *p, unsigned id)
{
	return p->count / p->concurrency + (id - 1 < p->count % p->concurrency);
}
