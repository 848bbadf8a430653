/*
 * resume: `matrix run --resume DIR`, an interrupted or killed run carried
 * on in its own folder.
 *
 * What runs is what the folder says ran: its matrix.yaml (which already
 * has any --set made in it, run.h), and from its meta.csv the --repeat
 * (`repetitions`, unless `repeat_auto`), the --only filters (`only`), the
 * shard of a --shard run (`shard`), the
 * order and the seed, so the rounds come out as they did and the missing
 * cell repetitions run in the order they would have.  The folder is
 * refused when its matrix.yaml is not the one the run started with (meta
 * `matrix_hash`), when another build of matrix made it (`tool_version`,
 * `git_revision`), and, in run.c, while a live run holds it (lock.h).
 *
 * Rows of results.csv are kept as they are, except those the run must do
 * again: an `interrupted` row, and a last row a kill cut short (with any
 * timeline.csv and hist.csv rows of what is done again, and rows there of
 * a repetition whose results row was never written).  Each file is then
 * rewritten without them, under a temporary name renamed over it, and
 * appended to.
 *
 * Call order: resume_args() (before the matrix is loaded), then in
 * run_plan resume_open(), the folder locked, resume_read(), resume_find()
 * for every cell repetition, resume_meta(), and resume_release().
 */
#ifndef MATRIX_RESUME_H
#define MATRIX_RESUME_H

#include <stddef.h>

#include "csvfile.h"
#include "meta.h"
#include "plan.h"

/* "fnv1a64:<16 hex digits>" of a file's bytes (meta.csv's matrix_hash),
 * into out; -1 (errno set) when it cannot be read. */
int resume_hash_file(const char *path, char *out, size_t len);

#define RESUME_MAX_ARGS 600

/* The arguments of `matrix run` that reproduce DIR's run. */
struct resume_args {
	int argc;
	char *argv[RESUME_MAX_ARGS];
	char buf[8192];
};

/* Reads DIR/meta.csv and fills a with "run --order ... [--seed N]
 * [--repeat N] [--only K=V ...] [--shard K/N] DIR/matrix.yaml", for the
 * caller to parse as the user's own flags.  given: the user also gave a
 * FILE or a flag the folder decides (-o, --repeat, --only, --set, --order,
 * --seed, --shard).  -1 after
 * printing why on stderr: given, not a run folder, another build of
 * matrix, a changed matrix.yaml (a finished run is not checked: nothing
 * of it runs). */
int resume_args(struct resume_args *a, const char *dir, int given);
/* The folder --resume ARG names, with a link as its last part (`latest`)
 * read once, so a run that moves the link meanwhile cannot send the rest
 * of this one into its own folder.  ARG itself when it is no link (or one
 * that cannot be read, for the error to name); static storage. */
const char *resume_folder(const char *arg);

/* A cell repetition the folder holds a row of, kept. */
struct resume_row {
	size_t ci;			/* index into the plan's cells */
	unsigned rep;
	unsigned long line;		/* its line in results.csv */
	unsigned char ok, skipped, stop;	/* status ok; skipped: ...; repeat_stop set */
	double msgs_per_s, wall_s;
};

struct resume {
	struct csv_table meta;		/* the folder's meta.csv as it was */
	struct resume_row *rows;	/* sorted by ci, then rep */
	size_t nrows;
	unsigned failed, skipped;	/* among rows */
	double wall_s;			/* their sum */
	size_t dropped;			/* rows dropped to run again */
};

/* Reads DIR/meta.csv.  0; 1 when the run finished (status ok or failed
 * repetitions: nothing of it runs again, and nothing is touched); -1 with
 * err. */
int resume_open(struct resume *r, const char *dir, char *err, size_t errlen);

/* With DIR locked by the caller, reads it again, and against pl.  0: rows
 * holds what is done, results.csv, timeline.csv and hist.csv keep only
 * that; 1: the run finished since resume_open; -1 with err: another matrix.yaml or
 * build, not a folder of this plan (a row of a cell or repetition it has
 * not, twice the same one, other columns), or a file cannot be read or
 * rewritten (the folder is as it was). */
int resume_read(struct resume *r, const char *dir, const struct plan *pl, char *err,
		size_t errlen);

/* The kept row of cell index ci's repetition rep, or NULL: it runs. */
const struct resume_row *resume_find(const struct resume *r, size_t ci, unsigned rep);

/* Puts back into m, a fresh run's meta.csv, the facts of the run as it
 * started (start_utc, command_line, set, only, matrix_file, matrix_hash)
 * and adds now to
 * resumed_utc.  m keeps pointers into r. */
void resume_meta(const struct resume *r, struct meta *m);

/* Reads DIR/meta.csv (into r, as resume_open): 1 when its run ended
 * whole but its reports were not (status `reporting`, run.h, with
 * run_status ok or some repetitions failed: its runner was killed while it
 * wrote them, or is still writing them), 0 when not, -1 with err. */
int resume_reports_only(struct resume *r, const char *dir, char *err, size_t errlen);

/* Every fact of the folder's meta.csv into m, then resume_meta's
 * resumed_utc; m keeps pointers into r. */
void resume_meta_all(const struct resume *r, struct meta *m);

/* A fact of the folder's meta.csv, "" when absent. */
const char *resume_fact(const struct resume *r, const char *key);

/* The folder's status in meta.csv, "" when none. */
const char *resume_status(const struct resume *r);

void resume_release(struct resume *r);

#endif
