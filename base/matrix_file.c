/*
 * matrix_file: a matrix file read with libyaml's document API, checked
 * against the schema in matrix.h, as a `struct matrix`: the file read,
 * its depth and its one document checked, the table of top-level keys
 * and their loaders, the sections called in order, and the matrix
 * released.  It is the top of the loader: the sections never call it
 * (matrix: and exclude: in matrix_dims.c, programs: in matrix_programs.c
 * and matrix_timeline.c, report: in matrix_report.c, hosts: in
 * matrix_hosts.c, topology: in matrix_topology.c), and the messages and
 * checks they share are matrix_yaml.c's (matrix_yaml.h).
 *
 * Every check reports "FILE:LINE:COL: message" at the node it is about and
 * stops there; the loader owns nothing but the document, and whatever was
 * already moved into the matrix is freed by matrix_release().
 */
#include "matrix_yaml.h"
#include "matrix_command.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

#include "units.h"

/* Top-level keys, in the order of the schema. */
typedef int load_fn(struct loader *L, yaml_node_t *key, yaml_node_t *val);
static load_fn load_name, load_description, load_repeat, load_warmup,
	load_timeout, load_exclude_later, load_report_later, load_programs_later,
	load_topology_later;

static const struct {
	const char *key;
	load_fn *load;
} topkeys[] = {
	{ "name", load_name },
	{ "description", load_description },
	{ "repeat", load_repeat },
	{ "warmup", load_warmup },
	{ "timeout", load_timeout },
	{ "matrix", ml_load_matrix },
	{ "exclude", load_exclude_later },
	{ "report", load_report_later },
	{ "programs", load_programs_later },
	{ "hosts", ml_load_hosts },
	{ "topology", load_topology_later },
	{ "percentiles", ml_load_percentiles },
};

/* ---- top-level keys ---- */

static int load_name(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	const char *s;

	if (ml_want_scalar(L, key, val))
		return -1;
	s = scalar(val);
	if (!*s)
		return error_node(L, at(key, val), "name: must not be empty");
	if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_.-") != strlen(s))
		return error_node(L, val,
			"name: '%s' may only contain letters, digits, '_', '.' and '-'",
			s);
	if (strspn(s, ".") == strlen(s))	/* "." and ".." are folders already */
		return error_node(L, val, "name: '%s' is made of dots only; give it a letter or "
				  "a digit", s);
	L->m->name = strdup(s);
	return L->m->name ? 0 : ml_oom(L, val);
}

static int load_description(struct loader *L, yaml_node_t *key,
			    yaml_node_t *val)
{
	char *s;

	if (ml_want_scalar(L, key, val))
		return -1;
	s = strdup(scalar(val));
	if (!s)
		return ml_oom(L, val);
	free(L->m->description);
	L->m->description = s;
	return 0;
}

/* A scalar value of kind for a top-level key. */
static int top_num(struct loader *L, yaml_node_t *key, yaml_node_t *val,
		   enum value_kind kind, uint64_t *num)
{
	char why[256];

	if (ml_want_scalar(L, key, val))
		return -1;
	if (ml_parse_num(kind, scalar(val), num, why, sizeof why))
		return error_node(L, at(key, val), "%s: %s", scalar(key), why);
	if (kind == VK_DURATION && !*num)
		return error_node(L, val, "%s: invalid duration '%s': must be greater than zero",
				  scalar(key), scalar(val));
	return 0;
}

/* repeat: {min: N, max: N, width: PCT}, every key optional. */
static int load_repeat_auto(struct loader *L, yaml_node_t *val)
{
	static const char *const keys[] = { "min", "max", "width" };
	struct matrix *m = L->m;
	char why[512];

	if (ml_check_keys(L, val))
		return -1;
	for (size_t i = 0; i < npairs(val); i++) {
		yaml_node_t *k = pair_key(L, val, i), *v = pair_val(L, val, i);
		uint64_t n;
		if (!strcmp(scalar(k), "width")) {
			if (ml_percent(L, k, v, "repeat: width", &m->repeat_width))
				return -1;
		} else if (!strcmp(scalar(k), "min") || !strcmp(scalar(k), "max")) {
			if (top_num(L, k, v, VK_COUNT, &n))
				return -1;
			if (!n || n > MATRIX_MAX_REPEAT)
				return error_node(L, v, "repeat: %s: between 1 and %d", scalar(k),
						  MATRIX_MAX_REPEAT);
			*(!strcmp(scalar(k), "min") ? &m->repeat_min : &m->repeat) = (unsigned)n;
		} else {
			ml_unknown_name("key", scalar(k), keys, 3, why, sizeof why);
			return error_node(L, k, "repeat: %s", why);
		}
	}
	if (m->repeat_min > m->repeat)
		return error_node(L, val, "repeat: min %u is above max %u", m->repeat_min, m->repeat);
	return 0;
}

