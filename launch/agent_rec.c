/* The runner's and the agent's records: see agent_rec.h. */
#include "agent_rec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const agent_rec_names[AGENT_NTYPES] = {
	[AGENT_SPAWN] = "spawn", [AGENT_GO] = "go", [AGENT_END] = "end", [AGENT_KILL] = "kill",
	[AGENT_STARTED] = "started", [AGENT_REPORT] = "report", [AGENT_LOG] = "log",
	[AGENT_EXIT] = "exit", [AGENT_ERROR] = "error",
};

void agent_buf_release(struct agent_buf *b)
{
	free(b->p);
	*b = (struct agent_buf){ 0 };
}

int agent_buf_add(struct agent_buf *b, const void *data, size_t n, size_t limit)
{
	if (agent_buf_size(b) + n > limit)
		return -1;
	if (b->off && b->len + n > b->cap) {	/* room at the front first */
		memmove(b->p, b->p + b->off, b->len - b->off);
		b->len -= b->off;
		b->off = 0;
	}
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
	return 0;
}

void agent_buf_consume(struct agent_buf *b, size_t n)
{
	b->off += n < agent_buf_size(b) ? n : agent_buf_size(b);
	if (b->off == b->len)
		b->off = b->len = 0;
}

int agent_rec_put(struct agent_buf *b, enum agent_rec_type type, uint32_t seq, unsigned slot,
		  const void *data, size_t len)
{
	char hdr[AGENT_HDR_MAX];
	int n;

	if (type <= 0 || type >= AGENT_NTYPES || !seq || slot > AGENT_MAX_SLOT || len > AGENT_REC_MAX)
		return -1;
	n = snprintf(hdr, sizeof(hdr), "%s %u.%u %zu\n", agent_rec_names[type], (unsigned)seq, slot,
		     len);
	if (n <= 0 || (size_t)n >= sizeof(hdr))
		return -1;
	if (agent_buf_add(b, hdr, (size_t)n, SIZE_MAX / 2) < 0 ||
	    agent_buf_add(b, data, len, SIZE_MAX / 2) < 0)
		return -1;
	return 0;
}

