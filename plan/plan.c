/* Cartesian product, exclude, --only, each cell resolved (cell_params.h)
 * and checked (plan_check.h).  See plan.h. */
#include "plan.h"
#include "plan_check.h"
#include "suggest.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	/* a value as results.csv writes it (rate 2000 for 2k/s), first */
	for (size_t i = 0; i < m->dims[d].nvalues; i++) {
		char csv[256];
		matrix_format_value(&m->dims[d], &m->dims[d].values[i], csv, sizeof(csv));
		if (!strcmp(csv, eq + 1)) {
			f->dim = d;
			f->num = m->dims[d].values[i].num;
			return 0;
		}
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

void plan_placement(const struct plan *pl, const struct cell_params *p, struct placement *out)
{
	char why[256];

	if (plan_resolve_placement(&pl->cpus, p, out, why, sizeof(why)) < 0)
		out->mode = PLACE_NONE;	/* plan_build refused it: not reached */
}

void plan_placement_text(const struct plan *pl, const struct cell_params *p, char *buf,
			 size_t len)
{
	struct placement place;

	plan_placement(pl, p, &place);
	placement_format(&place, buf, len);
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

/* The index of value v in dimension d, or nvalues. */
static size_t value_index(const struct dimension *d, const struct mvalue *v)
{
	size_t i = 0;

	while (i < d->nvalues && d->values[i].num != v->num)
		i++;
	return i;
}

/* Whether ratio spec r pairs two cells: one with its numerator and one
 * with its denominator, the rest alike, neither excluded. */
static int ratio_pairs(const struct matrix *m, const struct ratio_spec *r, size_t *choice)
{
	const struct dimension *d = &m->dims[r->dim];
	size_t num = value_index(d, &r->numerator), den = value_index(d, &r->denominator);

	memset(choice, 0, m->ndims * sizeof(*choice));
	do {
		if (choice[r->dim] != num || excluded(m, choice))
			continue;
		choice[r->dim] = den;
		int ok = !excluded(m, choice);
		choice[r->dim] = num;
		if (ok)
			return 1;
	} while (next_choice(m, choice));
	return 0;
}

/* What no single cell shows, over every cell the exclude rules leave
 * (--only aside: a filtered run is a part of the plan): a report: ratio
 * that pairs no two cells, and a program's timeline: in a matrix that
 * runs it as a server, never of a stream (a timeline is a receiver's). */
static int check_across(const struct matrix *m, size_t *choice, char *err, size_t errlen)
{
	for (size_t i = 0; i < m->report.nratios && m->ndims; i++) {
		const struct ratio_spec *r = &m->report.ratios[i];
		if (ratio_pairs(m, r, choice))
			continue;
		snprintf(err, errlen, "%s:%d:%d: ratio %s: no two cells differ only in %s with "
			 "%s %s and %s %s (the exclude rules drop one of each pair): it would "
			 "have no pairs", m->path, r->pos.line, r->pos.col, r->name,
			 m->dims[r->dim].key, m->dims[r->dim].key, r->numerator.text,
			 m->dims[r->dim].key, r->denominator.text);
		return -1;
	}
	for (size_t k = 0; k < m->nprograms; k++) {
		const struct program *pr = &m->programs[k];
		int served = 0, streamed = 0;
		if (!pr->timeline.regex)
			continue;
		memset(choice, 0, (m->ndims + 1) * sizeof(*choice));
		do {
			struct cell_params p;
			if (excluded(m, choice))
				continue;
			plan_resolve_params(m, choice, &p);
			served |= p.server_prog == pr;
			streamed = p.server_prog == pr && pattern_info(p.pattern)->receiver_times;
		} while (!streamed && m->ndims && next_choice(m, choice));
		if (streamed || !served)
			continue;
		snprintf(err, errlen, "%s:%d:%d: timeline: program %s's timeline is its server's "
			 "per-interval lines in stream cells, and no cell runs it as the server of a "
			 "stream (add pattern: stream, or drop timeline:)", m->path,
			 pr->timeline.pos.line, pr->timeline.pos.col, pr->name);
		return -1;
	}
	return 0;
}

/* plan_build, or plan_build_elsewhere when !here. */
static int build(struct plan *pl, const struct matrix *m, const struct only_filter *only,
		 size_t nonly, int here, char *err, size_t errlen)
{
	size_t *choice = calloc(m->ndims + 1, sizeof(*choice));
	unsigned number = 0;
	struct plan_limits lim;
	int rc = -1;

	memset(pl, 0, sizeof(*pl));
	pl->m = m;
	pl->repeat = m->repeat;
	plan_read_limits(&lim);
	if (sched_getaffinity(0, sizeof(pl->cpus), &pl->cpus) < 0) {
		snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
		goto out;
	}
	if (!choice) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (plan_check_count(m, err, errlen) < 0 || check_across(m, choice, err, errlen) < 0)
		goto out;
	memset(choice, 0, (m->ndims + 1) * sizeof(*choice));
	do {
		struct cell_params p;
		number++;
		if (excluded(m, choice))
			continue;
		plan_resolve_params(m, choice, &p);
		if (plan_check_cell(m, choice, &p, err, errlen) < 0)
			goto out;
		if (!selected(choice, m, only, nonly))
			continue;
		if (here && plan_check_machine(m, choice, &p, &lim, &pl->cpus, err, errlen) < 0)
			goto out;
		if (!(pl->ncells & (pl->ncells - 1))) {	/* 0, 1, 2, 4...: room for twice as many */
			struct cell *cells = realloc(pl->cells, (pl->ncells ? 2 * pl->ncells : 1) *
						     sizeof(*cells));
			if (!cells) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			pl->cells = cells;
		}
		struct cell *c = &pl->cells[pl->ncells];
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
	if ((uint64_t)pl->ncells * pl->repeat > PLAN_MAX_RUNS) {
		snprintf(err, errlen, "%s: %zu cells x %u repetitions = %llu cell repetitions, more "
			 "than the %u a run may have: use fewer cells or repetitions", m->path,
			 pl->ncells, pl->repeat, (unsigned long long)pl->ncells * pl->repeat,
			 PLAN_MAX_RUNS);
		goto out;
	}
	rc = 0;
out:
	free(choice);
	if (rc < 0)
		plan_release(pl);
	return rc;
}

int plan_build(struct plan *pl, const struct matrix *m, const struct only_filter *only,
	       size_t nonly, char *err, size_t errlen)
{
	return build(pl, m, only, nonly, 1, err, errlen);
}

int plan_build_elsewhere(struct plan *pl, const struct matrix *m,
			 const struct only_filter *only, size_t nonly, char *err, size_t errlen)
{
	return build(pl, m, only, nonly, 0, err, errlen);
}

void plan_release(struct plan *pl)
{
	for (size_t i = 0; i < pl->ncells; i++)
		free(pl->cells[i].choice);
	free(pl->cells);
	pl->cells = NULL;
	pl->ncells = 0;
}

long plan_cell_index(const struct plan *pl, unsigned long number)
{
	size_t lo = 0, hi = pl->ncells;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (pl->cells[mid].number == number)
			return (long)mid;
		if (pl->cells[mid].number < number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
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

void plan_cell_spin(const struct plan *pl, const struct cell_params *p, unsigned *spinners,
		    unsigned *cpus)
{
	/* a multiplexing transport: one server thread for all the clients */
	unsigned srv = p->transport->multiplexes ? 1 : p->concurrency;
	unsigned cli = p->concurrency;
	struct placement at;
	cpu_set_t all;

	*spinners = p->poll == POLL_BUSY ? srv + cli : 0;
	*cpus = (unsigned)CPU_COUNT(&pl->cpus);
	plan_placement(pl, p, &at);
	if (!*spinners || at.mode != PLACE_MAP)
		return;
	CPU_OR(&all, &at.server, &at.clients);
	*cpus = (unsigned)CPU_COUNT(&all);
	if (*spinners > *cpus)
		return;
	if (srv > (unsigned)CPU_COUNT(&at.server)) {
		*spinners = srv;
		*cpus = (unsigned)CPU_COUNT(&at.server);
	} else if (cli > (unsigned)CPU_COUNT(&at.clients)) {
		*spinners = cli;
		*cpus = (unsigned)CPU_COUNT(&at.clients);
	}
}

uint64_t plan_worker_runs(const struct plan *pl)
{
	uint64_t n = 0;

	for (size_t i = 0; i < pl->ncells; i++)
		n += 1 + pl->cells[i].p.concurrency;
	return n * pl->repeat;
}
