/* The worker -> runner protocol: see wire.h. */
#include "wire.h"
#include "arrays.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WIRE_MAX_LINE (1u << 20)
#define BUCKETS_PER_LINE 64

void worker_result_init(struct worker_result *r)
{
	memset(r, 0, sizeof(*r));
	r->sndbuf = r->rcvbuf = r->nodelay = -1;
	r->mss = -1;
	r->pid = -1;
}

void worker_result_release(struct worker_result *r)
{
	free(r->hist);
	free(r->tl_messages);
	free(r->tl_bytes);
	free(r->tcp);
	free(r->tl_cpu_ns);
	worker_result_init(r);
}

/* One name of n bytes at name into list, unless there. */
static void join_one(char *list, size_t len, const char *name, size_t n)
{
	size_t used = strlen(list);

	if (!n)
		return;
	for (const char *p = list; *p; p += strcspn(p, ";"), p += *p == ';')
		if (strcspn(p, ";") == n && !strncmp(p, name, n))
			return;
	if (used + (used != 0) + n < len)
		snprintf(list + used, len - used, "%s%.*s", used ? ";" : "", (int)n, name);
}

void wire_name_join(char *list, size_t len, const char *names)
{
	for (const char *p = names; *p; p += strcspn(p, ";"), p += *p == ';')
		join_one(list, len, p, strcspn(p, ";"));
}

void wire_escape(const char *in, char *out, size_t outlen)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (; *in && o + 4 <= outlen; in++) {
		unsigned char c = (unsigned char)*in;
		if (c <= ' ' || c > '~' || c == '%' || c == '=') {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			out[o++] = (char)c;
		}
	}
	if (outlen)
		out[o < outlen ? o : outlen - 1] = '\0';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

void wire_unescape(const char *in, char *out, size_t outlen)
{
	size_t o = 0;

	while (*in && o + 1 < outlen) {
		int hi, lo;
		if (in[0] == '%' && (hi = hexval(in[1])) >= 0 && (lo = hexval(in[2])) >= 0) {
			out[o++] = (char)(hi << 4 | lo);
			in += 3;
		} else {
			out[o++] = *in++;
		}
	}
	if (outlen)
		out[o] = '\0';
}

/* A line under construction; long lines (buckets) stay well below 4 KiB. */
struct line {
	char buf[4096];
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->buf) - l->len ? (size_t)n : sizeof(l->buf) - l->len - 1;
}

static int flush_line(int fd, struct line *l)
{
	const char *p = l->buf;
	size_t left;

	if (l->len >= sizeof(l->buf) - 1)
		l->len = sizeof(l->buf) - 2;
	l->buf[l->len++] = '\n';
	left = l->len;
	while (left) {
		ssize_t n = write(fd, p, left);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
	l->len = 0;
	return 0;
}

static void add_str(struct line *l, const char *key, const char *value)
{
	char esc[1600];

	wire_escape(value, esc, sizeof(esc));
	add(l, " %s=%s", key, esc);
}

int wire_write_hello(int fd, enum wire_role role)
{
	struct line l = { .len = 0 };

	add(&l, "hello version=%d role=%s pid=%ld", WIRE_VERSION,
	    role == ROLE_SERVER ? "server" : "client", (long)getpid());
	return flush_line(fd, &l);
}

int wire_write_listen(int fd, const char *address)
{
	struct line l = { .len = 0 };

	add(&l, "listen");
	add_str(&l, "address", address);
	return flush_line(fd, &l);
}

int wire_write_ready(int fd)
{
	struct line l = { .len = 0 };

	add(&l, "ready");
	return flush_line(fd, &l);
}

int wire_write_error(int fd, const char *stage, const char *message)
{
	struct line l = { .len = 0 };

	add(&l, "error");
	add_str(&l, "stage", stage);
	add_str(&l, "message", message);
	return flush_line(fd, &l);
}

static int write_hist(int fd, const struct hist *h)
{
	struct line l = { .len = 0 };
	int inline_n = 0;

	add(&l, "hist count=%llu overflow=%llu min=%llu max=%llu sum=%.0Lf%s",
	    (unsigned long long)h->count, (unsigned long long)h->overflow,
	    (unsigned long long)(h->count ? h->min : 0), (unsigned long long)h->max,
	    (long double)h->sum, h->totals ? " totals=1" : "");
	if (flush_line(fd, &l) < 0)
		return -1;
	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		add(&l, "%s%zu:%llu", inline_n ? "," : "buckets ", i,
		    (unsigned long long)h->buckets[i]);
		if (++inline_n == BUCKETS_PER_LINE) {
			if (flush_line(fd, &l) < 0)
				return -1;
			inline_n = 0;
		}
	}
	return inline_n ? flush_line(fd, &l) : 0;
}

