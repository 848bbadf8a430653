/* A worker's reports of failure and its wait for the start signal: the two
 * descriptors to the runner (see options.h, and wire.h for the lines). */
#include "options.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A failure: on the wire for the runner, on stderr for a person. */
int worker_fail(const struct wopts *o, const char *stage, const char *msg)
{
	if (o->human)
		fprintf(stderr, "matrix worker %s: %s\n",
			o->role == ROLE_SERVER ? "server" : "client", msg);
	else
		wire_write_error(o->report_fd, stage, msg);
	return 1;
}

int worker_failf(const struct wopts *o, const char *stage, const char *what)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(errno));
	return worker_fail(o, stage, msg);
}

/* Waits for the runner's start byte; -1 when the runner is gone. */
int worker_wait_start(int fd)
{
	char c;
	ssize_t n;

	if (fd < 0)
		return 0;
	/* poll first: one write wakes every poller at once, where readers
	 * blocked in read() would be woken one after another */
	struct pollfd p = { .fd = fd, .events = POLLIN };
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return (n == 1 && c == 'g') ? 0 : -1;
}
