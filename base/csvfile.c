/*
 * csv: writing and reading CSV files through libcsv (see csv.h).
 *
 * libcsv's csv_fwrite() always quotes, so the writer decides which fields
 * need it and writes the others bare.  When reading, libcsv trims unquoted
 * leading and trailing spaces and tabs, which is why such fields are quoted.
 *
 * The reader feeds libcsv one line at a time so that every callback knows
 * the line it came from; a row's errors name the line the row starts on.
 * It parses with CSV_REPALL_NL so that an empty line is seen: in a one-column
 * table it is a row holding one empty field (that is how the writer writes
 * such a row), elsewhere it is skipped.
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

/* ---- reading ---- */

struct loader {
	struct csv_table *t;
	const char *path;
	char *err;
	size_t errlen;
	int failed;		/* a callback failed; err is set */

	char **row;		/* fields of the row being read */
	size_t nrow, row_cap;
	size_t rows_cap;

	unsigned long line;	/* line being fed to libcsv, from 1 */
	unsigned long row_line;	/* line the current row starts on */
	int last_term;		/* what ended the last row: '\r', '\n', -1 */
	int drop_unfinished;	/* CSV_DROP_UNFINISHED */
	int dropped;		/* an unfinished last row was left out */
};

static void load_fail(struct loader *l, unsigned long line, const char *msg)
{
	if (l->failed)
		return;
	l->failed = 1;
	snprintf(l->err, l->errlen, "%s:%lu: %s", l->path, line, msg);
}

static void free_fields(char **f, size_t n)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

static void on_field(void *s, size_t len, void *data)
{
	struct loader *l = data;
	char *copy;

	if (l->failed)
		return;
	if (l->nrow == l->row_cap) {
		size_t cap = l->row_cap ? 2 * l->row_cap : 16;
		char **p = realloc(l->row, cap * sizeof(*p));

		if (!p) {
			load_fail(l, l->row_line, "out of memory");
			return;
		}
		l->row = p;
		l->row_cap = cap;
	}
	copy = malloc(len + 1);
	if (!copy) {
		load_fail(l, l->row_line, "out of memory");
		return;
	}
	if (len)
		memcpy(copy, s, len);
	copy[len] = '\0';
	l->row[l->nrow++] = copy;
}

static void take_row(struct loader *l)
{
	struct csv_table *t = l->t;
	char msg[96];

	if (!t->header) {
		t->header = l->row;
		t->ncols = l->nrow;
	} else {
		if (l->nrow != t->ncols) {
			snprintf(msg, sizeof(msg), "row has %zu field%s, header has %zu",
				 l->nrow, l->nrow == 1 ? "" : "s", t->ncols);
			load_fail(l, l->row_line, msg);
			return;
		}
		if (t->nrows == l->rows_cap) {
			size_t cap = l->rows_cap ? 2 * l->rows_cap : 64;
			char ***p = realloc(t->rows, cap * sizeof(*p));

			if (!p) {
				load_fail(l, l->row_line, "out of memory");
				return;
			}
			t->rows = p;
			l->rows_cap = cap;
		}
		t->rows[t->nrows++] = l->row;
	}
	l->row = NULL;
	l->nrow = 0;
	l->row_cap = 0;
}

static void on_row(int c, void *data)
{
	struct loader *l = data;
	int prev = l->last_term;

	if (l->failed)
		return;
	l->last_term = c;
	/* A row csv_fini() ends has no line end: an interrupted write cut it
	 * short (CSV_DROP_UNFINISHED). */
	if (c == -1 && l->drop_unfinished && l->t->header) {
		free_fields(l->row, l->nrow);
		l->row = NULL;
		l->nrow = 0;
		l->row_cap = 0;
		l->dropped = 1;
		return;
	}
	/* An empty line (CSV_REPALL_NL) is a row in a one-column table; the
	 * LF of a CR LF pair is no row at all. */
	if (l->nrow > 0 ||
	    (!(c == '\n' && prev == '\r') && l->t->header && l->t->ncols == 1)) {
		if (l->nrow == 0)
			on_field("", 0, l);
		if (!l->failed)
			take_row(l);
	}
	/* Lines are fed one at a time, so an LF ends the chunk being parsed
	 * and the next row starts on the next line; a lone CR does not. */
	l->row_line = c == '\r' ? l->line : l->line + 1;
}

/* Feeds buf[0..len) to libcsv, a line at a time.  0, or -1 with err set. */
static int feed(struct loader *l, struct csv_parser *p, const char *buf, size_t len)
{
	while (len > 0) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) + 1 : len;

		if (csv_parse(p, buf, n, on_field, on_row, l) != n) {
			if (csv_error(p) == CSV_EPARSE)
				load_fail(l, l->line, "stray quote: a quote inside an "
					  "unquoted field, or text after a closing quote");
			else
				load_fail(l, l->line, csv_strerror(csv_error(p)));
			return -1;
		}
		if (l->failed)
			return -1;
		if (nl)
			l->line++;
		buf += n;
		len -= n;
	}
	return 0;
}

int csv_table_load(struct csv_table *t, const char *path, char *err, size_t errlen)
{
	return csv_table_load_opts(t, path, 0, NULL, err, errlen);
}

int csv_table_load_opts(struct csv_table *t, const char *path, int flags, int *dropped,
			char *err, size_t errlen)
{
	struct loader l = {
		.t = t, .path = path, .err = err, .errlen = errlen,
		.line = 1, .row_line = 1, .last_term = -1,
		.drop_unfinished = flags & CSV_DROP_UNFINISHED,
	};
	struct csv_parser p;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	FILE *f;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	if (dropped)
		*dropped = 0;
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL |
		     CSV_REPALL_NL) != 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		fclose(f);
		return -1;
	}
	for (;;) {	/* the whole file: it is fed up to its last line end */
		if (cap - n < 65536) {
			char *nb = realloc(buf, cap ? 2 * cap : 65536);
			if (!nb) {
				load_fail(&l, l.line, "out of memory");
				goto out;
			}
			buf = nb;
			cap = cap ? 2 * cap : 65536;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		if (!got)
			break;
		n += got;
	}
	if (ferror(f)) {
		load_fail(&l, l.line, strerror(errno));
		goto out;
	}
	if (n && feed(&l, &p, buf, n) < 0)
		goto out;
	/* Ends a last row that has no line end, or fails (CSV_STRICT_FINI) on
	 * a quoted field that was never closed.  With CSV_DROP_UNFINISHED
	 * either is a row an interrupted write cut short (a cut after a line
	 * end inside a quoted field too): it is left out. */
	if (csv_fini(&p, on_field, on_row, &l) != 0) {
		if (!l.drop_unfinished || !t->header) {
			load_fail(&l, l.row_line, "unterminated quoted field");
			goto out;
		}
		l.dropped = 1;	/* its fields so far are freed below */
	}
	if (l.failed)
		goto out;
	if (!t->header) {
		load_fail(&l, 1, "empty file: no header row");
		goto out;
	}
	ret = 0;
	if (dropped)
		*dropped = l.dropped;
out:
	csv_free(&p);
	fclose(f);
	free(buf);
	free_fields(l.row, l.nrow);
	if (ret < 0)
		csv_table_release(t);
	return ret;
}

int csv_table_col(const struct csv_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->header[i], name) == 0)
			return (int)i;
	return -1;
}

void csv_table_release(struct csv_table *t)
{
	size_t r;

	for (r = 0; r < t->nrows; r++)
		free_fields(t->rows[r], t->ncols);
	free(t->rows);
	free_fields(t->header, t->ncols);
	memset(t, 0, sizeof(*t));
}
