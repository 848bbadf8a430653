/*
 * outfile: a file written whole or not at all (summary.csv, summary.md,
 * meta.csv, a chart script or image, ...).
 *
 * outfile_open() creates a temporary file in PATH's own folder, named
 * .NAME.PID.tmp (hidden, and unique to this process), and gives its FILE;
 * write it with stdio, then outfile_commit() flushes it, checks every
 * write stdio made (a failed fprintf anywhere earlier counts), syncs it to
 * the disk and renames it over PATH.  A reader never sees a PATH that is
 * empty or cut short: on any failure the temporary file is removed and
 * PATH is left as it was.  outfile_abort() gives up and removes it too.
 *
 * Every function returning int returns 0, or -1 with errno set and
 * "PATH: reason" (PATH the final name) in err.
 */
#ifndef MATRIX_OUTFILE_H
#define MATRIX_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;		/* NULL when closed */
	char path[4096];
	char tmp[4160];
};

int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen);
/* Closes and renames; o->f is NULL afterwards either way. */
int outfile_commit(struct outfile *o, char *err, size_t errlen);
/* Closes and removes the temporary file (nothing when closed). */
void outfile_abort(struct outfile *o);

/* The temporary name outfile_open() uses for path (.NAME.PID.tmp in its
 * folder), with .EXT after it when ext is set (gnuplot picks its terminal
 * by the output's extension). */
void outfile_tmp_name(const char *path, const char *ext, char *buf, size_t len);

/* For a file another program wrote under a temporary name: syncs tmp to
 * the disk and renames it to path; on failure removes tmp. */
int outfile_sync_rename(const char *tmp, const char *path, char *err, size_t errlen);

/* Copies the file at from, byte for byte, to a new file to (which must not
 * exist): a run folder's matrix.yaml, a merged folder's logs.  0, or -1
 * with errno set (EEXIST when to exists) and "copy FROM to TO: reason" in
 * err; a copy cut short is not removed. */
int outfile_copy_new(const char *from, const char *to, char *err, size_t errlen);

#endif
