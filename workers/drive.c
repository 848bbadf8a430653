/* What every pattern's client loop shares: see drive.h. */
#include "drive.h"
#include "clock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int drive_error(struct client *cl, const char *stage, const char *what)
{
	snprintf(cl->err, sizeof(cl->err), "%s %s: %s", what, cl->c.peer,
		 errno == EPROTO ? "connection closed inside a message" :
		 errno == 0 ? "connection closed by the server" : strerror(errno));
	cl->stage = stage;
	return -1;
}

uint64_t drive_window_start(struct client *cl)
{
	cl->start_ns = cl->pace.start_ns = clock_now_ns();
	return cl->start_ns;
}