static int load_repeat(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	uint64_t n;

	L->m->repeat_pos = ml_node_pos(val);
	if (val->type == YAML_MAPPING_NODE || (val->type == YAML_SCALAR_NODE &&
					       !strcmp(scalar(val), "auto"))) {
		L->m->repeat_min = MATRIX_AUTO_MIN;
		L->m->repeat = MATRIX_AUTO_MAX;
		L->m->repeat_width = MATRIX_AUTO_WIDTH;
		return val->type == YAML_MAPPING_NODE ? load_repeat_auto(L, val) : 0;
	}
	if (top_num(L, key, val, VK_COUNT, &n))
		return -1;
	if (n > MATRIX_MAX_REPEAT)
		return error_node(L, val, "repeat: at most %d", MATRIX_MAX_REPEAT);
	L->m->repeat = (unsigned)n;
	L->m->repeat_pos = ml_node_pos(val);
	return 0;
}

static int load_warmup(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	char why[160];
	const char *s;

	if (ml_want_scalar(L, key, val))
		return -1;
	s = scalar(val);
	if (!*s)
		return error_node(L, at(key, val), "warmup: missing value");
	if (units_parse_count(s, &L->m->warmup, why, sizeof why))
		return error_node(L, val, "warmup: invalid count '%s': %s", s, why);
	if (L->m->warmup > MATRIX_MAX_WARMUP)
		return error_node(L, val, "warmup: '%s' is too large: at most %u messages per "
				  "connection", s, MATRIX_MAX_WARMUP);
	L->m->warmup_pos = ml_node_pos(val);
	return 0;
}

static int load_timeout(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	if (top_num(L, key, val, VK_DURATION, &L->m->timeout_ns))
		return -1;
	L->m->timeout_pos = ml_node_pos(val);
	return 0;
}

static int load_exclude_later(struct loader *L, yaml_node_t *key,
			      yaml_node_t *val)
{
	(void)key;
	L->exclude = val;
	return 0;
}

static int load_report_later(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	(void)key;
	L->report = val;
	return 0;
}

static int load_programs_later(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	(void)key;
	L->programs = val;
	return 0;
}

static int load_topology_later(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	L->topology = val;
	L->m->topology.pos = ml_node_pos(key);
	return 0;
}

/* ---- the document ---- */

static int unknown_topkey(struct loader *L, const yaml_node_t *key)
{
	const char *names[ARRAY_SIZE(topkeys)];

	for (size_t i = 0; i < ARRAY_SIZE(topkeys); i++)
		names[i] = topkeys[i].key;
	return ml_unknown_key(L, key, "", "key", names, ARRAY_SIZE(names));
}

static int load_pair(struct loader *L, yaml_node_t *key, yaml_node_t *val)
{
	for (size_t i = 0; i < ARRAY_SIZE(topkeys); i++)
		if (!strcmp(topkeys[i].key, scalar(key)))
			return topkeys[i].load(L, key, val);
	return unknown_topkey(L, key);
}

static int load_root(struct loader *L)
{
	yaml_node_t *root = yaml_document_get_root_node(&L->doc);

	if (!root)
		return ml_error_at(L, 1, 1,
			"empty matrix file; expected a mapping with name: and matrix:");
	if (root->type != YAML_MAPPING_NODE)
		return error_node(L, root,
			"expected a mapping with name: and matrix: at the top level");
	if (ml_check_keys(L, root))
		return -1;
	for (size_t i = 0; i < npairs(root); i++)
		if (load_pair(L, pair_key(L, root, i), pair_val(L, root, i)))
			return -1;
	if (!L->m->name)
		return error_node(L, root, "missing required key 'name'");
	if (!L->m->ndims)
		return error_node(L, root, "missing required key 'matrix'");
	if (L->programs && !is_null(L->programs) && ml_load_programs(L, L->programs))
		return -1;
	if (ml_check_program_dims(L))
		return -1;
	if (L->topology && ml_load_topology(L, L->topology))
		return -1;
	if (L->exclude && ml_load_excludes(L, L->exclude))
		return -1;
	if (L->report && ml_load_report(L, L->report))
		return -1;
	return 0;
}

