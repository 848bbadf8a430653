/* --set KEY=VALUE, made in a matrix file's text: see matrix_set.h. */
#include "matrix_set.h"
#include "matrix_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

/* The top-level keys --set takes; every other KEY is a key of matrix:. */
static const char *const top_keys[] = { "repeat", "warmup", "timeout" };

static int is_top_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(top_keys); i++)
		if (!strcmp(key, top_keys[i]))
			return 1;
	return 0;
}

/* The keys of topology: link: as dimensions (matrix_topology.c): link_delay
 * is delay: in topology: link:. */
static const char *const link_keys[] = { "link_delay", "link_jitter", "link_rate", "link_loss" };

static int is_link_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(link_keys); i++)
		if (!strcmp(key, link_keys[i]))
			return 1;
	return 0;
}

/* KEY as its mapping spells it. */
static const char *file_key(const char *key)
{
	return is_link_key(key) ? key + 5 : key;
}

/* ---- positions: libyaml's marks count lines and characters ---- */

/* The length of the line break at p, 0 for none: \n, \r\n, \r, and the
 * breaks of YAML 1.1 that libyaml counts too, NEL, LS and PS. */
static size_t line_break(const char *p, const char *end)
{
	const unsigned char *u = (const unsigned char *)p;

	if (*p == '\n')
		return 1;
	if (*p == '\r')
		return p + 1 < end && p[1] == '\n' ? 2 : 1;
	if (u[0] == 0xc2 && p + 1 < end && u[1] == 0x85)
		return 2;
	if (u[0] == 0xe2 && p + 2 < end && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9))
		return 3;
	return 0;
}

/* The bytes of the UTF-8 character at p. */
static size_t char_len(const char *p, const char *end)
{
	size_t n = 1;

	while (p + n < end && ((unsigned char)p[n] & 0xc0) == 0x80)
		n++;
	return n;
}

/* A byte order mark, which libyaml reads past without counting it. */
static size_t bom_len(const char *buf, size_t len)
{
	return len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3) ? 3 : 0;
}

/* The byte offset of a 0-based line and column (in characters). */
static size_t offset_of(const char *buf, size_t len, size_t line, size_t col)
{
	const char *p = buf + bom_len(buf, len), *end = buf + len;
	size_t b;

	while (line && p < end) {
		if ((b = line_break(p, end))) {
			p += b;
			line--;
		} else {
			p += char_len(p, end);
		}
	}
	for (; col && p < end && !line_break(p, end); col--)
		p += char_len(p, end);
	return (size_t)(p - buf);
}

/* The 0-based line and column of a byte offset. */
static void position_of(const char *buf, size_t len, size_t off, size_t *line, size_t *col)
{
	const char *p = buf + bom_len(buf, len), *end = buf + len;
	size_t b;

	*line = *col = 0;
	while (p < buf + off && p < end) {
		if ((b = line_break(p, end))) {
			p += b;
			(*line)++;
			*col = 0;
		} else {
			p += char_len(p, end);
			(*col)++;
		}
	}
}

static size_t mark_offset(const struct loader *L, const yaml_mark_t *mk)
{
	return offset_of(L->buf, L->len, mk->line, mk->column);
}

static int at_line_start(const char *buf, size_t off)
{
	return !off || buf[off - 1] == '\n' || buf[off - 1] == '\r';
}

/* ---- the document ---- */

/* The text as a YAML document in L->doc; -1 when it does not parse. */
static int parse(struct loader *L, const char *buf, size_t len)
{
	yaml_parser_t p;
	int ok;

	memset(L, 0, sizeof(*L));
	L->buf = buf;
	L->len = len;
	if (!yaml_parser_initialize(&p))
		return -1;
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	ok = yaml_parser_load(&p, &L->doc);
	yaml_parser_delete(&p);
	if (!ok)
		return -1;
	if (!yaml_document_get_root_node(&L->doc)) {
		yaml_document_delete(&L->doc);
		return -1;
	}
	return 0;
}

