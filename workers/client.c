/* The client process: its buffers, the connection, warmup, the start
 * signal, the pattern's timed window (its ops, pattern_ops.h) and the
 * result record.  See client.h for what it does, drive.h for the state
 * the pattern's loop drives, payload.h for the bytes and wire.h for the
 * record. */
#include "client.h"
#include "clock.h"
#include "drive.h"
#include "hist.h"
#include "pattern.h"
#include "pattern_ops.h"
#include "payload.h"
#include "procinfo.h"
#include "transport.h"
#include "wire.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int client_setup(struct client *cl)
{
	const struct wopts *o = cl->o;
	const struct pattern_info *pi = pattern_info(o->pattern);

	cl->reqlen = o->topts.size;
	cl->resplen = pattern_reply_size(pi, o->topts.size, o->topts.response_size);
	cl->req = malloc(cl->reqlen);
	cl->pattern = malloc(cl->reqlen);
	cl->resp = pi->one_way ? NULL : malloc(cl->resplen);
	cl->hist = malloc(sizeof(*cl->hist));
	if (!cl->req || !cl->pattern || (!pi->one_way && !cl->resp) || !cl->hist) {
		snprintf(cl->err, sizeof(cl->err), "out of memory for %zu-byte messages", cl->reqlen);
		cl->stage = "memory";
		return -1;
	}
	payload_fill(cl->req, cl->reqlen);
	payload_fill(cl->pattern, cl->reqlen);
	hist_init(cl->hist);
	cl->hist->totals = o->totals;
	cl->pace.rate = o->rate;
	cl->pace.busy = o->topts.busy;	/* poll: busy: the schedule's wait spins too */
	if (o->rate)
		pace_setup();
	return 0;
}

static int client_warmup(struct client *cl)
{
	if (cl->ops->warmup(cl) < 0)
		return -1;
	cl->lost = 0;	/* the timed window counts its own losses */
	return 0;
}

/* The record's figures of the timed window, but its CPU time.  r->hist
 * points at cl's histogram (round trips): the caller clears it after use. */
static void client_result(const struct client *cl, const struct conn_info *ci,
			  struct worker_result *r)
{
	r->start_ns = cl->start_ns;
	r->end_ns = cl->end_ns;
	r->sndbuf = ci->sndbuf;
	r->rcvbuf = ci->rcvbuf;
	r->nodelay = ci->nodelay;
	r->mss = ci->mss;
	snprintf(r->congestion, sizeof(r->congestion), "%s", ci->congestion);
	r->mismatches = cl->mismatches;
	r->lost = cl->lost;
	r->hwm_kib = proc_self_hwm_kib();
	cl->ops->result(cl, r);
}

/* An echo mismatch fails the run; else the record goes out (a readable
 * line by hand).  0, or 1 when a failure was reported. */
static int client_report(const struct client *cl, const struct worker_result *r)
{
	const struct wopts *o = cl->o;
	int rc = 0;

	if (cl->mismatches) {
		char msg[128];
		snprintf(msg, sizeof(msg), "echo mismatch: %llu of %llu responses (%llu warmup, "
			 "%llu timed) differ from their request", (unsigned long long)cl->mismatches,
			 (unsigned long long)(o->warmup + cl->messages), (unsigned long long)o->warmup,
			 (unsigned long long)cl->messages);
		rc = worker_fail(o, "verify", msg);
	} else if (o->human) {
		cl->ops->client_line(o, r);
	} else if (wire_write_result(o->report_fd, r) < 0) {
		rc = worker_failf(o, "report", "write result");
	}
	return rc;
}

int client_run(const struct wopts *o)
{
	struct client cl = { .o = o, .ops = pattern_ops_of(o->pattern),
			     .c = { .fd = -1, .wfd = -1 } };
	struct worker_result r;
	uint64_t cpu0, deadline = clock_now_ns() + o->timeout_ns;
	int rc = 0, connected = 0;

	worker_result_init(&r);
	r.role = ROLE_CLIENT;
	if (client_setup(&cl) < 0)
		goto failed;
	if (transport_connect(o->t, &o->topts, o->connect, &cl.c, cl.err, sizeof(cl.err)) < 0) {
		cl.stage = "connect";
		goto failed;
	}
	connected = 1;
	if (client_warmup(&cl) < 0)
		goto failed;
	if (!o->human && wire_write_ready(o->report_fd) < 0) {
		rc = worker_failf(o, "report", "write ready line");
		goto out;
	}
	if (worker_wait_start(o->control_fd) < 0) {
		rc = worker_fail(o, "start", "runner closed the control pipe before the start signal");
		goto out;
	}
	cpu0 = clock_cpu_ns();
	if (cl.ops->drive(&cl))
		goto failed;
	r.cpu_ns = clock_cpu_ns() - cpu0;
	struct conn_info ci = { .mss = -1 };
	o->t->info(&cl.c, &ci);
	struct tcp_view tv;	/* the kernel's view at the end of the window */
	if (o->t->tcp_view && o->t->tcp_view(&cl.c, &tv) == 0) {
		r.tcp = &tv;
		r.ntcp = 1;
	}
	/* zmq: the server confirms the end before anything is closed; by the
	 * worker's timeout, before its alarm */
	uint64_t now = clock_now_ns();
	if (o->t->finish && o->t->finish(&cl.c, now < deadline ? deadline - now : 1, cl.err,
					 sizeof(cl.err)) < 0) {
		cl.stage = "ack";
		goto failed;
	}
	o->t->close(&cl.c);
	connected = 0;

	client_result(&cl, &ci, &r);
	rc = client_report(&cl, &r);
	r.hist = NULL;
	r.tcp = NULL;
	goto out;
failed:
	rc = worker_fail(o, cl.stage ? cl.stage : "client", cl.err);
out:
	if (connected)
		o->t->close(&cl.c);
	if (cl.ops->release)
		cl.ops->release(&cl);
	free(cl.req);
	free(cl.resp);
	free(cl.pattern);
	free(cl.hist);
	timeline_release(&cl.tx_cpu);
	return rc;
}