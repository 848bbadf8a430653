/* What a repetition's workers say and how they end, judged: see
 * cell_judge.h. */
#include "cell_judge.h"
#include "cell_start.h"
#include "clock.h"
#include "remote.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

/* "connect: Connection refused" from stage "connect" and message
 * "connect 127.0.0.1:1: Connection refused": the stage and the reason,
 * short enough to group rows by; the whole message goes in `error`. */
static void short_status(const struct worker_result *res, char *buf, size_t len)
{
	const char *reason = strrchr(res->error, ':');

	reason = reason && reason[1] == ' ' && strlen(reason + 2) <= 60 ? reason + 2 : res->error;
	snprintf(buf, len, "%s: %.100s", res->error_stage, reason);
}

static void on_line(struct cell_rep *r, struct cell_slot *s, const char *line)
{
	char err[256];

	if (wire_apply(s->res, line, err, sizeof(err)) < 0) {
		cell_rep_fail(r, s, 1, "protocol error", "%s: %s", s->name, err);
		return;
	}
	if (s->res->error[0] && r->fail_rank < 1) {
		char status[160];
		short_status(s->res, status, sizeof(status));
		if (!strcmp(s->res->error_stage, "unavailable")) {
			snprintf(status, sizeof(status), "skipped: %.140s", s->res->error);
			r->out->skipped = 1;
		}
		cell_rep_fail(r, s, 1, status, "%s (pid %ld): %s: %s", s->name, (long)s->ch.pid,
			      s->res->error_stage, s->res->error);
	}
	if (s == r->slots && s->res->address[0] && !r->clients_started && !r->fail_rank) {
		program_server_addr_set(&r->addr, r->p->transport, s->res->address);
		cell_start_clients(r);
	}
}

void cell_judge_reports(struct cell_rep *r, struct cell_slot *s)
{
	char *line;
	long n;

	while ((n = wire_reader_fill(&s->rd, s->ch.report_fd)) > 0) {
		int got;
		while ((got = wire_reader_next(&s->rd, &line)) == 1) {
			on_line(r, s, line);
			free(line);
		}
		if (got < 0)
			cell_rep_fail(r, s, 1, "protocol error", "%s: report line too long",
				      s->name);
	}
	if (n == 0 || (n < 0 && errno != EAGAIN)) {
		close(s->ch.report_fd);
		s->ch.report_fd = -1;
	}
}

/* A program client that exited 0: the runner's own figures for it (its
 * share of the count, spawn to reap), and the ones its output gives. */
static void program_client_done(struct cell_rep *r, struct cell_slot *s)
{
	unsigned id = (unsigned)(s - r->slots);
	double *printed = r->out->printed ? &r->out->printed[(id - 1) * PROGRAM_NFIGURES] : NULL;
	const char *found[OUTLOG_MAX_RE] = { NULL };
	char err[1024];

	for (size_t i = s->first_fig; i < OUTLOG_MAX_RE; i++)
		found[i - s->first_fig] = outlog_match(&s->out, i);
	if (printed && program_client_printed(r->p, s->prog, found, printed, err, sizeof(err)) < 0)
		cell_rep_fail(r, s, 1, "no result", "%s %s", s->name, err);
	program_client_figures(r->p, id, s->t_start, s->t_end, &s->ch.ru, printed, s->res);
}

/* A stream's program receiver that exited 0, or that we stopped (after
 * its figures came, or on a failure): its figures, those it printed and
 * the runner's (spawn of the first sender to its own exit). */
static void program_receiver_done(struct cell_rep *r, struct cell_slot *s)
{
	const char *found[OUTLOG_MAX_RE] = { NULL };
	uint64_t first = UINT64_MAX;
	char err[1024];

	for (size_t i = s->first_fig; i < OUTLOG_MAX_RE; i++)
		found[i - s->first_fig] = outlog_match(&s->out, i);
	if (program_server_printed(s->prog, found, r->out->server_printed, err, sizeof(err)) < 0)
		cell_rep_fail(r, s, 1, "no result", "receiver %s", err);
	for (unsigned i = 1; i < r->nslots; i++)
		if (r->slots[i].started && r->slots[i].t_start < first)
			first = r->slots[i].t_start;
	program_server_figures(r->p, first == UINT64_MAX ? 0 : first,
			       s->ch.signalled_by_us ? 0 : s->t_end, &s->ch.ru,
			       r->out->server_printed, s->res);
}

static void server_quit_early(struct cell_rep *r)
{
	cell_rep_fail(r, &r->slots[0], 1, "server exited early", "server program (pid %ld) "
		      "exited 0 before its clients were done (a server that daemonizes cannot "
		      "be measured)", (long)r->slots[0].ch.pid);
}

void cell_judge_server_quit(struct cell_rep *r)
{
	if (!r->server_quit || r->fail_rank != 1)
		return;
	r->fail_rank = 0;
	server_quit_early(r);
}

void cell_judge_exit(struct cell_rep *r, struct cell_slot *s)
{
	char desc[128], status[160];
	int st = s->ch.status;

	s->t_end = clock_now_ns();
	if (s->prog)	/* all it printed, before its figures are read */
		outlog_drain(&s->out);
	if (s->prog && s != r->slots && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		program_client_done(r, s);
	if (s->prog && s == r->slots) {
		/* its CPU for cpu_us_per_msg: the whole process, as wait4 saw it */
		s->res->cpu_ns = clock_rusage_ns(&s->ch.ru);
		if (pattern_info(r->p->pattern)->receiver_times && r->clients_started &&
		    (s->ch.signalled_by_us || (WIFEXITED(st) && WEXITSTATUS(st) == 0)))
			program_receiver_done(r, s);
		/* one that serves a single connection ends with its client: it
		 * is only to blame if a client fails after (cell_judge_server_quit) */
		if (!s->ch.signalled_by_us && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			if (r->clients_started && !r->fail_rank)
				r->server_quit = 1;
			else
				server_quit_early(r);
		}
	}
	if (s->ch.report_fd >= 0)
		cell_judge_reports(r, s);
	spawn_describe_status(st, desc, sizeof(desc));
	if (s->remote && remote_spawn_failed(&s->ch, status, sizeof(status)))
		cell_rep_fail(r, s, 1, "spawn failed", "%s: %s", s->name, status);
	else if (s->remote && remote_ssh_failed(&s->ch, s->log, s->ch.signalled_by_us ?
					   1 + !!*r->ctx->interrupted : 0, status, sizeof(status)))
		cell_rep_fail(r, s, 2, "ssh failed", "%s (ssh pid %ld): %s", s->name,
			      (long)s->ch.pid, status);
	else if (spawn_crashed(&s->ch))
		cell_rep_fail(r, s, 2, desc, "%s (pid %ld) %s", s->name, (long)s->ch.pid, desc);
	else if (WIFEXITED(st) && WEXITSTATUS(st) != 0 && !s->ch.signalled_by_us) {
		if (s->res->error[0])
			short_status(s->res, status, sizeof(status));
		cell_rep_fail(r, s, 1, s->res->error[0] ? status : desc, "%s (pid %ld) %s%s%s",
			      s->name, (long)s->ch.pid, desc, s->res->error[0] ? ": " : "",
			      s->res->error);
	}
}

