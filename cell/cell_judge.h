/*
 * cell_judge: what a repetition's workers say and how they end, judged
 * (cell.h, step 4): each report line applied to the worker's result
 * (wire.h), an error line or a protocol error made a failure, our
 * server's `listen` line starting the clients; each reaped worker's exit
 * (a crash, a non-zero exit, a failed ssh) made a failure, and a
 * program's figures read from its output (program.h).
 */
#ifndef MATRIX_CELL_JUDGE_H
#define MATRIX_CELL_JUDGE_H

#include "cell_rep.h"

/* Reads what s's report pipe holds, line by line, and closes the pipe at
 * its end of file or on an error. */
void cell_judge_reports(struct cell_rep *r, struct cell_slot *s);
/* Judges a reaped worker, after reading what it wrote before it died. */
void cell_judge_exit(struct cell_rep *r, struct cell_slot *s);
/* After the loop: a program server that exited 0 while its clients ran
 * is fine if they all succeeded (a server of one connection), else the
 * cause of their failure. */
void cell_judge_server_quit(struct cell_rep *r);

#endif
