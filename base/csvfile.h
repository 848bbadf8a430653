/*
 * csv: every CSV file matrix writes or reads goes through here, and through
 * libcsv underneath (csv_fwrite for quoting, csv_parse for reading).
 *
 * Writing: a field that needs quoting (comma, quote, CR, LF, leading or
 * trailing space) is written quoted by libcsv; any other field is written
 * as is, so numbers stay bare for gnuplot and awk.  A NaN number is an empty
 * field.  Two kinds of writer:
 *   csv_out_open()    a file that grows row by row (results.csv): each
 *                     csv_out_end_row() ends the row with "\n" and flushes
 *                     it to the kernel, so a killed run keeps every
 *                     finished row; a row that cannot be written whole is
 *                     cut off again, so the rows before it stay intact.
 *   csv_out_create()  a file written whole or not at all (summary.csv,
 *                     meta.csv): it is written under a temporary name
 *                     (outfile.h) that csv_out_close() renames when every
 *                     write succeeded, and removes when one failed.
 * The first failure is remembered until csv_out_close(): every later
 * csv_out_end_row() and csv_out_close() report it (-1, errno set to it),
 * so a caller that checks only the close still learns of it.
 *
 * Reading: a run folder's file may come from anywhere, so it is read as
 * untrusted input.  csv_read() hands on one row at a time (first row =
 * header; every row must have as many fields as the header), holding
 * nothing of the file but that row; csv_table_load() keeps every row
 * (each in one block: its pointers, then its text).  Refused, with
 * "PATH:LINE: message" or "PATH: message": anything but a regular file
 * (a fifo, a device such as /dev/zero, a folder: opened without waiting,
 * O_NONBLOCK, and checked before a byte is read), a file above
 * CSV_FILE_MAX, a field above CSV_FIELD_MAX (found before libcsv holds
 * more of it), a row of more than CSV_MAX_FIELDS fields, and a field with
 * a NUL byte in it ("8\0" is not the text 8).
 */
#ifndef MATRIX_CSVFILE_H
#define MATRIX_CSVFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "outfile.h"

struct csv_out {
	FILE *f;
	int nfields;		/* fields written in the current row */
	int failed;		/* errno of the first write that failed; kept */
	int whole;		/* csv_out_create: out holds the temporary file */
	off_t good;		/* csv_out_open: size after the last whole row */
	struct outfile out;
};

/* Opens path for writing ("w") or appending ("a"), a row at a time.  -1
 * with err ("PATH: reason") on failure. */
int csv_out_open(struct csv_out *w, const char *path, const char *mode,
		 char *err, size_t errlen);
/* Creates path anew, whole or not at all (above).  -1 with err. */
int csv_out_create(struct csv_out *w, const char *path, char *err, size_t errlen);
void csv_out_field(struct csv_out *w, const char *s);	/* NULL = empty */
/* User text in a CSV meant for people (a ratio's name, a label): a field
 * that starts with = + - @ or a tab or CR gets a leading ' so that a
 * spreadsheet shows it instead of evaluating it (at most 1023 bytes). */
void csv_out_text(struct csv_out *w, const char *s);
/* s as csv_out_text writes it (into buf when it changes), for whoever
 * reads that field back and matches it. */
const char *csv_text_as_written(const char *s, char *buf, size_t len);
void csv_out_fieldf(struct csv_out *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void csv_out_u64(struct csv_out *w, unsigned long long v);
/* %.*g-style with `digits` significant digits; NaN or inf: empty field. */
void csv_out_double(struct csv_out *w, double v, int digits);
/* Ends the row (and flushes it, csv_out_open); -1 (errno set) if anything
 * in it or before it failed. */
int csv_out_end_row(struct csv_out *w);
/* csv_out_open: cuts the file back to `at`, a w->good it had (rows that
 * belong together go when one of them fails; the failure stays). */
void csv_out_cut_to(struct csv_out *w, off_t at);
/* Closes (csv_out_create: renames into place); -1 with errno set when a
 * write, the flush, the sync, the close or the rename failed (the
 * temporary file is then removed).  Safe to call twice. */
int csv_out_close(struct csv_out *w);

#define CSV_FIELD_MAX (64 * 1024)		/* bytes in a field */
#define CSV_FILE_MAX (1024LL * 1024 * 1024)	/* bytes in a file */
#define CSV_FILE_MAX_TEXT "1 GiB"
#define CSV_MAX_FIELDS 4096			/* fields in a row */

/* With CSV_DROP_UNFINISHED, a last row without its line end, or one that
 * stops inside a quoted field (a row an interrupted write cut short,
 * wherever the cut fell), is left out, and *dropped says so. */
#define CSV_DROP_UNFINISHED 1

/* What csv_read hands each row to: header() gets the first row, row()
 * every other, with the line it starts on (1-based).  The fields live
 * until the call returns.  Each returns 0 to go on, or -1 with its own
 * message in err to stop the reading (csv_read then returns -1). */
struct csv_rows {
	int (*header)(void *ctx, char **fields, size_t n, char *err, size_t errlen);
	int (*row)(void *ctx, char **fields, unsigned long line, char *err, size_t errlen);
	void *ctx;
};
/* Reads path a row at a time (above).  0, or -1 with err. */
int csv_read(const char *path, int flags, const struct csv_rows *cb, int *dropped,
	     char *err, size_t errlen);

struct csv_table {
	char **header;
	size_t ncols;
	char ***rows;		/* rows[r][c], NUL-terminated strings */
	unsigned long *lines;	/* lines[r]: the line row r starts on */
	size_t nrows;
};

/* The whole file in memory; -1 with "PATH:LINE: message" in err on I/O or
 * parse error, a row of the wrong width or a bound passed (above). */
int csv_table_load(struct csv_table *t, const char *path, char *err, size_t errlen);
/* As csv_table_load, with csv_read's flags. */
int csv_table_load_opts(struct csv_table *t, const char *path, int flags, int *dropped,
			char *err, size_t errlen);
int csv_table_col(const struct csv_table *t, const char *name);	/* -1 if absent */
void csv_table_release(struct csv_table *t);

#endif
