/* The kernel's link of topology: netns: a veth pair and tc netem.  See
 * netem.h. */
#include "netem.h"
#include "iproute.h"
#include "netns.h"

#include <stdio.h>
#include <string.h>

/* ns as µs with three decimals: tc's TIME ("us", a decimal number). */
static void fmt_us(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%llu.%03lluus", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
}

void netem_cmd_build(struct netem_cmd *c, const char *ns, const struct cell_link *l)
{
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->ns, sizeof(c->ns), "%s", ns);
	const char *head[] = { "-n", c->ns, "qdisc", "add", "dev", NETNS_DEV, "root", "netem",
			       "limit", NETEM_LIMIT };
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		c->argv[n++] = head[i];
	if (l->delay_ns || l->jitter_ns) {
		fmt_us(c->delay, sizeof(c->delay), l->delay_ns);
		c->argv[n++] = "delay";
		c->argv[n++] = c->delay;
	}
	if (l->jitter_ns) {
		fmt_us(c->jitter, sizeof(c->jitter), l->jitter_ns);
		c->argv[n++] = c->jitter;
	}
	if (l->loss) {		/* millionths of a percent */
		snprintf(c->loss, sizeof(c->loss), "%llu.%06llu%%",
			 (unsigned long long)(l->loss / 1000000), (unsigned long long)(l->loss % 1000000));
		c->argv[n++] = "loss";
		c->argv[n++] = "random";
		c->argv[n++] = c->loss;
	}
	if (l->rate_bps) {
		snprintf(c->rate, sizeof(c->rate), "%llubit", (unsigned long long)l->rate_bps);
		c->argv[n++] = "rate";
		c->argv[n++] = c->rate;
	}
	c->argv[n] = NULL;
}

/* One `ip -n NS ARGS...` or `tc -n NS ARGS...` (at most 13 ARGS). */
static int in_ns(const char *prog, const char *ns, const char *const *args, char *err,
		 size_t errlen)
{
	const char *argv[16] = { "-n", ns };
	size_t n = 2;

	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	return iproute_run(prog, argv, err, errlen);
}

/* The addresses, up, and the qdisc with no delay, in namespace i. */
static int end_up(const char ns[2][32], int i, char *err, size_t errlen)
{
	static const char *const v4[2] = { NETNS_SERVER_ADDR "/24", NETNS_CLIENT_ADDR "/24" };
	static const char *const v6[2] = { NETNS_SERVER_ADDR6 "/64", NETNS_CLIENT_ADDR6 "/64" };
	const char *a4[] = { "addr", "add", v4[i], "dev", NETNS_DEV, NULL };
	const char *a6[] = { "addr", "add", v6[i], "dev", NETNS_DEV, "nodad", NULL };
	const char *up[] = { "link", "set", NETNS_DEV, "up", NULL };
	const char *lo[] = { "link", "set", "lo", "up", NULL };
	const struct cell_link none = { 0 };
	struct netem_cmd c;

	netem_cmd_build(&c, ns[i], &none);
	return iproute_run("tc", c.argv, err, errlen) < 0 || in_ns("ip", ns[i], a4, err, errlen) < 0 ||
	       in_ns("ip", ns[i], a6, err, errlen) < 0 || in_ns("ip", ns[i], up, err, errlen) < 0 ||
	       in_ns("ip", ns[i], lo, err, errlen) < 0 ? -1 : 0;
}

int netem_open(const char ns[2][32], char *err, size_t errlen)
{
	const char *add[] = { "link", "add", NETNS_DEV, "type", "veth", "peer", "name", NETNS_DEV,
			      "netns", ns[1], NULL };
	const char *del[] = { "link", "del", NETNS_DEV, NULL };
	char ignored[256];

	if (in_ns("ip", ns[0], add, err, errlen) < 0)
		return -1;
	if (end_up(ns, 0, err, errlen) < 0 || end_up(ns, 1, err, errlen) < 0) {
		in_ns("ip", ns[0], del, ignored, sizeof(ignored));	/* both ends go */
		return -1;
	}
	return 0;
}

int netem_apply(const char ns[2][32], const struct cell_link *l, char *err, size_t errlen)
{
	const char *del[] = { "qdisc", "del", "dev", NETNS_DEV, "root", NULL };
	struct netem_cmd c;

	for (int i = 0; i < 2; i++) {
		netem_cmd_build(&c, ns[i], l);
		if (in_ns("tc", ns[i], del, err, errlen) < 0 || iproute_run("tc", c.argv, err, errlen) < 0)
			return -1;
	}
	return 0;
}
