/* Ending a repetition's workers: see cell_stop.h. */
#include "cell_stop.h"
#include "cell_judge.h"
#include "clock.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

/* A stream's program receiver, once every sender is done, owes its
 * figures: it is stopped once its result: regexes all matched (one like
 * source 001's never exits), and one timed whole-process must exit by
 * itself; the cell's deadline bounds both. */
static int receiver_owes(const struct cell_rep *r)
{
	const struct cell_slot *s = &r->slots[0];
	unsigned done = 0;

	for (unsigned i = 1; i < r->nslots; i++)
		done += r->slots[i].ch.reaped;
	if (!pattern_info(r->p->pattern)->receiver_times || !r->p->server_prog || s->ch.reaped ||
	    !r->clients_started || done < r->nslots - 1)
		return 0;
	if (!program_times_itself(s->prog))
		return 1;
	for (size_t i = 0; i < s->prog->nserver_results; i++)
		if (!outlog_match(&s->out, s->first_fig + i))
			return 1;
	return 0;
}

/* Signals every worker still running.  One that has already died is
 * judged first, so that its own crash is not taken for our signal. */
static void signal_all(struct cell_rep *r, int sig)
{
	for (unsigned i = 0; i < r->nslots; i++) {
		struct cell_slot *s = &r->slots[i];
		if (!s->started || s->ch.reaped)
			continue;
		if (spawn_reap(&s->ch))
			cell_judge_exit(r, s);
		else
			spawn_signal(&s->ch, sig);
	}
}

static const char *waiting_for(struct cell_rep *r, char *buf, size_t len)
{
	unsigned ready = 0;

	if (!r->clients_started)
		return "the server to listen";
	for (unsigned i = 1; i < r->nslots; i++)
		ready += r->slots[i].res && r->slots[i].res->ready;
	if (!r->go_sent) {
		snprintf(buf, len, "clients to connect and warm up (%u of %u ready)", ready,
			 r->nslots - 1);
		return buf;
	}
	if (receiver_owes(r))
		return program_times_itself(r->p->server_prog) ? "the receiver program to print "
		       "its result: figures" : "the receiver program to exit (it is timed to its "
		       "exit: its result: has no seconds or rate)";
	return "results";
}

void cell_stop_server_when_done(struct cell_rep *r)
{
	unsigned done = 0;

	if (!r->clients_started || r->killing || r->slots[0].ch.reaped)
		return;
	for (unsigned i = 1; i < r->nslots; i++)
		done += r->slots[i].ch.reaped;
	uint64_t t = clock_now_ns();
	if (done == r->nslots - 1 && !r->stop_at) {
		if (receiver_owes(r))
			return;
		r->stop_at = t + CELL_GRACE_NS;
		if (r->p->server_prog)
			spawn_signal(&r->slots[0].ch, SIGTERM);
	} else if (r->stop_at && t >= r->stop_at) {
		if (r->p->server_prog)
			spawn_signal(&r->slots[0].ch, SIGKILL);
		else if (r->p->client_prog)
			cell_rep_fail(r, &r->slots[0], 1, "server still waiting", "our server "
				      "still waits for connections after every program client "
				      "exited: a client made fewer connections than expected");
		r->stop_at = UINT64_MAX;
	}
}

void cell_stop_on_failure(struct cell_rep *r, uint64_t deadline)
{
	uint64_t now = clock_now_ns();
	char buf[128];

	if (*r->ctx->interrupted)
		cell_rep_fail(r, NULL, 3, "interrupted", "interrupted by a signal while waiting "
			      "for %s", waiting_for(r, buf, sizeof(buf)));
	else if (now >= deadline)
		cell_rep_fail(r, r->p->server_prog && (!r->clients_started || receiver_owes(r)) ?
			      &r->slots[0] : NULL, 3, "timeout",
			      "timeout after %.3g s waiting for %s",
			      (double)r->ctx->plan->m->timeout_ns / 1e9,
			      waiting_for(r, buf, sizeof(buf)));
	if (r->fail_rank && !r->killing) {
		if (r->start_wr >= 0) {	/* the unstarted see end of file and stop */
			close(r->start_wr);
			r->start_wr = -1;
		}
		signal_all(r, SIGTERM);
		r->killing = 1;
		r->kill_at = now + CELL_GRACE_NS;
	} else if (r->killing && now >= r->kill_at) {
		signal_all(r, SIGKILL);
		r->kill_at = UINT64_MAX;
	}
}

