/* Cartesian product, exclude, --only, and per-cell checks.  See plan.h. */
#include "plan.h"
#include "suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const char *dim_keys(const struct matrix *m, size_t i)
{
	return m->dims[i].key;
}

int plan_parse_only(const struct matrix *m, const char *arg, struct only_filter *f,
		    char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	char key[64], why[256];
	struct mvalue v = { 0 };
	size_t d;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(key)) {
		snprintf(err, errlen, "--only %s: expected KEY=VALUE, e.g. --only transport=unix", arg);
		return -1;
	}
	memcpy(key, arg, (size_t)(eq - arg));
	key[eq - arg] = '\0';
	for (d = 0; d < m->ndims; d++)
		if (!strcmp(m->dims[d].key, key))
			break;
	if (d == m->ndims) {
		const char *cands[64];
		size_t n = m->ndims < 64 ? m->ndims : 64;
		for (size_t i = 0; i < n; i++)
			cands[i] = dim_keys(m, i);
		char hint[128];
		snprintf(err, errlen, "--only %s: '%s' is not a key of %s's matrix%s", arg, key,
			 m->path, suggest_hint(key, cands, n, hint, sizeof(hint)));
		return -1;
	}
	if (matrix_parse_value(m->dims[d].kind, eq + 1, &v, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "--only %s: %s", arg, why);
		return -1;
	}
	free(v.text);
	for (size_t i = 0; i < m->dims[d].nvalues; i++)
		if (m->dims[d].values[i].num == v.num) {
			f->dim = d;
			f->num = v.num;
			return 0;
		}
	char list[512] = "";
	for (size_t i = 0; i < m->dims[d].nvalues; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 m->dims[d].values[i].text);
	snprintf(err, errlen, "--only %s: %s has no value %s (its values: %s)", arg, key,
		 eq + 1, list);
	return -1;
}

/* The value of key in cell c, or NULL when the matrix does not set it. */
static const struct mvalue *cell_value(const struct matrix *m, const size_t *choice,
				       const char *key)
{
	for (size_t d = 0; d < m->ndims; d++)
		if (!strcmp(m->dims[d].key, key))
			return &m->dims[d].values[choice[d]];
	return NULL;
}

static void resolve(const struct matrix *m, const size_t *choice, struct cell_params *p)
{
	const struct mvalue *v;

	memset(p, 0, sizeof(*p));
	p->pattern = (v = cell_value(m, choice, "pattern")) ? (enum pattern)v->num : PAT_PINGPONG;
	p->transport = (v = cell_value(m, choice, "transport")) ? transport_at((size_t)v->num)
							       : transport_default();
	p->size = (v = cell_value(m, choice, "size")) ? v->num : PLAN_DEFAULT_SIZE;
	p->response_size = (v = cell_value(m, choice, "response_size")) ? v->num : p->size;
	p->duration_ns = (v = cell_value(m, choice, "duration")) ? v->num : 0;
	p->count = (v = cell_value(m, choice, "count")) ? v->num
			: p->duration_ns ? 0 : PLAN_DEFAULT_COUNT;
	p->interval_ns = (v = cell_value(m, choice, "interval")) ? v->num : PLAN_DEFAULT_INTERVAL_NS;
	p->concurrency = (v = cell_value(m, choice, "concurrency")) ? (unsigned)v->num : 1;
	p->inflight = (v = cell_value(m, choice, "inflight")) ? (unsigned)v->num : 1;
	p->nodelay = (v = cell_value(m, choice, "nodelay")) ? (int)v->num : 1;
	p->allow_loss = (v = cell_value(m, choice, "allow_loss")) ? (int)v->num : 0;
	p->loss_timeout_ns = (v = cell_value(m, choice, "loss_timeout")) ? v->num
			     : PLAN_DEFAULT_LOSS_TIMEOUT_NS;
	p->endpoint = (v = cell_value(m, choice, "endpoint")) ? (int)v->num : EP_TCP;
	p->spin_ns = (v = cell_value(m, choice, "spin")) ? v->num : 0;
	p->server_prog = (v = cell_value(m, choice, "server")) && v->num ? matrix_program(m, v->text)
			 : NULL;
	p->client_prog = (v = cell_value(m, choice, "client")) && v->num ? matrix_program(m, v->text)
			 : NULL;
}

/* The position to blame for a cell problem: the named key's value when the
 * matrix sets it, else the first dimension's key. */
static struct srcpos blame(const struct matrix *m, const size_t *choice, const char *key)
{
	const struct mvalue *v = cell_value(m, choice, key);

