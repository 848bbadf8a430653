/*
 * cell_rep: one repetition's state, shared by the files of the cell loop
 * (cell.c): its workers (struct cell_slot), where it stands, and the
 * failure it records (cell_rep_fail).  The loop's steps, each in its own
 * file, work on it: starting the workers (cell_start.h), reading and
 * judging what they say and how they exit (cell_judge.h), ending them
 * (cell_stop.h).  Private to cell/.
 */
#ifndef MATRIX_CELL_REP_H
#define MATRIX_CELL_REP_H

#include <limits.h>
#include <stdint.h>

#include "cell.h"
#include "outlog.h"
#include "placement.h"
#include "program.h"
#include "spawn.h"
#include "wire.h"

/* A failed repetition's grace between SIGTERM and SIGKILL, and a program
 * server's after its clients are done. */
#define CELL_GRACE_NS 1000000000ull

/* One worker of the repetition: its process, its report pipe read, its
 * result, its log. */
struct cell_slot {
	struct child ch;
	struct wire_reader rd;
	struct worker_result *res;
	int started;
	const struct program *prog;	/* a program of the user's, or NULL */
	int remote;			/* over ssh (remote.h): its own start channel */
	size_t first_fig;		/* outlog: the index of its first figure's regex */
	struct outlog out;		/* a program's output, read by us */
	uint64_t t_start, t_end;	/* a program's spawn and reap */
	char name[32];
	char log[PATH_MAX];
};

/* The repetition going on: what cell_run was given, its workers, the
 * start pipe, where it stands, the failure recorded. */
struct cell_rep {
	const struct cell_ctx *ctx;
	const struct cell_params *p;
	struct cell_outcome *out;
	struct cell_slot *slots;	/* [0] server, [1..n] clients */
	unsigned nslots;
	int start_rd, start_wr;
	int clients_started, go_sent;
	int fail_rank;			/* 0 none, 1 error/exit, 2 crash, 3 timeout/interrupt */
	int killing;
	uint64_t kill_at;
	struct server_addr addr;	/* where the server listens, in every form */
	uint64_t stop_at;		/* when a server still running after its clients is stopped */
	int server_quit;		/* a program server exited 0 by itself, clients running */
	struct placement place;		/* the CPUs of the server and of the clients */
};

/* Records a failure unless a graver one is already recorded: rank 1 an
 * error or an exit, 2 a crash, 3 a timeout or an interrupt; s is the
 * worker at fault, if any (its log is shown).  status and the formatted
 * detail go into r->out. */
__attribute__((format(printf, 5, 6)))
void cell_rep_fail(struct cell_rep *r, const struct cell_slot *s, int rank, const char *status,
		   const char *fmt, ...);

#endif
