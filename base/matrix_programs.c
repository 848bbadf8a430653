/* programs: of a matrix file, the user's own servers and clients: see matrix.h. */
#include "matrix_yaml.h"
#include "matrix_command.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "suggest.h"
#include "units.h"
#include "vocab.h"

/* ---- programs: ---- */

const struct program *matrix_program(const struct matrix *m, const char *name)
{
	for (size_t i = 0; i < m->nprograms; i++)
		if (!strcmp(m->programs[i].name, name))
			return &m->programs[i];
	return NULL;
}

static const char *const placeholders[] = {
	"host", "port", "path", "size", "response_size", "count", "concurrency",
	"duration_s", "endpoint", "tmp",
};

const char *matrix_word_placeholder(const char *word, char *name, size_t len)
{
	for (const char *p = word; *p; p++) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			p++;	/* a literal brace */
			continue;
		}
		if (*p == '}') {	/* a lone '}': as wrong as a lone '{' */
			snprintf(name, len, "}");
			return NULL;
		}
		if (*p != '{')
			continue;
		const char *end = strchr(p, '}');
		size_t n = end ? (size_t)(end - p - 1) : 0;
		snprintf(name, len, "%.*s", (int)n, p + 1);
		return !end || !n || n >= len ? NULL : end + 1;
	}
	name[0] = '\0';
	return word + strlen(word);
}

int matrix_word_uses(const char *word, const char *name)
{
	char got[64];

	for (const char *p = word; p && *p;)
		if ((p = matrix_word_placeholder(p, got, sizeof(got))) && !strcmp(got, name))
			return 1;
	return 0;
}

/* Every {name} in word is a placeholder or a key of matrix: ({tmp} alone
 * in a setup: or teardown: step, `once`); {{ and }} are braces. */
static int check_placeholders(struct loader *L, const yaml_node_t *at_node, const char *word,
			      const char *once)
{
	char name[64];
	size_t i;

	for (const char *p = word; *p;) {
		if (!(p = matrix_word_placeholder(p, name, sizeof(name))))
			return error_node(L, at_node, "'%s': %s (a literal brace is {{ or }})", word,
					  !strcmp(name, "}") ? "a '}' that closes no placeholder" :
					  "a '{' without a placeholder name and '}'");
		if (!name[0])
			break;
		if (once && strcmp(name, "tmp"))
			return error_node(L, at_node, "%s: {%s}: setup: and teardown: steps run once, "
					  "outside any cell: {tmp} is their only placeholder", once,
					  name);
		for (i = 0; i < ARRAY_SIZE(placeholders) && strcmp(placeholders[i], name); i++)
			;
		if (i == ARRAY_SIZE(placeholders) && !matrix_dim(L->m, name)) {
			const char *s = suggest_closest(name, placeholders, ARRAY_SIZE(placeholders));
			return error_node(L, at_node, "unknown placeholder {%s}%s%s%s (known: {host} "
					  "{port} {path} {size} {response_size} {count} {concurrency} "
					  "{duration_s} {endpoint} {tmp} and the keys of matrix:)", name,
					  s ? "; did you mean {" : "", s ? s : "", s ? "}?" : "");
		}
	}
	return 0;
}

