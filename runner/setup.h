/*
 * setup: the `setup:` and `teardown:` steps of programs (matrix
 * `programs:`, README "Bring your own programs"): a program's setup runs
 * once, before the first cell repetition that uses it (as server or
 * client); its teardown once at the end of the run, for every program that
 * was used (whose setup ran, failed or not; or, without setup, that a cell
 * repetition started), after an interrupt too.
 *
 *   setup_init      before the run folder is made: nothing run yet
 *   setup_cell      before each cell repetition: the setup of its programs
 *                   that have not had one
 *   setup_teardown  after the last cell, before the private folder goes
 *   setup_release
 *
 * A step runs like a program (spawn.h SPAWN_PROGRAM: PATH lookup, never a
 * shell): in the runner's working directory, stdin /dev/null, {tmp} the
 * run's private folder, in a process group of its own that is killed whole
 * when the step ends (and by the guard if the runner dies).  Its output
 * goes to logs/setup-NAME.log (teardown-NAME.log), every step of the
 * program into one file, each after a line "$ WORDS" (its words as run),
 * capped as a program's log is (outlog.h); a resumed run whose folder has
 * that file already writes setup-NAME.log.2 (then .3, ...) beside it.
 * Each step has setup_step_timeout(): SIGTERM to its group then, SIGKILL a
 * second later.
 * A step that fails (exit status, signal, missing command, timeout) ends
 * the program's setup: its remaining steps do not run.  An interrupt kills
 * a setup step; a teardown step is killed by a signal that comes while the
 * teardowns run (a second Ctrl-C), and the teardowns left are skipped.
 */
#ifndef MATRIX_SETUP_H
#define MATRIX_SETUP_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cell.h"
#include "plan.h"
#include "progress.h"

/* The time a step may take: 10 minutes, or the matrix's timeout if
 * larger; MATRIX_SETUP_TIMEOUT in the environment (a duration: 30s, 2m)
 * overrides both. */
#define SETUP_STEP_TIMEOUT_NS (600ull * 1000000000ull)

enum setup_state { SETUP_NOT_YET, SETUP_OK, SETUP_FAILED };

struct setups {
	const struct matrix *m;
	const char *logdir, *tmp;	/* logs/ and {tmp}: the caller's strings */
	volatile sig_atomic_t *interrupted;	/* a signal came: setup steps stop */
	volatile sig_atomic_t *signals;		/* signals so far: a new one stops a teardown */
	sig_atomic_t sig0;			/* signals when the teardowns began */
	struct progress *prog;			/* says what runs (not with --quiet) */
	uint64_t timeout_ns;
	unsigned char *state;		/* per program of m: enum setup_state */
	unsigned char *used;		/* per program: its teardown is due */
	char (*why)[768];		/* per program: why its setup failed */
	char (*log)[PATH_MAX];		/* per program: its setup's log (a resumed run
					 * numbers a new one: setup-NAME.log.2) */
};

/* The step time limit for m into su, nothing run; MATRIX_SETUP_TIMEOUT is
 * read only when a program of m has steps.  0, or -1 with
 * "MATRIX_SETUP_TIMEOUT=...: reason (the environment's ...)" in err. */
int setup_init(struct setups *su, const struct matrix *m, char *err, size_t errlen);

/* Before a repetition of cell c: runs the setup of each of its programs
 * not set up yet (its server's first).  0 when each has been set up; 1
 * when one's setup failed, now or before: the row's error in err ("setup
 * of program NAME failed: step 2 of 3 (WORDS): exit 1; log:
 * logs/setup-NAME.log"), and in log the log's path when the setup failed
 * just now (for the console to show its tail once), else ""; -1 when
 * interrupted (no row: the repetition did not start). */
int setup_cell(struct setups *su, const struct cell *c, char *err, size_t errlen, char *log,
	       size_t loglen);

/* The teardown steps of every program used, in the order of programs:.
 * Each failure is said on stderr and listed in summary ("NAME: step 1 of 1
 * (WORDS): exit 1; log: logs/teardown-NAME.log", separated by "; "); ""
 * when there was none to run.  Returns how many failed. */
unsigned setup_teardown(struct setups *su, char *summary, size_t len);

void setup_release(struct setups *su);

/* `matrix plan`: the steps of the programs pl's cells use, under a line
 * saying each step's time limit; nothing when none has any.  0, or -1
 * with a bad MATRIX_SETUP_TIMEOUT in err. */
int setup_print_plan(const struct plan *pl, FILE *f, char *err, size_t errlen);

/* A step's words as a person reads them, shell-quoted where needed:
 * go build -o '{tmp}/my srv' srv.go */
void setup_format_words(char *const *words, size_t n, char *buf, size_t len);

#endif
