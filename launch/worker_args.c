/* The workers' command lines: see worker_args.h. */
#include "worker_args.h"

void worker_args_common(struct spawn_argv *a, const char *self_exe,
			const struct cell_params *p, uint64_t warmup, uint64_t timeout_ns,
			const char *role)
{
	spawn_argv_add(a, "%s", self_exe);
	spawn_argv_add(a, "worker");
	spawn_argv_add(a, "%s", role);
	spawn_argv_add(a, "--transport=%s", p->transport->name);
	spawn_argv_add(a, "--pattern=%s", pattern_names[p->pattern]);
	spawn_argv_add(a, "--size=%llu", (unsigned long long)p->size);
	spawn_argv_add(a, "--response-size=%llu", (unsigned long long)p->response_size);
	spawn_argv_add(a, "--warmup=%llu", (unsigned long long)warmup);
	spawn_argv_add(a, "--nodelay=%s", p->nodelay ? "true" : "false");
	if (p->interval_ns)
		spawn_argv_add(a, "--interval=%lluns", (unsigned long long)p->interval_ns);
	else
		spawn_argv_add(a, "--interval=auto");
	spawn_argv_add(a, "--timeout=%lluns", (unsigned long long)timeout_ns);
	spawn_argv_add(a, "--loss-timeout=%lluns", (unsigned long long)p->loss_timeout_ns);
	spawn_argv_add(a, "--endpoint=%s", endpoint_names[p->endpoint]);
	if (p->record != REC_FULL)
		spawn_argv_add(a, "--record=%s", record_names[p->record]);
	if (p->poll != POLL_BLOCK)
		spawn_argv_add(a, "--poll=%s", poll_names[p->poll]);
	if (p->busy_poll_ns)
		spawn_argv_add(a, "--busy-poll=%lluns", (unsigned long long)p->busy_poll_ns);
	if (p->wake != WAKE_FUTEX)
		spawn_argv_add(a, "--wake=%s", wake_names[p->wake]);
	if (p->direction != DIR_ONE)
		spawn_argv_add(a, "--direction=%s", direction_names[p->direction]);
	/* socket options: both sides set them (issue 29) */
	if (p->sndbuf)
		spawn_argv_add(a, "--sndbuf=%llu", (unsigned long long)p->sndbuf);
	if (p->rcvbuf)
		spawn_argv_add(a, "--rcvbuf=%llu", (unsigned long long)p->rcvbuf);
	if (p->congestion)
		spawn_argv_add(a, "--congestion=%s", p->congestion);
	if (p->mss)
		spawn_argv_add(a, "--mss=%llu", (unsigned long long)p->mss);
	if (p->batch > 1)	/* both ends: sendmmsg, recvmmsg */
		spawn_argv_add(a, "--batch=%u", p->batch);
	spawn_argv_add(a, "--report-fd=3");
	spawn_argv_add(a, "--control-fd=4");
}

void worker_args_server(struct spawn_argv *a, const struct cell_params *p, const char *bind)
{
	spawn_argv_add(a, "--connections=%u", p->concurrency);
	spawn_argv_add(a, "--inflight=%u", p->inflight);
	if (p->spin_ns)
		spawn_argv_add(a, "--spin=%lluns", (unsigned long long)p->spin_ns);
	/* direction: bidir: what the server sends back, as the clients send */
	if (p->direction == DIR_BIDIR && p->duration_ns)
		spawn_argv_add(a, "--duration=%lluns", (unsigned long long)p->duration_ns);
	else if (p->direction == DIR_BIDIR)
		spawn_argv_add(a, "--count=%llu", (unsigned long long)p->count);
	spawn_argv_add(a, "--bind=%s", bind);
}

void worker_args_client(struct spawn_argv *a, const struct cell_params *p, unsigned id,
			uint64_t share, const char *connect)
{
	spawn_argv_add(a, "--connect=%s", connect);
	spawn_argv_add(a, "--id=%u", id);
	spawn_argv_add(a, "--inflight=%u", p->inflight);
	if (p->zerocopy)	/* the sender's alone */
		spawn_argv_add(a, "--zerocopy=true");
	if (p->rate)
		spawn_argv_add(a, "--rate=%llu", (unsigned long long)p->rate);
	if (p->duration_ns)
		spawn_argv_add(a, "--duration=%lluns", (unsigned long long)p->duration_ns);
	else
		spawn_argv_add(a, "--count=%llu", (unsigned long long)share);
}

void worker_args_netns(struct spawn_argv *a, const char *netns)
{
	if (netns)
		spawn_argv_add(a, "--netns=%s", netns);
}