const char *const wire_tcp_keys[TCPV__COUNT] = {
	[TCPV_RETRANS] = "retrans", [TCPV_RTT_US] = "rtt_us", [TCPV_RTTVAR_US] = "rttvar_us",
	[TCPV_CWND] = "cwnd", [TCPV_DELIVERY_RATE] = "delivery_rate",
	[TCPV_BYTES_RETRANS] = "bytes_retrans", [TCPV_MSS] = "mss",
};

/* One tcp line per connection; the fields the kernel did not give left out. */
static int write_tcp(int fd, const struct worker_result *r)
{
	struct line l = { .len = 0 };

	for (size_t i = 0; i < r->ntcp && i < WIRE_MAX_TCP; i++) {
		add(&l, "tcp");
		for (int k = 0; k < TCPV__COUNT; k++)
			if (r->tcp[i].v[k] >= 0)
				add(&l, " %s=%lld", wire_tcp_keys[k], (long long)r->tcp[i].v[k]);
		if (flush_line(fd, &l) < 0)
			return -1;
	}
	return 0;
}

int wire_write_result(int fd, const struct worker_result *r)
{
	struct line l = { .len = 0 };

	add(&l, "result role=%s messages=%llu bytes=%llu sent_messages=%llu sent_bytes=%llu"
	    " start_ns=%llu end_ns=%llu cpu_ns=%llu mismatches=%llu last_send_ns=%llu t0_ns=%llu"
	    " lost=%llu duplicated=%llu reordered=%llu"
	    " sndbuf=%d rcvbuf=%d nodelay=%d interval_ns=%llu hwm_kib=%llu",
	    r->role == ROLE_SERVER ? "server" : "client",
	    (unsigned long long)r->messages, (unsigned long long)r->bytes,
	    (unsigned long long)r->sent_messages, (unsigned long long)r->sent_bytes,
	    (unsigned long long)r->start_ns, (unsigned long long)r->end_ns,
	    (unsigned long long)r->cpu_ns, (unsigned long long)r->mismatches,
	    (unsigned long long)r->last_send_ns, (unsigned long long)r->t0_ns,
	    (unsigned long long)r->lost, (unsigned long long)r->duplicated,
	    (unsigned long long)r->reordered, r->sndbuf, r->rcvbuf, r->nodelay,
	    (unsigned long long)r->tl_interval_ns, (unsigned long long)r->hwm_kib);
	char cc[3 * sizeof(r->congestion) + 1];
	wire_escape(r->congestion, cc, sizeof(cc));
	add(&l, " mss=%d congestion=%s", r->mss, cc);
	if (r->zc_sends || r->zc_completions)	/* a zerocopy sender's only */
		add(&l, " zc_sends=%llu zc_completions=%llu zc_copied=%llu",
		    (unsigned long long)r->zc_sends, (unsigned long long)r->zc_completions,
		    (unsigned long long)r->zc_copied);
	if (flush_line(fd, &l) < 0)
		return -1;
	if (r->hist && write_hist(fd, r->hist) < 0)
		return -1;
	if (r->has_reverse) {
		add(&l, "reverse messages=%llu bytes=%llu end_ns=%llu",
		    (unsigned long long)r->rev_messages, (unsigned long long)r->rev_bytes,
		    (unsigned long long)r->rev_end_ns);
		if (flush_line(fd, &l) < 0)
			return -1;
	}
	for (size_t i = 0; i < r->tl_len; i++) {
		add(&l, "timeline index=%zu messages=%llu bytes=%llu", i,
		    (unsigned long long)r->tl_messages[i], (unsigned long long)r->tl_bytes[i]);
		if (r->tl_cpu_ns)
			add(&l, " cpu_ns=%llu", (unsigned long long)r->tl_cpu_ns[i]);
		if (flush_line(fd, &l) < 0)
			return -1;
	}
	if (write_tcp(fd, r) < 0)
		return -1;
	add(&l, "end");
	return flush_line(fd, &l);
}

