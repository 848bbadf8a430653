/*
 * cmd_guard: what a command reads and writes, so that a file it is told
 * to write (--export-json FILE, the files of -o DIR) is never one of
 * them: a JSON document renamed over results.csv replaces the
 * measurements.  One check for every command (run, report, compare,
 * history, merge), on real paths (realpath of FILE, or of its deepest
 * folder that exists with the rest after it), so that a link to the file,
 * a linked folder or `..` reaches the same answer.  (Its own file, not
 * cmd_common.c: compare and history use it, and cmd_common uses compare.)
 *
 * A folder is guarded as CMD_READS (a run folder read: matrix.yaml,
 * meta.csv, results.csv, timeline.csv, hist.csv, .lock, anything in
 * logs/) and CMD_WRITES (its reports too: summary.csv, ratios.csv,
 * summary.md, report.html, ab.*, compare.*, history.*, anything in
 * plots/); look2/ in it (a second look, itself a run folder) is guarded
 * as the folder is.  CMD_RUNS_IN: the folder holds the run folder that is
 * not made yet (results/NAME/ of a stamped run: any folder in it, and its
 * `latest`).
 */
#ifndef MATRIX_CMD_GUARD_H
#define MATRIX_CMD_GUARD_H

#include <stddef.h>

#define CMD_READS 1
#define CMD_WRITES 2
#define CMD_RUNS_IN 4

struct cmd_guard {
	const char *cmd;		/* "report": messages say `matrix report: ...` */
	const char *matrix;		/* the matrix file, or NULL */
	struct cmd_guarded {
		const char *dir;
		int how;
	} *dirs;
	size_t n, cap;
};

/* Adds dir with how (CMD_READS, CMD_WRITES, CMD_RUNS_IN or'd); -1 out of
 * memory (said). */
int cmd_guard_add(struct cmd_guard *g, const char *dir, int how);
void cmd_guard_release(struct cmd_guard *g);

/* FILE given with flag (--export-json): -1 after `matrix CMD: FLAG FILE:
 * that is NAME of the run folder DIR, which CMD reads or writes: choose
 * another file` (or the matrix file), 0 when it is none of them. */
int cmd_guard_check(const struct cmd_guard *g, const char *flag, const char *path);

/* -o DIR: each of names (NULL-terminated, relative to dir: "compare.csv",
 * "plots/compare.svg") that the command writes there checked as
 * cmd_guard_check does; -1 after saying which, naming the flag and dir. */
int cmd_guard_check_dir(const struct cmd_guard *g, const char *flag, const char *dir,
			const char *const *names);

/* dir/plots, dir/look2 and dir/look2/plots, where a command writes charts
 * and removes old ones: each absent or a folder of dir's own, never a
 * symbolic link to one elsewhere (outfile_own_dir).  -1 after `matrix
 * CMD: DIR/plots: a symbolic link: refused ...`. */
int cmd_check_own_dirs(const char *cmd, const char *dir);

#endif
