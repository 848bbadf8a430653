/* One repetition's state and the failure it records: see cell_rep.h. */
#include "cell_rep.h"

#include <stdarg.h>
#include <stdio.h>

void cell_rep_fail(struct cell_rep *r, const struct cell_slot *s, int rank, const char *status,
		   const char *fmt, ...)
{
	va_list ap;

	if (rank <= r->fail_rank)
		return;
	r->fail_rank = rank;
	snprintf(r->out->log, sizeof(r->out->log), "%s", s ? s->log : "");
	snprintf(r->out->status, sizeof(r->out->status), "%s", status);
	va_start(ap, fmt);
	vsnprintf(r->out->error, sizeof(r->out->error), fmt, ap);
	va_end(ap);
}
