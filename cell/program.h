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
 *   program_server_addr_set       our own server's reported address, split into
 *                         {host} and {port} for program clients
 *   program_argv          each program client's command line
 *   program_client_printed, program_client_figures
 *                         once a program client has exited 0
 *   program_server_printed, program_server_figures
 *                         a stream's program receiver, once it exited 0
 *                         or was stopped after its figures came
 *
 * In a stream cell with a program on either side there are no warmup
 * messages (program_cell_warmup): a receiver, ours or a program, gets
 * exactly `count` messages, and a program receiver's {count} is that
 * count (a program could not tell warmup messages from timed ones).
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

/* The address a program server of cell parameters p is to listen on,
 * chosen for it: a free loopback port (bound, read and closed: the
 * program binds it a moment later) for an IP transport or zmq's tcp
 * endpoint, sa->path otherwise; for zmq sa->address is what zmq binds
 * and connects to (tcp://127.0.0.1:PORT, ipc://PATH).  0, or -1 when no
 * port is free (sa->host names the loopback it tried). */
int program_server_addr(const struct cell_params *p, struct server_addr *sa);

/* The warmup messages each of the cell's clients sends (our workers'
 * --warmup): the matrix's warmup, but 0 in a stream cell with a program
 * on either side. */
uint64_t program_cell_warmup(const struct cell_params *p, uint64_t warmup);

/* The regexes a program's output is watched for (outlog_watch), into
 * re[0..max-1]: a server's ready: first (index 0, when it has one), then
 * the figures it prints in a stream cell (a receiver's); a client's
 * figures.  Returns how many; *first is the index of the first figure. */
size_t program_watch(const struct cell_params *p, int server, const char **re, size_t max,
		     size_t *first);

/* 1 when a stream's program receiver times itself: its result: has
 * seconds, msgs_per_s or mib_per_s.  Else it is timed whole-process and
 * must exit by itself once it has every message. */
int program_times_itself(const struct program *pr);

/* Our server's address as it reported it, into sa->address and, for an IP
 * transport, its host and port (for a program client's {host} {port}). */
void program_server_addr_set(struct server_addr *sa, const struct transport *t, const char *address);

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

/* The figures a program printed, one per regex of res[0..n-1]: found[i]
 * the first match of regex i in its output (its group, outlog.h), NULL if
 * none; each into printed[figure] (PROGRAM_NFIGURES of them, matrix.h),
 * scaled to the figure's unit.  A client's messages and seconds make its
 * rate (sent_msgs_per_s in a stream cell, msgs_per_s otherwise) unless it
 * printed that too.  0, or -1 with "printed nothing that matches the
 * FIGURE regex 'RE'" in err for the first regex that finds no number. */
int program_client_printed(const struct cell_params *p, const struct program *pr,
			   const char *const *found, double *printed, char *err, size_t errlen);
int program_server_printed(const struct program *pr, const char *const *found,
			   double *printed, char *err, size_t errlen);

/* A program client (id 1..concurrency) that exited 0: the runner's own
 * figures for it into res, as if it had reported them: its share of the
 * count (or the messages it printed: printed, NULL if none), timed from
 * spawn (t_start) to reap (t_end), its CPU from wait4's rusage. */
void program_client_figures(const struct cell_params *p, unsigned id, uint64_t t_start,
			    uint64_t t_end, const struct rusage *ru, const double *printed,
			    struct worker_result *res);

/* A stream's program receiver: the messages it printed (else the cell's
 * count), its window from the first sender's spawn (t_first) to its own
 * exit (t_exit; 0 when it was stopped: no whole-process window), its CPU
 * from wait4. */
void program_server_figures(const struct cell_params *p, uint64_t t_first, uint64_t t_exit,
			    const struct rusage *ru, const double *printed,
			    struct worker_result *res);

#endif
