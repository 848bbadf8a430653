/*
 * ssh_cmd: the ssh command line that runs a command of words on a remote
 * host of a matrix's hosts: (remote.h says which options and why), each
 * word single-quoted for the remote shell.  Used for the handshake, the
 * ControlMaster, the agent's session and (MATRIX_NO_AGENT) each worker.
 */
#ifndef MATRIX_SSH_CMD_H
#define MATRIX_SSH_CMD_H

#include "matrix.h"
#include "spawn.h"

/* ssh's argv for running words (words[0] replaced by the remote binary,
 * hosts: matrix: or "matrix"; no words: no remote command) on u, through
 * the master at control unless NULL; an overflow is noted in out as
 * spawn_argv_add does. */
void ssh_cmd_argv(const struct matrix *m, const struct host_url *u, const char *control,
		  char *const words[], struct spawn_argv *out);

/* The last non-empty line of text (len bytes) into msg: what ssh (or
 * a remote command) said last. */
void ssh_last_line(const char *text, size_t len, char *msg, size_t msglen);
/* The same of the last 4 KiB of the file at path (a session's log; ""
 * when none). */
void ssh_log_last_line(const char *path, char *msg, size_t len);

#endif
