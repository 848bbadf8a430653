/* A paced client's schedule and its wait: see pace.h. */
#include "pace.h"
#include "clock.h"

#include <errno.h>
#include <sys/prctl.h>
#include <time.h>

void pace_setup(void)
{
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

uint64_t pace_due(const struct pace *p, uint64_t i)
{
	__extension__ typedef unsigned __int128 u128;

	if (!p->rate)
		return p->start_ns;
	return p->start_ns + (uint64_t)((u128)i * 1000000000u / p->rate);
}

uint64_t pace_wait(const struct pace *p, uint64_t i)
{
	uint64_t due = pace_due(p, i);

	if (p->busy) {
		while (clock_now_ns() < due)
			;
		return due;
	}
	struct timespec ts = { .tv_sec = (time_t)(due / 1000000000u),
			       .tv_nsec = (long)(due % 1000000000u) };
	while (clock_now_ns() < due &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return due;
}
