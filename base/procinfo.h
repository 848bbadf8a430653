/*
 * procinfo: is the process that wrote a run folder still running?
 *
 * A pid alone cannot say: it is reused.  A process is named by three
 * facts, written into meta.csv when a run starts (runner_pid,
 * runner_start, boot_id) and compared later by `matrix run` and
 * `matrix report`: its pid, its start time (field 22 of /proc/PID/stat,
 * clock ticks after boot) and the boot it ran in
 * (/proc/sys/kernel/random/boot_id).
 */
#ifndef MATRIX_PROCINFO_H
#define MATRIX_PROCINFO_H

#include <stddef.h>
#include <sys/types.h>

/* The start time of pid, in clock ticks after boot, from /proc/PID/stat.
 * 0, or -1 when there is no such process, it is a zombie (dead, not yet
 * reaped), or /proc cannot be read. */
int proc_start_time(pid_t pid, unsigned long long *ticks);

/* This process's peak resident set in KiB: VmHWM of /proc/self/status,
 * whose count starts afresh at exec (wait4's ru_maxrss does not: a child
 * counts from fork, so its peak is never below its parent's resident
 * set at fork).  0 when unreadable. */
unsigned long proc_self_hwm_kib(void);

/* This boot's id ("" when unreadable). */
void proc_boot_id(char *buf, size_t len);

enum proc_state {
	PROC_UNKNOWN,	/* the facts are missing or bad (an older run folder) */
	PROC_ALIVE,	/* the same process still runs */
	PROC_GONE,	/* it ended: no such pid, another start time, another boot */
};

/* Judges the three facts as meta.csv holds them (text; NULL or "" when
 * missing). */
enum proc_state proc_state_of(const char *pid, const char *start, const char *boot_id);

#endif
