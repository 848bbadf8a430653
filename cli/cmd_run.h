/*
 * cmd_run: `matrix run`: the plan run (run.c), its report (cmd_report.c),
 * then what the run was asked to judge: a baseline, an in-run A/B, and a
 * second look at what regressed.
 */
#ifndef MATRIX_CMD_RUN_H
#define MATRIX_CMD_RUN_H

/* `matrix run ARGS`; full_argv is the whole command line, for meta.csv.
 * Its exit status. */
int cmd_run(int argc, char **argv, int full_argc, char **full_argv);

#endif
