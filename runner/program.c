/* Programs of the user's in a cell repetition: see program.h. */
#include "program.h"
#include "clock.h"
#include "matrix.h"

#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

/* The value of {name} in client id's command (0: the server's). */
static void placeholder(const struct matrix *m, const struct cell *c,
			const struct server_addr *sa, const char *name, unsigned id, char *out,
			size_t len)
{
	const struct cell_params *p = &c->p;
	uint64_t share = !id ? p->count : plan_client_share(p, id);

	if (!strcmp(name, "host"))
		snprintf(out, len, "%s", sa->host);
	else if (!strcmp(name, "port"))
		snprintf(out, len, "%s", sa->port);
	else if (!strcmp(name, "path"))
		snprintf(out, len, "%.200s", sa->path);
	else if (!strcmp(name, "size"))
		snprintf(out, len, "%llu", (unsigned long long)p->size);
	else if (!strcmp(name, "response_size"))
		snprintf(out, len, "%llu", (unsigned long long)p->response_size);
	else if (!strcmp(name, "count"))	/* a client's: its share */
		snprintf(out, len, "%llu", (unsigned long long)share);
	else if (!strcmp(name, "concurrency"))
		snprintf(out, len, "%u", p->concurrency);
	else if (!strcmp(name, "duration_s"))
		snprintf(out, len, "%.9g", (double)p->duration_ns / 1e9);
	else if (!strcmp(name, "endpoint"))
		snprintf(out, len, "%s", sa->address);
	else if (!strcmp(name, "tmp"))
		snprintf(out, len, "%s", sa->tmp);
	else {
		out[0] = '\0';
		for (size_t d = 0; d < m->ndims; d++)
			if (!strcmp(m->dims[d].key, name))
				matrix_format_value(&m->dims[d], &m->dims[d].values[c->choice[d]],
						     out, len);
	}
}

void program_words(char *const *tmpl, size_t n, program_lookup *lookup, void *arg,
		   struct spawn_argv *a)
{
	for (size_t i = 0; i < n; i++) {
		char word[8192], val[PATH_MAX];
		size_t o = 0;
		for (const char *t = tmpl[i]; *t && o + 1 < sizeof(word);) {
			const char *end = *t == '{' && t[1] != '{' ? strchr(t, '}') : NULL;
			if (end) {
				char name[64];
				snprintf(name, sizeof(name), "%.*s", (int)(end - t - 1), t + 1);
				lookup(name, val, sizeof(val), arg);
				o += (size_t)snprintf(word + o, sizeof(word) - o, "%s", val);
				t = end + 1;
			} else {
				/* {{ and }}: one brace */
				t += (t[0] == '{' || t[0] == '}') && t[1] == t[0];
				word[o++] = *t++;
			}
		}
		if (o + 1 >= sizeof(word))
			a->overflow = 1;
		word[o < sizeof(word) ? o : sizeof(word) - 1] = '\0';
		spawn_argv_add(a, "%s", word);
	}
}

struct cell_words {
	const struct matrix *m;
	const struct cell *c;
	const struct server_addr *sa;
	unsigned id;
};

static void cell_lookup(const char *name, char *out, size_t len, void *arg)
{
	const struct cell_words *w = arg;

	placeholder(w->m, w->c, w->sa, name, w->id, out, len);
}

void program_argv(const struct matrix *m, const struct cell *c, const struct server_addr *sa,
		  const struct program *pr, unsigned id, struct spawn_argv *a)
{
	struct cell_words w = { .m = m, .c = c, .sa = sa, .id = id };

	program_words(id ? pr->client : pr->server, id ? pr->nclient : pr->nserver, cell_lookup,
		      &w, a);
}

/* A free port on the loopback for a program server: bind port 0, read it,
 * close (the program binds it a moment later). */
static int free_port(int family, char *port, size_t len)
{
	struct sockaddr_storage ss = { .ss_family = (sa_family_t)family };
	socklen_t sl = family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0), rc = -1;

	if (family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_addr = in6addr_loopback;
	else
		((struct sockaddr_in *)&ss)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&ss, sl) == 0 &&
	    getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
		snprintf(port, len, "%u", ntohs(family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
					       : ((struct sockaddr_in *)&ss)->sin_port));
		rc = 0;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

int program_server_addr(const struct transport *t, struct server_addr *sa)
{
	int v6 = t->family == AF_INET6;

	if (!t->default_bind) {
		snprintf(sa->address, sizeof(sa->address), "%.200s", sa->path);
		return 0;
	}
	snprintf(sa->host, sizeof(sa->host), v6 ? "::1" : "127.0.0.1");
	if (free_port(v6 ? AF_INET6 : AF_INET, sa->port, sizeof(sa->port)) < 0)
		return -1;
	snprintf(sa->address, sizeof(sa->address), v6 ? "[%s]:%s" : "%s:%s", sa->host, sa->port);
	return 0;
}

