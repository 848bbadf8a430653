/* Programs of the user's in a cell repetition: see program.h. */
#include "program.h"
#include "matrix_command.h"
#include "clock.h"
#include "matrix.h"
#include "netns.h"
#include "pattern.h"

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
	size_t n;
	char **tmpl = matrix_program_command(pr, id != 0, c->p.transport->name, &n);
	char ns[32];

	if (c->p.netns) {	/* topology: netns: in the role's namespace (ip-netns(8)) */
		netns_name(id ? "client" : "server", ns, sizeof(ns));
		spawn_argv_add(a, "ip");
		spawn_argv_add(a, "netns");
		spawn_argv_add(a, "exec");
		spawn_argv_add(a, "%s", ns);
	}
	program_words(tmpl, n, cell_lookup, &w, a);	/* the plan checked tmpl is there */
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

int program_server_addr(const struct cell_params *p, struct server_addr *sa)
{
	int family = plan_program_family(p), v6 = family == AF_INET6;
	int zmq = transport_takes_programs(p->transport) == TAKES_PROGRAM_PAIRS;

	if (family == AF_UNIX) {
		snprintf(sa->address, sizeof(sa->address), "%s%.200s", zmq ? "ipc://" : "", sa->path);
		return 0;
	}
	snprintf(sa->host, sizeof(sa->host), "%s", p->netns ? (v6 ? NETNS_SERVER_ADDR6 : NETNS_SERVER_ADDR)
		 : v6 ? "::1" : "127.0.0.1");
	if (free_port(family, sa->port, sizeof(sa->port)) < 0)
		return -1;
	if (v6)
		snprintf(sa->address, sizeof(sa->address), "[%s]:%s", sa->host, sa->port);
	else
		snprintf(sa->address, sizeof(sa->address), "%s%s:%s", zmq ? "tcp://" : "", sa->host,
			 sa->port);
	return 0;
}

void program_server_addr_set(struct server_addr *sa, const struct transport *t, const char *address)
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
 * (the runner's network namespace, or with topology: netns the server's),
 * bound where a client of family will reach it: the loopback (the link's
 * address) or the wildcard (a dual-stack [::] for tcp too)? */
static int tcp_listening(int family, unsigned port, int netns)
{
	static const char *files[] = { "/proc/net/tcp", "/proc/net/tcp6" };
	struct in_addr link4;
	struct in6_addr link6;
	uint32_t lo4 = htonl(INADDR_LOOPBACK), lo6[4];
	char line[512], ns[32];
	int hit = 0;

	memcpy(lo6, &in6addr_loopback, sizeof(lo6));
	netns_name("server", ns, sizeof(ns));
	if (netns && inet_pton(AF_INET, NETNS_SERVER_ADDR, &link4) == 1 &&
	    inet_pton(AF_INET6, NETNS_SERVER_ADDR6, &link6) == 1) {
		lo4 = link4.s_addr;
		memcpy(lo6, &link6, sizeof(lo6));
	}
	for (int v6 = family == AF_INET6; v6 < 2 && !hit; v6++) {
		FILE *f = netns ? netns_fopen(ns, files[v6]) : fopen(files[v6], "re");
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
	if (plan_program_family(p) == AF_UNIX)
		return unix_listening(sa->path);
	return tcp_listening(plan_program_family(p), (unsigned)atoi(sa->port), p->netns);
}

uint64_t program_cell_warmup(const struct cell_params *p, uint64_t warmup)
{
	return pattern_info(p->pattern)->receiver_times && (p->server_prog || p->client_prog) ? 0
	       : warmup;
}

size_t program_watch(const struct cell_params *p, int server, const char **re, size_t max,
		     size_t *first)
{
	const struct program *pr = server ? p->server_prog : p->client_prog;
	const struct program_result *res = server ? pr->server_results : pr->results;
	size_t n = 0, nres = server ? pr->nserver_results : pr->nresults;

	if (server && pr->ready && n < max)
		re[n++] = pr->ready;
	*first = n;
	if (server && !pattern_info(p->pattern)->receiver_times)
		return n;	/* the plan allows a server's figures in stream cells only */
	for (size_t i = 0; i < nres && n < max; i++)
		re[n++] = res[i].regex;
	return n;
}

int program_times_itself(const struct program *pr)
{
	for (size_t i = 0; i < pr->nserver_results; i++) {
		int fig = pr->server_results[i].metric;
		if (fig == PROGRAM_SECONDS || (fig < MATRIX_NMETRICS &&
		    (!strcmp(matrix_metrics[fig], "msgs_per_s") ||
		     !strcmp(matrix_metrics[fig], "mib_per_s"))))
			return 1;
	}
	return 0;
}

static int printed_figures(const struct program_result *res, size_t n, const char *const *found,
			   double *printed, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		const char *text = found[i];
		char *end;
		double v = text ? strtod(text, &end) : NAN;
		if (!text || end == text || !isfinite(v)) {
			snprintf(err, errlen, "printed nothing that matches the %s regex '%s'",
				 program_figure_name(res[i].metric), res[i].regex);
			return -1;
		}
		/* no figure of ours is below 0, and a report refuses a run
		 * folder's negative one (fieldnum.h) */
		if (v * res[i].scale < 0) {
			snprintf(err, errlen, "printed a negative %s (%.6g) for the %s regex '%s'",
				 program_figure_name(res[i].metric), v, program_figure_name(res[i].metric),
				 res[i].regex);
			return -1;
		}
		printed[res[i].metric] = v * res[i].scale;
	}
	return 0;
}