/* libyaml's own message, at its mark. */
static int syntax_error(struct loader *L, const yaml_parser_t *p)
{
	size_t line = p->problem_mark.line + 1, col = p->problem_mark.column + 1;
	const char *problem = p->problem ? p->problem : "cannot parse";

	if (p->error == YAML_MEMORY_ERROR)
		return ml_error_at(L, 1, 1, "out of memory while parsing");
	if (p->error == YAML_READER_ERROR) {
		size_t off = p->problem_offset < L->len ? p->problem_offset : L->len;

		line = col = 1;
		for (size_t i = 0; i < off; i++, col++) {
			if (L->buf[i] == '\n') {
				line++;
				col = 0;
			}
		}
		return ml_error_at(L, line, col, "%s", problem);
	}
	if (p->context)
		return ml_error_at(L, line, col, "%s (%s at line %zu)", problem,
				p->context, p->context_mark.line + 1);
	return ml_error_at(L, line, col, "%s", problem);
}

/* A matrix file is one document: anything after it is an error. */
static int check_one_document(struct loader *L, yaml_parser_t *p)
{
	yaml_document_t next;
	yaml_node_t *root;
	int rc = 0;

	if (!yaml_parser_load(p, &next))
		return syntax_error(L, p);
	root = yaml_document_get_root_node(&next);
	if (root)
		rc = error_node(L, root,
			"a matrix file holds one YAML document; this is a second one");
	yaml_document_delete(&next);
	return rc;
}

void ml_matrix_init(struct matrix *m)
{
	memset(m, 0, sizeof *m);
	m->repeat = MATRIX_DEFAULT_REPEAT;
	m->warmup = MATRIX_DEFAULT_WARMUP;
	m->timeout_ns = MATRIX_DEFAULT_TIMEOUT_NS;
	m->report.noisy_cv = MATRIX_DEFAULT_NOISY_CV;
}

/* A walk of the events before the document is built: libyaml's scanner
 * takes time quadratic in the depth (100k levels: tens of seconds), so a
 * collection deeper than MATRIX_MAX_DEPTH is refused at its start before
 * the scanner goes further.  A syntax error is left to the load, which
 * stops at the same place (no deeper than this walk went). */
