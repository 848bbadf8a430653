/* A stream sender's CPU per interval: see txcpu.h. */
#include "txcpu.h"
#include "clock.h"

#include <string.h>

static struct timespec ns_timespec(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	return ts;
}

/* Reads the sender's clock at every interval's close (the count of
 * nothing in the interval it is now: timeline.h reads the CPU clock when
 * the interval changes), until stopped; then once more, at the stop. */
static void *txcpu_main(void *arg)
{
	struct txcpu *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		uint64_t now = clock_now_ns();
		timeline_count(&s->tl, s->interval_ns, now, s->t0_ns, 0, 0);
		uint64_t next = s->t0_ns + (timeline_index(now, s->t0_ns, s->tl.interval_ns) + 1) *
				s->tl.interval_ns;
		struct timespec at = ns_timespec(next);
		pthread_cond_timedwait(&s->wake, &s->lock, &at);
	}
	/* the stop's time, not the wake-up's (late on a loaded machine) */
	timeline_count(&s->tl, s->interval_ns, s->stop_ns, s->t0_ns, 0, 0);
	timeline_cpu_close(&s->tl);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int txcpu_start(struct txcpu *s, uint64_t interval_ns, uint64_t t0_ns)
{
	pthread_condattr_t ca;

	memset(s, 0, sizeof(*s));
	s->t0_ns = t0_ns;
	s->interval_ns = interval_ns;
	if (pthread_getcpuclockid(pthread_self(), &s->clock) != 0)
		return -1;
	s->tl.cpu_clock = timeline_thread_cpu_ns;
	s->tl.cpu_ctx = &s->clock;
	if (pthread_condattr_init(&ca) != 0)
		return -1;
	int bad = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) != 0 ||
		  pthread_cond_init(&s->wake, &ca) != 0;
	pthread_condattr_destroy(&ca);
	if (bad)
		return -1;
	pthread_mutex_init(&s->lock, NULL);
	if (pthread_create(&s->thread, NULL, txcpu_main, s) != 0) {
		pthread_cond_destroy(&s->wake);
		pthread_mutex_destroy(&s->lock);
		return -1;
	}
	s->started = 1;
	return 0;
}

void txcpu_stop(struct txcpu *s)
{
	if (!s->started)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop_ns = clock_now_ns();
	s->stop = 1;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	s->started = 0;
}