int agent_decimal(const char *data, size_t len, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (!len || len > 20 || (data[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (data[i] < '0' || data[i] > '9')
			return -1;
		unsigned d = (unsigned)(data[i] - '0');
		if (x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int agent_dec_feed(struct agent_dec *d, const void *data, size_t n, char *why, size_t whylen)
{
	agent_buf_consume(&d->in, d->taken);
	d->taken = 0;
	if (agent_buf_add(&d->in, data, n, AGENT_HDR_MAX + AGENT_REC_MAX + (1u << 16)) < 0) {
		snprintf(why, whylen, "more than a record's worth of bytes (or out of memory)");
		return -1;
	}
	return 0;
}

/* The header's words (type, tag, length) in h[0..hlen): 0 with rec's
 * type, tag and len, or -1 with why. */
static int parse_header(const char *h, size_t hlen, struct agent_rec *rec, char *why,
			size_t whylen)
{
	const char *sp1 = memchr(h, ' ', hlen), *sp2, *dot;
	uint64_t seq, slot, len;
	int type = 0;

	sp2 = sp1 ? memchr(sp1 + 1, ' ', hlen - (size_t)(sp1 + 1 - h)) : NULL;
	if (!sp2) {
		snprintf(why, whylen, "a record header is 'TYPE SEQ.SLOT LEN'");
		return -1;
	}
	for (int t = 1; t < AGENT_NTYPES; t++)
		if ((size_t)(sp1 - h) == strlen(agent_rec_names[t]) &&
		    !memcmp(h, agent_rec_names[t], (size_t)(sp1 - h)))
			type = t;
	if (!type) {
		snprintf(why, whylen, "unknown record type '%.*s'", (int)(sp1 - h < 16 ? sp1 - h : 16), h);
		return -1;
	}
	dot = memchr(sp1 + 1, '.', (size_t)(sp2 - sp1 - 1));
	if (!dot || agent_decimal(sp1 + 1, (size_t)(dot - sp1 - 1), UINT32_MAX, &seq) < 0 || !seq ||
	    agent_decimal(dot + 1, (size_t)(sp2 - dot - 1), AGENT_MAX_SLOT, &slot) < 0) {
		snprintf(why, whylen, "bad tag '%.*s' (SEQ.SLOT)", (int)(sp2 - sp1 - 1 < 24 ?
			 sp2 - sp1 - 1 : 24), sp1 + 1);
		return -1;
	}
	if (agent_decimal(sp2 + 1, hlen - (size_t)(sp2 + 1 - h), UINT64_MAX, &len) < 0) {
		snprintf(why, whylen, "bad record length");
		return -1;
	}
	if (len > AGENT_REC_MAX) {
		snprintf(why, whylen, "a record of %llu bytes: at most %u", (unsigned long long)len,
			 AGENT_REC_MAX);
		return -1;
	}
	rec->type = (enum agent_rec_type)type;
	rec->seq = (uint32_t)seq;
	rec->slot = (unsigned)slot;
	rec->len = (size_t)len;
	return 0;
}

int agent_dec_next(struct agent_dec *d, struct agent_rec *rec, char *why, size_t whylen)
{
	agent_buf_consume(&d->in, d->taken);
	d->taken = 0;

	size_t have = agent_buf_size(&d->in);
	if (!have)
		return 0;
	const char *p = d->in.p + d->in.off;
	const char *nl = memchr(p, '\n', have < AGENT_HDR_MAX ? have : AGENT_HDR_MAX);

	if (!nl) {
		if (have >= AGENT_HDR_MAX) {
			snprintf(why, whylen, "a record header longer than %d bytes", AGENT_HDR_MAX);
			return -1;
		}
		return 0;
	}
	if (parse_header(p, (size_t)(nl - p), rec, why, whylen) < 0)
		return -1;
	size_t hlen = (size_t)(nl - p) + 1;
	if (have - hlen < rec->len)
		return 0;
	rec->data = nl + 1;
	d->taken = hlen + rec->len;
	return 1;
}

int agent_dec_partial(const struct agent_dec *d)
{
	return agent_buf_size(&d->in) > d->taken;
}

void agent_dec_release(struct agent_dec *d)
{
	agent_buf_release(&d->in);
	d->taken = 0;
}

int agent_spawn_words(const char *data, size_t len, const char **cpus, char **argv, int max,
		      char *why, size_t whylen)
{
	int n = 0;

	if (!len || data[len - 1] != '\0') {
		snprintf(why, whylen, "a spawn record's words are NUL-terminated");
		return -1;
	}
	*cpus = data;
	for (size_t i = strlen(data) + 1; i < len; i += strlen(data + i) + 1) {
		if (n >= max - 1) {
			snprintf(why, whylen, "more than %d words", max - 1);
			return -1;
		}
		argv[n++] = (char *)data + i;
	}
	if (!n) {
		snprintf(why, whylen, "a spawn record without a command");
		return -1;
	}
	argv[n] = NULL;
	return 0;
}

size_t agent_exit_format(int status, const struct rusage *ru, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%u %llu %llu %llu %llu %llu", (unsigned)status & 0xffffu,
			 (unsigned long long)ru->ru_utime.tv_sec * 1000000ull +
			 (unsigned long long)ru->ru_utime.tv_usec,
			 (unsigned long long)ru->ru_stime.tv_sec * 1000000ull +
			 (unsigned long long)ru->ru_stime.tv_usec,
			 (unsigned long long)(ru->ru_maxrss > 0 ? ru->ru_maxrss : 0),
			 (unsigned long long)(ru->ru_nvcsw > 0 ? ru->ru_nvcsw : 0),
			 (unsigned long long)(ru->ru_nivcsw > 0 ? ru->ru_nivcsw : 0));
	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

int agent_exit_parse(const char *data, size_t len, int *status, struct rusage *ru, char *why,
		     size_t whylen)
{
	uint64_t v[6];
	size_t at = 0;

	for (int i = 0; i < 6; i++) {
		size_t end = at;
		while (end < len && data[end] != ' ')
			end++;
		if (agent_decimal(data + at, end - at, i ? (1ull << 53) : 0xffff, &v[i]) < 0 ||
		    (i < 5 && end >= len) || (i == 5 && end != len)) {
			snprintf(why, whylen, "an exit record is 'STATUS UTIME_US STIME_US MAXRSS "
				 "NVCSW NIVCSW'");
			return -1;
		}
		at = end + 1;
	}
	memset(ru, 0, sizeof(*ru));
	*status = (int)v[0];
	ru->ru_utime.tv_sec = (time_t)(v[1] / 1000000);
	ru->ru_utime.tv_usec = (suseconds_t)(v[1] % 1000000);
	ru->ru_stime.tv_sec = (time_t)(v[2] / 1000000);
	ru->ru_stime.tv_usec = (suseconds_t)(v[2] % 1000000);
	ru->ru_maxrss = (long)v[3];
	ru->ru_nvcsw = (long)v[4];
	ru->ru_nivcsw = (long)v[5];
	return 0;
}

void agent_plain_text(const char *data, size_t len, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t k = 0; k < len && o + 1 < outlen; k++)
		out[o++] = data[k] >= 0x20 && data[k] < 0x7f ? data[k] : '?';
	out[o] = '\0';
}
