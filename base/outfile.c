/* outfile: see outfile.h. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

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
		snprintf(err, errlen, "%s: %s", path, strerror(e));
	errno = e;
	return -1;
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
	snprintf(o->path, sizeof(o->path), "%s", path);
	outfile_tmp_name(path, NULL, o->tmp, sizeof(o->tmp));
	o->f = fopen(o->tmp, "we");
	if (!o->f)
		return fail(path, errno, err, errlen);
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
	fclose(o->f);
	o->f = NULL;
	unlink(o->tmp);
}

int outfile_sync_rename(const char *tmp, const char *path, char *err, size_t errlen)
{
	int fd = open(tmp, O_RDONLY | O_CLOEXEC), e = 0;

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

	if (in < 0 || (out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
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
