/* timeline: of a program, its server's per-interval lines: see matrix.h. */
#include "matrix_regex.h"
#include "matrix_yaml.h"
#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const capture_names[] = { "time", "index", "messages", "rate" };

static int *capture_group(struct program_timeline *tl, size_t i)
{
	int *const g[] = { &tl->time_group, &tl->index_group, &tl->messages_group,
			   &tl->rate_group };

	return g[i];
}

/* The offset of the name of a named capture in re ("(?<name>", "(?'name'"
 * or "(?P<name>"), 0 when not found. */
static size_t name_offset(const char *re, const char *name, size_t len)
{
	static const char *const forms[] = { "(?<%.*s>", "(?'%.*s'", "(?P<%.*s>" };
	char want[96];

	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		snprintf(want, sizeof want, forms[i], (int)len, name);
		const char *p = strstr(re, want);
		if (p)
			return (size_t)(p - re) + 3 + (i == 2);
	}
	return 0;
}

/* Exactly one of the captures a and b (indexes into capture_names). */
static int one_of(struct program_timeline *tl, size_t a, size_t b, const char *re,
		  size_t *at, char *why, size_t whylen)
{
	int ga = *capture_group(tl, a), gb = *capture_group(tl, b);

	if (ga && gb) {
		const char *later = capture_names[ga > gb ? a : b];
		*at = name_offset(re, later, strlen(later));
		return ml_failf(why, whylen, "give (?<%s>...) or (?<%s>...), not both",
				capture_names[a], capture_names[b]);
	}
	if (!ga && !gb) {
		*at = strlen(re);
		return ml_failf(why, whylen, "needs a (?<%s>...) or a (?<%s>...) capture",
				capture_names[a], capture_names[b]);
	}
	return 0;
}

/* The named captures of c into tl's groups; -1 with why and *at for a
 * name not in capture_names. */
static int named_groups(const pcre2_code *c, const char *re, struct program_timeline *tl,
			size_t *at, char *why, size_t whylen)
{
	uint32_t count = 0, size = 0;
	PCRE2_SPTR table = NULL;

	pcre2_pattern_info(c, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(c, PCRE2_INFO_NAMEENTRYSIZE, &size);
	pcre2_pattern_info(c, PCRE2_INFO_NAMETABLE, &table);
	for (uint32_t i = 0; i < count; i++, table += size) {
		const char *name = (const char *)table + 2;
		size_t k = 0, len = strlen(name);
		while (k < ARRAY_SIZE(capture_names) && strcmp(capture_names[k], name))
			k++;
		if (k == ARRAY_SIZE(capture_names)) {
			*at = name_offset(re, name, len);
			return ml_unknown_name("capture name", name, capture_names,
					       ARRAY_SIZE(capture_names), why, whylen);
		}
		*capture_group(tl, k) = table[0] << 8 | table[1];
	}
	return 0;
}

char *matrix_timeline_regex(const char *re, struct program_timeline *tl, size_t *at, char *why,
			    size_t whylen)
{
	pcre2_code *c = matrix_regex_compile(re, at, why, whylen);
	char *out = NULL;

	tl->time_group = tl->index_group = tl->messages_group = tl->rate_group = 0;
	if (!c)
		return NULL;
	if (named_groups(c, re, tl, at, why, whylen) < 0 ||
	    one_of(tl, 0, 1, re, at, why, whylen) < 0 || one_of(tl, 2, 3, re, at, why, whylen) < 0)
		goto done;
	if (!(out = strdup(re))) {
		*at = 0;
		snprintf(why, whylen, "out of memory");
	}
done:
	pcre2_code_free(c);
	return out;
}

/* The column of offset `at` of the regex node n when its text is the
 * file's text (a plain or single-quoted scalar on one line, ASCII,
 * nothing escaped), else n's own. */
static size_t column_of(const struct loader *L, const yaml_node_t *n, size_t at)
{
	size_t start = n->start_mark.index, end = n->end_mark.index;
	int quoted = n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE;
	const char *text = scalar(n);

	for (size_t i = 0; i < at && text[i]; i++)
		if ((unsigned char)text[i] >= 0x80)
			return n->start_mark.column + 1;
	if ((n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE && !quoted) || end > L->len ||
	    n->start_mark.line != n->end_mark.line ||
	    end - start != n->data.scalar.length + 2 * (size_t)quoted)
		return n->start_mark.column + 1;
	return n->start_mark.column + 1 + (size_t)quoted + at;
}

/* A unit of (?<time>) or (?<rate>) as its factor to seconds or to
 * messages per second; 0 for an unknown one. */
static double unit_factor(const char *what, const char *unit)
{
	static const struct { const char *what, *unit; double f; } units[] = {
		{ "time", "ns", 1e-9 }, { "time", "us", 1e-6 }, { "time", "µs", 1e-6 },
		{ "time", "ms", 1e-3 }, { "time", "s", 1 },
	};

	if (!strcmp(what, "rate"))	/* the units of rate: too (units.h) */
		return (double)units_rate_factor(unit);
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(units[i].what, what) && !strcmp(units[i].unit, unit))
			return units[i].f;
	return 0;
}

