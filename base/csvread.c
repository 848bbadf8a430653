/*
 * csv reading: a run folder's CSV files read back through libcsv (see
 * csvfile.h, "Reading"), as untrusted input.
 *
 * The reader feeds libcsv one line at a time so that every callback knows
 * the line it came from; a row's errors name the line the row starts on.
 * It parses with CSV_REPALL_NL so that an empty line is seen: in a one-column
 * table it is a row holding one empty field (that is how the writer writes
 * such a row), elsewhere it is skipped.  libcsv trims unquoted leading and
 * trailing spaces and tabs, which is why the writer quotes such fields.
 */
#include "csvfile.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* The reader: the file is read in pieces of CSV_READ_PIECE bytes, each
 * fed to libcsv up to a line end at most, so that every callback knows
 * the line it came from; nothing of the file is held but the row being
 * read (and the rows csv_table_load keeps, one block each). */
#define CSV_READ_PIECE 4096

struct loader {
	const struct csv_rows *cb;
	const char *path;
	char *err;
	size_t errlen;
	int failed;		/* a callback failed, or a bound was passed; err is set */

	/* the row being read: its fields' text, each NUL-terminated, one after
	 * the other (off[] where each starts), and the pointers handed on */
	char *text;
	size_t tlen, tcap;
	size_t *off;
	size_t nf, fcap;
	char **ptrs;
	size_t pcap;
	char **header;		/* the first row, a block (make_block) */
	size_t ncols;

	unsigned long line;	/* line being fed to libcsv, from 1 */
	unsigned long row_line;	/* line the current row starts on */
	int last_term;		/* what ended the last row: '\r', '\n', -1 */
	int drop_unfinished;	/* CSV_DROP_UNFINISHED */
	int dropped;		/* an unfinished last row was left out */
	size_t since;		/* bytes fed since libcsv last gave a field or a row */
};

static void load_fail(struct loader *l, unsigned long line, const char *msg)
{
	if (l->failed)
		return;
	l->failed = 1;
	snprintf(l->err, l->errlen, "%s:%lu: %s", l->path, line, msg);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 16;
	while (c < need)
		c *= 2;
	void *n = realloc(*p, c * size);
	if (!n)
		return -1;
	*p = n;
	*cap = c;
	return 0;
}

/* The field being read is longer than a field may be. */
static void too_long(struct loader *l)
{
	char msg[224];

	snprintf(msg, sizeof(msg), "field %zu%s%.40s%s is longer than %d bytes (%d KiB, the most "
		 "a field of a run folder's file may hold)", l->nf + 1,
		 l->header && l->nf < l->ncols ? " (" : "",
		 l->header && l->nf < l->ncols ? l->header[l->nf] : "",
		 l->header && l->nf < l->ncols ? ")" : "", CSV_FIELD_MAX, CSV_FIELD_MAX / 1024);
	load_fail(l, l->row_line, msg);
}

static void on_field(void *s, size_t len, void *data)
{
	struct loader *l = data;
	char msg[224];

	l->since = 0;
	if (l->failed)
		return;
	if (len > CSV_FIELD_MAX) {
		too_long(l);
		return;
	}
	if (len && memchr(s, '\0', len)) {
		snprintf(msg, sizeof(msg), "field %zu%s%.40s%s holds a NUL byte: not text", l->nf + 1,
			 l->header && l->nf < l->ncols ? " (" : "",
			 l->header && l->nf < l->ncols ? l->header[l->nf] : "",
			 l->header && l->nf < l->ncols ? ")" : "");
		load_fail(l, l->row_line, msg);
		return;
	}
	if (l->nf >= CSV_MAX_FIELDS) {
		snprintf(msg, sizeof(msg), "more than %d fields in a row", CSV_MAX_FIELDS);
		load_fail(l, l->row_line, msg);
		return;
	}
	if (grow((void **)&l->off, &l->fcap, l->nf + 1, sizeof(*l->off)) < 0 ||
	    grow((void **)&l->text, &l->tcap, l->tlen + len + 1, 1) < 0) {
		load_fail(l, l->row_line, "out of memory");
		return;
	}
	l->off[l->nf++] = l->tlen;
	if (len)
		memcpy(l->text + l->tlen, s, len);
	l->text[l->tlen + len] = '\0';
	l->tlen += len + 1;
}

/* The row read, as one block: its pointers, then its text. */
static char **make_block(const struct loader *l)
{
	char **b = malloc(l->nf * sizeof(*b) + l->tlen + 1);

	if (!b)
		return NULL;
	char *text = (char *)(b + l->nf);
	memcpy(text, l->text, l->tlen);
	for (size_t i = 0; i < l->nf; i++)
		b[i] = text + l->off[i];
	return b;
}

