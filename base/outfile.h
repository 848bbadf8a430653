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
 * Never through a link: the temporary file is created with O_EXCL and
 * O_NOFOLLOW (a file or a link already at its name is removed, never
 * followed), and rename() replaces a link at PATH itself, never the file
 * it points to.  A run folder may come from anywhere (a CI artifact,
 * a shared results tree), so its links are nobody's promise.
 *
 * PATH "-" (OUTFILE_STDOUT) is stdout: written as it comes, flushed and
 * checked by outfile_commit(), never closed (what was written before a
 * failure is out).
 *
 * Every function returning int returns 0, or -1 with errno set and
 * "PATH: reason" (PATH the final name) in err.
 */
#ifndef MATRIX_OUTFILE_H
#define MATRIX_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#define OUTFILE_STDOUT "-"

struct outfile {
	FILE *f;		/* NULL when closed */
	char path[4096];
	char tmp[4160];		/* "" for stdout */
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

/* Creates tmp anew, empty, for another program to write (gnuplot's
 * images and log): a regular file or a link left at that name (a writer
 * of this pid that died, a planted link) is removed first, never
 * followed; anything else there is refused.  O_EXCL and O_NOFOLLOW, so
 * nothing is ever created through a link.  0, or -1 with errno and "TMP:
 * reason" in err. */
int outfile_tmp_create(const char *tmp, char *err, size_t errlen);

/* Removes path when it is a regular file or a symbolic link (the link
 * itself: unlink never follows one, so what it points to is untouched; a
 * link left at a chart's name would be drawn or embedded later); a
 * folder, a FIFO or a device is left alone (-1, errno EISDIR).  0 when
 * removed or absent. */
int outfile_remove(const char *path);

/* A folder the tool writes its own files into (a run folder's plots/):
 * with make, made when missing.  It must be a directory, not a symbolic
 * link (whose files elsewhere the writer would replace and remove): -1
 * with errno (ELOOP, ENOTDIR) and "PATH: a symbolic link: ..." or "PATH:
 * not a directory" in err.  0 when it is one (or, without make, absent). */
int outfile_own_dir(const char *path, int make, char *err, size_t errlen);

/* "a symbolic link (not followed)" for ELOOP (what O_NOFOLLOW gives a
 * link), else strerror(e): the reason an open of a run folder's file
 * failed, as a person reads it. */
const char *outfile_strerror(int e);

/* For a file another program wrote under a temporary name: syncs tmp to
 * the disk and renames it to path; on failure removes tmp. */
int outfile_sync_rename(const char *tmp, const char *path, char *err, size_t errlen);

/* Copies the file at from, byte for byte, to a new file to (which must not
 * exist): a run folder's matrix.yaml, a merged folder's logs.  0, or -1
 * with errno set (EEXIST when to exists) and "copy FROM to TO: reason" in
 * err; a copy cut short is not removed. */
int outfile_copy_new(const char *from, const char *to, char *err, size_t errlen);

#endif
