/* The cpu: key's values, text both ways: see placement.h. */
#include "placement.h"
#include "arrays.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

static const char *const mode_words[] = { "none", "same", "split" };

__attribute__((format(printf, 3, 4)))
static int failf(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* One CPU number at *p (digits only), moved past; -1 with why. */
static int cpu_number(const char **p, const char *item, long *cpu, char *why, size_t whylen)
{
	char *end;

	if (**p < '0' || **p > '9')
		return failf(why, whylen, "'%s' is not a CPU number or range (such as 1 or 1-3)",
			     item);
	errno = 0;
	*cpu = strtol(*p, &end, 10);
	if (errno || *cpu >= CPU_SETSIZE)
		return failf(why, whylen, "CPU %.*s is beyond the %d CPUs a placement can name",
			     (int)(end - *p), *p, CPU_SETSIZE);
	*p = end;
	return 0;
}

int cpus_parse(const char *text, cpu_set_t *set, char *why, size_t whylen)
{
	char item[64];
	const char *p = text;

	if (!*text)
		return failf(why, whylen, "no CPU given");
	while (*p) {
		size_t n = strcspn(p, ",");
		const char *q = p;
		long lo, hi;

		snprintf(item, sizeof(item), "%.*s", (int)(n < 60 ? n : 60), p);
		if (!n)
			return failf(why, whylen, "an empty item in CPU list '%s'", text);
		if (cpu_number(&q, item, &lo, why, whylen) < 0)
			return -1;
		hi = lo;
		if (*q == '-') {
			q++;
			if (cpu_number(&q, item, &hi, why, whylen) < 0)
				return -1;
			if (hi < lo)
				return failf(why, whylen, "CPU range '%s' goes down", item);
		}
		if (q != p + n)
			return failf(why, whylen, "'%s' is not a CPU number or range (such as 1 or "
				     "1-3)", item);
		for (long c = lo; c <= hi; c++)
			CPU_SET((size_t)c, set);
		p += n;
		if (*p == ',' && !*++p)
			return failf(why, whylen, "an empty item in CPU list '%s'", text);
	}
	return 0;
}

void cpus_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && o < len; c++) {
		int end = c;

		if (!CPU_ISSET((size_t)c, set))
			continue;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET((size_t)end + 1, set))
			end++;
		int n = end - c >= 2 ? snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "", c, end)
			: end > c ? snprintf(buf + o, len - o, "%s%d,%d", o ? "," : "", c, end)
			: snprintf(buf + o, len - o, "%s%d", o ? "," : "", c);
		if (n < 0)
			break;
		o += (size_t)n;
		c = end;
	}
}

/* "ROLE=LIST" at the start of *p (up to ';' or the end) into set. */
static int role_list(const char **p, const char *role, cpu_set_t *set, char *why, size_t whylen)
{
	size_t rl = strlen(role), n;
	char list[512];

	if (strncmp(*p, role, rl) || (*p)[rl] != '=')
		return -1;
	*p += rl + 1;
	n = strcspn(*p, ";");
	if (n >= sizeof(list))
		return failf(why, whylen, "%s: CPU list too long", role);
	snprintf(list, sizeof(list), "%.*s", (int)n, *p);
	*p += n;
	if (cpus_parse(list, set, why, whylen) < 0) {
		char inner[256];
		snprintf(inner, sizeof(inner), "%s", why);
		return failf(why, whylen, "%s: %s", role, inner);
	}
	return 0;
}

int placement_parse(const char *text, struct placement *pl, char *why, size_t whylen)
{
	const char *p = text;
	char hint[128];

	memset(pl, 0, sizeof(*pl));
	for (size_t i = 0; i < ARRAY_SIZE(mode_words); i++)
		if (!strcmp(text, mode_words[i])) {
			pl->mode = (enum placement_mode)i;
			return 0;
		}
	if (!strchr(text, '=')) {
		if (*text == '{' || *text == '[')
			return failf(why, whylen, "'%s' is not a placement: outside a matrix file "
				     "write one value, none, same, split or server=0;clients=1", text);
		suggest_hint(text, mode_words, 3, hint, sizeof(hint));
		return failf(why, whylen, "unknown placement '%s'%s%s", text, hint,
			     hint[0] ? "" : " (known: none, same, split, or server=CPUS;clients=CPUS)");
	}
	pl->mode = PLACE_MAP;
	why[0] = '\0';
	if (role_list(&p, "server", &pl->server, why, whylen) < 0 || *p++ != ';' ||
	    role_list(&p, "clients", &pl->clients, why, whylen) < 0 || *p) {
		if (!why[0])
			failf(why, whylen, "'%s' is not a placement: expected server=CPUS;clients=CPUS, "
			      "such as server=0;clients=1-3", text);
		return -1;
	}
	return 0;
}

void placement_format(const struct placement *pl, char *buf, size_t len)
{
	size_t o;

	if (pl->mode != PLACE_MAP) {
		snprintf(buf, len, "%s", mode_words[pl->mode]);
		return;
	}
	snprintf(buf, len, "server=");
	o = strlen(buf);
	cpus_format(&pl->server, buf + o, len - o);
	o = strlen(buf);
	snprintf(buf + o, len - o, ";clients=");
	o = strlen(buf);
	cpus_format(&pl->clients, buf + o, len - o);
}

/* The first CPU of set a, and not of set b, from `from` on; -1 for none. */
static int first_cpu(const cpu_set_t *a, const cpu_set_t *b, int from)
{
	for (int c = from; c < CPU_SETSIZE; c++)
		if (CPU_ISSET((size_t)c, a) && !(b && CPU_ISSET((size_t)c, b)))
			return c;
	return -1;
}

int placement_resolve(const struct placement *pl, const cpu_set_t *allowed, struct placement *out,
		      char *why, size_t whylen)
{
	int first = first_cpu(allowed, NULL, 0);
	char list[256];

	cpus_format(allowed, list, sizeof(list));
	*out = *pl;
	if (pl->mode == PLACE_NONE)
		return 0;
	if (first < 0)
		return failf(why, whylen, "this runner may use no CPU (sched_getaffinity)");
	out->mode = PLACE_MAP;
	switch (pl->mode) {
	case PLACE_SAME:
		CPU_ZERO(&out->server);
		CPU_SET((size_t)first, &out->server);
		out->clients = out->server;
		return 0;
	case PLACE_SPLIT:
		CPU_ZERO(&out->server);
		CPU_SET((size_t)first, &out->server);
		CPU_XOR(&out->clients, allowed, &out->server);
		if (!CPU_COUNT(&out->clients))
			return failf(why, whylen, "split needs two CPUs or more, and this runner may "
				     "use CPU %s only (sched_getaffinity)", list);
		return 0;
	default:
		break;
	}
	for (int k = 0; k < 2; k++) {
		int bad = first_cpu(k ? &pl->clients : &pl->server, allowed, 0);
		if (bad >= 0)
			return failf(why, whylen, "%s CPU %d is not one this runner may use "
				     "(allowed: %s, sched_getaffinity)", k ? "clients'" : "server's",
				     bad, list);
	}
	return 0;
}
