/*
 * run_signal: the signals that interrupt a run.  SIGINT, SIGHUP and
 * SIGTERM are caught, without SA_RESTART (a poll wakes to them); SIGQUIT
 * and any of these that was ignored at start stay as they were, here and
 * in every worker (spawn_keep_ignored); SIGPIPE is ignored.  A caught
 * signal is only counted: the loops look at run_interrupted and stop.
 */
#ifndef MATRIX_RUN_SIGNAL_H
#define MATRIX_RUN_SIGNAL_H

#include <signal.h>

/* The last caught signal's number, 0 while none came; how many came (a
 * second one stops the teardowns: setup.h). */
extern volatile sig_atomic_t run_interrupted, run_signals;

/* Installs the handlers; once, before the run folder is made. */
void run_signal_install(void);

#endif
