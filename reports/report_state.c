/* The machine around each repetition, read back: see report_state.h. */
#include "report_state.h"
#include "report.h"
#include "stats.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A field's figure: NaN when empty, not a number, or negative. */
static double figure(char **row, int col)
{
	char *end;
	double v;

	if (col < 0 || !*row[col])
		return NAN;
	v = strtod(row[col], &end);
	return *end || !isfinite(v) || v < 0 ? NAN : v;
}

void report_state_columns(const struct csv_table *t, struct rstate_cols *col)
{
	col->load[0] = csv_table_col(t, "loadavg_before");
	col->load[1] = csv_table_col(t, "loadavg_after");
	col->other = csv_table_col(t, "other_cpus");
	col->steal = csv_table_col(t, "steal_pct");
	col->iowait = csv_table_col(t, "iowait_pct");
	col->runnable = csv_table_col(t, "runnable");
	col->mhz = csv_table_col(t, "cpu_mhz");
}

/* One repetition's figure v (NaN: none) into a busy count: busy when
 * above bound (NaN: never). */
static void count(struct rbusy *b, double v, double bound)
{
	if (isnan(v))
		return;
	b->reps++;
	b->busy += v > bound;
	if (v > b->max)
		b->max = v;
}

int report_state_add_row(struct report *r, struct rcell *c, char **row,
			 const struct rstate_cols *col, int ok)
{
	double cores = strtod(report_meta(r, "cores"), NULL);
	double b = figure(row, col->load[0]), a = figure(row, col->load[1]);
	struct rstate s = {
		.other_cpus = figure(row, col->other),
		.steal_pct = figure(row, col->steal),
		.iowait_pct = figure(row, col->iowait),
		.loadavg = isnan(b) || a > b ? a : b,	/* the larger one */
		.runnable = figure(row, col->runnable),
		.cpu_mhz = figure(row, col->mhz),
	};

	if (!(cores > 0))
		cores = NAN;	/* unknown: nothing is above it */
	count(&r->load, s.loadavg, cores);
	count(&r->other, s.other_cpus, REPORT_BUSY_OTHER_SHARE * cores);
	count(&r->steal, s.steal_pct, REPORT_BUSY_STEAL_PCT);
	if (!ok)
		return 0;
	struct rstate *ns = realloc(c->states, (c->nstates + 1) * sizeof(*ns));
	if (!ns)
		return -1;
	c->states = ns;
	ns[c->nstates++] = s;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static const size_t state_fields[] = {
	offsetof(struct rstate, other_cpus), offsetof(struct rstate, steal_pct),
	offsetof(struct rstate, iowait_pct), offsetof(struct rstate, loadavg),
	offsetof(struct rstate, runnable), offsetof(struct rstate, cpu_mhz),
};

void report_state_summarize(struct rcell *c)
{
	double *v = malloc((c->nstates ? c->nstates : 1) * sizeof(*v));

	for (size_t f = 0; f < sizeof(state_fields) / sizeof(*state_fields); f++) {
		double *med = (double *)((char *)&c->state + state_fields[f]);
		size_t n = 0;
		for (size_t i = 0; v && i < c->nstates; i++) {
			double x = *(const double *)((const char *)&c->states[i] + state_fields[f]);
			if (!isnan(x))
				v[n++] = x;
		}
		qsort(v, n, sizeof(*v), cmp_double);
		*med = n ? stats_median_sorted(v, n) : NAN;
	}
	free(v);
	free(c->states);
	c->states = NULL;
	c->nstates = 0;
}

/* "; " between clauses */
static size_t clause(char *buf, size_t len, size_t o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t clause(char *buf, size_t len, size_t o, const char *fmt, ...)
{
	va_list ap;

	if (o >= len)
		return o;
	if (o)
		o += (size_t)snprintf(buf + o, len - o, "; ");
	if (o >= len)
		return o;
	va_start(ap, fmt);
	o += (size_t)vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
	return o;
}

int report_busy_text(const struct report *r, char *buf, size_t len)
{
	const char *cores = report_meta(r, "cores");
	size_t o = 0;

	buf[0] = '\0';
	if (r->load.busy)
		o = clause(buf, len, o, "the 1-minute load average was above the %s cores around "
			   "%zu of the %zu repetitions (up to %.2f)", cores, r->load.busy,
			   r->load.reps, r->load.max);
	if (r->other.busy)
		o = clause(buf, len, o, "other processes used more than %.2f of the %s CPUs in "
			   "%zu of the %zu repetitions (up to %.2f)",
			   REPORT_BUSY_OTHER_SHARE * strtod(cores, NULL), cores, r->other.busy,
			   r->other.reps, r->other.max);
	if (r->steal.busy)
		o = clause(buf, len, o, "the hypervisor took more than %.0f%% of the CPUs' time "
			   "(steal) in %zu of the %zu repetitions (up to %.1f%%)",
			   REPORT_BUSY_STEAL_PCT, r->steal.busy, r->steal.reps, r->steal.max);
	return o > 0;
}

void report_busy_columns(const struct report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", r->load.busy ? "`loadavg_before`, `loadavg_after`" : "",
		 r->load.busy && (r->other.busy || r->steal.busy) ? ", " : "",
		 r->other.busy ? "`other_cpus`" : "", r->other.busy && r->steal.busy ? ", " : "",
		 r->steal.busy ? "`steal_pct`" : "");
}
