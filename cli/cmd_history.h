/*
 * cmd_history: `matrix history DIR` (results/NAME/, whose run folders it
 * reads) or `matrix history RUN_DIR...` (the run folders listed): reads
 * the options, finds and loads the run folders, and has gate/history.h
 * order, group and judge them and write history.csv, history.md and
 * plots/history.gp, then renders the chart.  Exit status: 0, or 2 on bad
 * input (no run folder found, a folder that cannot be read) or when a file
 * cannot be written; a chart that fails to render is said, and changes
 * nothing.
 */
#ifndef MATRIX_CMD_HISTORY_H
#define MATRIX_CMD_HISTORY_H

#include <stddef.h>

struct report;

int cmd_history(int argc, char **argv);

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
