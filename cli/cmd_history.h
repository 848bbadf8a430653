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

int cmd_history(int argc, char **argv);

#endif
