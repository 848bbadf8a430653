/*
 * lock: a run folder is written by one live run at a time.
 *
 * DIR/.lock holds the pid of the run that writes DIR, and that run holds
 * a write lock on it (an open file description lock, fcntl F_OFD_SETLK)
 * for as long as its process lives: the kernel drops the lock when the
 * process ends, however it ends (exit, SIGKILL, the OOM killer), so a
 * folder whose lock can be taken has no live writer, whatever its meta.csv
 * says.  The lock file stays in the folder when the run ends: removing it
 * would let a second run lock a file a third one no longer sees.  The
 * descriptor is close-on-exec, so no worker or program inherits the lock
 * (and keeps it past the run); lock_holder() only tests the lock, so asking
 * never makes a starting run see its folder as taken.
 */
#ifndef MATRIX_LOCK_H
#define MATRIX_LOCK_H

#include <stddef.h>
#include <sys/types.h>

struct run_lock {
	int fd;			/* -1: not held */
	int created;		/* the lock file was made by lock_take */
	char path[4096];
};

/* Takes DIR's lock, making DIR/.lock when it is missing (its content is
 * left as it was: see lock_write_pid).  0: held until lock_release() or
 * the end of the process;
 * -1 with err: another live run holds it ("in use by a running matrix
 * (pid N)", *holder N, or 0 when its pid is not written yet: the caller
 * names DIR) or the file cannot be made or locked ("PATH: why", *holder
 * -1); either way nothing is left made, and a holder's file is untouched. */
int lock_take(struct run_lock *l, const char *dir, pid_t *holder, char *err, size_t errlen);

/* Writes our pid in the lock file we hold, once we go on (a run refused
 * after taking the lock leaves the file as it was).  0, or -1 with err. */
int lock_write_pid(struct run_lock *l, char *err, size_t errlen);

/* "in use by a running matrix (pid N)", or "(its pid not yet written)"
 * for a holder pid of 0: what lock_take says of a live holder. */
void lock_held_message(pid_t pid, char *err, size_t errlen);

/* Whether a live run holds DIR: its pid (0 when it has not written it
 * yet), or -1 when none does (or DIR has no lock file).  Takes nothing. */
pid_t lock_holder(const char *dir);

/* After a failed start: lets the lock go, and removes the lock file when
 * lock_take made it.  A run that went on keeps its lock to the end. */
void lock_release(struct run_lock *l);

#endif