static void clear_row(struct loader *l)
{
	l->nf = 0;
	l->tlen = 0;
}

/* A whole row read: the header kept, any other row checked against its
 * width and handed to the callback. */
static void take_row(struct loader *l)
{
	char msg[96];

	if (!l->header) {
		if (!(l->header = make_block(l))) {
			load_fail(l, l->row_line, "out of memory");
			return;
		}
		l->ncols = l->nf;
		if (l->cb->header && l->cb->header(l->cb->ctx, l->header, l->ncols, l->err,
						   l->errlen) < 0)
			l->failed = 1;
		return;
	}
	if (l->nf != l->ncols) {
		snprintf(msg, sizeof(msg), "row has %zu field%s, header has %zu",
			 l->nf, l->nf == 1 ? "" : "s", l->ncols);
		load_fail(l, l->row_line, msg);
		return;
	}
	if (grow((void **)&l->ptrs, &l->pcap, l->nf + 1, sizeof(*l->ptrs)) < 0) {
		load_fail(l, l->row_line, "out of memory");
		return;
	}
	for (size_t i = 0; i < l->nf; i++)
		l->ptrs[i] = l->text + l->off[i];
	if (l->cb->row && l->cb->row(l->cb->ctx, l->ptrs, l->row_line, l->err, l->errlen) < 0)
		l->failed = 1;
}

static void on_row(int c, void *data)
{
	struct loader *l = data;
	int prev = l->last_term;

	l->since = 0;
	if (l->failed)
		return;
	l->last_term = c;
	/* A row csv_fini() ends has no line end: an interrupted write cut it
	 * short (CSV_DROP_UNFINISHED). */
	if (c == -1 && l->drop_unfinished && l->header) {
		clear_row(l);
		l->dropped = 1;
		return;
	}
	/* An empty line (CSV_REPALL_NL) is a row in a one-column table; the
	 * LF of a CR LF pair is no row at all. */
	if (l->nf > 0 || (!(c == '\n' && prev == '\r') && l->header && l->ncols == 1)) {
		if (l->nf == 0)
			on_field("", 0, l);
		if (!l->failed)
			take_row(l);
	}
	clear_row(l);
	/* Lines are fed one at a time, so an LF ends the piece being parsed
	 * and the next row starts on the next line; a lone CR does not. */
	l->row_line = c == '\r' ? l->line : l->line + 1;
}

/* Feeds buf[0..len) to libcsv, a line at a time and in pieces of at most
 * CSV_READ_PIECE bytes.  0, or -1 with err set. */
static int feed(struct loader *l, struct csv_parser *p, const char *buf, size_t len)
{
	while (len > 0) {
		size_t most = len < CSV_READ_PIECE ? len : CSV_READ_PIECE;
		const char *nl = memchr(buf, '\n', most);
		size_t n = nl ? (size_t)(nl - buf) + 1 : most;

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
		/* libcsv holds a field until it ends: one past the bound is
		 * refused before it grows further (since counts at most a
		 * piece more than the field's bytes) */
		l->since += n;
		if (l->since > CSV_FIELD_MAX + 2 * CSV_READ_PIECE) {
			too_long(l);
			return -1;
		}
		if (nl)
			l->line++;
		buf += n;
		len -= n;
	}
	return 0;
}

/* What a file that is not a regular one is, for the message. */
static const char *file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a fifo" : S_ISDIR(m) ? "a folder" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* path opened for reading, without waiting on it: a fifo (or anything
 * but a regular file, a device that never ends, a folder) is refused
 * before a read could block, and so is a file above CSV_FILE_MAX.  The
 * descriptor (blocking again), or -1 with err. */
static int open_regular(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s, not a regular file: a run folder's files are "
			 "regular files", path, file_kind(st.st_mode));
	} else if (st.st_size > CSV_FILE_MAX) {
		snprintf(err, errlen, "%s: %lld bytes, more than the %s a run folder's file "
			 "may hold", path, (long long)st.st_size, CSV_FILE_MAX_TEXT);
	} else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	} else {
		return fd;
	}
	close(fd);
	return -1;
}