	if (v)
		return v->pos;
	return m->ndims ? m->dims[0].pos : (struct srcpos){ 1, 1 };
}

#define CELL_ERR(key, ...) do { \
	struct srcpos at_ = blame(m, choice, key); \
	int n_ = snprintf(err, errlen, "%s:%d:%d: ", m->path, at_.line, at_.col); \
	if (n_ > 0 && (size_t)n_ < errlen) \
		snprintf(err + n_, errlen - (size_t)n_, __VA_ARGS__); \
	return -1; \
} while (0)

static int check_cell(const struct matrix *m, const size_t *choice, const struct cell_params *p,
		      char *err, size_t errlen)
{
	const struct transport *t = p->transport;

	if ((p->server_prog || p->client_prog) && !transport_takes_programs(t))
		CELL_ERR(p->server_prog ? "server" : "client", "programs run over tcp, tcp6 or unix, "
			 "not %s", t->name);
	if ((p->server_prog || p->client_prog) && p->pattern == PAT_STREAM)
		CELL_ERR(p->server_prog ? "server" : "client", "programs take part in pingpong and "
			 "echo cells (a stream's receiver must count what arrives)");
	for (int k = 0; k < 2; k++) {
		const struct program *pr = k ? p->client_prog : p->server_prog;
		char **w = !pr ? NULL : k ? pr->client : pr->server;
		size_t n = !pr ? 0 : k ? pr->nclient : pr->nserver;
		int on_unix = t->family == AF_UNIX;
		for (size_t i = 0; i < n; i++) {
			const char *bad = on_unix ? (strstr(w[i], "{host}") ? "{host}" :
						     strstr(w[i], "{port}") ? "{port}" : NULL)
					: strstr(w[i], "{path}") ? "{path}" : NULL;
			if (bad)
				CELL_ERR(k ? "client" : "server", "program %s uses %s, which a %s cell "
					 "does not have", pr->name, bad, t->name);
		}
	}
	if (p->server_prog && p->spin_ns)
		CELL_ERR("spin", "spin is a busy-wait of matrix's own server; program %s cannot "
			 "be made to spin", p->server_prog->name);
	if (p->client_prog && p->duration_ns)
		CELL_ERR("client", "a program client runs for a count: {count} is its share");
	if (!(t->patterns & PAT_BIT(p->pattern)))
		CELL_ERR("transport", "transport %s cannot do pattern %s", t->name,
			 pattern_names[p->pattern]);
	if (p->size > t->max_size)
		CELL_ERR("size", "size %llu is larger than transport %s can carry (%llu bytes); "
			 "nothing is clamped: use a smaller size or exclude the cell",
			 (unsigned long long)p->size, t->name, (unsigned long long)t->max_size);
	if (p->size < t->min_size)
		CELL_ERR("size", "size %llu is smaller than transport %s can carry (at least %llu "
			 "bytes: the message's sequence number)", (unsigned long long)p->size, t->name,
			 (unsigned long long)t->min_size);
	if (p->pattern == PAT_PINGPONG && p->response_size < t->min_size)
		CELL_ERR("response_size", "response_size %llu is smaller than transport %s can carry "
			 "(at least %llu bytes)", (unsigned long long)p->response_size, t->name,
			 (unsigned long long)t->min_size);
	if (t->max_inflight && p->inflight > t->max_inflight)
		CELL_ERR("inflight", "transport %s allows inflight %u at most (nothing is resent, "
			 "so replies could not be matched)", t->name, t->max_inflight);
	if (p->response_size > t->max_size)
		CELL_ERR("response_size", "response_size %llu is larger than transport %s can carry",
			 (unsigned long long)p->response_size, t->name);
	if (cell_value(m, choice, "response_size") && p->pattern != PAT_PINGPONG)
		CELL_ERR("response_size", "response_size applies to pattern pingpong only "
			 "(echo answers with the request, stream has no answer)");
	if (p->inflight > 1 && p->pattern == PAT_STREAM)
		CELL_ERR("inflight", "inflight applies to pingpong and echo, not stream");
	if (p->count && p->count < p->concurrency)
		CELL_ERR("count", "count %llu is less than concurrency %u: every client needs "
			 "at least one message", (unsigned long long)p->count, p->concurrency);
	if (p->pattern == PAT_STREAM &&
	    (p->duration_ns ? p->duration_ns : m->timeout_ns) / p->interval_ns > PLAN_MAX_INTERVALS)
		CELL_ERR("interval", "interval too short: a timeline of more than %u intervals "
			 "(duration, or else timeout, divided by interval)", PLAN_MAX_INTERVALS);
	if (m->timeout_ns > PLAN_MAX_TIMEOUT_NS) {
		struct srcpos at = m->timeout_pos;
		snprintf(err, errlen, "%s:%d:%d: timeout: at most 24h", m->path, at.line, at.col);
		return -1;
	}
	if (p->duration_ns && p->duration_ns >= m->timeout_ns)
		CELL_ERR("duration", "duration must be shorter than the timeout (%llu s)",
			 (unsigned long long)(m->timeout_ns / 1000000000ull));
	return 0;
}