/* A command: a list of words, or one string split at spaces (never a shell). */
static int load_command(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
			char ***argv, size_t *argc, struct srcpos *pos)
{
	size_t n = 0;

	*pos = ml_node_pos(val);
	if (val->type == YAML_SCALAR_NODE) {
		char *copy = strdup(scalar(val)), *save = NULL;
		if (!copy)
			return ml_oom(L, val);
		*argv = calloc(strlen(copy) / 2 + 2, sizeof(**argv));
		for (char *w = strtok_r(copy, " \t", &save); w && *argv; w = strtok_r(NULL, " \t", &save))
			if (!((*argv)[n++] = strdup(w)))
				break;
		free(copy);
	} else if (val->type == YAML_SEQUENCE_NODE) {
		*argv = calloc(nitems(val) + 1, sizeof(**argv));
		for (size_t i = 0; *argv && i < nitems(val); i++) {
			const yaml_node_t *w = item(L, val, i);
			*argc = n;	/* what is there is freed with the matrix */
			if (w->type != YAML_SCALAR_NODE)
				return error_node(L, w, "%s: each word must be a scalar", scalar(key));
			if (!((*argv)[n++] = strdup(scalar(w))))
				break;
		}
	} else {
		return error_node(L, val, "%s: expected a list of words or a string", scalar(key));
	}
	*argc = n;
	if (!*argv)
		return ml_oom(L, val);
	if (!n || !*(*argv)[0])
		return error_node(L, at(key, val), "%s: empty command", scalar(key));
	const char *once = !strcmp(scalar(key), "setup") || !strcmp(scalar(key), "teardown") ?
			   scalar(key) : NULL;
	for (size_t i = 0; i < n; i++)
		if (check_placeholders(L, val->type == YAML_SEQUENCE_NODE ? item(L, val, i) : val,
				       (*argv)[i], once))
			return -1;
	return 0;
}

char **matrix_program_command(const struct program *pr, int client, const char *transport,
			      size_t *argc)
{
	const struct program_command *by = client ? pr->client_by : pr->server_by;
	size_t n = client ? pr->nclient_by : pr->nserver_by;

	*argc = 0;
	if (!by) {
		*argc = client ? pr->nclient : pr->nserver;
		return client ? pr->client : pr->server;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(by[i].transport, transport)) {
			*argc = by[i].argc;
			return by[i].argv;
		}
	return NULL;
}

void matrix_program_transports(const struct program *pr, int client, char *buf, size_t len)
{
	const struct program_command *by = client ? pr->client_by : pr->server_by;
	size_t n = client ? pr->nclient_by : pr->nserver_by, o = 0;

	buf[0] = '\0';
	for (size_t i = 0; by && i < n && o < len; i++) {
		int w = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", by[i].transport);
		o += w > 0 ? (size_t)w : 0;
	}
}

/* server: or client: (key): a command, or a mapping of transport name to
 * a command (each name once, a name of transport_names). */
static int load_role(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
		     struct program *pr, int client)
{
	struct program_command **by = client ? &pr->client_by : &pr->server_by;
	size_t *nby = client ? &pr->nclient_by : &pr->nserver_by;
	char why[512];

	if (val->type != YAML_MAPPING_NODE)
		return load_command(L, key, val, client ? &pr->client : &pr->server,
				    client ? &pr->nclient : &pr->nserver,
				    client ? &pr->client_pos : &pr->server_pos);
	if (!npairs(val))
		return error_node(L, val, "%s: an empty mapping: give a command per transport, "
				  "e.g. {unix: [...], tcp: [...]}", scalar(key));
	if (ml_check_keys(L, val))
		return -1;
	if (!(*by = calloc(npairs(val), sizeof(**by))))
		return ml_oom(L, val);
	for (size_t i = 0; i < npairs(val); i++) {
		yaml_node_t *k = pair_key(L, val, i), *w = pair_val(L, val, i);
		struct program_command *c = &(*by)[i];
		size_t t;
		for (t = 0; t < VOCAB_NTRANSPORTS && strcmp(transport_names[t], scalar(k)); t++)
			;
		if (t == VOCAB_NTRANSPORTS) {
			ml_unknown_name("transport", scalar(k), transport_names, VOCAB_NTRANSPORTS,
					why, sizeof why);
			return error_node(L, k, "programs: %s: %s: %s", pr->name, scalar(key), why);
		}
		c->transport = (char *)transport_names[t];
		c->pos = ml_node_pos(k);
		(*nby)++;
		if (load_command(L, key, w, &c->argv, &c->argc, &c->pos))
			return -1;
		c->pos = ml_node_pos(k);
	}
	*(client ? &pr->client : &pr->server) = (*by)[0].argv;
	*(client ? &pr->nclient : &pr->nserver) = (*by)[0].argc;
	*(client ? &pr->client_pos : &pr->server_pos) = ml_node_pos(val);
	return 0;
}