void wire_reader_init(struct wire_reader *rd)
{
	memset(rd, 0, sizeof(*rd));
}

void wire_reader_release(struct wire_reader *rd)
{
	free(rd->buf);
	wire_reader_init(rd);
}

long wire_reader_fill(struct wire_reader *rd, int fd)
{
	ssize_t n;

	if (rd->cap - rd->len < 4096) {
		size_t cap = rd->cap ? rd->cap * 2 : 8192;
		char *nb = realloc(rd->buf, cap);
		if (!nb)
			return -1;
		rd->buf = nb;
		rd->cap = cap;
	}
	do
		n = read(fd, rd->buf + rd->len, rd->cap - rd->len);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		rd->len += (size_t)n;
	return n;
}

int wire_reader_next(struct wire_reader *rd, char **line)
{
	char *nl = rd->len ? memchr(rd->buf, '\n', rd->len) : NULL;
	size_t n;

	if (!nl) {
		if (rd->len > WIRE_MAX_LINE)
			return -1;
		return 0;
	}
	n = (size_t)(nl - rd->buf);
	*line = malloc(n + 1);
	if (!*line)
		return -1;
	memcpy(*line, rd->buf, n);
	(*line)[n] = '\0';
	memmove(rd->buf, nl + 1, rd->len - n - 1);
	rd->len -= n + 1;
	return 1;
}

/* key=value pairs of one line, values still escaped. */
struct kv {
	const char *key, *val;
};

static size_t split(char *line, char **keyword, struct kv *kv, size_t max)
{
	size_t n = 0;
	char *save = NULL, *tok;

	*keyword = strtok_r(line, " ", &save);
	while ((tok = strtok_r(NULL, " ", &save)) && n < max) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			kv[n].key = tok;
			kv[n++].val = "";
			continue;
		}
		*eq = '\0';
		kv[n].key = tok;
		kv[n++].val = eq + 1;
	}
	return n;
}

static int get_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return (errno || end == s || *end || *s == '-') ? -1 : 0;
}

static int apply_result(struct worker_result *r, struct kv *kv, size_t n)
{
	struct { const char *key; uint64_t *dst; } u[] = {
		{ "messages", &r->messages }, { "bytes", &r->bytes },
		{ "sent_messages", &r->sent_messages }, { "sent_bytes", &r->sent_bytes },
		{ "start_ns", &r->start_ns }, { "end_ns", &r->end_ns },
		{ "cpu_ns", &r->cpu_ns }, { "mismatches", &r->mismatches },
		{ "last_send_ns", &r->last_send_ns }, { "t0_ns", &r->t0_ns },
		{ "lost", &r->lost }, { "duplicated", &r->duplicated }, { "reordered", &r->reordered },
		{ "interval_ns", &r->tl_interval_ns }, { "hwm_kib", &r->hwm_kib },
		{ "zc_sends", &r->zc_sends }, { "zc_completions", &r->zc_completions },
		{ "zc_copied", &r->zc_copied },
	};
	struct { const char *key; int *dst; } s[] = {
		{ "sndbuf", &r->sndbuf }, { "rcvbuf", &r->rcvbuf }, { "nodelay", &r->nodelay },
		{ "mss", &r->mss },
	};

	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < ARRAY_SIZE(u); j++)
			if (!strcmp(kv[i].key, u[j].key) && get_u64(kv[i].val, u[j].dst) < 0)
				return -1;
		for (size_t j = 0; j < ARRAY_SIZE(s); j++)
			if (!strcmp(kv[i].key, s[j].key))
				*s[j].dst = atoi(kv[i].val);
		if (!strcmp(kv[i].key, "congestion"))
			wire_unescape(kv[i].val, r->congestion, sizeof(r->congestion));
	}
	r->has_result = 1;
	return 0;
}

