/* outfile: see outfile.h. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

void outfile_tmp_name(const char *path, const char *ext, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dirlen = (int)(base - path);

	snprintf(buf, len, "%.*s.%s.%ld.tmp%s%s", dirlen, path, base, (long)getpid(),
		 ext ? "." : "", ext ? ext : "");
}

static int fail(const char *path, int e, char *err, size_t errlen)
{
	if (err)
		snprintf(err, errlen, "%s: %s", path, e == ELOOP ? "a symbolic link (not followed)"
			 : strerror(e));
	errno = e;
	return -1;
}

const char *outfile_strerror(int e)
{
	return e == ELOOP ? "a symbolic link (not followed)" : strerror(e);
}

int outfile_remove(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* A new file at path, never through a link: O_EXCL fails on whatever is
 * there, a link included.  A regular file or a link there (a temporary
 * file of a writer of this pid that died, a link planted at its name)
 * goes, once, without being followed.  The descriptor, or -1 with errno. */
static int create_new(const char *path)
{
	for (int tries = 0; tries < 2; tries++) {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
		if (outfile_remove(path) < 0)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

int outfile_tmp_create(const char *tmp, char *err, size_t errlen)
{
	int fd = create_new(tmp);

	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", tmp, outfile_strerror(e));
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

int outfile_own_dir(const char *path, int make, char *err, size_t errlen)
{
	struct stat st;

	if (make && mkdir(path, 0755) == 0)
		return 0;
	if (make && errno != EEXIST)
		return fail(path, errno, err, errlen);
	if (lstat(path, &st) < 0) {
		if (!make && errno == ENOENT)
			return 0;
		return fail(path, errno, err, errlen);
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(err, errlen, "%s: a symbolic link: refused (matrix writes and removes "
			 "files only in a folder of its own, never through a link; remove the "
			 "link)", path);
		errno = ELOOP;
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory", path);
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
	int fd;

	snprintf(o->path, sizeof(o->path), "%s", path);
	o->f = NULL;
	if (!strcmp(path, OUTFILE_STDOUT)) {	/* no temporary file, nothing renamed */
		o->tmp[0] = '\0';
		o->f = stdout;
		return 0;
	}
	outfile_tmp_name(path, NULL, o->tmp, sizeof(o->tmp));
	if ((fd = create_new(o->tmp)) < 0) {
		int e = errno;
		/* a link planted at the temporary name is said as that name */
		return fail(e == ELOOP ? o->tmp : path, e, err, errlen);
	}
	if (!(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		return fail(path, e, err, errlen);
	}
	return 0;
}

/* fsync where the file system has it (EINVAL: it does not sync files). */
static int sync_fd(int fd)
{
	return fsync(fd) < 0 && errno != EINVAL && errno != EROFS ? -1 : 0;
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	int e = 0;

	if (!o->f)
		return fail(o->path, EBADF, err, errlen);
	if (!o->tmp[0]) {	/* stdout: every write checked, never closed */
		int bad = fflush(o->f) == EOF || ferror(o->f);
		e = errno ? errno : EIO;
		o->f = NULL;
		return bad ? fail("stdout", e, err, errlen) : 0;
	}
	/* an earlier write that failed leaves its bytes in the buffer and
	 * fflush fails again, with the reason; fclose would not say */
	if (fflush(o->f) == EOF)
		e = errno ? errno : EIO;
	else if (ferror(o->f))
		e = EIO;
	else if (sync_fd(fileno(o->f)) < 0)
		e = errno;
	if (fclose(o->f) == EOF && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && rename(o->tmp, o->path) < 0)
		e = errno;
	if (e) {
		unlink(o->tmp);
		return fail(o->path, e, err, errlen);
	}
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (!o->f)
		return;
	if (!o->tmp[0]) {	/* stdout: what was written is out */
		o->f = NULL;
		return;
	}
	fclose(o->f);
	o->f = NULL;
	unlink(o->tmp);
}

int outfile_sync_rename(const char *tmp, const char *path, char *err, size_t errlen)
{
	int fd = open(tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), e = 0;

	if (fd < 0)
		e = errno;
	else if (sync_fd(fd) < 0)
		e = errno;
	if (fd >= 0)
		close(fd);
	if (!e && rename(tmp, path) < 0)
		e = errno;
	if (e) {
		unlink(tmp);
		return fail(path, e, err, errlen);
	}
	return 0;
}

/* all of buf to fd: 0, or -1 with errno (EIO for a write that made no
 * progress and said nothing) */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

int outfile_copy_new(const char *from, const char *to, char *err, size_t errlen)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, e = 0;
	char buf[8192];
	ssize_t n = 0;

	if (in < 0 || (out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
								   0644)) < 0)
		e = errno;
	while (!e && (n = read(in, buf, sizeof(buf))) != 0)
		if ((n < 0 && errno != EINTR) || (n > 0 && write_all(out, buf, (size_t)n) < 0))
			e = errno;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0 && !e)
		e = errno;
	if (e) {
		snprintf(err, errlen, "copy %s to %s: %s", from, to, strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}