/* setup: or teardown: (key): one command (a string, or a list of scalar
 * words), or a list of commands (a list with a list in it: each item a
 * list of words or a string). */
static int load_steps(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
		      struct program_step **steps, size_t *nsteps)
{
	size_t n = 1;
	int many = 0;

	for (size_t i = 0; val->type == YAML_SEQUENCE_NODE && i < nitems(val); i++)
		many |= item(L, val, i)->type == YAML_SEQUENCE_NODE;
	if (many && (n = nitems(val)) > MATRIX_MAX_STEPS)
		return error_node(L, val, "%s: %zu steps, more than the %d a program may have",
				  scalar(key), n, MATRIX_MAX_STEPS);
	if (!(*steps = calloc(n, sizeof(**steps))))
		return ml_oom(L, val);
	for (size_t i = 0; i < n; i++) {
		const yaml_node_t *v = many ? item(L, val, i) : val;
		struct program_step *st = &(*steps)[i];
		*nsteps = i + 1;	/* what is there is freed with the matrix */
		if (many && v->type != YAML_SEQUENCE_NODE && v->type != YAML_SCALAR_NODE)
			return error_node(L, v, "%s: each step must be a list of words or a string",
					  scalar(key));
		if (load_command(L, key, v, &st->argv, &st->argc, &st->pos))
			return -1;
	}
	return 0;
}

void matrix_program_steps_release(struct program *pr)
{
	for (int t = 0; t < 2; t++) {
		struct program_step *steps = t ? pr->teardown : pr->setup;
		size_t n = t ? pr->nteardown : pr->nsetup;
		for (size_t i = 0; i < n; i++) {
			for (size_t k = 0; k < steps[i].argc; k++)
				free(steps[i].argv[k]);
			free(steps[i].argv);
		}
		free(steps);
	}
	pr->setup = pr->teardown = NULL;
	pr->nsetup = pr->nteardown = 0;
}

/* A unit of a program's figure, as a factor to the metric's own unit. */
static int unit_scale(const char *metric, const char *unit, double *scale)
{
	static const struct { const char *suffix, *unit; double scale; } units[] = {
		{ "_us", "ns", 1e-3 }, { "_us", "us", 1 }, { "_us", "µs", 1 }, { "_us", "ms", 1e3 },
		{ "_us", "s", 1e6 }, { "msgs_per_s", "/s", 1 }, { "msgs_per_s", "k/s", 1e3 },
		{ "msgs_per_s", "M/s", 1e6 }, { "mib_per_s", "B/s", 1.0 / 1048576 },
		{ "mib_per_s", "KiB/s", 1.0 / 1024 }, { "mib_per_s", "MiB/s", 1 },
		{ "mib_per_s", "GiB/s", 1024 }, { "mib_per_s", "MB/s", 1e6 / 1048576 },
		{ "seconds", "ns", 1e-9 }, { "seconds", "us", 1e-6 }, { "seconds", "µs", 1e-6 },
		{ "seconds", "ms", 1e-3 }, { "seconds", "s", 1 },
	};
	size_t ml = strlen(metric);

	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		size_t sl = strlen(units[i].suffix);
		if (ml >= sl && !strcmp(metric + ml - sl, units[i].suffix) &&
		    !strcmp(unit, units[i].unit)) {
			*scale = units[i].scale;
			return 0;
		}
	}
	return -1;
}

/* PCRE2's compile of n's text, or -1 after "WHAT: regex does not
 * compile: ..." at n; its groups and figure group (ml_compile). */
static int compile(struct loader *L, const yaml_node_t *n, const char *what, unsigned *groups,
		   int *figure)
{
	return ml_compile(L, n, what, scalar(n), groups, figure);
}

const char *program_figure_name(int figure)
{
	return figure == PROGRAM_MESSAGES ? "messages" : figure == PROGRAM_SECONDS ? "seconds"
	       : matrix_metrics[figure];
}

