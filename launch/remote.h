/*
 * remote: a cell's server or clients on other hosts, over OpenSSH
 * (matrix `hosts:`, struct matrix_hosts).  No daemon of our own: one
 * `matrix agent` (agent.h) per remote host and run, started over one
 *   ssh -o BatchMode=yes [-p PORT] [ssh: words] -o ConnectTimeout=10
 *       -o ServerAliveInterval=5 -T [user@]host -- 'exec' 'matrix' 'agent'
 * (every word of the remote command single-quoted for the remote shell),
 * starts that host's workers for every repetition and carries their start
 * bytes, reports, logs and exits over the session, each record tagged by
 * repetition and slot (remote_agent.h, agent_rec.h).  The session ends
 * with the run (its stdin closed: the agent ends its workers) or with
 * the runner (ssh dies with it, sshd's session with ssh, the agent with
 * sshd's session, each worker with the agent).
 *
 * MATRIX_NO_AGENT=1 (a test and bench hook) keeps the way before it:
 * each remote worker one ssh session through the host's ControlMaster,
 *   ssh ... -- 'exec' 'matrix' 'worker' ... '--stdio'
 * its stdin the worker's control channel (the start byte, then end of
 * file once the cell is over or given up), its stdout the report pipe,
 * its stderr the worker's log file (workers/hello.h says how the worker
 * takes them); N clients on a remote host are N ssh sessions.
 *
 * Call order for a run:
 *   remote_hello()     once, before any cell: `matrix worker --hello` on
 *                      each remote host; -1 (the run must not start) for
 *                      a missing ssh or a remote matrix of another wire
 *                      version; a host that ssh cannot reach (or whose
 *                      matrix is missing) is noted, and every cell
 *                      needing it fails at once (remote_hello_failed)
 *   remote_meta()      its facts into meta.csv
 *   remote_masters_start()   once the run's private folder exists: each
 *                      remote host's agent (its hello checked again; a
 *                      session that ends is started anew by the next
 *                      cell).  MATRIX_NO_AGENT: one `ssh -M -N` per remote host, a child of the runner,
 *                      its control socket in that folder; a cell's sessions
 *                      go through it (no key exchange and login each) when
 *                      they are at most 8 on the host (sshd's MaxSessions
 *                      is 10 by default), else connect each on its own, as
 *                      they do when the master could not start or its
 *                      connection dropped
 *   remote_masters_stop()    at the run's end (SIGTERM, reaped, socket
 *                      removed); spawn_kill_all() would kill them too
 * and per cell: matrix_remote_host() (matrix.h), remote_bind(), remote_spawn(),
 * remote_go() and remote_flush(), remote_poll_fds() and remote_pump() in
 * its loop, remote_ssh_failed() and remote_spawn_failed() (cell/).
 *
 * Timestamps: each host has its own CLOCK_MONOTONIC, so a figure made of
 * two workers' timestamps is only made when they are on one host
 * (remote_cross(): aggregate.c uses same-host differences then).
 */
#ifndef MATRIX_REMOTE_H
#define MATRIX_REMOTE_H

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "matrix.h"
#include "meta.h"
#include "placement.h"
#include "plan.h"
#include "spawn.h"

/* 1 when the server and the clients are on different hosts (one of them
 * remote), so their timestamps do not compare. */
int remote_cross(const struct matrix *m);

/* The server's --bind: the transport's default on one host, else
 * server_address (or the server's ssh host) with port 0, in buf. */
const char *remote_bind(const struct matrix *m, const struct transport *t, char *buf,
			size_t len);

/* 1 unless MATRIX_NO_AGENT is set (to anything but 0): remote workers go
 * through each host's agent; with it, each is an ssh session of its own
 * (a test and bench hook: the old way, to compare). */
int remote_agent_on(void);

/* Which repetition and worker a remote one is: the cell's number, the
 * repetition, the slot (0 the server, N client N). */
struct remote_tag {
	unsigned cell, rep, slot;
};

/* Starts worker (an argv as for spawn_start, argv[0] the local binary,
 * replaced by the remote one) on the cell's server (client 0) or client
 * host, on cpus when not NULL (the remote host's CPUs; agent only): by
 * the host's agent (a child with ops, spawn.h), or under MATRIX_NO_AGENT
 * through an ssh of its own (SPAWN_STDIO).  The start byte goes with
 * remote_go().  0, or -1 with a message (nothing started). */
int remote_spawn(struct child *ch, const struct matrix *m, const struct cell_params *p, int client,
		 const struct remote_tag *tag, const struct spawn_argv *worker,
		 const cpu_set_t *cpus, int log_fd, char *err, size_t errlen);
/* 1 when the server and the clients run on one remote host. */
int remote_one_host(const struct matrix *m);
/* For a path transport with both roles on one remote host: the folder
 * there for its socket paths and FIFOs (its agent's private one, removed
 * when the agent ends); NULL when there is none (no agent, or it could not
 * make one). */
const char *remote_sockdir(const struct matrix *m);
/* ch's start byte, queued for its agent (or written to its ssh); then
 * remote_flush() once for all, so that the agent gets them in one go.
 * 0, or -1 (the ssh's stdin is gone). */
int remote_go(struct child *ch);
void remote_flush(void);
/* A cell's event loop: the agents' descriptors to poll beside its own
 * (at most max), and after each poll remote_pump(), which takes what the
 * agents sent (reports, logs and exits into each remote worker's pipe,
 * log and eventfd) and writes what is queued for them. */
int remote_poll_fds(struct pollfd *pfd, int max);
void remote_pump(void);
/* A remote worker the agent could not start: 1 with its reason in msg. */
int remote_spawn_failed(const struct child *ch, char *msg, size_t len);

/* A reaped ssh that exited 255 (ssh's own failure: connection refused,
 * dropped, authentication), or an agent's worker whose session ended: 1
 * with the last line ssh (or the master of its connection, once ended)
 * wrote in msg; else 0.  ours: 0, or the
 * runner had signalled it (1 after a failure, 2 after an interrupt),
 * which makes it exit 255 too: then 1 only when ssh or the ended master
 * says why. */
int remote_ssh_failed(const struct child *ch, const char *log, int ours, char *msg, size_t len);

/* interrupted: the run's flag (NULL: none); once set, the handshake and
 * remote_masters_start() wait no longer (the hosts count as failed). */
int remote_hello(const struct matrix *m, const volatile sig_atomic_t *interrupted, char *err,
		 size_t errlen);
/* 1 with the handshake's failure in msg when the server's or the
 * clients' host could not be reached; else 0. */
int remote_hello_failed(const struct matrix *m, char *msg, size_t len);
/* server_host, client_host (URL or local) and for each remote role
 * ROLE_kernel, ROLE_cpu_model, ROLE_cores, ROLE_governor. */
void remote_meta(struct meta *meta, const struct matrix *m);

/* cpu's placement (the cpu: text, NULL for none) with each role's CPUs
 * those of its own host: local for this machine's role, a remote host's
 * from its handshake (0 to its cores online - 1); same and split on the
 * one host of both roles.  0 with *out (PLACE_NONE for none), or -1 with
 * why (a CPU the host does not have, its CPUs unknown). */
int remote_placement(const struct matrix *m, const char *cpu, const cpu_set_t *local,
		     struct placement *out, char *why, size_t whylen);

/* `matrix plan`'s line for hosts: (nothing without it): where each role
 * runs and what the server binds to. */
void remote_print_plan(const struct matrix *m, FILE *f);

void remote_masters_start(const struct matrix *m, const char *sockdir);
void remote_masters_stop(void);

#endif
