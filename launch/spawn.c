/* fork/exec discipline after git's run-command.c: see spawn.h. */
#include "spawn.h"
#include "arrays.h"
#include "stale.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define MAX_CHILDREN 4096

static pid_t live[MAX_CHILDREN];

static void list_add(pid_t pid)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (!live[i]) {
			live[i] = pid;
			return;
		}
}

static void list_remove(pid_t pid)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (live[i] == pid)
			live[i] = 0;
}

/* Without pidfd_open (spawn.h): SIGCHLD writes a byte to this pipe
 * (non-blocking, close-on-exec), and each child's pidfd is a copy of its
 * read end.  Made, with the handler, the first time it is needed. */
static int chld_pipe[2] = { -1, -1 };

static void on_sigchld(int sig)
{
	int e = errno;
	ssize_t n = write(chld_pipe[1], &sig, 1);	/* full: readable anyway */

	(void)n;
	errno = e;
}

/* A child's stand-in pidfd: a copy of the SIGCHLD pipe's read end, or -1
 * with errno. */
static int chld_fd(void)
{
	struct sigaction sa = { .sa_handler = on_sigchld, .sa_flags = SA_RESTART | SA_NOCLDSTOP };

	if (chld_pipe[0] < 0) {
		if (pipe2(chld_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
			return -1;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGCHLD, &sa, NULL);
	}
	on_sigchld(SIGCHLD);	/* this child may have ended before the handler was in */
	return fcntl(chld_pipe[0], F_DUPFD_CLOEXEC, 3);
}

/* The child's pidfd; without pidfd_open (ENOSYS: valgrind 3.19, Linux
 * before 5.3; or MATRIX_NO_PIDFD set to anything but 0) the stand-in. */
static int child_pidfd(pid_t pid)
{
	static int no_pidfd = -1;	/* asked once: valgrind warns at each call */
	const char *env = getenv("MATRIX_NO_PIDFD");
	int fd = -1;

	if (no_pidfd < 0)
		no_pidfd = env && *env && strcmp(env, "0");
	if (!no_pidfd && (fd = pidfd_open(pid, 0)) < 0 && errno == ENOSYS)
		no_pidfd = 1;
	return no_pidfd ? chld_fd() : fd;
}

int spawn_exits_pending(void)
{
	char buf[64];
	int any = 0;

	while (chld_pipe[0] >= 0 && read(chld_pipe[0], buf, sizeof(buf)) > 0)
		any = 1;
	return any;
}

/* The guard (spawn.h): a child of the runner in a session of its own,
 * reading group records from guard_fd's pipe until the runner is gone. */
static int guard_fd = -1;
static pid_t guard_pid = -1;

/* Tells the guard about a program's process group: +pgid when it starts
 * (twice: by the program itself before its exec, and by the runner after
 * fork), -pgid once it has been killed whole.  0, or -1 with errno (only
 * write: the program's child calls it). */
static int guard_note(pid_t pgid)
{
	int32_t rec = (int32_t)pgid;
	ssize_t n = 0;

	if (guard_fd >= 0)
		while ((n = write(guard_fd, &rec, sizeof(rec))) < 0 && errno == EINTR)
			;
	return n < 0 ? -1 : 0;
}

/* The guard's whole life: records until end of file (the runner ended,
 * whatever the way), then SIGKILL to every group still listed and the
 * socket folder removed. */
static void guard_run(int rd, const char *sockdir)
{
	static pid_t groups[MAX_CHILDREN];
	struct sigaction ign = { .sa_handler = SIG_IGN }, dfl = { .sa_handler = SIG_DFL };
	int32_t rec[256];
	ssize_t n;

	setsid();	/* out of the runner's group: `kill -9 -PGID` spares it */
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, sig == SIGCHLD ? &dfl : &ign, NULL);
	int devnull = open("/dev/null", O_RDWR);
	for (int fd = 0; fd < 3 && devnull >= 0; fd++)
		dup2(devnull, fd);
	if (dup2(rd, 3) < 0)
		_exit(1);
	close_range(4, ~0u, 0);
	for (;;) {
		n = read(3, rec, sizeof(rec));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (size_t i = 0; i < (size_t)n / sizeof(rec[0]); i++) {
			/* +pgid takes a free slot unless listed (a group is
			 * noted twice: listed once, so one -pgid ends it) */
			pid_t at = rec[i] > 0 ? 0 : -rec[i];
			for (size_t j = 0; rec[i] > 0 && j < MAX_CHILDREN; j++)
				if (groups[j] == rec[i])
					at = -1;
			for (size_t j = 0; at >= 0 && j < MAX_CHILDREN; j++)
				if (groups[j] == at) {
					groups[j] = rec[i] > 0 ? rec[i] : 0;
					break;
				}
		}
	}
	for (size_t j = 0; j < MAX_CHILDREN; j++)
		if (groups[j])
			kill(-groups[j], SIGKILL);
	stale_sockdir_remove_all(sockdir);
	_exit(0);
}