int program_client_printed(const struct cell_params *p, const struct program *pr,
			   const char *const *found, double *printed, char *err, size_t errlen)
{
	int rate = matrix_metric_index(pattern_info(p->pattern)->rate_metric);

	if (printed_figures(pr->results, pr->nresults, found, printed, err, errlen) < 0)
		return -1;
	double msgs = printed[PROGRAM_MESSAGES], secs = printed[PROGRAM_SECONDS];
	if (!isnan(msgs) && !isnan(secs) && isnan(printed[rate]))
		printed[rate] = secs > 0 ? msgs / secs : NAN;
	return 0;
}

int program_server_printed(const struct program *pr, const char *const *found,
			   double *printed, char *err, size_t errlen)
{
	return printed_figures(pr->server_results, pr->nserver_results, found, printed, err,
			       errlen);
}

void program_client_figures(const struct cell_params *p, unsigned id, uint64_t t_start,
			    uint64_t t_end, const struct rusage *ru, const double *printed,
			    struct worker_result *res)
{
	uint64_t share = plan_client_share(p, id);
	double said = printed ? printed[PROGRAM_MESSAGES] : NAN;

	res->start_ns = t_start;
	res->end_ns = t_end;
	res->messages = res->sent_messages = share;
	if (!isnan(said) && said >= 0 && said < 1e18)	/* a count it printed */
		res->messages = res->sent_messages = (uint64_t)llround(said);
	res->sent_bytes = res->sent_messages * p->size;
	res->bytes = res->messages * (p->size + pattern_reply_size(pattern_info(p->pattern), p->size,
								   p->response_size));
	res->has_result = res->ended = 1;
	res->cpu_ns = clock_rusage_ns(ru);
}

void program_server_figures(const struct cell_params *p, uint64_t t_first, uint64_t t_exit,
			    const struct rusage *ru, const double *printed,
			    struct worker_result *res)
{
	double said = printed[PROGRAM_MESSAGES];

	res->start_ns = t_first;
	res->end_ns = t_exit;
	res->messages = !isnan(said) && said >= 0 && said < 1e18 ? (uint64_t)llround(said)
			: p->count;
	res->bytes = res->messages * p->size;
	res->has_result = res->ended = 1;
	res->cpu_ns = clock_rusage_ns(ru);
}