/* The file, read and fed in pieces; 0, or -1 with err. */
static int read_all(struct loader *l, struct csv_parser *p, int fd)
{
	char buf[65536];
	long long total = 0;

	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			load_fail(l, l->line, strerror(errno));
			return -1;
		}
		if (!got)
			return 0;
		total += got;
		if (total > CSV_FILE_MAX) {	/* it grew since it was opened */
			char msg[96];
			snprintf(msg, sizeof(msg), "the file goes on past %s, the most a run "
				 "folder's file may hold", CSV_FILE_MAX_TEXT);
			load_fail(l, l->line, msg);
			return -1;
		}
		if (feed(l, p, buf, (size_t)got) < 0)
			return -1;
	}
}

int csv_read(const char *path, int flags, const struct csv_rows *cb, int *dropped,
	     char *err, size_t errlen)
{
	struct loader l = {
		.cb = cb, .path = path, .err = err, .errlen = errlen,
		.line = 1, .row_line = 1, .last_term = -1,
		.drop_unfinished = flags & CSV_DROP_UNFINISHED,
	};
	struct csv_parser p;
	int ret = -1, fd;

	if (dropped)
		*dropped = 0;
	if ((fd = open_regular(path, err, errlen)) < 0)
		return -1;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL |
		     CSV_REPALL_NL) != 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return -1;
	}
	if (read_all(&l, &p, fd) < 0)
		goto out;
	/* Ends a last row that has no line end, or fails (CSV_STRICT_FINI) on
	 * a quoted field that was never closed.  With CSV_DROP_UNFINISHED
	 * either is a row an interrupted write cut short (a cut after a line
	 * end inside a quoted field too): it is left out. */
	if (csv_fini(&p, on_field, on_row, &l) != 0) {
		if (!l.drop_unfinished || !l.header) {
			load_fail(&l, l.row_line, "unterminated quoted field");
			goto out;
		}
		l.dropped = 1;
	}
	if (l.failed)
		goto out;
	if (!l.header) {
		load_fail(&l, 1, "empty file: no header row");
		goto out;
	}
	ret = 0;
	if (dropped)
		*dropped = l.dropped;
out:
	csv_free(&p);
	close(fd);
	free(l.text);
	free(l.off);
	free(l.ptrs);
	free(l.header);
	return ret;
}

/* csv_table_load: the header and every row kept, each a block of its
 * pointers and its text. */
struct table_load {
	struct csv_table *t;
	size_t cap;
	const char *path;
};

static char **copy_row(char **f, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += strlen(f[i]) + 1;
	char **row = malloc(n * sizeof(*row) + len + 1);
	if (!row)
		return NULL;
	char *text = (char *)(row + n);
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(f[i]) + 1;
		row[i] = memcpy(text, f[i], k);
		text += k;
	}
	return row;
}

static int table_header(void *ctx, char **f, size_t n, char *err, size_t errlen)
{
	struct table_load *tl = ctx;

	if (!(tl->t->header = copy_row(f, n))) {
		snprintf(err, errlen, "%s:1: out of memory", tl->path);
		return -1;
	}
	tl->t->ncols = n;
	return 0;
}

static int table_row(void *ctx, char **f, unsigned long line, char *err, size_t errlen)
{
	struct table_load *tl = ctx;
	struct csv_table *t = tl->t;
	char **row = NULL;

	if (t->nrows == tl->cap) {
		size_t cap = tl->cap ? 2 * tl->cap : 64;
		char ***rows = realloc(t->rows, cap * sizeof(*rows));
		unsigned long *lines = rows ? realloc(t->lines, cap * sizeof(*lines)) : NULL;
		if (rows)
			t->rows = rows;
		if (lines)
			t->lines = lines;
		if (!rows || !lines)
			goto oom;
		tl->cap = cap;
	}
	if (!(row = copy_row(f, t->ncols)))
		goto oom;
	t->lines[t->nrows] = line;
	t->rows[t->nrows++] = row;
	return 0;
oom:
	snprintf(err, errlen, "%s:%lu: out of memory", tl->path, line);
	return -1;
}

int csv_table_load(struct csv_table *t, const char *path, char *err, size_t errlen)
{
	return csv_table_load_opts(t, path, 0, NULL, err, errlen);
}

int csv_table_load_opts(struct csv_table *t, const char *path, int flags, int *dropped,
			char *err, size_t errlen)
{
	struct table_load tl = { .t = t, .path = path };
	const struct csv_rows cb = { .header = table_header, .row = table_row, .ctx = &tl };

	memset(t, 0, sizeof(*t));
	if (csv_read(path, flags, &cb, dropped, err, errlen) < 0) {
		csv_table_release(t);
		return -1;
	}
	return 0;
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
	for (size_t r = 0; r < t->nrows; r++)
		free(t->rows[r]);
	free(t->rows);
	free(t->lines);
	free(t->header);
	memset(t, 0, sizeof(*t));
}
