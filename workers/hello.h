/*
 * hello: a remote host's handshake and the worker's side of ssh.
 *
 * `matrix worker --hello` writes one line on stdout and exits 0:
 *   hello version=V role=host kernel=K cpu_model=M cores=N governor=G
 * (values percent-encoded as on the wire, wire.h; the facts hostfacts.h's),
 * so a runner learns, before any cell, that the `matrix` at the other end
 * of an ssh connection speaks its WIRE_VERSION and what machine it is.
 *
 * `matrix worker ... --stdio`: a worker started over ssh (launch/remote.h),
 * whose only channels to the runner are ssh's: the report goes to stdout
 * (what was fd 1 is moved to a descriptor of its own and fd 1 becomes
 * stderr, the log, so nothing else can reach the report), the start byte
 * comes on stdin.  Such a worker must not outlive its connection: it dies
 * (SIGKILL) with its parent (sshd's session process, as the remote shell
 * exec'd it) and at end of file on stdin, at any time, also after the
 * start byte (the runner keeps its end open until the cell is over).
 */
#ifndef MATRIX_HELLO_H
#define MATRIX_HELLO_H

#include <stddef.h>

#include "hostfacts.h"

/* The line, on fd; 0, or -1 with errno. */
int hello_write(int fd);

/* A hello line read back: its version (0 when it has none) and facts.
 * 0, or -1 with why when the line is no host hello. */
int hello_parse(const char *line, int *version, struct hostfacts *h, char *why, size_t whylen);

/* --stdio: the descriptors set up as above, a thread watching stdin;
 * *report_fd and *control_fd are what the worker is to use.  0, or -1
 * with why. */
int hello_stdio(int *report_fd, int *control_fd, char *why, size_t whylen);

#endif