/* The mapping that holds KEY: the root, or the root's matrix:. */
static yaml_node_t *home_of(struct loader *L, const char *key)
{
	yaml_node_t *root = yaml_document_get_root_node(&L->doc);
	const yaml_node_t *m;

	if (root->type != YAML_MAPPING_NODE)
		return NULL;
	if (is_top_key(key))
		return root;
	if (is_link_key(key)) {	/* topology: link: (a key --set does not add) */
		m = ml_find_key(L, root, "topology", NULL);
		m = m && m->type == YAML_MAPPING_NODE ? ml_find_key(L, m, "link", NULL) : NULL;
		return m && m->type == YAML_MAPPING_NODE ? (yaml_node_t *)m : NULL;
	}
	m = ml_find_key(L, root, "matrix", NULL);
	return m && m->type == YAML_MAPPING_NODE ? (yaml_node_t *)m : NULL;
}

/* Where a node's text ends: a block collection ends with its last
 * element (libyaml's own end mark is the next token, past any comments). */
static size_t node_end(struct loader *L, const yaml_node_t *n)
{
	for (;;) {
		if (n->type == YAML_SEQUENCE_NODE &&
		    n->data.sequence.style == YAML_BLOCK_SEQUENCE_STYLE && nitems(n))
			n = item(L, n, nitems(n) - 1);
		else if (n->type == YAML_MAPPING_NODE &&
			 n->data.mapping.style == YAML_BLOCK_MAPPING_STYLE && npairs(n))
			n = pair_val(L, n, npairs(n) - 1);
		else
			return mark_offset(L, &n->end_mark);
	}
}

/* ---- the edits ---- */

/* VALUE as a YAML scalar: plain when that cannot mean anything else, else
 * single-quoted with ' doubled. */
static void yaml_scalar(const char *v, char *out, size_t len)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_.+/-";
	size_t o = 0;

	if (strspn(v, plain) == strlen(v) && *v != '-' && *v != '+') {
		snprintf(out, len, "%s", v);
		return;
	}
	out[o++] = '\'';
	for (; *v && o + 3 < len; v++) {
		if (*v == '\'')
			out[o++] = '\'';
		out[o++] = *v;
	}
	out[o++] = '\'';
	out[o] = '\0';
}

/* Replaces text[at, at + oldlen) with add, and remembers it. */
static int splice(struct matrix_sets *s, size_t at, size_t oldlen, const char *add, int set)
{
	size_t addlen = strlen(add), len = s->len - oldlen + addlen;
	char *t = malloc(len + 1);

	if (!t)
		return -1;
	memcpy(t, s->text, at);
	memcpy(t + at, add, addlen);
	memcpy(t + at + addlen, s->text + at + oldlen, s->len - at - oldlen);
	t[len] = '\0';
	free(s->text);
	s->text = t;
	s->len = len;
	s->edit[s->nedits++] = (struct matrix_edit){ at, oldlen, addlen, set };
	return 0;
}

static int cannot(const struct matrix_sets *s, size_t i, const char *path, char *err,
		  size_t errlen)
{
	return ml_failf(err, errlen, "--set %s: cannot make this change in %s's text (an alias, "
			"or a layout this does not know); edit the file instead", s->arg[i], path);
}

/* Where KEY: VALUE goes when the mapping lacks KEY: after its last pair,
 * on a line of its own in a block mapping, or before the closing brace of
 * a flow mapping.  The offset, and the text in add; -1 when neither fits. */
static int new_pair(struct loader *L, const yaml_node_t *map, const char *key, const char *val,
		    size_t *at, char *add, size_t addlen)
{
	const char *buf = L->buf;
	size_t e;

	if (map->data.mapping.style == YAML_FLOW_MAPPING_STYLE) {
		e = mark_offset(L, &map->end_mark);
		if (!e || buf[e - 1] != '}')
			return -1;
		*at = e - 1;
		snprintf(add, addlen, ", %s: %s", key, val);
		return 0;
	}
	e = node_end(L, pair_val(L, map, npairs(map) - 1));
	while (!at_line_start(buf, e) && e < L->len && !line_break(buf + e, buf + L->len))
		e++;
	if (!at_line_start(buf, e) && e < L->len)
		e += line_break(buf + e, buf + L->len);
	*at = e;
	snprintf(add, addlen, "%s%*s%s: %s\n", at_line_start(buf, e) ? "" : "\n",
		 (int)pair_key(L, map, 0)->start_mark.column, "", key, val);
	return 0;
}

