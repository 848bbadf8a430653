/*
 * program: what a cell repetition does differently when a server or its
 * clients are programs of the user's (matrix `programs:`, README "Bring
 * your own programs") instead of matrix's own worker.  cell.c runs the
 * event loop; it asks here for a program's argv, where its server is to
 * listen, whether that server is ready, and what a program client's run
 * measured.  Nothing here forks, waits or signals.
 *
 * Order, in one repetition (cell.c):
 *   program_server_addr   pick the address a program server will listen on
 *   program_argv          its command line, placeholders filled in
 *   program_server_ready  polled until the server listens (or says so)
 *   server_addr_set       our own server's reported address, split into
 *                         {host} and {port} for program clients
 *   program_argv          each program client's command line
 *   program_client_figures, program_client_printed
 *                         once a program client has exited 0
 */
#ifndef MATRIX_PROGRAM_H
#define MATRIX_PROGRAM_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "plan.h"
#include "spawn.h"
#include "wire.h"

/* Where this repetition's server listens, in every form the runner and a
 * program's placeholders use. */
struct server_addr {
	char path[PATH_MAX];	/* socket path in the private folder (transports
				 * without default_bind), "" otherwise: {path} */
	char address[256];	/* what clients connect to: {endpoint} */
	char host[64], port[16];	/* its parts for IP transports: {host} {port} */
	char tmp[PATH_MAX];		/* the run's private folder: {tmp} */
};

/* The address a program server is to listen on, chosen for it: a free
 * loopback port (bound, read and closed: the program binds it a moment
 * later) for an IP transport, sa->path otherwise.  0, or -1 when no port
 * is free (sa->host names the loopback it tried). */
int program_server_addr(const struct transport *t, struct server_addr *sa);

/* Our server's address as it reported it, into sa->address and, for an IP
 * transport, its host and port (for a program client's {host} {port}). */
void server_addr_set(struct server_addr *sa, const struct transport *t, const char *address);

/* The value of placeholder {name}, into out (len bytes, "" if none). */
typedef void program_lookup(const char *name, char *out, size_t len, void *arg);

/* Appends the words tmpl[0..n-1] to a, each {name} replaced by what
 * lookup says, {{ and }} by a single brace (the loader has checked them:
 * matrix_word_placeholder).  A word longer than 8 KiB sets a->overflow. */
void program_words(char *const *tmpl, size_t n, program_lookup *lookup, void *arg,
		   struct spawn_argv *a);

/* Appends to a program pr's command for the server (id 0) or client id
 * (1..concurrency) of cell c, every {placeholder} filled in: {host}
 * {port} {path} {endpoint} {tmp} from sa, {size} {response_size}
 * {concurrency} {duration_s} and any matrix key from the cell, {count}
 * the client's share (the server's: the whole count), as program_words. */
void program_argv(const struct matrix *m, const struct cell *c, const struct server_addr *sa,
		  const struct program *pr, unsigned id, struct spawn_argv *a);

/* 1 when the program server of cell parameters p is ready: with a
 * `ready` regex, when its output matched it (printed_ready, outlog.h);
 * else when a socket listens at its address (sa), seen without connecting
 * (which would use up a server that serves one connection): for tcp and
 * tcp6 a LISTEN entry for its port in /proc/net/tcp or tcp6, bound to the
 * loopback or the wildcard; for unix a listening stream socket at its path
 * in /proc/net/unix.  0 when not yet. */
int program_server_ready(const struct cell_params *p, const struct server_addr *sa,
			 int printed_ready);

/* A program client (id 1..concurrency) that exited 0: the runner's own
 * figures for it into res, as if it had reported them: its share of the
 * count, timed from spawn (t_start) to reap (t_end), its CPU from wait4's
 * rusage. */
void program_client_figures(const struct cell_params *p, unsigned id, uint64_t t_start,
			    uint64_t t_end, const struct rusage *ru, struct worker_result *res);

/* The figures a program client printed, one per `result:` regex of pr:
 * found[i] the first match of regex i in its output (its group, outlog.h),
 * NULL if none; each into printed[metric], scaled to the metric's unit.
 * 0, or -1 with "printed nothing that matches the METRIC regex 'RE'" in
 * err for the first regex that finds no number. */
int program_client_printed(const struct program *pr, const char *const *found, double *printed,
			   char *err, size_t errlen);

#endif
