/* The run's signals: see run_signal.h. */
#include "run_signal.h"
#include "arrays.h"
#include "spawn.h"

#include <stddef.h>

volatile sig_atomic_t run_interrupted, run_signals;

static void on_signal(int sig)
{
	run_interrupted = sig;
	run_signals++;	/* a second one stops the teardowns */
}

void run_signal_install(void)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART: poll wakes */

	sigemptyset(&sa.sa_mask);
	/* a signal ignored at start stays ignored, here and in every worker:
	 * nohup's SIGHUP, a background job's SIGINT (SIGTERM is how the runner
	 * stops its workers: it is always caught) */
	const int sigs[] = { SIGINT, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		struct sigaction old;
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			spawn_keep_ignored(sigs[i]);
		else if (sigs[i] != SIGQUIT)
			sigaction(sigs[i], &sa, NULL);
	}
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