static int check_depth(struct loader *L)
{
	yaml_parser_t p;
	yaml_event_t ev;
	unsigned depth = 0;
	int rc = 0, done = 0;

	if (!yaml_parser_initialize(&p))
		return ml_error_at(L, 1, 1, "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)L->buf, L->len);
	while (!done && !rc) {
		if (!yaml_parser_parse(&p, &ev))
			break;	/* the load stops there too, and says why */
		if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
			if (++depth > MATRIX_MAX_DEPTH)
				rc = ml_error_at(L, ev.start_mark.line + 1, ev.start_mark.column + 1,
						 "nested more than %d levels deep (a matrix file needs "
						 "5 at most)", MATRIX_MAX_DEPTH);
		} else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
			depth--;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return rc;
}

static int parse_document(struct loader *L)
{
	yaml_parser_t p;
	int rc;

	if (check_depth(L))
		return -1;
	if (!yaml_parser_initialize(&p))
		return ml_error_at(L, 1, 1, "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)L->buf, L->len);
	if (!yaml_parser_load(&p, &L->doc)) {
		rc = syntax_error(L, &p);
		yaml_parser_delete(&p);
		return rc;
	}
	rc = load_root(L);
	if (!rc)
		rc = check_one_document(L, &p);
	yaml_document_delete(&L->doc);
	yaml_parser_delete(&p);
	return rc;
}

int matrix_load_buffer(struct matrix *m, const char *path, const char *buf,
		       size_t len, char *err, size_t errlen)
{
	struct loader L = {
		.path = path, .buf = buf, .len = len,
		.m = m, .err = err, .errlen = errlen,
	};

	ml_matrix_init(m);
	m->path = strdup(path);
	m->description = strdup("");
	if (!m->path || !m->description) {
		matrix_release(m);
		return ml_failf(err, errlen, "%s: out of memory", path);
	}
	if (parse_document(&L)) {
		matrix_release(m);
		return -1;
	}
	return 0;
}

int ml_read_file(const char *path, char **out, size_t *outlen, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0;

	/* a FIFO would block for ever, /dev/zero never end: files only, and
	 * small ones (checked before and while reading) */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return ml_failf(err, errlen, "%s: not a regular file: a matrix is read from a "
				"file", path);
	if (stat(path, &st) == 0 && st.st_size > MATRIX_MAX_FILE)
		return ml_failf(err, errlen, "%s: %lld bytes, over the %d a matrix file may have",
				path, (long long)st.st_size, MATRIX_MAX_FILE);
	if (!(f = fopen(path, "rb")))
		return ml_failf(err, errlen, "%s: cannot open: %s", path,
			     strerror(errno));
	for (;;) {
		if (len > MATRIX_MAX_FILE) {
			free(buf);
			fclose(f);
			return ml_failf(err, errlen, "%s: over the %d bytes a matrix file may have",
					path, MATRIX_MAX_FILE);
		}
		if (len == cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 4096);

			if (!nb) {
				free(buf);
				fclose(f);
				return ml_failf(err, errlen, "%s: out of memory", path);
			}
			buf = nb;
		}
		size_t n = fread(buf + len, 1, cap - len, f);

		len += n;
		if (n)
			continue;
		if (ferror(f)) {
			int e = errno;

			free(buf);
			fclose(f);
			return ml_failf(err, errlen, "%s: cannot read: %s", path,
				     strerror(e));
		}
		break;
	}
	fclose(f);
	*out = buf;
	*outlen = len;
	return 0;
}

int matrix_load(struct matrix *m, const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	ml_matrix_init(m);
	if (ml_read_file(path, &buf, &len, err, errlen))
		return -1;
	rc = matrix_load_buffer(m, path, buf, len, err, errlen);
	free(buf);
	return rc;
}

static void program_commands_free(struct program_command *by, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < by[i].argc; k++)
			free(by[i].argv[k]);
		free(by[i].argv);
	}
	free(by);
}

void matrix_release(struct matrix *m)
{
	for (size_t i = 0; i < m->ndims; i++) {
		for (size_t j = 0; j < m->dims[i].nvalues; j++)
			free(m->dims[i].values[j].text);
		free(m->dims[i].values);
		free(m->dims[i].key);
	}
	for (size_t i = 0; i < m->nexcludes; i++) {
		for (size_t j = 0; j < m->excludes[i].nterms; j++)
			free(m->excludes[i].terms[j].value.text);
		free(m->excludes[i].terms);
	}
	for (size_t i = 0; i < m->report.nratios; i++) {
		free(m->report.ratios[i].name);
		free(m->report.ratios[i].numerator.text);
		free(m->report.ratios[i].denominator.text);
		free(m->report.ratios[i].ref_label);
		for (size_t k = 0; k < m->report.ratios[i].nrefs; k++) {
			struct ratio_ref *rf = &m->report.ratios[i].refs[k];
			for (size_t j = 0; j < rf->nterms; j++)
				free(rf->terms[j].value.text);
			free(rf->terms);
		}
		free(m->report.ratios[i].refs);
	}
	free(m->report.ratios);
	free(m->report.compare.baseline.text);
	free(m->report.compare.candidate.text);
	for (size_t i = 0; i < m->nprograms; i++) {
		struct program *pr = &m->programs[i];
		for (size_t k = 0; !pr->server_by && k < pr->nserver; k++)
			free(pr->server[k]);
		for (size_t k = 0; !pr->client_by && k < pr->nclient; k++)
			free(pr->client[k]);
		program_commands_free(pr->server_by, pr->nserver_by);
		program_commands_free(pr->client_by, pr->nclient_by);
		for (size_t k = 0; k < pr->nresults; k++)
			free(pr->results[k].regex);
		for (size_t k = 0; k < pr->nserver_results; k++)
			free(pr->server_results[k].regex);
		free(pr->server_results);
		if (!pr->server_by)
			free(pr->server);
		if (!pr->client_by)
			free(pr->client);
		free(pr->results);
		free(pr->timeline.regex);
		free(pr->ready);
		free(pr->name);
		matrix_program_steps_release(pr);
	}
	free(m->programs);
	matrix_hosts_release(&m->hosts);
	free(m->dims);
	free(m->excludes);
	free(m->path);
	free(m->name);
	free(m->description);
	ml_matrix_init(m);
}
