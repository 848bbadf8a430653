/*
 * matrix_regex: the regexes a matrix file holds (ready:, result:,
 * timeline:), PCRE2: see matrix_regex.h.  Programs and timelines both
 * call it; it calls neither.
 */
#include "matrix_regex.h"
#include "matrix_yaml.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pcre2_code *matrix_regex_compile(const char *re, size_t *at, char *why, size_t whylen)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off = 0;
	int rc = 0;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, 0, &rc, &off, NULL);

	*at = 0;
	if (c)
		return c;
	if (pcre2_get_error_message(rc, msg, sizeof msg) < 0)
		snprintf((char *)msg, sizeof msg, "PCRE2 error %d", rc);
	*at = off;
	snprintf(why, whylen, "does not compile: %s at offset %zu", (const char *)msg, (size_t)off);
	return NULL;
}

pcre2_match_context *matrix_regex_context(void)
{
	pcre2_match_context *mc = pcre2_match_context_create(NULL);

	if (mc) {
		pcre2_set_match_limit(mc, MATRIX_REGEX_MATCH_LIMIT);
		pcre2_set_depth_limit(mc, MATRIX_REGEX_DEPTH_LIMIT);
	}
	return mc;
}

int matrix_regex_figure_group(const pcre2_code *c, unsigned *groups)
{
	uint32_t n = 0;
	int g = pcre2_substring_number_from_name(c, (PCRE2_SPTR)"value");

	pcre2_pattern_info(c, PCRE2_INFO_CAPTURECOUNT, &n);
	*groups = n;
	return g > 0 ? g : n ? 1 : 0;
}

int ml_compile(struct loader *L, const yaml_node_t *n, const char *what, const char *text,
	       unsigned *groups, int *figure)
{
	char why[512];
	size_t at;
	unsigned ng;
	pcre2_code *c = matrix_regex_compile(text, &at, why, sizeof why);

	if (!c)
		return error_node(L, n, "%s: regex %s", what, why);
	int g = pcre2_substring_number_from_name(c, (PCRE2_SPTR)"value");

	matrix_regex_figure_group(c, &ng);
	pcre2_code_free(c);
	if (groups)
		*groups = ng;
	if (figure)
		*figure = g > 0 ? g : 0;
	return 0;
}
