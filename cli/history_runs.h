/*
 * history_runs: the run folders `matrix history` and `matrix compare
 * --history` read, found and loaded alike.
 */
#ifndef MATRIX_HISTORY_RUNS_H
#define MATRIX_HISTORY_RUNS_H

#include <stddef.h>

struct report;

/* The run folders of a history, loaded: those in DIR when it is the one
 * argument and no run folder itself (parent set), else the arguments,
 * each a run folder (the same folder twice counts once); `matrix history`
 * and `matrix compare --history` read them alike. */
struct history_runs {
	struct report *runs;
	size_t n;
	int parent;
};
/* 0, or -1 after a message "matrix CMD: FLAGPATH: why" (flag "" or
 * "--history ", so that the message names the flag); hr must be released
 * either way. */
int cmd_history_load(const char *cmd, const char *flag, int argc, char *const *argv,
		     struct history_runs *hr);
void cmd_history_release(struct history_runs *hr);

#endif
