/*
 * run_open: a run's start and its end.  run_open: everything before the
 * first cell (our own executable, the remote hosts, TMPDIR and the
 * private socket folder, the guard, the run folder new or resumed, its
 * matrix.yaml, meta.csv and results.csv, the ssh masters); run_close:
 * everything after the last cell (the teardowns, nothing left running or
 * on disk, results.csv closed, meta.csv final, the last words on stderr).
 */
#ifndef MATRIX_RUN_OPEN_H
#define MATRIX_RUN_OPEN_H

#include <stddef.h>

#include "run.h"
#include "run_state.h"

/* Everything before the first cell: our own executable, the private
 * socket folder, then the run folder, new (run_folder.h) or resumed
 * (resume.h).  Nothing is made before every check has passed, and a
 * start that fails removes what it made.  0; 1: a resumed run had
 * finished; -1 with err. */
int run_open(struct run_state *s, const struct run_opts *o, char *err, size_t errlen);
/* Everything after the last cell: nothing left running or on disk,
 * results.csv closed, meta.csv final (s->end_status; `reporting` when
 * s->reports: run.h), the last words on stderr.  Returns run_plan's exit
 * status. */
int run_close(struct run_state *s, char *err, size_t errlen);

#endif
