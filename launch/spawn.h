/*
 * spawn: start, watch, signal and reap worker processes.
 *
 * spawn_start() forks and execs argv[0] (a path, no PATH search) with:
 *   fd 0  /dev/null
 *   fd 1, 2  log_fd (the worker's log file)
 *   fd 3  the write end of a new report pipe; the runner keeps the read end
 *         in child->report_fd (non-blocking, close-on-exec)
 *   fd 4  control_fd when >= 0 (the shared start pipe's read end)
 * and nothing else: every other descriptor of the runner is close-on-exec.
 * The child is a vfork() child: the runner is suspended until it execs
 * (or fails to), and no copy of its memory is made.  Signals are blocked
 * across the vfork; the child resets dispositions and mask before exec.  An exec failure comes back over a close-on-exec pipe, so
 * spawn_start() returns -1 with "exec PATH: reason" instead of a child that
 * exits 127.
 *
 * Waiting: each child's pidfd turns readable when it has exited; poll the
 * pidfds, then spawn_reap() those that turned readable.  Without
 * pidfd_open (ENOSYS: Linux before 5.3, valgrind 3.19) every pidfd is a
 * copy of one pipe's read end that a SIGCHLD handler (SA_RESTART) writes
 * to: after each poll, when spawn_exits_pending() says a child ended,
 * spawn_reap() every child, not only those whose pidfd turned readable.
 * spawn_reap() waits for its own pid only, never -1: the guard and any
 * other child of the runner are left to whoever owns them.
 * MATRIX_NO_PIDFD=1 in the environment forces that fallback (a test hook).
 *
 * Every started child is on one list until reaped; spawn_kill_all() sends
 * SIGKILL to all of them and reaps them (for an interrupted run).
 *
 * Nothing outlives a runner that is killed (SIGKILL, the OOM killer):
 *   - every child is started with PR_SET_PDEATHSIG(SIGKILL), set after
 *     fork and checked against the runner's pid read before it (a runner
 *     already dead by then: the child _exits at once);
 *   - a program's own children (socat's fork, the child of a `sh -c`)
 *     do not inherit that; they are in the program's process group, which
 *     the guard kills: a small process forked by spawn_guard_start() in a
 *     session of its own, told each program group over a pipe (by the
 *     program itself before its exec, and by the runner after), which on
 *     the pipe's end of file (the runner ended, however) sends SIGKILL to
 *     each group still listed and removes the run's socket folder with
 *     all in it ({tmp}: stale_sockdir_remove_all).
 * Limits: a descendant that leaves its group (setsid, a daemon) is not
 * reached, and neither are the groups when the guard itself is killed
 * (the programs themselves still die with the runner).
 */
#ifndef MATRIX_SPAWN_H
#define MATRIX_SPAWN_H

#include <sched.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

/* An argv for spawn_start, built before fork (the child only execs):
 * printf-formatted words copied into a fixed store, argv NULL-terminated.
 * Start from { .argc = 0 }.  A word that does not fit (more than
 * SPAWN_MAX_ARGS - 1 words, or store full) is not added and sets overflow:
 * never run a command that was cut. */
#define SPAWN_MAX_ARGS 256
struct spawn_argv {
	char *argv[SPAWN_MAX_ARGS];
	int argc;
	int overflow;
	char store[65536];
	size_t used;
};

__attribute__((format(printf, 2, 3)))
void spawn_argv_add(struct spawn_argv *a, const char *fmt, ...);

struct child;
/* A child that is no process of ours: a worker a remote host's agent runs
 * (launch/remote.h).  Its pid is its pid there (0 until known), its pidfd
 * turns readable once its owner posted its exit (spawn_post_exit), which
 * spawn_reap then takes; spawn_signal and spawn_release go to ops (after
 * noting the signal as for a process).  Never on the list of children. */
struct child_ops {
	void (*signal)(struct child *ch, int sig);
	void (*release)(struct child *ch);
};

struct child {
	pid_t pid;
	int pidfd;		/* readable when the child has exited (or, without
				 * pidfds, when some child may have) */
	int report_fd;		/* read end of its report pipe; -1 at EOF */
	int reaped;
	int status;		/* wait status, valid once reaped */
	int signalled_by_us;	/* we sent it SIGTERM/SIGKILL */
	unsigned sent_signals;	/* 1 << signal, for each signal we sent */
	int group;		/* leads a process group of its own */
	int stdin_wr;		/* SPAWN_STDIO: the write end of its stdin; else -1 */
	struct rusage ru;
	const struct child_ops *ops;	/* NULL for a process of ours */
	void *ops_arg;
	int posted, posted_status;	/* ops: its exit, as its owner learnt it */
	struct rusage posted_ru;
};

/* ops: the exit of ch (its wait status and rusage); its pidfd is for the
 * caller to make readable. */
void spawn_post_exit(struct child *ch, int status, const struct rusage *ru);

int spawn_start(struct child *ch, char *const argv[], int control_fd, int log_fd,
		char *err, size_t errlen);

/* SPAWN_PROGRAM: a program of the user's: argv[0] is looked up in PATH
 * (before fork), it gets only fds 0..2 (no report pipe: report_fd stays
 * -1) and a process group of its own, which spawn_signal signals whole.
 * cpus: NULL, or the CPUs the child may run on, set in the child just
 * before exec (sched_setaffinity), so a program of the user's and all it
 * forks run there too; a refusal fails the start like an exec failure,
 * with "sched_setaffinity before exec PATH: reason". */
#define SPAWN_PROGRAM 1
/* SPAWN_STDIO: ssh carrying a remote worker (remote.h): argv[0] looked up
 * in PATH, fd 0 a new pipe whose write end the runner keeps in
 * ch->stdin_wr (the worker's control channel: its start byte, and its
 * end of file when the cell is over), fd 1 the report pipe, fd 2 log_fd;
 * control_fd is not used.  spawn_release() closes stdin_wr. */
#define SPAWN_STDIO 2
int spawn_start_flags(struct child *ch, char *const argv[], int control_fd, int log_fd,
		      int flags, const cpu_set_t *cpus, char *err, size_t errlen);

/* wait4(WNOHANG): 1 when reaped now or before, 0 when still running. */
int spawn_reap(struct child *ch);

/* Without pidfds: empties the SIGCHLD pipe, and 1 when a child ended
 * since the last call (then spawn_reap every child).  0 with pidfds. */
int spawn_exits_pending(void);

/* Sends sig unless reaped; remembers that we did. */
void spawn_signal(struct child *ch, int sig);

/* 1 when the child died of a signal we did not send it (a crash, or
 * someone else's kill), even if we were signalling it at the time. */
int spawn_crashed(const struct child *ch);

/* Closes the descriptors of a reaped child. */
void spawn_release(struct child *ch);

/* "exit 3", "crashed: SIGSEGV" (core dumped noted), "ok" for exit 0. */
void spawn_describe_status(int status, char *buf, size_t len);

/* Forks the guard for a run whose socket folder is sockdir.  0, or -1
 * with a message. */
int spawn_guard_start(const char *sockdir, char *err, size_t errlen);
/* Ends the guard (closes its pipe) and reaps it; for a run that ends by
 * itself, after spawn_kill_all. */
void spawn_guard_stop(void);
/* SIGKILL to the whole process group of a program (SPAWN_PROGRAM) once it
 * is done with, and the guard told; nothing for our own workers. */
void spawn_group_end(struct child *ch);

/* SIGKILL and reap every child still on the list. */
void spawn_kill_all(void);
/* sig was ignored when the runner started: keep it ignored in children. */
void spawn_keep_ignored(int sig);

#endif
