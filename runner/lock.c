/* A run folder's lock: see lock.h. */
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The whole file, for F_OFD_SETLK and F_OFD_GETLK. */
static struct flock whole(short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };

	return fl;
}

/* The pid written in a lock file, 0 when none is. */
static pid_t read_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, NULL, 10);
	return pid > 0 ? (pid_t)pid : 0;
}

void lock_held_message(pid_t pid, char *err, size_t errlen)
{
	if (pid > 0)
		snprintf(err, errlen, "in use by a running matrix (pid %ld)", (long)pid);
	else
		snprintf(err, errlen, "in use by a running matrix (its pid not yet written)");
}

/* Is the file open on fd still the one at path?  A holder that failed
 * unlinks the file it made before it lets go of the lock, so a lock won
 * on a file that is no longer there holds nothing. */
static int still_there(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static int take_once(struct run_lock *l, const char *dir, pid_t *holder, char *err,
		     size_t errlen);

static int regular(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

int lock_take(struct run_lock *l, const char *dir, pid_t *holder, char *err, size_t errlen)
{
	for (int tries = 0; tries < 10; tries++) {
		if (take_once(l, dir, holder, err, errlen) < 0)
			return -1;
		if (still_there(l->fd, l->path))
			return 0;
		close(l->fd);	/* won on an unlinked file: take the new one */
		l->fd = -1;
	}
	snprintf(err, errlen, "%s: the lock file keeps being replaced", l->path);
	return -1;
}

static int take_once(struct run_lock *l, const char *dir, pid_t *holder, char *err,
		     size_t errlen)
{
	struct flock fl = whole(F_WRLCK);

	l->fd = -1;
	l->created = 0;
	*holder = -1;
	snprintf(l->path, sizeof(l->path), "%s/.lock", dir);
	/* never through a link (its file elsewhere would be truncated and get
	 * our pid), and only a regular file: a FIFO or a device is refused
	 * (O_NONBLOCK: opening one never waits) */
	l->fd = open(l->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (l->fd >= 0)
		l->created = 1;
	else if (errno == EEXIST)
		l->fd = open(l->path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (l->fd < 0) {
		snprintf(err, errlen, "%s: %s", l->path, errno == ELOOP ?
			 "a symbolic link: refused (a run folder's lock is a file of its own)"
			 : strerror(errno));
		return -1;
	}
	if (!regular(l->fd)) {
		snprintf(err, errlen, "%s: not a regular file: refused", l->path);
		close(l->fd);
		l->fd = -1;
		return -1;
	}
	if (fcntl(l->fd, F_OFD_SETLK, &fl) < 0) {
		int e = errno;
		if (e == EAGAIN || e == EACCES) {
			*holder = read_pid(l->fd);
			lock_held_message(*holder, err, errlen);
			close(l->fd);	/* the file is the holder's now, even if we made it */
			l->fd = -1;
			return -1;
		}
		snprintf(err, errlen, "%s: cannot lock: %s", l->path, strerror(e));
		lock_release(l);
		return -1;
	}
	return 0;
}

int lock_write_pid(struct run_lock *l, char *err, size_t errlen)
{
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

	if (ftruncate(l->fd, 0) < 0 || pwrite(l->fd, pid, (size_t)n, 0) != n) {
		snprintf(err, errlen, "%s: %s", l->path, strerror(errno));
		return -1;
	}
	return 0;
}

pid_t lock_holder(const char *dir)
{
	char path[4096];
	struct flock fl = whole(F_WRLCK);
	pid_t pid = -1;
	int fd;

	snprintf(path, sizeof(path), "%s/.lock", dir);
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -1;
	if (regular(fd) && fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
		pid = read_pid(fd);
	close(fd);
	return pid;
}

void lock_release(struct run_lock *l)
{
	if (l->fd < 0)
		return;
	if (l->created)
		unlink(l->path);	/* before the lock goes: no one can hold it then */
	close(l->fd);
	l->fd = -1;
}