/* Makes override i in s->text. */
/* Where the item of a list VALUE that starts at v ends: at a comma,
 * except, for cpu, one before a digit (server=0,2;clients=1 is one
 * placement whose CPU list has a comma). */
static size_t list_item_len(const char *key, const char *v, size_t n)
{
	size_t k = 0;

	while (k < n && !(v[k] == ',' && (strcmp(key, "cpu") ||
					  !(k + 1 < n && v[k + 1] >= '0' && v[k + 1] <= '9'))))
		k++;
	return k;
}

/* VALUE as YAML: a list, as a matrix file writes one, when it is
 * [A, B] or A,B (each item a scalar, yaml_scalar), else one scalar (a
 * value with a brace, a mapping's text, is one: the placement says what
 * it takes).  -1 when it does not fit in out. */
static int yaml_value(const char *key, const char *v, char *out, size_t len)
{
	size_t n = strlen(v), o = 0;
	char item[MATRIX_SET_MAX_VALUE + 1], one[2 * MATRIX_SET_MAX_VALUE + 3];

	if (strpbrk(v, "{}")) {
		yaml_scalar(v, out, len);
		return 0;
	}
	if (n >= 2 && v[0] == '[' && v[n - 1] == ']')
		v++, n -= 2;
	else if (list_item_len(key, v, n) == n) {
		yaml_scalar(v, out, len);
		return 0;
	}
	out[o++] = '[';
	for (size_t at = 0; at <= n;) {
		size_t k = list_item_len(key, v + at, n - at), b = at, e = at + k;
		while (b < e && v[b] == ' ')
			b++;
		while (e > b && v[e - 1] == ' ')
			e--;
		snprintf(item, sizeof(item), "%.*s", (int)(e - b), v + b);
		yaml_scalar(item, one, sizeof(one));
		int w = snprintf(out + o, len - o, "%s%s", o > 1 ? ", " : "", one);
		if (w < 0 || (size_t)w >= len - o)
			return -1;
		o += (size_t)w;
		at += k + 1;
	}
	if (o + 2 > len)
		return -1;
	out[o++] = ']';
	out[o] = '\0';
	return 0;
}

static int apply_one(struct matrix_sets *s, size_t i, const char *path, char *err,
		     size_t errlen)
{
	char key[64], val[2 * MATRIX_SET_MAX_VALUE + 3], add[sizeof(val) + 160];
	const char *eq = strchr(s->arg[i], '=');
	const yaml_node_t *kn = NULL, *vn = NULL;
	size_t at = 0, oldlen = 0;
	struct loader L;
	int rc = -1;

	snprintf(key, sizeof(key), "%.*s", (int)(eq - s->arg[i]), s->arg[i]);
	if (yaml_value(key, eq + 1, val, sizeof(val)) < 0)
		return ml_failf(err, errlen, "--set %s: a list too long to write", s->arg[i]);
	if (parse(&L, s->text, s->len) < 0)
		return cannot(s, i, path, err, errlen);
	yaml_node_t *map = home_of(&L, key);
	if (map)
		vn = ml_find_key(&L, map, file_key(key), &kn);
	if (vn) {
		at = mark_offset(&L, &kn->end_mark);
		size_t end = node_end(&L, vn);
		/* a block scalar ends where the next line starts: keep that break */
		if (end > at && at_line_start(s->text, end))
			end -= end >= 2 && s->text[end - 2] == '\r' && s->text[end - 1] == '\n' ? 2 : 1;
		if (end >= at) {
			oldlen = end - at;
			snprintf(add, sizeof(add), ": %s", val);
			rc = 0;
		}
	} else if (map) {
		rc = new_pair(&L, map, file_key(key), val, &at, add, sizeof(add));
	}
	yaml_document_delete(&L.doc);
	if (rc < 0 && !map && is_link_key(key))
		return ml_failf(err, errlen, "--set %s: %s has no topology: link: mapping to set %s "
				"in (--set adds no topology: write it in the file)", s->arg[i], path,
				file_key(key));
	if (rc < 0)
		return cannot(s, i, path, err, errlen);
	if (splice(s, at, oldlen, add, (int)i) < 0)
		return ml_failf(err, errlen, "--set %s: out of memory", s->arg[i]);
	return 0;
}

