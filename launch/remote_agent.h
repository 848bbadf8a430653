/*
 * remote_agent: the runner's end of each remote host's `matrix agent`
 * (agent.h), for remote.c, which says when (remote.h): one ssh session
 * per host and run, whose stdin takes the runner's records and whose
 * stdout brings the agent's (agent_rec.h).  Each remote worker is a
 * struct child with ops (spawn.h): a report pipe and an eventfd of its
 * own here, fed by agent_pump() from the agent's records (its report
 * bytes into the pipe, its log into its log file, its exit posted once
 * every report byte is in the pipe); its signals and its end go back as
 * records.  A session that ends (a dropped connection, ssh killed) ends
 * every worker of its host with `ssh failed` and ssh's last word; the
 * next cell starts a new one.  Private to launch/.
 */
#ifndef MATRIX_REMOTE_AGENT_H
#define MATRIX_REMOTE_AGENT_H

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix.h"
#include "spawn.h"

/* The agents of m's remote hosts: [0] on s (the server's host), [1] on c
 * (the clients', unless the same or NULL), their ssh logs in sockdir;
 * stop: the run's interrupted flag. */
void agent_hosts_start(const struct matrix *m, const char *sockdir,
		       const volatile sig_atomic_t *stop, const struct host_url *s,
		       const struct host_url *c);
/* Closes each agent's stdin (it ends its workers and exits), reaps its ssh. */
void agent_hosts_stop(void);

/* worker (argv[0] replaced there) started by host i's agent as tag
 * seq.slot, its log into log_fd (the caller keeps its own), on cpus if
 * not NULL.  0, or -1 with err (nothing started).  A host whose session
 * is gone gets a new one first; when that fails, ch is a worker already
 * ended with `ssh failed`. */
int agent_spawn(struct child *ch, int i, uint32_t seq, unsigned slot,
		const struct spawn_argv *worker, const cpu_set_t *cpus, int log_fd, char *err,
		size_t errlen);
/* Host i's agent's private folder there (its session started if it is
 * not up), or NULL when it has none. */
const char *agent_tmp(int i);
/* The start byte for ch, queued; agent_flush() writes what is queued. */
void agent_go(struct child *ch);
void agent_flush(void);
/* The descriptors of the agents to wait on with a cell's (at most max). */
int agent_poll_fds(struct pollfd *pfd, int max);
/* After each poll: what the agents sent, handled. */
void agent_pump(void);
/* A worker of an agent's that ended without an exit of its own: 1 with
 * why in msg, *spawn 1 when it could not start (the agent's error), 0
 * when its session ended (ssh's last line, or why we ended it); but 0
 * for a session we ended after ours (nonzero: we had signalled the
 * worker).  0 for a worker whose own exit came. */
int agent_child_failed(const struct child *ch, int ours, int *spawn, char *msg, size_t len);

#endif
