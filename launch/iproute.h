/*
 * iproute: iproute2's ip and tc, run for topology: netns (netns.h,
 * netem.h) by fork+exec (posix_spawnp, an argv, no shell), their stdout to
 * /dev/null and their stderr kept for the message when they fail.
 */
#ifndef MATRIX_IPROUTE_H
#define MATRIX_IPROUTE_H

#include <stddef.h>

/* `PROG ARGS...` (ARGS NULL-terminated, at most 30) run to its end: 0, or
 * -1 with "PROG ARGS: its stderr" in err ("PROG ARGS: PROG not found:
 * topology: netns needs iproute2 ..." when there is no PROG). */
int iproute_run(const char *prog, const char *const *args, char *err, size_t errlen);

#endif