/* Is vn, a sequence, the list VALUE v (yaml_value) item for item? */
static int is_list_of(struct loader *L, const char *key, const yaml_node_t *vn, const char *v)
{
	size_t n = strlen(v), at = 0;
	yaml_node_item_t *it = vn->data.sequence.items.start;

	if (n >= 2 && v[0] == '[' && v[n - 1] == ']')
		v++, n -= 2;
	for (; it < vn->data.sequence.items.top; it++, at++) {
		yaml_node_t *in = yaml_document_get_node(&L->doc, *it);
		if (at > n || !in || in->type != YAML_SCALAR_NODE)
			return 0;
		size_t k = list_item_len(key, v + at, n - at), b = at, e = at + k;
		while (b < e && v[b] == ' ')
			b++;
		while (e > b && v[e - 1] == ' ')
			e--;
		if (strlen(scalar(in)) != e - b || strncmp(scalar(in), v + b, e - b))
			return 0;
		at += k;
	}
	return at > n;
}

/* Every key has the value its last --set gave, as a scalar or a list. */
static int verify(const struct matrix_sets *s, const char *path, char *err, size_t errlen)
{
	struct loader L;
	int rc = 0;

	if (parse(&L, s->text, s->len) < 0)
		return cannot(s, s->n - 1, path, err, errlen);
	for (size_t i = 0; i < s->n && !rc; i++) {
		const char *eq = strchr(s->arg[i], '=');
		size_t klen = (size_t)(eq - s->arg[i]), j;
		char key[64];
		for (j = i + 1; j < s->n; j++)
			if (!strncmp(s->arg[j], s->arg[i], klen + 1))
				break;
		if (j < s->n)
			continue;	/* a later one wins */
		snprintf(key, sizeof(key), "%.*s", (int)klen, s->arg[i]);
		yaml_node_t *map = home_of(&L, key);
		const yaml_node_t *vn = map ? ml_find_key(&L, map, file_key(key), NULL) : NULL;
		if (vn && vn->type == YAML_SEQUENCE_NODE ? !is_list_of(&L, key, vn, eq + 1) :
		    !vn || vn->type != YAML_SCALAR_NODE || strcmp(scalar(vn), eq + 1))
			rc = cannot(s, i, path, err, errlen);
	}
	yaml_document_delete(&L.doc);
	return rc;
}

/* ---- the interface ---- */

