/* Run folders of killed runners: see stale.h. */
#include "stale.h"
#include "csvfile.h"
#include "procinfo.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* cN-rR.sock, or cN-rR.sock.ANYTHING (a worker's FIFOs, a zmq endpoint) */
static int our_socket_name(const char *name)
{
	const char *p = name;

	if (*p++ != 'c' || !(*p >= '0' && *p <= '9'))
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	if (strncmp(p, "-r", 2) || !(p[2] >= '0' && p[2] <= '9'))
		return 0;
	for (p += 2; *p >= '0' && *p <= '9'; p++)
		;
	return !strncmp(p, ".sock", 5) && (p[5] == '\0' || p[5] == '.');
}

/* dir's owner entry for the runner pid that started at start: PATH, 0 */
static int owner_path(char *path, size_t len, const char *dir, const char *pid,
		      const char *start)
{
	return snprintf(path, len, "%s/" STALE_OWNER ".%.20s.%.24s", dir, pid, start) < (int)len ?
	       0 : -1;
}

int stale_sockdir_claim(const char *dir)
{
	char path[PATH_MAX], pid[24], start[32];
	unsigned long long ticks = 0;

	if (proc_start_time(getpid(), &ticks) < 0)
		return -1;
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	snprintf(start, sizeof(start), "%llu", ticks);
	if (owner_path(path, sizeof(path), dir, pid, start) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkdir(path, 0700);
}

/* One pass over dir: its owner entries (owner.PID.START folders, empty)
 * removed, and with sockets its cN-rR.sock* files too. */
static void sweep(const char *dir, int sockets)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		int owner = !strncmp(e->d_name, STALE_OWNER ".", sizeof(STALE_OWNER));
		if ((owner || (sockets && our_socket_name(e->d_name))) &&
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path))
			(owner ? rmdir : unlink)(path);
	}
	closedir(d);
}

void stale_sockdir_release(const char *dir)
{
	sweep(dir, 0);
	rmdir(dir);
}

/* Does dir hold the owner entry of the runner pid that started at start
 * (both as meta.csv writes them)? */
static int owned_by(const char *dir, const char *pid, const char *start)
{
	char path[PATH_MAX];
	struct stat st;

	if (!*pid || !*start || strchr(pid, '/') || strchr(start, '/') ||
	    owner_path(path, sizeof(path), dir, pid, start) < 0)
		return 0;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid();
}

void stale_sockdir_remove(const char *dir)
{
	sweep(dir, 1);
	rmdir(dir);
}

static int make_writable(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)f;
	if (flag == FTW_D && (st->st_mode & 0700) != 0700)
		chmod(path, st->st_mode | 0700);	/* a read-only tree (go's module cache) */
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	if (f->level > 0)	/* the folder itself last, by the caller */
		(flag == FTW_DP ? rmdir : unlink)(path);
	return 0;
}

void stale_sockdir_remove_all(const char *dir)
{
	nftw(dir, make_writable, 16, FTW_PHYS | FTW_MOUNT);
	nftw(dir, remove_one, 16, FTW_PHYS | FTW_MOUNT | FTW_DEPTH);
	rmdir(dir);
}

/* The socket folder a killed run named, removed only when it is surely
 * the one that run made: name matrix.XXXXXX, a real folder (no link),
 * this user's, mode 0700 as mkdtemp makes it, and its owner file naming
 * the runner meta.csv names (gone: the caller checked), so that a
 * forged meta.csv never removes another live run's sockets. */
static void remove_its_sockdir(const char *dir, const char *pid, const char *start)
{
	const char *base = strrchr(dir, '/');
	struct stat st;

	base = base ? base + 1 : dir;
	if (strncmp(base, "matrix.", 7) || strlen(base) != 13 || lstat(dir, &st) < 0 ||
	    !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 0777) != 0700 ||
	    !owned_by(dir, pid, start) || proc_state_of(pid, start, NULL) != PROC_GONE)
		return;	/* the runner's liveness on this boot, whatever boot_id the folder says */
	stale_sockdir_remove(dir);
}

static const char *fact(const struct csv_table *t, int k, int v, const char *key)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i][k], key))
			return t->rows[i][v];
	return "";
}

enum proc_state stale_check(const char *dir, const char *cmd)
{
	struct csv_table t;
	char path[PATH_MAX], err[256];
	enum proc_state st = PROC_UNKNOWN;

	if (snprintf(path, sizeof(path), "%s/meta.csv", dir) >= (int)sizeof(path) ||
	    csv_table_load(&t, path, err, sizeof(err)) < 0)
		return PROC_UNKNOWN;
	int k = csv_table_col(&t, "key"), v = csv_table_col(&t, "value");
	int reporting = k >= 0 && v >= 0 && !strcmp(fact(&t, k, v, "status"), "reporting");
	if (k >= 0 && v >= 0 && (reporting || !strcmp(fact(&t, k, v, "status"), "running")))
		st = proc_state_of(fact(&t, k, v, "runner_pid"), fact(&t, k, v, "runner_start"),
				   fact(&t, k, v, "boot_id"));
	if (reporting && st == PROC_ALIVE)
		fprintf(stderr, "matrix %s: %s: its run has ended and is still writing its reports "
			"(runner pid %s)\n", cmd, dir, fact(&t, k, v, "runner_pid"));
	else if (reporting && st == PROC_GONE)
		fprintf(stderr, "matrix %s: %s: its run was killed while its reports were written: "
			"its runner (pid %s) is gone, after the run had ended (%s); `matrix run "
			"--resume %s` finishes them\n", cmd, dir, fact(&t, k, v, "runner_pid"),
			fact(&t, k, v, "run_status"), dir);
	else if (st == PROC_ALIVE)
		fprintf(stderr, "matrix %s: %s: its run is still going (runner pid %s)\n", cmd, dir,
			fact(&t, k, v, "runner_pid"));
	else if (st == PROC_GONE) {
		fprintf(stderr, "matrix %s: %s: its run was killed: its runner (pid %s) is gone "
			"and meta.csv still says running; results.csv holds the repetitions it "
			"finished\n", cmd, dir, fact(&t, k, v, "runner_pid"));
		if (*fact(&t, k, v, "socket_dir"))
			remove_its_sockdir(fact(&t, k, v, "socket_dir"), fact(&t, k, v, "runner_pid"),
					   fact(&t, k, v, "runner_start"));
	}
	csv_table_release(&t);
	return st;
}