/* One figure: regex (or {regex:, unit:}) into *res. */
static int load_result(struct loader *L, struct program_result *res, const yaml_node_t *key,
		       const yaml_node_t *val)
{
	const yaml_node_t *rx = val, *unit = NULL;
	char why[512];
	unsigned groups;
	int m = matrix_metric_index(scalar(key)), figure;

	if (m < 0 && (m = !strcmp(scalar(key), "messages") ? PROGRAM_MESSAGES :
		      !strcmp(scalar(key), "seconds") ? PROGRAM_SECONDS : -1) < 0) {
		const char *names[PROGRAM_NFIGURES];
		for (int i = 0; i < PROGRAM_NFIGURES; i++)
			names[i] = program_figure_name(i);
		ml_unknown_name("metric", scalar(key), names, PROGRAM_NFIGURES, why, sizeof why);
		return error_node(L, key, "result: %s", why);
	}
	if (val->type == YAML_MAPPING_NODE) {
		if (!(rx = ml_find_key(L, val, "regex", NULL)))
			return error_node(L, val, "result: %s: missing regex:", scalar(key));
		unit = ml_find_key(L, val, "unit", NULL);
	}
	if (rx->type != YAML_SCALAR_NODE || (unit && unit->type != YAML_SCALAR_NODE))
		return error_node(L, rx, "result: %s: expected a regex, or {regex: ..., unit: ...}",
				  scalar(key));
	res->metric = m;
	res->scale = 1;
	res->pos = ml_node_pos(rx);
	if (unit && m == PROGRAM_MESSAGES)
		return error_node(L, unit, "result: messages: a count has no unit");
	if (unit && unit_scale(scalar(key), scalar(unit), &res->scale) < 0)
		return error_node(L, unit, "result: %s: unit '%s' does not fit this metric (times: "
				  "ns, us, ms, s; rates: /s, k/s, M/s; throughput: B/s, KiB/s, MiB/s, "
				  "GiB/s, MB/s)", scalar(key), scalar(unit));
	snprintf(why, sizeof why, "result: %s", scalar(key));
	if (compile(L, rx, why, &groups, &figure))
		return -1;
	if (groups != 1 && !figure)	/* with (?<value>...): any number */
		return error_node(L, rx, "result: %s: the regex needs exactly one group (the "
				  "figure), or a (?<value>...) group, it has %u", scalar(key), groups);
	if (!(res->regex = strdup(scalar(rx))))
		return ml_oom(L, rx);
	return 0;
}

/* A mapping of figure: regex into *out (*n of them). */
static int load_result_map(struct loader *L, const yaml_node_t *key, const yaml_node_t *val,
			   struct program_result **out, size_t *n)
{
	if (val->type != YAML_MAPPING_NODE || !npairs(val))
		return error_node(L, at(key, val), "%s%s: expected a mapping of metric: regex",
				  strcmp(scalar(key), "result") ? "result: " : "", scalar(key));
	if (ml_check_keys(L, val))
		return -1;
	if (!(*out = calloc(npairs(val), sizeof(**out))))
		return ml_oom(L, val);
	for (size_t j = 0; j < npairs(val); j++, (*n)++)
		if (load_result(L, &(*out)[*n], pair_key(L, val, j), pair_val(L, val, j)))
			return -1;
	return 0;
}

/* How a program's result: was written, for the checks once all its keys
 * are read (server: and client: may come after result:). */
struct result_form {
	const yaml_node_t *plain;		/* result: figure: regex, ... */
	const yaml_node_t *server, *client;	/* result: server: ..., client: ... */
};

/* result: plain (figure: regex) or per role (server: {...}, client: {...}). */
static int load_results(struct loader *L, struct program *pr, const yaml_node_t *key,
			const yaml_node_t *val, struct result_form *f)
{
	const char *first = val->type == YAML_MAPPING_NODE && npairs(val) ?
			    scalar(pair_key(L, val, 0)) : "";

	if (strcmp(first, "server") && strcmp(first, "client")) {
		f->plain = key;
		return load_result_map(L, key, val, &pr->results, &pr->nresults);
	}
	if (ml_check_keys(L, val))
		return -1;
	for (size_t i = 0; i < npairs(val); i++) {
		const yaml_node_t *k = pair_key(L, val, i), *v = pair_val(L, val, i);
		int server = !strcmp(scalar(k), "server");
		if (!server && strcmp(scalar(k), "client"))
			return error_node(L, k, "result: '%s' beside server:/client: (per role, "
					  "each role's figures go under its own key)", scalar(k));
		*(server ? &f->server : &f->client) = k;
		if (load_result_map(L, k, v, server ? &pr->server_results : &pr->results,
				    server ? &pr->nserver_results : &pr->nresults))
			return -1;
	}
	return 0;
}