int spawn_guard_start(const char *sockdir, char *err, size_t errlen)
{
	int p[2];
	sigset_t all, old;

	if (pipe2(p, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "guard pipe: %s", strerror(errno));
		return -1;
	}
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	guard_pid = fork();
	if (guard_pid == 0) {
		close(p[1]);
		guard_run(p[0], sockdir);
	}
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(p[0]);
	if (guard_pid < 0) {
		close(p[1]);
		snprintf(err, errlen, "fork the guard: %s", strerror(e));
		return -1;
	}
	guard_fd = p[1];
	return 0;
}

void spawn_guard_stop(void)
{
	if (guard_fd < 0)
		return;
	close(guard_fd);
	guard_fd = -1;
	while (waitpid(guard_pid, NULL, 0) < 0 && errno == EINTR)
		;
	guard_pid = -1;
}

void spawn_group_end(struct child *ch)
{
	if (!ch->group || ch->pid <= 0)
		return;
	kill(-ch->pid, SIGKILL);
	guard_note(-ch->pid);
}

void spawn_argv_add(struct spawn_argv *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (a->argc >= SPAWN_MAX_ARGS - 1 || a->used >= sizeof(a->store)) {
		a->overflow = 1;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(a->store + a->used, sizeof(a->store) - a->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(a->store) - a->used) {
		a->overflow = 1;
		return;
	}
	a->argv[a->argc++] = a->store + a->used;
	a->argv[a->argc] = NULL;
	a->used += (size_t)n + 1;
}

/* Signals the runner found ignored when it started (nohup's SIGHUP, a
 * background job's SIGINT and SIGQUIT): they stay ignored in every child. */
static sigset_t kept_ignored;

void spawn_keep_ignored(int sig)
{
	sigaddset(&kept_ignored, sig);
}

/* What the child reports on the exec-error pipe: a stage and its errno. */
enum { SPAWN_FAILED_EXEC, SPAWN_FAILED_AFFINITY };

/* Only async-signal-safe calls from here to exec.  parent: the runner's
 * pid, read before fork.  A vfork child: it shares the runner's memory
 * (not its descriptors, signal dispositions or mask) until it execs or
 * exits, so it writes nothing but its own stack and errno, and the
 * runner, suspended, sees errno changed.  Never inlined: its locals (two
 * struct sigaction, the error record) are then in a frame of its own
 * below spawn_start_flags', not in slots of the runner's frame that the
 * compiler is free to share with variables the runner reads after
 * vfork returns (f, old, path). */
static __attribute__((noinline, noreturn)) void child_exec(const char *path, char *const argv[], int report_wr, int control_fd,
		       int log_fd, int devnull, int errpipe, int external, int stdio, const cpu_set_t *cpus,
		       const sigset_t *oldmask, pid_t parent)
{
	struct sigaction sa = { .sa_handler = SIG_DFL }, ign = { .sa_handler = SIG_IGN };
	int e[2] = { SPAWN_FAILED_EXEC, 0 };

	/* dies with the runner, even of SIGKILL; a runner that died before
	 * this line sent nothing: then the parent is no longer ours */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, sigismember(&kept_ignored, sig) == 1 ? &ign : &sa, NULL);
	/* a program of the user's gets a process group of its own, so that
	 * the children it forks (socat fork) end with it */
	if (external && setpgid(0, 0) < 0)
		goto fail;
	/* and tells the guard itself, before guard_fd can be a dup2 target
	 * and before the program can fork: a runner killed before its own
	 * note leaves no child of the program.  A guard already gone leaves
	 * a SIGPIPE pending (blocked): SIG_IGN drops it. */
	if (external && guard_note(getpid()) < 0 && errno == EPIPE) {
		sigaction(SIGPIPE, &ign, NULL);
		sigaction(SIGPIPE, sigismember(&kept_ignored, SIGPIPE) == 1 ? &ign : &sa, NULL);
	}
	if (stdio) {	/* ssh: its stdin, stdout and stderr are the worker's */
		if (dup2(control_fd, 0) < 0 || dup2(report_wr, 1) < 0 || dup2(log_fd, 2) < 0)
			goto fail;
	} else if (dup2(devnull, 0) < 0 || dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0 ||
	    (!external && dup2(report_wr, 3) < 0) || (control_fd >= 0 && dup2(control_fd, 4) < 0))
		goto fail;
	/* exactly 0..4 (0..2 for a program of the user's or ssh), and the
	 * exec-error pipe (close-on-exec) above them: nothing the runner
	 * itself inherited reaches a worker */
	if (external || stdio)
		close(3);
	if (control_fd < 0 || stdio)
		close(4);
	if (dup2(errpipe, 5) < 0 || fcntl(5, F_SETFD, FD_CLOEXEC) < 0)
		goto fail;
	errpipe = 5;
	close_range(6, ~0u, 0);
	/* its CPUs (a plain system call): inherited by whatever it forks */
	if (cpus && sched_setaffinity(0, sizeof(*cpus), cpus) < 0) {
		e[0] = SPAWN_FAILED_AFFINITY;
		goto fail;
	}
	sigprocmask(SIG_SETMASK, oldmask, NULL);
	execv(path, argv);
fail:
	e[1] = errno;
	while (write(errpipe, e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* argv[0] as execvp would find it, looked up before fork (execvp is not
 * async-signal-safe). */
static int find_program(const char *name, char *out, size_t len)
{
	const char *env = getenv("PATH");
	char path[4096];

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return access(out, X_OK);
	}
	snprintf(path, sizeof(path), "%s", env && *env ? env : "/usr/local/bin:/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(path, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", *d ? d : ".", name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	errno = ENOENT;
	return -1;
}

int spawn_start(struct child *ch, char *const argv[], int control_fd, int log_fd,
		char *err, size_t errlen)
{
	return spawn_start_flags(ch, argv, control_fd, log_fd, 0, NULL, err, errlen);
}

/* The descriptors one start makes: the report pipe (rep), the exec-error
 * pipe (ep), and the copies the child dup2()s onto 0..5 (hi_*, devnull),
 * all close-on-exec; -1 for those not made (yet). */
struct child_fds {
	int rep[2], ep[2];
	int hi_rep, hi_ctl, hi_log, hi_err, devnull;
};

static void child_fds_close(struct child_fds *f)
{
	int fds[] = { f->rep[0], f->rep[1], f->ep[0], f->ep[1], f->hi_rep, f->hi_log, f->hi_ctl,
		      f->hi_err, f->devnull };

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* Makes every descriptor of f before fork.  0, or -1 with a message (what
 * was made is left in f for child_fds_close). */
static int child_fds_open(struct child_fds *f, int control_fd, int log_fd, char *err,
			  size_t errlen)
{
	if (pipe2(f->rep, O_CLOEXEC) < 0 || pipe2(f->ep, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	/* Move the child's descriptors above 10 so dup2 onto 0..4 never
	 * clobbers one of them. */
	f->hi_rep = fcntl(f->rep[1], F_DUPFD_CLOEXEC, 10);
	f->hi_log = fcntl(log_fd, F_DUPFD_CLOEXEC, 10);
	f->hi_ctl = control_fd >= 0 ? fcntl(control_fd, F_DUPFD_CLOEXEC, 10) : -1;
	f->devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	f->hi_err = fcntl(f->ep[1], F_DUPFD_CLOEXEC, 10);
	if (f->hi_rep < 0 || f->hi_log < 0 || (control_fd >= 0 && f->hi_ctl < 0) ||
	    f->devnull < 0 || f->hi_err < 0) {
		snprintf(err, errlen, "descriptors: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* In the parent after fork: end of file on the exec-error pipe means the
 * exec worked; an errno there means it failed (the child has _exit(127)ed:
 * reaped here).  Then the child's pidfd.  0, or -1 with a message and
 * ch->pid = -1 (no child left). */
static int child_execed(struct child *ch, struct child_fds *f, const char *path, char *err,
			size_t errlen)
{
	pid_t pid = ch->pid;
	ssize_t n;
	int e[2] = { 0, 0 };

	close(f->ep[1]);
	f->ep[1] = -1;
	close(f->hi_err);
	f->hi_err = -1;
	do
		n = read(f->ep[0], e, sizeof(e));
	while (n < 0 && errno == EINTR);
	if (n == sizeof(e)) {	/* exec failed: the child has _exit(127)ed */
		if (e[0] == SPAWN_FAILED_AFFINITY)
			snprintf(err, errlen, "sched_setaffinity before exec %s: %s", path,
				 strerror(e[1]));
		else
			snprintf(err, errlen, "exec %s: %s", path, strerror(e[1]));
		waitpid(pid, NULL, 0);
		list_remove(pid);
		guard_note(-pid);
		ch->pid = -1;
		return -1;
	}
	ch->pidfd = child_pidfd(pid);
	if (ch->pidfd < 0) {
		snprintf(err, errlen, "pidfd_open: %s", strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		list_remove(pid);
		guard_note(-pid);
		ch->pid = -1;
		return -1;
	}
	return 0;
}

int spawn_start_flags(struct child *ch, char *const argv[], int control_fd, int log_fd,
		      int flags, const cpu_set_t *cpus, char *err, size_t errlen)
{
	struct child_fds f = { .rep = { -1, -1 }, .ep = { -1, -1 }, .hi_rep = -1, .hi_ctl = -1,
			       .hi_log = -1, .hi_err = -1, .devnull = -1 };
	int external = flags & SPAWN_PROGRAM, e;
	const int stdio = flags & SPAWN_STDIO;
	int in[2] = { -1, -1 };
	char path[4096];
	sigset_t all, old;
	pid_t pid;

	memset(ch, 0, sizeof(*ch));
	ch->pid = -1;
	ch->pidfd = ch->report_fd = ch->stdin_wr = -1;
	ch->group = external;
	if (external || stdio ? find_program(argv[0], path, sizeof(path)) < 0
		     : snprintf(path, sizeof(path), "%s", argv[0]) < 0) {
		snprintf(err, errlen, "%s: %s", argv[0], errno == ENOENT ? "program not found"
			 : strerror(errno));
		return -1;
	}
	if (stdio && pipe2(in, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	if (child_fds_open(&f, stdio ? in[0] : control_fd, log_fd, err, errlen) < 0)
		goto fail;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid_t self = getpid();
	/* vfork: no copy of the runner's page tables to make and tear down
	 * again at exec (0.6 ms less per cell repetition, README "Runner
	 * overhead"); the runner waits meanwhile, as it does for the exec
	 * anyway (child_execed) */
	pid = vfork();
	if (pid == 0)
		child_exec(path, argv, f.hi_rep, f.hi_ctl, f.hi_log, f.devnull, f.hi_err, external,
			   in[0] >= 0, cpus, &old, self);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(e));
		goto fail;
	}
	list_add(pid);
	if (external)
		guard_note(pid);	/* its group, until spawn_group_end */
	ch->pid = pid;
	if (child_execed(ch, &f, path, err, errlen) < 0)
		goto fail;
	if (external) {	/* a program of the user's writes no report */
		close(f.rep[0]);
	} else {
		ch->report_fd = f.rep[0];
		fcntl(ch->report_fd, F_SETFL, O_NONBLOCK);
	}
	f.rep[0] = -1;
	child_fds_close(&f);	/* the child has its copies */
	if (in[0] >= 0) {	/* SPAWN_STDIO */
		close(in[0]);
		ch->stdin_wr = in[1];
	}
	return 0;
fail:
	child_fds_close(&f);
	if (in[0] >= 0) {
		close(in[0]);
		close(in[1]);
	}
	return -1;
}

int spawn_reap(struct child *ch)
{
	pid_t r;

	if (ch->ops) {
		if (!ch->reaped && ch->posted) {
			ch->reaped = 1;
			ch->status = ch->posted_status;
			ch->ru = ch->posted_ru;
		}
		return ch->reaped;
	}
	if (ch->reaped || ch->pid < 0)
		return 1;
	do
		r = wait4(ch->pid, &ch->status, WNOHANG, &ch->ru);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	if (r < 0)	/* not our child any more: treat as gone */
		ch->status = 127 << 8;
	list_remove(ch->pid);
	ch->reaped = 1;
	return 1;
}

void spawn_post_exit(struct child *ch, int status, const struct rusage *ru)
{
	ch->posted = 1;
	ch->posted_status = status;
	ch->posted_ru = *ru;
}

void spawn_signal(struct child *ch, int sig)
{
	if (ch->pid < 0 || ch->reaped)
		return;
	ch->signalled_by_us = 1;
	if (sig > 0 && sig < 32)
		ch->sent_signals |= 1u << sig;
	if (ch->ops) {
		ch->ops->signal(ch, sig);
		return;
	}
	if (ch->group)
		kill(-ch->pid, sig);
	kill(ch->pid, sig);
}

int spawn_crashed(const struct child *ch)
{
	int sig;

	if (!ch->reaped || !WIFSIGNALED(ch->status))
		return 0;
	sig = WTERMSIG(ch->status);
	return sig >= 32 || !(ch->sent_signals & (1u << sig));
}

void spawn_release(struct child *ch)
{
	if (ch->ops)
		ch->ops->release(ch);
	if (ch->pidfd >= 0)
		close(ch->pidfd);
	if (ch->report_fd >= 0)
		close(ch->report_fd);
	if (ch->stdin_wr >= 0)
		close(ch->stdin_wr);
	ch->pidfd = ch->report_fd = ch->stdin_wr = -1;
}

void spawn_describe_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status)) {
		if (WEXITSTATUS(status) == 0)
			snprintf(buf, len, "ok");
		else
			snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		const char *name = sigabbrev_np(WTERMSIG(status));
		snprintf(buf, len, "crashed: SIG%s%s", name ? name : "?",
			 WCOREDUMP(status) ? " (core dumped)" : "");
	} else {
		snprintf(buf, len, "wait status %#x", status);
	}
}

void spawn_kill_all(void)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (live[i]) {
			kill(-live[i], SIGKILL);	/* a program's group, if it has one */
			kill(live[i], SIGKILL);
			waitpid(live[i], NULL, 0);
			guard_note(-live[i]);
			live[i] = 0;
		}
}