static int apply_hist(struct worker_result *r, struct kv *kv, size_t n)
{
	if (!r->hist) {
		r->hist = malloc(sizeof(*r->hist));
		if (!r->hist)
			return -1;
		hist_init(r->hist);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		if (get_u64(kv[i].val, &v) < 0)
			return -1;
		if (!strcmp(kv[i].key, "count"))
			r->hist->count = v;
		else if (!strcmp(kv[i].key, "overflow"))
			r->hist->overflow = v;
		else if (!strcmp(kv[i].key, "min"))
			r->hist->min = v;
		else if (!strcmp(kv[i].key, "max"))
			r->hist->max = v;
		else if (!strcmp(kv[i].key, "sum"))
			r->hist->sum = v;
		else if (!strcmp(kv[i].key, "totals"))
			r->hist->totals = v != 0;
	}
	if (!r->hist->count)
		r->hist->min = UINT64_MAX;
	return 0;
}

static int apply_buckets(struct worker_result *r, char *list)
{
	char *save = NULL, *tok;

	if (!r->hist || r->hist->totals)	/* totals only: no buckets */
		return -1;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		uint64_t idx, cnt;
		if (!colon)
			return -1;
		*colon = '\0';
		if (get_u64(tok, &idx) < 0 || get_u64(colon + 1, &cnt) < 0 ||
		    hist_add_bucket(r->hist, (size_t)idx, cnt) < 0)
			return -1;
	}
	return 0;
}

static int apply_timeline(struct worker_result *r, struct kv *kv, size_t n)
{
	uint64_t idx = UINT64_MAX, msgs = 0, bytes = 0, cpu = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		if (get_u64(kv[i].val, &v) < 0)
			return -1;
		if (!strcmp(kv[i].key, "index"))
			idx = v;
		else if (!strcmp(kv[i].key, "messages"))
			msgs = v;
		else if (!strcmp(kv[i].key, "bytes"))
			bytes = v;
		else if (!strcmp(kv[i].key, "cpu_ns")) {
			cpu = v;
			r->tl_has_cpu = 1;
		}
	}
	if (idx != r->tl_len || idx >= (1u << 24))	/* in order, bounded */
		return -1;
	if ((idx & (idx - 1)) == 0) {	/* 0, 1, 2, 4, ...: room up to 2 * idx */
		size_t cap = idx ? 2 * idx : 1;
		uint64_t *m = realloc(r->tl_messages, cap * sizeof(*m));
		if (!m)
			return -1;
		r->tl_messages = m;
		uint64_t *b = realloc(r->tl_bytes, cap * sizeof(*b));
		if (!b)
			return -1;
		r->tl_bytes = b;
		uint64_t *c = realloc(r->tl_cpu_ns, cap * sizeof(*c));
		if (!c)
			return -1;
		r->tl_cpu_ns = c;
	}
	uint64_t *m = r->tl_messages, *b = r->tl_bytes;
	m[idx] = msgs;
	b[idx] = bytes;
	r->tl_cpu_ns[idx] = cpu;
	r->tl_len = idx + 1;
	return 0;
}

/* A tcp line: one more connection's view, its unnamed fields -1; a key
 * of the table with a value that is no count is malformed. */
static int apply_tcp(struct worker_result *r, struct kv *kv, size_t n)
{
	struct tcp_view tv;

	if (r->ntcp >= WIRE_MAX_TCP)
		return -1;
	for (int k = 0; k < TCPV__COUNT; k++)
		tv.v[k] = -1;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < TCPV__COUNT; k++) {
			uint64_t v;
			if (strcmp(kv[i].key, wire_tcp_keys[k]))
				continue;
			if (get_u64(kv[i].val, &v) < 0 || v > INT64_MAX)
				return -1;
			tv.v[k] = (int64_t)v;
		}
	if ((r->ntcp & (r->ntcp - 1)) == 0) {	/* 0, 1, 2, 4, ...: room up to 2 * ntcp */
		struct tcp_view *t = realloc(r->tcp, (r->ntcp ? 2 * r->ntcp : 1) * sizeof(*t));
		if (!t)
			return -1;
		r->tcp = t;
	}
	r->tcp[r->ntcp++] = tv;
	return 0;
}

