/*
 * stale: a run folder whose runner was killed.
 *
 * A run's meta.csv says `running` from its start to its end; a runner
 * killed in between (SIGKILL, the OOM killer) leaves it so.  meta.csv
 * names the runner (runner_pid, runner_start, boot_id: procinfo.h), and
 * stale_check() tells the three cases apart for `matrix run` (the folder
 * `latest` points at, or an -o folder) and `matrix report`, says so on
 * stderr and removes what the killed run left in TMPDIR.
 */
#ifndef MATRIX_STALE_H
#define MATRIX_STALE_H

#include "procinfo.h"

/* Looks at DIR/meta.csv.  PROC_UNKNOWN (says nothing): no meta.csv, a
 * finished run, or an older folder without the facts.  PROC_ALIVE: says
 * "matrix CMD: DIR: its run is still going (runner pid N)".  PROC_GONE:
 * says "matrix CMD: DIR: its run was killed: ..." and removes the run's
 * socket folder (socket_dir in meta.csv) if it is still there.  A folder
 * whose meta.csv says `reporting` (runner/run.h: the run ended, its
 * reports were being written) is told apart the same way, and said so:
 * "... is still writing its reports", "... was killed while its reports
 * were written: ...". */
enum proc_state stale_check(const char *dir, const char *cmd);

/* The owner entry in a run's private socket folder: an empty folder
 * owner.PID.START, the runner that made it (its pid and start time,
 * procinfo.h; a folder, not a file, so that it takes no disk space and
 * no file-size limit refuses it), so that a later command removes that
 * socket folder only for the runner a run folder's meta.csv names, never
 * another live run's that a forged meta.csv points at. */
#define STALE_OWNER "owner"
/* Makes dir's owner entry for this process; -1 with errno set. */
int stale_sockdir_claim(const char *dir);
/* The run's own end: its owner entry, then the folder when that left it
 * empty. */
void stale_sockdir_release(const char *dir);

/* Removes a run's private socket folder (TMPDIR/matrix.XXXXXX): the
 * socket files and FIFOs its workers named cN-rR.sock*, then the folder
 * if that left it empty.  Anything else in it stays, and so does the
 * folder. */
void stale_sockdir_remove(const char *dir);
/* The run's own private folder, everything in it ({tmp}: what programs
 * and their setup: steps put there), never following a link or crossing
 * a mount; by the guard, whose runner made it. */
void stale_sockdir_remove_all(const char *dir);

#endif