/* The figure fig among res[0..n-1], or NULL. */
static const struct program_result *find_figure(const struct program_result *res, size_t n,
						int fig)
{
	for (size_t i = 0; i < n; i++)
		if (res[i].metric == fig)
			return &res[i];
	return NULL;
}

/* What a role's figures must be: a server's mean something for a stream
 * receiver; seconds come with messages (the rate is one over the other),
 * and a client's messages with seconds. */
static int check_role_figures(struct loader *L, const struct program *pr, int server,
			      const struct program_result *res, size_t n)
{
	const struct program_result *msgs = find_figure(res, n, PROGRAM_MESSAGES);
	const struct program_result *secs = find_figure(res, n, PROGRAM_SECONDS);

	for (size_t i = 0; server && i < n; i++) {
		int fig = res[i].metric;
		if (fig != PROGRAM_MESSAGES && fig != PROGRAM_SECONDS &&
		    strcmp(matrix_metrics[fig], "msgs_per_s") && strcmp(matrix_metrics[fig], "mib_per_s"))
			return ml_error_at(L, (size_t)res[i].pos.line, (size_t)res[i].pos.col,
					   "result: %s means nothing for program %s's server (a stream "
					   "receiver prints messages and seconds, msgs_per_s or mib_per_s)"
					   "%s", matrix_metrics[fig], pr->name, pr->client ? "" :
					   "; it has no client:, so result: is its server's");
	}
	if (secs && !msgs)
		return ml_error_at(L, (size_t)secs->pos.line, (size_t)secs->pos.col, "result: seconds "
				   "without messages: the rate is messages / seconds, give both");
	if (msgs && !secs && !server)
		return ml_error_at(L, (size_t)msgs->pos.line, (size_t)msgs->pos.col, "result: messages "
				   "without seconds: a client's rate is messages / seconds, give both");
	return 0;
}

/* Once every key of a program is read: the plain form is its server's
 * when it has no client; a role's figures need that role's command. */
static int check_results(struct loader *L, struct program *pr, const struct result_form *f)
{
	if (f->plain && !pr->client) {
		pr->server_results = pr->results;
		pr->nserver_results = pr->nresults;
		pr->results = NULL;
		pr->nresults = 0;
	}
	if (f->server && !pr->server)
		return error_node(L, f->server, "result: server: program %s has no server: command",
				  pr->name);
	if (f->client && !pr->client)
		return error_node(L, f->client, "result: client: program %s has no client: command",
				  pr->name);
	if (check_role_figures(L, pr, 1, pr->server_results, pr->nserver_results))
		return -1;
	return check_role_figures(L, pr, 0, pr->results, pr->nresults);
}

