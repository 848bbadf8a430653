/*
 * csv: writing and reading CSV files through libcsv (see csv.h).
 *
 * libcsv's csv_fwrite() always quotes, so the writer decides which fields
 * need it and writes the others bare.  When reading, libcsv trims unquoted
 * leading and trailing spaces and tabs, which is why such fields are quoted.
 *
 * The reading side is csvread.c.
 */
#include "csvfile.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* A file that grows row by row, in a run folder that may come from
 * anywhere: never opened through a link (O_NOFOLLOW: results.csv linked
 * elsewhere would be appended to there), and only a regular file (a FIFO
 * would block, a device take the rows; O_NONBLOCK until it is checked). */
int csv_out_open(struct csv_out *w, const char *path, const char *mode,
		 char *err, size_t errlen)
{
	int flags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, fd, e;
	struct stat st;

	memset(w, 0, sizeof(*w));
	if (strcmp(mode, "w") == 0) {
		flags |= O_CREAT | O_TRUNC;
	} else if (strcmp(mode, "a") == 0) {
		flags |= O_CREAT | O_APPEND;
	} else {
		snprintf(err, errlen, "%s: bad open mode '%s'", path, mode);
		errno = EINVAL;
		return -1;
	}
	if ((fd = open(path, flags, 0666)) < 0) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, outfile_strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		errno = EINVAL;
		return -1;
	}
	if (fcntl(fd, F_SETFL, flags & O_APPEND) < 0 ||
	    !(w->f = fdopen(fd, *mode == 'a' ? "a" : "w"))) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	/* appending: a row cut short is cut back to what was there */
	if (*mode == 'a')
		w->good = st.st_size;
	return 0;
}

int csv_out_create(struct csv_out *w, const char *path, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	if (outfile_open(&w->out, path, err, errlen) < 0)
		return -1;
	w->f = w->out.f;
	w->whole = 1;
	return 0;
}

/* Remembers the first error, as its errno, until csv_out_close. */
static void note_failure(struct csv_out *w)
{
	if (!w->failed)
		w->failed = errno ? errno : EIO;
}

static int needs_quoting(const char *s, size_t len)
{
	if (len == 0)
		return 0;
	if (s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' || s[len - 1] == '\t')
		return 1;
	return strpbrk(s, ",\"\r\n") != NULL;
}

void csv_out_field(struct csv_out *w, const char *s)
{
	size_t len = s ? strlen(s) : 0;

	if (w->nfields++ > 0 && putc(',', w->f) == EOF)
		note_failure(w);
	if (len == 0)
		return;
	if (needs_quoting(s, len)) {
		if (csv_fwrite(w->f, s, len) != 0)
			note_failure(w);
	} else if (fwrite(s, 1, len, w->f) != len) {
		note_failure(w);
	}
}

const char *csv_text_as_written(const char *s, char *buf, size_t len)
{
	/* a spreadsheet takes a cell that starts like this for a formula */
	if (s && *s && strchr("=+-@\t\r", *s)) {
		snprintf(buf, len, "'%s", s);
		return buf;
	}
	return s;
}

void csv_out_text(struct csv_out *w, const char *s)
{
	char buf[1024];

	csv_out_field(w, csv_text_as_written(s, buf, sizeof(buf)));
}

void csv_out_fieldf(struct csv_out *w, const char *fmt, ...)
{
	char buf[256], *p = buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0) {
		note_failure(w);
		csv_out_field(w, NULL);
		return;
	}
	if ((size_t)n >= sizeof(buf)) {
		p = malloc((size_t)n + 1);
		if (!p) {
			note_failure(w);
			csv_out_field(w, NULL);
			return;
		}
		va_start(ap, fmt);
		vsnprintf(p, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	csv_out_field(w, p);
	if (p != buf)
		free(p);
}

void csv_out_u64(struct csv_out *w, unsigned long long v)
{
	csv_out_fieldf(w, "%llu", v);
}

void csv_out_double(struct csv_out *w, double v, int digits)
{
	if (!isfinite(v)) {
		csv_out_field(w, NULL);
		return;
	}
	if (digits < 1)
		digits = 1;
	if (digits > 17)
		digits = 17;
	csv_out_fieldf(w, "%.*g", digits, v);
}

/* A row of a growing file failed: its bytes still in stdio's buffer are
 * dropped and those that reached the file cut off, so the file ends with
 * the last whole row (a reader drops an unfinished last row anyway). */
static void cut_back(struct csv_out *w)
{
	__fpurge(w->f);
	if (ftruncate(fileno(w->f), w->good) == 0)
		fseeko(w->f, w->good, SEEK_SET);
}

void csv_out_cut_to(struct csv_out *w, off_t at)
{
	if (!w->f || w->whole || at > w->good)
		return;
	w->good = at;
	cut_back(w);
}

int csv_out_end_row(struct csv_out *w)
{
	int before = w->failed;

	w->nfields = 0;
	if (!w->f) {
		errno = w->failed ? w->failed : EBADF;
		return -1;
	}
	if (before) {		/* a growing file takes no row after a failed one */
		if (!w->whole)
			cut_back(w);
		errno = before;
		return -1;
	}
	if (putc('\n', w->f) == EOF || (!w->whole && fflush(w->f) == EOF))
		note_failure(w);
	if (w->failed) {
		if (!w->whole)
			cut_back(w);
		errno = w->failed;
		return -1;
	}
	if (!w->whole) {
		off_t at = ftello(w->f);
		if (at >= 0)
			w->good = at;
	}
	return 0;
}

int csv_out_close(struct csv_out *w)
{
	int failed = w->failed;

	if (!w->f) {
		if (failed) {
			errno = failed;
			return -1;
		}
		return 0;
	}
	if (w->whole) {
		if (failed) {
			outfile_abort(&w->out);
		} else if (outfile_commit(&w->out, NULL, 0) < 0) {
			failed = errno;
		}
	} else {
		if (!failed && fflush(w->f) == EOF)
			failed = errno ? errno : EIO;
		if (failed)
			cut_back(w);
		if (fclose(w->f) == EOF && !failed)
			failed = errno ? errno : EIO;
	}
	w->f = NULL;
	w->out.f = NULL;
	w->nfields = 0;
	w->failed = failed;
	if (failed) {
		errno = failed;
		return -1;
	}
	return 0;
}