/* The loader checked that every exclude value is a value of its
 * dimension, so each rule matches at least one cell of the product. */
static int excluded(const struct matrix *m, const size_t *choice)
{
	for (size_t r = 0; r < m->nexcludes; r++) {
		const struct exclude_rule *x = &m->excludes[r];
		size_t t;
		for (t = 0; t < x->nterms; t++)
			if (m->dims[x->terms[t].dim].values[choice[x->terms[t].dim]].num !=
			    x->terms[t].value.num)
				break;
		if (t == x->nterms)
			return 1;
	}
	return 0;
}

static int selected(const size_t *choice, const struct matrix *m,
		    const struct only_filter *only, size_t nonly)
{
	for (size_t d = 0; d < m->ndims; d++) {
		int filtered = 0, match = 0;
		for (size_t i = 0; i < nonly; i++)
			if (only[i].dim == d) {
				filtered = 1;
				match |= m->dims[d].values[choice[d]].num == only[i].num;
			}
		if (filtered && !match)
			return 0;
	}
	return 1;
}

/* Advances choice to the next combination, last key fastest; 0 at the end. */
static int next_choice(const struct matrix *m, size_t *choice)
{
	for (size_t d = m->ndims; d-- > 0;) {
		if (++choice[d] < m->dims[d].nvalues)
			return 1;
		choice[d] = 0;
	}
	return 0;
}

int plan_build(struct plan *pl, const struct matrix *m, const struct only_filter *only,
	       size_t nonly, char *err, size_t errlen)
{
	size_t *choice = calloc(m->ndims + 1, sizeof(*choice));
	unsigned number = 0;
	int rc = -1;

	memset(pl, 0, sizeof(*pl));
	pl->m = m;
	pl->repeat = m->repeat;
	if (!choice) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	do {
		struct cell_params p;
		number++;
		if (excluded(m, choice))
			continue;
		resolve(m, choice, &p);
		if (check_cell(m, choice, &p, err, errlen) < 0)
			goto out;
		if (!selected(choice, m, only, nonly))
			continue;
		struct cell *cells = realloc(pl->cells, (pl->ncells + 1) * sizeof(*cells));
		if (!cells) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		pl->cells = cells;
		struct cell *c = &cells[pl->ncells];
		c->number = number;
		c->p = p;
		c->choice = malloc((m->ndims + 1) * sizeof(*c->choice));
		if (!c->choice) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		memcpy(c->choice, choice, m->ndims * sizeof(*choice));
		pl->ncells++;
	} while (m->ndims && next_choice(m, choice));
	if (!pl->ncells) {
		if (nonly)
			snprintf(err, errlen, "--only: no cell of %s matches every filter", m->path);
		else
			snprintf(err, errlen, "%s: every cell is excluded", m->path);
		goto out;
	}
	rc = 0;
out:
	free(choice);
	if (rc < 0)
		plan_release(pl);
	return rc;
}

void plan_release(struct plan *pl)
{
	for (size_t i = 0; i < pl->ncells; i++)
		free(pl->cells[i].choice);
	free(pl->cells);
	pl->cells = NULL;
	pl->ncells = 0;
}

void plan_cell_label(const struct plan *pl, const struct cell *c, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t d = 0; d < pl->m->ndims && o < len; d++) {
		if (pl->m->dims[d].nvalues < 2)
			continue;	/* constant: not worth repeating on every line */
		int n = snprintf(buf + o, len - o, "%s%s=%s", o ? " " : "", pl->m->dims[d].key,
				 pl->m->dims[d].values[c->choice[d]].text);
		if (n < 0)
			break;
		o += (size_t)n;
	}
	if (!buf[0])
		snprintf(buf, len, "cell %u", c->number);
}

uint64_t plan_worker_runs(const struct plan *pl)
{
	uint64_t n = 0;

	for (size_t i = 0; i < pl->ncells; i++)
		n += 1 + pl->cells[i].p.concurrency;
	return n * pl->repeat;
}

uint64_t plan_client_share(const struct cell_params *p, unsigned id)
{
	return p->count / p->concurrency + (id - 1 < p->count % p->concurrency);
}
