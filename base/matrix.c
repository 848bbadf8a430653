/*
 * matrix: the schema of a matrix file (the keys of `matrix:` and their
 * kinds) and its values both ways, text to number and back: see matrix.h
 * (the messages every file of the model writes are matrix_messages.c).  It
 * knows no YAML: the walk is matrix_file.c, with one file per section.
 */
#include "matrix_schema.h"
#include "fnv.h"
#include "knobs.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrays.h"
#include "placement.h"
#include "suggest.h"
#include "units.h"

static const char *const kind_names[] = {
	[VK_PATTERN] = "pattern",
	[VK_TRANSPORT] = "transport",
	[VK_SIZE] = "size",
	[VK_COUNT] = "count",
	[VK_DURATION] = "duration",
	[VK_BOOL] = "boolean",
	[VK_ENDPOINT] = "endpoint",
	[VK_PROGRAM] = "program",
	[VK_RATE] = "rate",
	[VK_RECORD] = "record",
	[VK_POLL] = "poll",
	[VK_WAKE] = "wake",
	[VK_CPU] = "placement",
	[VK_BITRATE] = "bit rate",
	[VK_PERCENT] = "percentage",
	[VK_DIRECTION] = "direction",
	[VK_AUTOSIZE] = "size",
	[VK_NAME] = "name",
};

/* The keys of `matrix:`; a new dimension is one line here. */
static const struct dimspec dimspecs[] = {
	{ "pattern", VK_PATTERN, 0, 0 },
	{ "transport", VK_TRANSPORT, 0, 0 },
	{ "size", VK_SIZE, 0, 0 },
	{ "response_size", VK_SIZE, 0, 0 },
	{ "concurrency", VK_COUNT, 1024, 0 },
	{ "count", VK_COUNT, 0, 0 },
	{ "duration", VK_DURATION, 0, 0 },
	{ "inflight", VK_COUNT, 1024, 0 },
	{ "nodelay", VK_BOOL, 0, 0 },
	{ "allow_loss", VK_BOOL, 0, 0 },
	{ "loss_timeout", VK_DURATION, 0, 0 },
	{ "endpoint", VK_ENDPOINT, 0, 0 },
	{ "server", VK_PROGRAM, 0, 0 },
	{ "client", VK_PROGRAM, 0, 0 },
	{ "interval", VK_DURATION, 0, 0 },
	{ "spin", VK_DURATION, MATRIX_MAX_SPIN_NS, 1 },
	{ "rate", VK_RATE, 0, 0 },
	{ "record", VK_RECORD, 0, 0 },
	{ "poll", VK_POLL, 0, 0 },
	{ "busy_poll", VK_DURATION, 0, 1 },
	{ "wake", VK_WAKE, 0, 0 },
	{ "cpu", VK_CPU, 0, 0 },
	{ "direction", VK_DIRECTION, 0, 0 },
	/* socket options (issue 29): the kernel's own unless set */
	{ "sndbuf", VK_AUTOSIZE, MATRIX_MAX_SOCKBUF, 0 },
	{ "rcvbuf", VK_AUTOSIZE, MATRIX_MAX_SOCKBUF, 0 },
	{ "congestion", VK_NAME, 0, 0 },
	{ "mss", VK_AUTOSIZE, MATRIX_MAX_MSS, 0 },
	/* stream senders (issue 29): MSG_ZEROCOPY (tcp, tcp6); sendmmsg and
	 * recvmmsg of up to batch messages a call (udp, unix_dgram), at most
	 * the kernel's UIO_MAXIOV */
	{ "zerocopy", VK_BOOL, 0, 0 },
	{ "batch", VK_COUNT, 1024, 0 },
};
_Static_assert(ARRAY_SIZE(dimspecs) <= ML_MAX_DIMSPECS, "raise ML_MAX_DIMSPECS");

/* ---- values ---- */

static int parse_pattern(const char *text, uint64_t *num, char *why,
			 size_t whylen)
{
	for (size_t i = 0; i < PAT__COUNT; i++) {
		if (!strcmp(pattern_names[i], text)) {
			*num = i;
			return 0;
		}
	}
	return ml_unknown_name("pattern", text, pattern_names, PAT__COUNT, why,
			    whylen);
}