/* time: or rate: (k, v) into *scale: the capture it names must be there. */
static int load_unit(struct loader *L, const yaml_node_t *k, const yaml_node_t *v, int group,
		     double *scale)
{
	const char *what = scalar(k);

	if (!group)
		return error_node(L, k, "timeline: %s: is the unit of (?<%s>...), which the "
				  "regex does not have", what, what);
	if (!(*scale = unit_factor(what, scalar(v))))
		return error_node(L, v, "timeline: %s: unknown unit '%s' (known: %s)", what,
				  scalar(v), !strcmp(what, "time") ? "ns, us, ms, s" : "/s, k/s, M/s");
	return 0;
}

/* regex: into tl, compiled, its named captures found and checked. */
static int load_regex(struct loader *L, struct program_timeline *tl, const yaml_node_t *rx)
{
	char why[512];
	size_t at;

	if (!(tl->regex = matrix_timeline_regex(scalar(rx), tl, &at, why, sizeof why)))
		return !strncmp(why, "does not compile", 16) ?
		       error_node(L, rx, "timeline: regex: %s", why) :
		       ml_error_at(L, rx->start_mark.line + 1, column_of(L, rx, at),
				   "timeline: regex: %s", why);
	return 0;
}

int ml_load_timeline(struct loader *L, struct program *pr, const yaml_node_t *prog,
		     const yaml_node_t *key, const yaml_node_t *val)
{
	static const char *const keys[] = { "regex", "time", "rate", "interval" };
	struct program_timeline *tl = &pr->timeline;
	const yaml_node_t *k, *v;
	char why[512];

	if (val->type != YAML_MAPPING_NODE || !npairs(val))
		return error_node(L, at(key, val), "timeline: expected a mapping {regex: ..., "
				  "time: ..., rate: ..., interval: ...}");
	if (!ml_find_key(L, prog, "server", NULL))
		return error_node(L, key, "programs: %s: timeline: reads the server's output, and "
				  "%s has no server:", pr->name, pr->name);
	if (ml_check_keys(L, val))
		return -1;
	for (size_t i = 0; i < npairs(val); i++) {
		size_t j = 0;
		k = pair_key(L, val, i);
		v = pair_val(L, val, i);
		while (j < ARRAY_SIZE(keys) && strcmp(scalar(k), keys[j]))
			j++;
		if (j == ARRAY_SIZE(keys))
			return ml_unknown_key(L, k, "timeline: ", "key", keys, ARRAY_SIZE(keys));
		if (ml_want_scalar(L, k, v))
			return -1;
		if (is_null(v))
			return error_node(L, k, "timeline: %s: no value", scalar(k));
	}
	tl->pos = ml_node_pos(key);
	tl->time_scale = tl->rate_scale = 1;
	if (!(v = ml_find_key(L, val, "regex", NULL)))
		return error_node(L, val, "timeline: missing regex:");
	if (load_regex(L, tl, v))
		return -1;
	if ((v = ml_find_key(L, val, "time", &k)) && load_unit(L, k, v, tl->time_group,
							       &tl->time_scale))
		return -1;
	if ((v = ml_find_key(L, val, "rate", &k)) && load_unit(L, k, v, tl->rate_group,
							       &tl->rate_scale))
		return -1;
	if ((v = ml_find_key(L, val, "interval", &k))) {
		if (ml_parse_num(VK_DURATION, scalar(v), &tl->interval_ns, why, sizeof why))
			return error_node(L, v, "timeline: interval: %s", why);
		if (!tl->interval_ns)
			return error_node(L, v, "timeline: interval: must be above 0");
	} else if (tl->index_group) {
		return error_node(L, key, "timeline: (?<index>...) needs interval:, each "
				  "interval's length (or capture (?<time>...) instead)");
	}
	return 0;
}