int matrix_sets_add(struct matrix_sets *s, const char *arg, char *err, size_t errlen)
{
	const char *names[64], *eq = strchr(arg, '=');
	char key[64], why[512];
	size_t n;

	if (s->n == MATRIX_MAX_SETS)
		return ml_failf(err, errlen, "--set %s: at most %d --set flags", arg,
				MATRIX_MAX_SETS);
	if (!eq || eq == arg)
		return ml_failf(err, errlen, "--set %s: expected KEY=VALUE, such as --set count=1000",
				arg);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
	if ((size_t)(eq - arg) >= sizeof(key) ||
	    (!is_top_key(key) && !is_link_key(key) && !ml_find_dimspec(key))) {
		for (n = 0; n < ARRAY_SIZE(top_keys); n++)
			names[n] = top_keys[n];
		n += ml_dimspec_keys(names + n, ARRAY_SIZE(names) - n);
		for (size_t i = 0; i < ARRAY_SIZE(link_keys) && n < ARRAY_SIZE(names); i++)
			names[n++] = link_keys[i];
		ml_unknown_name("key", key, names, n, why, sizeof(why));
		return ml_failf(err, errlen, "--set %s: %s", arg, why);
	}
	if (!eq[1])
		return ml_failf(err, errlen, "--set %s: no VALUE after '='", arg);
	if (strlen(eq + 1) > MATRIX_SET_MAX_VALUE)
		return ml_failf(err, errlen, "--set %s: VALUE longer than %d bytes", arg,
				MATRIX_SET_MAX_VALUE);
	for (const char *p = eq + 1; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return ml_failf(err, errlen, "--set %.*s...: VALUE holds a control character",
					(int)(p - arg), arg);
	s->arg[s->n++] = arg;
	return 0;
}

void matrix_sets_join(const struct matrix_sets *s, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s--set %s", i ? " " : "", s->arg[i]);
}

/* Every override made in s->text (a copy of the file), then the comment
 * line that says so; 0, or -1 with err. */
static int make_text(struct matrix_sets *s, const char *path, char *err, size_t errlen)
{
	char line[MATRIX_MAX_SETS * (MATRIX_SET_MAX_VALUE + 72) + 64];

	if (!(s->text = malloc(s->origlen + 1)))
		return ml_failf(err, errlen, "%s: out of memory", path);
	memcpy(s->text, s->orig, s->origlen + 1);
	s->len = s->origlen;
	for (size_t i = 0; i < s->n; i++)
		if (apply_one(s, i, path, err, errlen) < 0)
			return -1;
	if (verify(s, path, err, errlen) < 0)
		return -1;
	snprintf(line, sizeof(line), "# matrix: ");
	matrix_sets_join(s, line + strlen(line), sizeof(line) - strlen(line) - 32);
	strcat(line, " applied to this copy\n");
	if (splice(s, bom_len(s->text, s->len), 0, line, -1) < 0)
		return ml_failf(err, errlen, "%s: out of memory", path);
	return 0;
}

int matrix_load_sets(struct matrix *m, const char *path, struct matrix_sets *s, char *err,
		     size_t errlen)
{
	if (!s->n)
		return matrix_load(m, path, err, errlen);
	matrix_sets_release(s);
	ml_matrix_init(m);
	if (ml_read_file(path, &s->orig, &s->origlen, err, errlen) < 0)
		return -1;
	/* the file as given first: its own mistakes, in its own words */
	if (matrix_load_buffer(m, path, s->orig, s->origlen, err, errlen) < 0)
		goto fail;
	matrix_release(m);
	if (make_text(s, path, err, errlen) < 0)
		goto fail;
	if (matrix_load_buffer(m, path, s->text, s->len, err, errlen) < 0) {
		matrix_sets_explain(s, path, err, errlen);
		goto fail;
	}
	return 0;
fail:
	matrix_sets_release(s);
	return -1;
}

void matrix_sets_explain(const struct matrix_sets *s, const char *path, char *err,
			 size_t errlen)
{
	size_t plen = strlen(path), line, col, off;
	unsigned long l, c;
	char buf[2048];
	int n = 0;

	if (!s->text || strncmp(err, path, plen) ||
	    sscanf(err + plen, ":%lu:%lu: %n", &l, &c, &n) != 2 || !n || !l || !c)
		return;
	off = offset_of(s->text, s->len, l - 1, c - 1);
	for (size_t i = s->nedits; i-- > 0;) {	/* back through each change */
		const struct matrix_edit *e = &s->edit[i];
		if (off < e->at)
			continue;
		if (off >= e->at + e->newlen) {
			off = off - e->newlen + e->oldlen;
		} else if (e->set >= 0) {
			snprintf(buf, sizeof(buf), "--set %s: %s", s->arg[e->set], err + plen + n);
			snprintf(err, errlen, "%s", buf);
			return;
		} else {
			off = e->at;
		}
	}
	/* about the file, but maybe only with the overrides made: say which */
	position_of(s->orig, s->origlen, off, &line, &col);
	snprintf(buf, sizeof(buf), "%s:%zu:%zu: %s (with ", path, line + 1, col + 1,
		 err + plen + n);
	matrix_sets_join(s, buf + strlen(buf), sizeof(buf) - strlen(buf) - 1);
	strcat(buf, ")");
	snprintf(err, errlen, "%s", buf);
}

void matrix_sets_release(struct matrix_sets *s)
{
	free(s->text);
	free(s->orig);
	s->text = s->orig = NULL;
	s->len = s->origlen = s->nedits = 0;
}