static int parse_transport(const char *text, uint64_t *num, char *why,
			   size_t whylen)
{
	for (size_t i = 0; i < VOCAB_NTRANSPORTS; i++) {
		if (!strcmp(transport_names[i], text)) {
			*num = i;
			return 0;
		}
	}
	return ml_unknown_name("transport", text, transport_names, VOCAB_NTRANSPORTS, why,
			       whylen);
}

/* A placement (placement.h) as its text in norm and its number: none 0,
 * same 1, split 2, a mapping the FNV-1a hash of its text, top bit set. */
static int parse_cpu(const char *text, uint64_t *num, char *norm, size_t normlen, char *why,
		     size_t whylen)
{
	struct placement pl;

	if (placement_parse(text, &pl, why, whylen) < 0)
		return -1;
	placement_format(&pl, norm, normlen);
	if (strlen(norm) + 1 >= normlen)
		return ml_failf(why, whylen, "placement '%.40s...' is too long: at most %zu "
				"characters as server=CPUS;clients=CPUS", text, normlen - 2);
	*num = (uint64_t)pl.mode;
	if (pl.mode == PLACE_MAP)
		*num = ml_hash(norm, 0) | 1ull << 63;
	return 0;
}

/* text as a number of kind, without copying it. */
/* text as one of a vocabulary's n words: its index into *num. */
static int parse_word(const char *what, const char *const *words, size_t n, const char *text,
		      uint64_t *num, char *why, size_t whylen)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(words[i], text)) {
			*num = i;
			return 0;
		}
	return ml_unknown_name(what, text, words, n, why, whylen);
}

int ml_parse_num(enum value_kind kind, const char *text, uint64_t *num,
		     char *why, size_t whylen)
{
	char r[160];
	int b, rc = 0;

	if (!*text)
		return ml_failf(why, whylen, "missing value");
	switch (kind) {
	case VK_PATTERN:
		return parse_pattern(text, num, why, whylen);
	case VK_TRANSPORT:
		return parse_transport(text, num, why, whylen);
	case VK_NAME:
	case VK_AUTOSIZE:
		return ml_parse_knob(kind, text, num, why, whylen);
	case VK_PROGRAM:
		/* checked against programs: once the whole file is read */
		if (strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_.-") != strlen(text))
			return ml_failf(why, whylen, "'%s' is not a program name: letters, digits, "
				     "'_', '.' and '-'", text);
		*num = 0;
		if (strcmp(text, "builtin")) {
			*num = fnv1a64_str(FNV1A64_VALUE_BASIS, text) | 1;
		}
		return 0;
	case VK_CPU: {
		char norm[MATRIX_MAX_PLACEMENT];
		return parse_cpu(text, num, norm, sizeof(norm), why, whylen);
	}
	case VK_ENDPOINT:
		return parse_word("endpoint", endpoint_names, EP__COUNT, text, num, why, whylen);
	case VK_RECORD:
		return parse_word("record", record_names, REC__COUNT, text, num, why, whylen);
	case VK_POLL:
		return parse_word("poll", poll_names, POLL__COUNT, text, num, why, whylen);
	case VK_WAKE:
		return parse_word("wake", wake_names, WAKE__COUNT, text, num, why, whylen);
	case VK_DIRECTION:
		return parse_word("direction", direction_names, DIR__COUNT, text, num, why, whylen);
	case VK_BOOL:
		rc = units_parse_bool(text, &b, r, sizeof r);
		if (!rc)
			*num = (uint64_t)b;
		break;
	case VK_SIZE:
		rc = units_parse_size(text, num, r, sizeof r);
		break;
	case VK_COUNT:
		rc = units_parse_count(text, num, r, sizeof r);
		break;
	case VK_DURATION:
		rc = units_parse_duration(text, num, r, sizeof r);
		break;
	case VK_BITRATE:
		rc = units_parse_bitrate(text, num, r, sizeof r);
		break;
	case VK_PERCENT:
		rc = units_parse_percent(text, num, r, sizeof r);
		break;
	case VK_RATE:
		if (!strcmp(text, "unpaced")) {	/* the one rate of 0: as fast as it goes */
			*num = 0;
			return 0;
		}
		rc = units_parse_rate(text, num, r, sizeof r);
		if (!rc && !*num)
			return ml_failf(why, whylen, "invalid rate '%s': must be greater than zero "
					"(unpaced: as fast as it goes)", text);
		break;
	default:
		return ml_failf(why, whylen, "unknown value kind %d", (int)kind);
	}
	if (rc)
		return ml_failf(why, whylen, "invalid %s '%s': %s", kind_names[kind],
			     text, r);
	/* a zero duration is refused by the loader, per key (spin: 0us is fine) */
	if (kind != VK_BOOL && kind != VK_DURATION && kind != VK_PERCENT && *num == 0)
		return ml_failf(why, whylen, "invalid %s '%s': must be greater than zero",
			     kind_names[kind], text);
	return 0;
}

int matrix_parse_value(enum value_kind kind, const char *text,
		       struct mvalue *v, char *why, size_t whylen)
{
	uint64_t num;
	char *copy, norm[MATRIX_MAX_PLACEMENT];

	if (kind == VK_CPU ? parse_cpu(text, &num, norm, sizeof(norm), why, whylen)
	    : ml_parse_num(kind, text, &num, why, whylen))
		return -1;
	copy = strdup(kind == VK_CPU ? norm : text);
	if (!copy)
		return ml_failf(why, whylen, "out of memory");
	v->text = copy;
	v->num = num;
	return 0;
}

const struct dimspec *ml_find_dimspec(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(dimspecs); i++)
		if (!strcmp(dimspecs[i].key, key))
			return &dimspecs[i];
	return NULL;
}