static int load_program(struct loader *L, const yaml_node_t *key, const yaml_node_t *val)
{
	static const char *const keys[] = { "server", "client", "ready", "result", "setup",
					    "teardown", "timeline" };
	struct program *pr = &L->m->programs[L->m->nprograms];
	char why[512];
	struct mvalue v = { 0 };
	struct result_form form = { 0 };

	if (matrix_parse_value(VK_PROGRAM, scalar(key), &v, why, sizeof why))
		return error_node(L, key, "programs: %s", why);
	free(v.text);
	if (!strcmp(scalar(key), "builtin"))
		return error_node(L, key, "programs: 'builtin' is the name of matrix's own workers");
	if (val->type != YAML_MAPPING_NODE)
		return error_node(L, at(key, val), "programs: %s: expected a mapping with server: "
				  "and/or client:", scalar(key));
	if (ml_check_keys(L, val))
		return -1;
	pr->name = strdup(scalar(key));
	pr->pos = ml_node_pos(key);
	L->m->nprograms++;
	if (!pr->name)
		return ml_oom(L, key);
	for (size_t i = 0; i < npairs(val); i++) {
		yaml_node_t *k = pair_key(L, val, i), *w = pair_val(L, val, i);
		const char *name = scalar(k);
		if (!strcmp(name, "server") || !strcmp(name, "client")) {
			if (load_role(L, k, w, pr, name[0] == 'c'))
				return -1;
		} else if (!strcmp(name, "setup") || !strcmp(name, "teardown")) {
			if (load_steps(L, k, w, name[0] == 's' ? &pr->setup : &pr->teardown,
				       name[0] == 's' ? &pr->nsetup : &pr->nteardown))
				return -1;
		} else if (!strcmp(name, "ready")) {
			if (ml_want_scalar(L, k, w) || compile(L, w, "ready", NULL, NULL))
				return -1;
			if (!(pr->ready = strdup(scalar(w))))
				return ml_oom(L, w);
		} else if (!strcmp(name, "timeline")) {
			if (ml_load_timeline(L, pr, val, k, w))
				return -1;
		} else if (!strcmp(name, "result")) {
			if (load_results(L, pr, k, w, &form))
				return -1;
		} else {
			ml_unknown_name("key", name, keys, ARRAY_SIZE(keys), why, sizeof why);
			return error_node(L, k, "programs: %s: %s", pr->name, why);
		}
	}
	if (!pr->server && !pr->client)
		return error_node(L, key, "programs: %s: give a server: or a client: command", pr->name);
	return check_results(L, pr, &form);
}

int ml_load_programs(struct loader *L, const yaml_node_t *val)
{
	if (val->type != YAML_MAPPING_NODE || !npairs(val))
		return error_node(L, val, "programs: expected a mapping of NAME: {server: ..., client: ...}");
	if (npairs(val) > MATRIX_MAX_ENTRIES)
		return error_node(L, val, "programs: %zu programs, more than the %d a matrix may have",
				  npairs(val), MATRIX_MAX_ENTRIES);
	if (ml_check_keys(L, val))
		return -1;
	L->m->programs = calloc(npairs(val), sizeof(*L->m->programs));
	if (!L->m->programs)
		return ml_oom(L, val);
	for (size_t i = 0; i < npairs(val); i++)
		if (load_program(L, pair_key(L, val, i), pair_val(L, val, i)))
			return -1;
	return 0;
}

/* server: and client: values name builtin or a program with that role. */
int ml_check_program_dims(struct loader *L)
{
	for (size_t d = 0; d < L->m->ndims; d++) {
		const struct dimension *dim = &L->m->dims[d];
		int is_server = !strcmp(dim->key, "server");
		if (dim->kind != VK_PROGRAM)
			continue;
		for (size_t i = 0; i < dim->nvalues; i++) {
			const struct mvalue *v = &dim->values[i];
			const struct program *pr = matrix_program(L->m, v->text);
			if (!v->num)
				continue;
			if (!pr) {
				const char **names = calloc(L->m->nprograms + 2, sizeof(*names));
				char why[512];
				if (!names)
					return ml_error_at(L, (size_t)v->pos.line, (size_t)v->pos.col, "out of memory");
				names[0] = "builtin";
				for (size_t k = 0; k < L->m->nprograms; k++)
					names[k + 1] = L->m->programs[k].name;
				ml_unknown_name("program", v->text, names, L->m->nprograms + 1, why, sizeof why);
				free(names);
				return ml_error_at(L, (size_t)v->pos.line, (size_t)v->pos.col, "%s: %s (add it "
						"under programs:)", dim->key, why);
			}
			if (is_server ? !pr->server : !pr->client)
				return ml_error_at(L, (size_t)v->pos.line, (size_t)v->pos.col,
						"%s: program %s has no %s: command", dim->key, v->text,
						dim->key);
		}
	}
	return 0;
}
