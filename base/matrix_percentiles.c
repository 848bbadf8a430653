/*
 * matrix_percentiles: the top-level `percentiles:` key, a list of the
 * round-trip percentiles the run shows (percentile.h): each a plain number
 * above 0 and below 100 with at most PERCENTILE_DECIMALS decimals, the
 * list strictly increasing, 1 to PERCENTILE_MAX of them.  Every refusal
 * is at the node it is about, and states the rule.
 */
#include "matrix_yaml.h"

#include <stdlib.h>
#include <string.h>

#define RULE "a list of 1 to 12 percentiles, increasing, each a number above 0 and below 100 " \
	"with at most 3 decimals, as [50, 99, 99.9, 99.99]"

/* One item's text as a percentile into *out; -1 after the error. */
static int one(struct loader *L, const yaml_node_t *n, double *out)
{
	const char *s;
	size_t whole, dec = 0;

	if (n->type != YAML_SCALAR_NODE)
		return error_node(L, n, "percentiles: an entry is not a number: " RULE);
	s = scalar(n);
	whole = strspn(s, "0123456789");
	if (s[whole] == '.')
		dec = strspn(s + whole + 1, "0123456789");
	if (!whole || (s[whole] == '.' && !dec) || s[whole + (s[whole] == '.') + dec])
		return error_node(L, n, "percentiles: '%s' is not a number: " RULE, s);
	if (dec > PERCENTILE_DECIMALS)
		return error_node(L, n, "percentiles: '%s' has %zu decimals, at most %d: the "
				  "histogram counts every round trip, and p99.999 needs 100,000 "
				  "of a repetition already (" RULE ")", s, dec, PERCENTILE_DECIMALS);
	*out = strtod(s, NULL);
	if (!(*out > 0 && *out < 100))
		return error_node(L, n, "percentiles: %s is not above 0 and below 100 (0 is the "
				  "minimum, 100 the maximum: rtt_min_us and rtt_max_us): " RULE, s);
	return 0;
}

int ml_load_percentiles(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	struct matrix *m = L->m;

	if (val->type != YAML_SEQUENCE_NODE || !nitems(val))
		return error_node(L, at(key, val), "percentiles: %s: " RULE,
				  val->type == YAML_SEQUENCE_NODE ? "an empty list" : "not a list");
	if (nitems(val) > PERCENTILE_MAX)
		return error_node(L, val, "percentiles: %zu entries, at most %d: " RULE, nitems(val),
				  PERCENTILE_MAX);
	for (size_t i = 0; i < nitems(val); i++) {
		yaml_node_t *n = item(L, val, i);
		double p = 0;
		if (one(L, n, &p) < 0)
			return -1;
		if (i && p <= m->percentiles[i - 1])
			return error_node(L, n, "percentiles: %s is not above %g before it: " RULE,
					  scalar(n), m->percentiles[i - 1]);
		m->percentiles[i] = p;
		percentile_column(p, m->percentile_cols[i], sizeof(m->percentile_cols[i]));
	}
	m->npercentiles = nitems(val);
	m->percentiles_pos = ml_node_pos(key);
	return 0;
}
