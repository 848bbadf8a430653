/* `matrix plan --json`: see plan_json.h. */
#include "plan_json.h"
#include "jsonout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* {dimension: value} of a cell, as results.csv writes it, typed; and into
 * label (len bytes) "key=value ..." of every dimension, as the run's JSON
 * labels its cells */
static json_t *cell_params(const struct plan *pl, const struct cell *c, char *label, size_t len,
			   int *bad)
{
	const struct matrix *m = pl->m;
	json_t *o = json_object();
	char buf[4096];
	size_t at = 0;

	label[0] = '\0';
	for (size_t d = 0; o && d < m->ndims; d++) {
		matrix_format_value(&m->dims[d], &m->dims[d].values[c->choice[d]], buf, sizeof(buf));
		jsonout_set(o, m->dims[d].key, jsonout_dim_value(m->dims[d].kind, buf), bad);
		if (at < len)
			at += (size_t)snprintf(label + at, len - at, "%s%s=%s", d ? " " : "",
					       m->dims[d].key, buf);
	}
	return o;
}

static json_t *cell_object(const struct plan *pl, const struct cell *c, int *bad)
{
	const struct cell_params *p = &c->p;
	json_t *o = json_object();
	char label[8192];

	if (!o)
		return NULL;
	json_t *params = cell_params(pl, c, label, sizeof(label), bad);
	jsonout_set(o, "cell", json_integer(c->number), bad);
	jsonout_set(o, "label", jsonout_string(label), bad);
	jsonout_set(o, "params", params, bad);
	jsonout_set(o, "pattern", json_string(pattern_names[p->pattern]), bad);
	jsonout_set(o, "transport", json_string(p->transport->name), bad);
	jsonout_set(o, "size", json_integer((json_int_t)p->size), bad);
	jsonout_set(o, "response_size", pattern_info(p->pattern)->reply == PATTERN_REPLY_SIZED
		    ? json_integer((json_int_t)p->response_size) : json_null(), bad);
	jsonout_set(o, "concurrency", json_integer(p->concurrency), bad);
	jsonout_set(o, "count", p->duration_ns ? json_null() : json_integer((json_int_t)p->count),
		    bad);
	jsonout_set(o, "duration_s", p->duration_ns ? json_real((double)p->duration_ns / 1e9)
		    : json_null(), bad);
	jsonout_set(o, "inflight", json_integer(p->inflight), bad);
	jsonout_set(o, "nodelay", p->transport->has_nodelay ? json_boolean(p->nodelay)
		    : json_null(), bad);
	jsonout_set(o, "poll", json_string(poll_names[p->poll]), bad);
	jsonout_set(o, "direction", json_string(direction_names[p->direction]), bad);
	jsonout_set(o, "busy_poll_us", p->busy_poll_ns ? json_integer((json_int_t)(p->busy_poll_ns /
		    1000)) : json_null(), bad);
	/* socket options asked (null: the kernel's own) */
	jsonout_set(o, "sndbuf", p->sndbuf ? json_integer((json_int_t)p->sndbuf) : json_null(), bad);
	jsonout_set(o, "rcvbuf", p->rcvbuf ? json_integer((json_int_t)p->rcvbuf) : json_null(), bad);
	jsonout_set(o, "congestion", p->congestion ? jsonout_string(p->congestion) : json_null(),
		    bad);
	jsonout_set(o, "mss", p->mss ? json_integer((json_int_t)p->mss) : json_null(), bad);
	jsonout_set(o, "zerocopy", json_boolean(p->zerocopy), bad);
	jsonout_set(o, "batch", json_integer(p->batch), bad);
	jsonout_set(o, "server", jsonout_string(p->server_prog ? p->server_prog->name : "builtin"),
		    bad);
	jsonout_set(o, "client", jsonout_string(p->client_prog ? p->client_prog->name : "builtin"),
		    bad);
	char place[MATRIX_MAX_PLACEMENT];
	plan_placement_text(pl, p, place, sizeof(place));
	jsonout_set(o, "placement", jsonout_string(place), bad);
	return o;
}

int plan_json_print(const struct plan *pl, FILE *f)
{
	const struct matrix *m = pl->m;
	json_t *doc = json_object(), *mat = json_object(), *dims = json_array();
	json_t *cells = json_array();
	int bad = 0;

	if (mat) {
		jsonout_set(mat, "name", jsonout_string(m->name), &bad);
		jsonout_set(mat, "description", jsonout_string(m->description), &bad);
	}
	for (size_t d = 0; dims && d < m->ndims; d++)
		jsonout_append(dims, jsonout_string(m->dims[d].key), &bad);
	for (size_t i = 0; cells && i < pl->ncells; i++)
		jsonout_append(cells, cell_object(pl, &pl->cells[i], &bad), &bad);
	jsonout_set(doc, "schema_version", json_integer(PLAN_JSON_SCHEMA), &bad);
	jsonout_set(doc, "document", json_string("plan"), &bad);
	jsonout_set(doc, "matrix", mat, &bad);
	jsonout_set(doc, "dimensions", dims, &bad);
	jsonout_set(doc, "repeat", json_integer(pl->repeat), &bad);
	jsonout_set(doc, "repeat_min", m->repeat_min ? json_integer(m->repeat_min) : json_null(),
		    &bad);
	jsonout_set(doc, "cell_runs", json_integer((json_int_t)(pl->ncells * pl->repeat)), &bad);
	jsonout_set(doc, "worker_processes", json_integer((json_int_t)plan_worker_runs(pl)), &bad);
	jsonout_set(doc, "warmup", json_integer((json_int_t)m->warmup), &bad);
	jsonout_set(doc, "timeout_s", json_real((double)m->timeout_ns / 1e9), &bad);
	jsonout_set(doc, "cells", cells, &bad);
	int rc = bad || !doc ? (errno = ENOMEM, -1) : jsonout_print(doc, f);
	json_decref(doc);
	return rc;
}