size_t ml_dimspec_keys(const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(dimspecs) && n < max; i++)
		out[n++] = dimspecs[i].key;
	return n;
}

int matrix_dim_is_link(const struct dimension *d)
{
	return !strncmp(d->key, "link_", 5);
}

int matrix_key_kind(const char *key)
{
	const struct dimspec *s = ml_find_dimspec(key);

	return s ? (int)s->kind : -1;
}

const struct dimension *matrix_dim(const struct matrix *m, const char *key)
{
	for (size_t i = 0; i < m->ndims; i++)
		if (!strcmp(m->dims[i].key, key))
			return &m->dims[i];
	return NULL;
}

void matrix_format_value(const struct dimension *d, const struct mvalue *v, char *buf,
			 size_t len)
{
	switch (d->kind) {
	case VK_SIZE:
	case VK_COUNT:
	case VK_BITRATE:	/* bits per second */
	case VK_RATE:	/* per second */
		snprintf(buf, len, "%" PRIu64, v->num);
		break;
	case VK_DURATION:
		snprintf(buf, len, "%.9g", (double)v->num / 1e9);
		break;
	case VK_PERCENT:	/* in percent */
		snprintf(buf, len, "%.9g", (double)v->num / 1e6);
		break;
	case VK_BOOL:
		snprintf(buf, len, "%s", v->num ? "true" : "false");
		break;
	case VK_PATTERN:
		snprintf(buf, len, "%s", pattern_names[v->num]);
		break;
	case VK_TRANSPORT:
		snprintf(buf, len, "%s", transport_names[v->num]);
		break;
	case VK_ENDPOINT:
		snprintf(buf, len, "%s", endpoint_names[v->num]);
		break;
	case VK_RECORD:
		snprintf(buf, len, "%s", record_names[v->num]);
		break;
	case VK_POLL:
		snprintf(buf, len, "%s", poll_names[v->num]);
		break;
	case VK_WAKE:
		snprintf(buf, len, "%s", wake_names[v->num]);
		break;
	case VK_DIRECTION:
		snprintf(buf, len, "%s", direction_names[v->num]);
		break;
	case VK_AUTOSIZE:
		snprintf(buf, len, v->num ? "%" PRIu64 : "auto", v->num);
		break;
	case VK_PROGRAM:
	case VK_CPU:
	case VK_NAME:
		snprintf(buf, len, "%s", v->text);
		break;
	}
}
