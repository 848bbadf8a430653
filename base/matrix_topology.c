/* topology: of a matrix file (see matrix.h): netns: true and the link:
 * values, each a dimension link_* appended to dims after matrix:'s. */
#include "matrix_yaml.h"

#include <stdlib.h>
#include <string.h>

#include "units.h"

/* link: keys and the dimensions they make, in the same order. */
static const char *const link_keys[] = { "delay", "jitter", "rate", "loss" };
static const struct dimspec link_specs[] = {
	{ "link_delay", VK_DURATION, 0, 1 },
	{ "link_jitter", VK_DURATION, 0, 1 },
	{ "link_rate", VK_BITRATE, 0, 0 },
	{ "link_loss", VK_PERCENT, 0, 0 },
};

static int load_link(struct loader *L, const yaml_node_t *key, const yaml_node_t *val)
{
	struct matrix *m = L->m;
	struct dimension *dims;
	char why[256];
	size_t n;

	if (val->type != YAML_MAPPING_NODE || !npairs(val))
		return error_node(L, at(key, val), "topology: link: expected a mapping such as "
				  "{delay: 1ms, jitter: 0.1ms, rate: 1gbit, loss: 0.1%%}");
	if (ml_check_keys(L, val))
		return -1;
	n = npairs(val);
	if (!(dims = realloc(m->dims, (m->ndims + n) * sizeof(*dims))))
		return ml_oom(L, val);
	memset(dims + m->ndims, 0, n * sizeof(*dims));
	m->dims = dims;
	for (size_t i = 0; i < n; i++) {
		const yaml_node_t *k = pair_key(L, val, i);
		size_t j = 0;

		while (j < ARRAY_SIZE(link_keys) && strcmp(link_keys[j], scalar(k)))
			j++;
		if (j == ARRAY_SIZE(link_keys)) {
			ml_unknown_name("key", scalar(k), link_keys, ARRAY_SIZE(link_keys), why,
					sizeof(why));
			return error_node(L, k, "topology: link: %s", why);
		}
		if (ml_load_dimension(L, &link_specs[j], k, pair_val(L, val, i)))
			return -1;
	}
	return 0;
}

int ml_load_topology(struct loader *L, const yaml_node_t *val)
{
	static const char *const keys[] = { "netns", "link" };
	const yaml_node_t *link = NULL, *link_key = NULL, *netns_key = NULL;
	char why[256];
	int b;

	if (val->type != YAML_MAPPING_NODE)
		return error_node(L, val, "topology: expected a mapping such as {netns: true, "
				  "link: {delay: 1ms}}");
	if (ml_check_keys(L, val))
		return -1;
	for (size_t i = 0; i < npairs(val); i++) {
		const yaml_node_t *k = pair_key(L, val, i), *v = pair_val(L, val, i);

		if (!strcmp(scalar(k), "link")) {
			link = v;
			link_key = k;
		} else if (!strcmp(scalar(k), "netns")) {
			netns_key = k;
			if (ml_want_scalar(L, k, v))
				return -1;
			if (units_parse_bool(scalar(v), &b, why, sizeof(why)))
				return error_node(L, at(k, v), "topology: netns: %s", why);
			L->m->topology.netns = b;
		} else {
			ml_unknown_name("key", scalar(k), keys, ARRAY_SIZE(keys), why, sizeof(why));
			return error_node(L, k, "topology: %s", why);
		}
	}
	if (L->m->hosts.server.host || L->m->hosts.client.host)
		return error_node(L, val, "topology: and a remote host of hosts: (line %d) do not "
				  "go together: the emulated link joins two namespaces of this "
				  "machine", L->m->hosts.pos.line);
	if (!L->m->topology.netns)
		return error_node(L, netns_key ? netns_key : val, "topology: netns: true is the one "
				  "topology there is (server and client in two network namespaces "
				  "joined by an emulated link); leave topology: out to run on loopback");
	return link ? load_link(L, link_key, link) : 0;
}
