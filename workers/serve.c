/* What every pattern's server loop shares: see serve.h. */
#include "serve.h"
#include "clock.h"

uint64_t serve_t0(struct server *s, uint64_t now)
{
	uint64_t t0 = atomic_load(&s->t0);

	if (!t0 && atomic_compare_exchange_strong(&s->t0, &t0, now))
		return now;
	return t0 ? t0 : atomic_load(&s->t0);
}

int serve_lossy_quiet(const struct server *s, uint64_t last_rx)
{
	uint64_t limit = 10 * s->o->loss_timeout_ns, now = clock_now_ns();
	uint64_t t0 = atomic_load(&s->t0);

	if (limit < 1000000000ull)
		limit = 1000000000ull;
	return t0 && now - (last_rx > t0 ? last_rx : t0) > limit;
}