static const char *find(struct kv *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].val;
	return NULL;
}

/* A record's histogram must account for every sample it claims: the
 * bucket counts and the overflow add up to its count.  0, or -1 with err. */
static int hist_adds_up(const struct hist *h, char *err, size_t errlen)
{
	uint64_t sum = 0;

	if (!h || h->totals)	/* totals only: count, min, max, sum, nothing to add */
		return 0;
	int wrapped = 0;
	for (size_t i = 0; i < HIST_BUCKETS; i++)
		wrapped |= __builtin_add_overflow(sum, h->buckets[i], &sum);
	uint64_t all;
	wrapped |= __builtin_add_overflow(sum, h->overflow, &all);
	if (!wrapped && all == h->count)
		return 0;
	snprintf(err, errlen, "malformed histogram: its buckets hold %llu samples and %llu "
		 "overflowed, but it counts %llu", (unsigned long long)sum,
		 (unsigned long long)h->overflow, (unsigned long long)h->count);
	return -1;
}

int wire_apply(struct worker_result *r, const char *line, char *err, size_t errlen)
{
	struct kv kv[32];
	char *copy = strdup(line), *keyword;
	size_t n;
	int rc = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!strncmp(copy, "buckets ", 8)) {
		rc = apply_buckets(r, copy + 8);
		goto out;
	}
	n = split(copy, &keyword, kv, ARRAY_SIZE(kv));
	if (!keyword) {
		rc = -1;
	} else if (!strcmp(keyword, "hello")) {
		const char *v = find(kv, n, "version"), *role = find(kv, n, "role"),
			   *pid = find(kv, n, "pid");
		r->version = v ? atoi(v) : 0;
		if (r->version != WIRE_VERSION) {
			snprintf(err, errlen, "worker speaks wire version %s, runner speaks %d",
				 v ? v : "?", WIRE_VERSION);
			free(copy);
			return -1;
		}
		r->role = role && !strcmp(role, "server") ? ROLE_SERVER : ROLE_CLIENT;
		r->pid = pid ? atol(pid) : -1;
	} else if (!strcmp(keyword, "listen")) {
		const char *a = find(kv, n, "address");
		if (a)
			wire_unescape(a, r->address, sizeof(r->address));
		else
			rc = -1;
	} else if (!strcmp(keyword, "ready")) {
		r->ready = 1;
	} else if (!strcmp(keyword, "result")) {
		rc = apply_result(r, kv, n);
	} else if (!strcmp(keyword, "hist")) {
		rc = apply_hist(r, kv, n);
	} else if (!strcmp(keyword, "timeline")) {
		rc = apply_timeline(r, kv, n);
	} else if (!strcmp(keyword, "tcp")) {
		rc = apply_tcp(r, kv, n);
	} else if (!strcmp(keyword, "reverse")) {
		const char *rm = find(kv, n, "messages"), *rb = find(kv, n, "bytes"),
			   *re = find(kv, n, "end_ns");
		rc = !rm || !rb || !re || get_u64(rm, &r->rev_messages) < 0 ||
		     get_u64(rb, &r->rev_bytes) < 0 || get_u64(re, &r->rev_end_ns) < 0 ? -1 : 0;
		r->has_reverse = !rc;
	} else if (!strcmp(keyword, "error")) {
		const char *st = find(kv, n, "stage"), *msg = find(kv, n, "message");
		wire_unescape(st ? st : "worker", r->error_stage, sizeof(r->error_stage));
		wire_unescape(msg ? msg : "unknown error", r->error, sizeof(r->error));
	} else if (!strcmp(keyword, "end")) {
		if (hist_adds_up(r->hist, err, errlen) < 0) {
			free(copy);
			return -1;
		}
		r->ended = 1;
	}
	/* anything else: a newer worker's line, ignored */
out:
	if (rc < 0) {
		snprintf(err, errlen, "malformed report line: %.200s", line);
	}
	free(copy);
	return rc;
}
