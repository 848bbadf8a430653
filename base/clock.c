/* The monotonic clock and CPU time: see clock.h. */
#include "clock.h"

#include <time.h>

uint64_t clock_resolution_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts) < 0)
		return 1000;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t clock_rusage_ns(const struct rusage *ru)
{
	return ((uint64_t)ru->ru_utime.tv_sec + (uint64_t)ru->ru_stime.tv_sec) * 1000000000ull +
	       ((uint64_t)ru->ru_utime.tv_usec + (uint64_t)ru->ru_stime.tv_usec) * 1000ull;
}

uint64_t clock_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return clock_rusage_ns(&ru);
}

void clock_spin(uint64_t ns)
{
	if (!ns)
		return;
	uint64_t end = clock_now_ns() + ns;
	while (clock_now_ns() < end)
		;
}
