/*
 * worker_args: the command line of `matrix worker` for one server or
 * client of a cell, built from the cell's parameters (plan.h).  Every
 * matrix key that reaches our workers becomes a flag here, and nowhere
 * else: workers/worker.c parses them back.
 *
 *   worker_args_common(a, self_exe, p, warmup, timeout_ns, role)
 *       the program, `worker ROLE` and the flags both roles take
 *   worker_args_server(a, p, bind)     then the server's own
 *   worker_args_client(a, p, id, share, connect)   then a client's own
 *
 * a must start empty; spawn_argv_add notes an overflow in it (spawn.h).
 */
#ifndef MATRIX_WORKER_ARGS_H
#define MATRIX_WORKER_ARGS_H

#include <stdint.h>

#include "plan.h"
#include "spawn.h"

void worker_args_common(struct spawn_argv *a, const char *self_exe,
			const struct cell_params *p, uint64_t warmup, uint64_t timeout_ns,
			const char *role);
void worker_args_server(struct spawn_argv *a, const struct cell_params *p, const char *bind);
void worker_args_client(struct spawn_argv *a, const struct cell_params *p, unsigned id,
			uint64_t share, const char *connect);

/* topology: netns: --netns NAME, the namespace the worker enters (netns.h);
 * nothing for NULL. */
void worker_args_netns(struct spawn_argv *a, const char *netns);

#endif