void server_addr_set(struct server_addr *sa, const struct transport *t, const char *address)
{
	snprintf(sa->address, sizeof(sa->address), "%s", address);
	/* {host} and {port} for a program client */
	const char *colon = strrchr(sa->address, ':');
	if (t->default_bind && colon) {
		const char *h = sa->address[0] == '[' ? sa->address + 1 : sa->address;
		size_t hl = (size_t)(colon - h) - (sa->address[0] == '[');
		snprintf(sa->host, sizeof(sa->host), "%.*s", (int)hl, h);
		snprintf(sa->port, sizeof(sa->port), "%s", colon + 1);
	}
}

/* Is there a TCP socket in LISTEN state on port in /proc/net/tcp or tcp6
 * (the runner's network namespace), bound where a client of family will
 * reach it: the loopback or the wildcard (a dual-stack [::] for tcp too)? */
static int tcp_listening(int family, unsigned port)
{
	static const char *files[] = { "/proc/net/tcp", "/proc/net/tcp6" };
	uint32_t lo4 = htonl(INADDR_LOOPBACK), lo6[4];
	char line[512];
	int hit = 0;

	memcpy(lo6, &in6addr_loopback, sizeof(lo6));
	for (int v6 = family == AF_INET6; v6 < 2 && !hit; v6++) {
		FILE *f = fopen(files[v6], "re");
		if (!f)
			continue;
		while (!hit && fgets(line, sizeof(line), f)) {
			uint32_t a[4] = { 0 };
			unsigned lport, st;
			int ok = v6 ? sscanf(line, " %*u: %8x%8x%8x%8x:%x %*x:%*x %x", &a[0], &a[1],
					      &a[2], &a[3], &lport, &st) == 6
				    : sscanf(line, " %*u: %x:%x %*x:%*x %x", &a[0], &lport, &st) == 3;
			if (!ok || st != 0x0A || lport != port)
				continue;
			int any = !a[0] && !a[1] && !a[2] && !a[3];
			hit = any || (v6 ? family == AF_INET6 && !memcmp(a, lo6, sizeof(a))
				      : a[0] == lo4);
		}
		fclose(f);
	}
	return hit;
}

/* Is a stream socket listening on path (/proc/net/unix: flag
 * __SO_ACCEPTCON, 0x10000)? */
static int unix_listening(const char *path)
{
	FILE *f = fopen("/proc/net/unix", "re");
	char line[PATH_MAX + 128];
	int hit = 0;

	if (!f)
		return 0;
	while (!hit && fgets(line, sizeof(line), f)) {
		unsigned flags, type;
		int at = -1;
		if (sscanf(line, "%*s %*s %*s %x %x %*x %*u %n", &flags, &type, &at) < 2 || at < 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		hit = (flags & 0x10000) && type == SOCK_STREAM && !strcmp(line + at, path);
	}
	fclose(f);
	return hit;
}

int program_server_ready(const struct cell_params *p, const struct server_addr *sa,
			 int printed_ready)
{
	const struct program *pr = p->server_prog;

	if (pr->ready)
		return printed_ready;
	/* never a connection: a server that serves one would spend it here */
	if (p->transport->family == AF_UNIX)
		return unix_listening(sa->path);
	return tcp_listening(p->transport->family, (unsigned)atoi(sa->port));
}

void program_client_figures(const struct cell_params *p, unsigned id, uint64_t t_start,
			    uint64_t t_end, const struct rusage *ru, struct worker_result *res)
{
	uint64_t share = plan_client_share(p, id);

	res->start_ns = t_start;
	res->end_ns = t_end;
	res->messages = res->sent_messages = share;
	res->sent_bytes = share * p->size;
	res->bytes = share * (p->size + (p->pattern == PAT_ECHO ? p->size : p->response_size));
	res->has_result = res->ended = 1;
	res->cpu_ns = clock_rusage_ns(ru);
}

int program_client_printed(const struct program *pr, const char *const *found, double *printed,
			   char *err, size_t errlen)
{
	for (size_t i = 0; i < pr->nresults; i++) {
		const struct program_result *pres = &pr->results[i];
		const char *text = found[i];
		char *end;
		double v = text ? strtod(text, &end) : NAN;
		if (!text || end == text || !isfinite(v)) {
			snprintf(err, errlen, "printed nothing that matches the %s regex '%s'",
				 matrix_metrics[pres->metric], pres->regex);
			return -1;
		}
		printed[pres->metric] = v * pres->scale;
	}
	return 0;
}
