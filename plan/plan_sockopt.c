/* The socket options of a cell, checked: see plan_sockopt.h. */
#include "plan_sockopt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "knobs.h"
#include "suggest.h"
#include "transport.h"
#include "units.h"

/* The position of key's value in the cell, else of the first dimension. */
static struct srcpos at(const struct matrix *m, const size_t *choice, const char *key)
{
	const struct mvalue *v = plan_cell_value(m, choice, key);

	return v ? v->pos : m->ndims ? m->dims[0].pos : (struct srcpos){ 1, 1 };
}

__attribute__((format(printf, 6, 7)))
static int refuse(const struct matrix *m, const size_t *choice, const char *key, char *err,
		  size_t errlen, const char *fmt, ...)
{
	struct srcpos pos = at(m, choice, key);
	int n = snprintf(err, errlen, "%s:%d:%d: ", m->path, pos.line, pos.col);
	va_list ap;

	if (n > 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int is_tcp(const struct transport *t)
{
	return (t->family == AF_INET || t->family == AF_INET6) && t->socktype == SOCK_STREAM;
}

/* The transports that take an option: "tcp, tcp6" or every socket one. */
static void takers(int tcp_only, char *buf, size_t len)
{
	const struct transport *t;

	buf[0] = '\0';
	for (size_t i = 0; (t = transport_at(i)); i++)
		if (tcp_only ? is_tcp(t) : t->family != 0) {
			size_t used = strlen(buf);
			snprintf(buf + used, len - used, "%s%s", used ? ", " : "", t->name);
		}
}

int plan_check_sockopts(const struct matrix *m, const size_t *choice,
			const struct cell_params *p, char *err, size_t errlen)
{
	static const struct { const char *key, *opt; int tcp_only; } opts[] = {
		{ "sndbuf", "SO_SNDBUF", 0 }, { "rcvbuf", "SO_RCVBUF", 0 },
		{ "congestion", "TCP_CONGESTION", 1 }, { "mss", "TCP_MAXSEG", 1 },
	};
	const struct transport *t = p->transport;
	const int set[] = { p->sndbuf != 0, p->rcvbuf != 0, p->congestion != NULL, p->mss != 0 };
	char names[256];

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (!set[i])
			continue;
		const char *text = plan_cell_value(m, choice, opts[i].key)->text;
		if (opts[i].tcp_only ? !is_tcp(t) : !t->family) {
			takers(opts[i].tcp_only, names, sizeof(names));
			return refuse(m, choice, opts[i].key, err, errlen, "%s is a socket option (%s) "
				      "of %s; transport %s has %s (exclude {%s: %s, transport: %s})",
				      opts[i].key, opts[i].opt, names, t->name, opts[i].tcp_only &&
				      t->family ? "no TCP socket" : !strcmp(t->name, "zmq") ?
				      "no socket of its own (zmq's are libzmq's)" :
				      "no socket of its own", opts[i].key, text, t->name);
		}
		const struct program *pr = p->server_prog ? p->server_prog : p->client_prog;
		if (pr)
			return refuse(m, choice, opts[i].key, err, errlen, "%s is set on matrix's own "
				      "workers' sockets; program %s opens its own (exclude {%s: %s, "
				      "%s: %s})", opts[i].key, pr->name, opts[i].key, text,
				      p->server_prog ? "server" : "client", pr->name);
	}
	if (p->mss && p->mss < MATRIX_MIN_MSS)
		return refuse(m, choice, "mss", err, errlen, "mss %llu is below %llu, the least "
			      "TCP_MAXSEG takes (TCP_MIN_MSS)", (unsigned long long)p->mss,
			      MATRIX_MIN_MSS);
	return 0;
}

/* A sysctl's number (/proc/sys/...), 0 when unreadable. */
static uint64_t sysctl_num(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned long long v = 0;

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

uint64_t plan_sockbuf_granted(const char *key, uint64_t asked, uint64_t *cap)
{
	*cap = sysctl_num(strcmp(key, "sndbuf") ? "/proc/sys/net/core/rmem_max"
			  : "/proc/sys/net/core/wmem_max");
	return 2 * (*cap && asked > *cap ? *cap : asked);
}

int plan_sockbuf_cap(const char *key, uint64_t asked, char *msg, size_t len)
{
	const char *sysctl = strcmp(key, "sndbuf") ? "net.core.rmem_max" : "net.core.wmem_max";
	uint64_t cap, granted = plan_sockbuf_granted(key, asked, &cap);
	char a[32];

	if (!cap || asked <= cap)
		return 0;
	snprintf(msg, len, "%s %s is above %s (%llu): the kernel grants at most %llu; raise it "
		 "with sysctl -w %s=%llu", key, units_format_size(asked, a, sizeof(a)), sysctl,
		 (unsigned long long)cap, (unsigned long long)granted, sysctl,
		 (unsigned long long)asked);
	return 1;
}

/* The words of a /proc list ("reno cubic bbr") into words (at most max,
 * each pointing into buf): their count, 0 when unreadable. */
static size_t read_words(const char *path, char *buf, size_t len, const char **words, size_t max)
{
	FILE *f = fopen(path, "re");
	size_t n = 0;
	char *save = NULL;

	buf[0] = '\0';
	if (!f)
		return 0;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	for (char *w = strtok_r(buf, " \t\n", &save); w && n < max; w = strtok_r(NULL, " \t\n", &save))
		words[n++] = w;
	return n;
}

static int listed(const char *name, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(words[i], name))
			return 1;
	return 0;
}

static int check_congestion(const struct matrix *m, const size_t *choice, const char *name,
			    char *err, size_t errlen)
{
	const char *path = getenv("MATRIX_CONGESTION_FILE");
	const char *words[64];
	char buf[1024], list[1024] = "";
	size_t n;

	if (!path || !*path)
		path = PLAN_CONGESTION_FILE;
	n = read_words(path, buf, sizeof(buf), words, 64);
	if (!n)
		return refuse(m, choice, "congestion", err, errlen, "congestion: %s cannot be "
			      "checked: %s cannot be read, so this kernel's congestion controls are "
			      "not known", name, path);
	if (listed(name, words, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? " " : "",
			 words[i]);
	const char *near = suggest_closest(name, words, n);
	return refuse(m, choice, "congestion", err, errlen, "congestion: '%s' is not a congestion "
		      "control this kernel offers (%s: %s; a module may add one: modprobe "
		      "tcp_NAME)%s%s%s", name, path, list, near ? "; did you mean '" : "",
		      near ? near : "", near ? "'?" : "");
}

int plan_check_sockopts_machine(const struct matrix *m, const size_t *choice,
				const struct cell_params *p, char *err, size_t errlen)
{
	const struct transport *t = p->transport;
	uint64_t cap, granted, biggest;

	if (p->congestion && check_congestion(m, choice, p->congestion, err, errlen) < 0)
		return -1;
	if (!p->sndbuf || (t->socktype != SOCK_DGRAM && t->socktype != SOCK_SEQPACKET) ||
	    t->family != AF_UNIX)
		return 0;
	/* an AF_UNIX datagram longer than the send buffer less 32 bytes is
	 * EMSGSIZE (af_unix.c): no such cell could send a message */
	granted = plan_sockbuf_granted("sndbuf", p->sndbuf, &cap);
	biggest = p->size > p->response_size ? p->size : p->response_size;
	if (biggest + 32 > granted)
		return refuse(m, choice, "sndbuf", err, errlen, "sndbuf %llu: the kernel grants a "
			      "%llu-byte send buffer, and a %s message of %llu bytes must fit it less "
			      "32 bytes (EMSGSIZE): use a larger sndbuf or a smaller size",
			      (unsigned long long)p->sndbuf, (unsigned long long)granted, t->name,
			      (unsigned long long)biggest);
	return 0;
}
