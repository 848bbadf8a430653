/*
 * bench/table: the table of `make bench`.  Reads raw.csv (bench/run.sh's
 * header defines it: round,cell,tool,placement,poll,metric,value, one row
 * per measurement; a row of metric `failed` says the tool failed that
 * round) and writes OUTDIR/table.csv and OUTDIR/table.md, prints the table
 * and then the targets as a checklist (met / missed / not
 * measured, with the figures).
 *
 *   table RAW.CSV OUTDIR
 *
 * Per cell, placement, poll style and metric, a row per tool: the median
 * over its rounds, the min and max, the rounds measured and failed, and
 * matrix's median over the tool's (the ratio of medians), with the min and
 * max of the per-round ratios (the rounds are paired: a round ran every
 * tool of a cell back to back).  table.csv's columns: cell, placement,
 * poll, metric, tool, rounds, failed, median, min, max, ratio, ratio_min,
 * ratio_max (empty where nothing was measured).  Exit 0; 1 when raw.csv
 * cannot be read or an output cannot be written; 2 on a usage error.
 *
 * The checklist lists every target of the issue, each with a line per
 * group it applies to ([met] or [MISSED] with the figures, [not measured]
 * where the other tool has no figure) or one [not measured] line: the
 * ratio targets of ratio_targets[] (the floor, iperf3, sockperf, qperf,
 * the Go echo, and the record cost: tool matrix-totals is matrix with
 * record: totals), then the runner's: runner_overhead_ms of
 * bench/overhead.sh, the peak RSS of bench/memory.sh's cells (named
 * NAME_countN) at their highest count over their lowest, and the largest
 * runner_max_rss_kib of any run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"

#define OURS "matrix"

enum { C_ROUND, C_CELL, C_TOOL, C_PLACE, C_POLL, C_METRIC, C_VALUE, NCOLS };
static const char *const col_names[NCOLS] = {
	"round", "cell", "tool", "placement", "poll", "metric", "value"
};

struct stat_row {		/* one tool's figures in one group */
	const char *cell, *place, *poll, *metric, *tool;
	size_t rounds, failed;
	double median, min, max, ratio, ratio_min, ratio_max;
};

struct bench {
	struct csv_table t;
	int col[NCOLS];
	struct stat_row *s;
	size_t ns, cap;
};

static const char *field(const struct bench *b, size_t r, int c)
{
	return b->t.rows[r][b->col[c]];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int same_group(const struct bench *b, size_t r, const struct stat_row *s)
{
	return !strcmp(field(b, r, C_CELL), s->cell) && !strcmp(field(b, r, C_PLACE), s->place) &&
	       !strcmp(field(b, r, C_POLL), s->poll);
}

/* The value of TOOL's METRIC in round ROUND of s's group; NAN if none. */
static double value_in(const struct bench *b, const struct stat_row *s, const char *tool,
		       const char *round)
{
	for (size_t r = 0; r < b->t.nrows; r++)
		if (same_group(b, r, s) && !strcmp(field(b, r, C_METRIC), s->metric) &&
		    !strcmp(field(b, r, C_TOOL), tool) && !strcmp(field(b, r, C_ROUND), round))
			return strtod(field(b, r, C_VALUE), NULL);
	return NAN;
}

/* A row's figures: its values, failures, and the ratios to ours. */
static void fill(const struct bench *b, struct stat_row *s, double *v, double *q)
{
	size_t n = 0, nq = 0;

	for (size_t r = 0; r < b->t.nrows; r++) {
		if (!same_group(b, r, s) || strcmp(field(b, r, C_TOOL), s->tool))
			continue;
		if (!strcmp(field(b, r, C_METRIC), "failed")) {
			s->failed++;
			continue;
		}
		if (strcmp(field(b, r, C_METRIC), s->metric))
			continue;
		v[n++] = strtod(field(b, r, C_VALUE), NULL);
		double ours = value_in(b, s, OURS, field(b, r, C_ROUND));
		if (strcmp(s->tool, OURS) && !isnan(ours) && v[n - 1] > 0)
			q[nq++] = ours / v[n - 1];
	}
	s->rounds = n;
	s->median = median_of(v, n);
	s->min = n ? v[0] : NAN;
	s->max = n ? v[n - 1] : NAN;
	s->ratio = s->ratio_min = s->ratio_max = NAN;
	if (nq) {
		median_of(q, nq);
		s->ratio_min = q[0];
		s->ratio_max = q[nq - 1];
	}
}

static int seen(const struct bench *b, const char *cell, const char *place, const char *poll,
		const char *metric, const char *tool)
{
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i];
		if (!strcmp(s->cell, cell) && !strcmp(s->place, place) && !strcmp(s->poll, poll) &&
		    !strcmp(s->metric, metric) && !strcmp(s->tool, tool))
			return 1;
	}
	return 0;
}

/* Tools in a group: ours first, the floor second, the peers as they came. */
static int tool_rank(const char *tool)
{
	return !strcmp(tool, OURS) ? 0 : !strcmp(tool, "floor") ? 1 : 2;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct stat_row *a = pa, *b = pb;
	int d;

	if ((d = strcmp(a->cell, b->cell)) || (d = strcmp(a->place, b->place)) ||
	    (d = strcmp(a->poll, b->poll)) || (d = strcmp(a->metric, b->metric)))
		return d;
	return tool_rank(a->tool) - tool_rank(b->tool);
}

static int add(struct bench *b, size_t r, const char *metric)
{
	if (seen(b, field(b, r, C_CELL), field(b, r, C_PLACE), field(b, r, C_POLL), metric,
		 field(b, r, C_TOOL)))
		return 0;
	if (b->ns == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		struct stat_row *s = realloc(b->s, cap * sizeof(*s));
		if (!s)
			return -1;
		b->s = s;
		b->cap = cap;
	}
	b->s[b->ns++] = (struct stat_row){ .cell = field(b, r, C_CELL),
		.place = field(b, r, C_PLACE), .poll = field(b, r, C_POLL), .metric = metric,
		.tool = field(b, r, C_TOOL) };
	return 0;
}

/* One stat_row per cell, placement, poll, metric and tool of raw.csv; a
 * tool that failed a round gets a row for every metric its group has (a
 * group that has none: metric "-"). */
static int build(struct bench *b)
{
	size_t n = b->t.nrows;
	double *v = malloc((n + 1) * sizeof(*v)), *q = malloc((n + 1) * sizeof(*q));

	if (!v || !q)
		return -1;
	for (size_t r = 0; r < n; r++)
		if (strcmp(field(b, r, C_METRIC), "failed") && add(b, r, field(b, r, C_METRIC)) < 0)
			return -1;
	for (size_t r = 0; r < n; r++) {
		if (strcmp(field(b, r, C_METRIC), "failed"))
			continue;
		struct stat_row like = { .cell = field(b, r, C_CELL),
			.place = field(b, r, C_PLACE), .poll = field(b, r, C_POLL) };
		int any = 0;
		for (size_t m = 0; m < n; m++)
			if (same_group(b, m, &like) && strcmp(field(b, m, C_METRIC), "failed")) {
				if (add(b, r, field(b, m, C_METRIC)) < 0)
					return -1;
				any = 1;
			}
		if (!any && add(b, r, "-") < 0)
			return -1;
	}
	for (size_t i = 0; i < b->ns; i++)
		fill(b, &b->s[i], v, q);
	for (size_t i = 0; i < b->ns; i++) {	/* the ratio of medians */
		struct stat_row *s = &b->s[i];
		for (size_t j = 0; j < b->ns && strcmp(s->tool, OURS); j++) {
			const struct stat_row *o = &b->s[j];
			if (!strcmp(o->tool, OURS) && !strcmp(o->cell, s->cell) &&
			    !strcmp(o->place, s->place) && !strcmp(o->poll, s->poll) &&
			    !strcmp(o->metric, s->metric) && s->median > 0)
				s->ratio = o->median / s->median;
		}
	}
	if (b->ns)	/* an empty raw.csv: no rows, b->s NULL */
		qsort(b->s, b->ns, sizeof(*b->s), cmp_rows);
	free(v);
	free(q);
	return 0;
}

static void fmt(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static int write_csv(const struct bench *b, const char *dir)
{
	static const char *const head[] = { "cell", "placement", "poll", "metric", "tool",
		"rounds", "failed", "median", "min", "max", "ratio", "ratio_min", "ratio_max" };
	struct csv_out w;
	char path[4096], err[4200];

	snprintf(path, sizeof(path), "%s/table.csv", dir);
	if (csv_out_create(&w, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "table: %s\n", err);
		return -1;
	}
	for (size_t i = 0; i < sizeof(head) / sizeof(*head); i++)
		csv_out_field(&w, head[i]);
	csv_out_end_row(&w);
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i];
		csv_out_text(&w, s->cell);
		csv_out_text(&w, s->place);
		csv_out_text(&w, s->poll);
		csv_out_text(&w, s->metric);
		csv_out_text(&w, s->tool);
		csv_out_u64(&w, s->rounds);
		csv_out_u64(&w, s->failed);
		csv_out_double(&w, s->median, 6);
		csv_out_double(&w, s->min, 6);
		csv_out_double(&w, s->max, 6);
		csv_out_double(&w, s->ratio, 4);
		csv_out_double(&w, s->ratio_min, 4);
		csv_out_double(&w, s->ratio_max, 4);
		csv_out_end_row(&w);
	}
	if (csv_out_close(&w) < 0) {
		fprintf(stderr, "table: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The Markdown table, to f. */
static void markdown(const struct bench *b, FILE *f)
{
	char med[32], lo[32], hi[32], r[32], rlo[32], rhi[32];

	fprintf(f, "| cell | placement | poll | metric | tool | median | min-max | rounds "
		   "| matrix/tool | per-round ratio min-max |\n"
		   "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i];
		fmt(med, sizeof(med), s->median);
		fmt(lo, sizeof(lo), s->min);
		fmt(hi, sizeof(hi), s->max);
		fmt(r, sizeof(r), s->ratio);
		fmt(rlo, sizeof(rlo), s->ratio_min);
		fmt(rhi, sizeof(rhi), s->ratio_max);
		char failed[48] = "";
		if (s->failed)
			snprintf(failed, sizeof(failed), " (%zu failed)", s->failed);
		fprintf(f, "| %s | %s | %s | %s | %s | %s | %s%s%s | %zu%s | %s%s | %s%s%s |\n",
			s->cell, s->place, s->poll, s->metric, s->tool, med, lo,
			isnan(s->min) ? "" : "-", isnan(s->min) ? "" : hi, s->rounds, failed, r,
			isnan(s->ratio) ? "" : "x", rlo, isnan(s->ratio_min) ? "" : "-",
			isnan(s->ratio_min) ? "" : rhi);
	}
}

static const struct stat_row *find(const struct bench *b, const struct stat_row *like,
				   const char *metric, const char *tool)
{
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i];
		if (!strcmp(s->cell, like->cell) && !strcmp(s->place, like->place) &&
		    !strcmp(s->poll, like->poll) && !strcmp(s->metric, metric) &&
		    !strcmp(s->tool, tool))
			return s;
	}
	return NULL;
}

/* One line of the checklist: matrix's METRIC over TOOL's in ours' group
 * against the bound (at most when le, else at least). */
static void check(const struct bench *b, FILE *f, const struct stat_row *ours,
		  const char *metric, const char *tool, double bound, int le)
{
	const struct stat_row *m = find(b, ours, metric, OURS), *t = find(b, ours, metric, tool);
	char a[32], c[32];

	if (!m || !t || isnan(m->median) || isnan(t->median) || !(t->median > 0)) {
		fprintf(f, "  [not measured] %s %s %s: matrix vs %s, %s\n", ours->cell, ours->place,
			ours->poll, tool, metric);
		return;
	}
	double r = m->median / t->median;
	int met = le ? r <= bound : r >= bound;
	fmt(a, sizeof(a), m->median);
	fmt(c, sizeof(c), t->median);
	fprintf(f, "  [%s] %s %s %s: %s matrix %s vs %s %s = %.3fx (target %s %.2fx)\n",
		met ? "met" : "MISSED", ours->cell, ours->place, ours->poll, metric, a, tool, c, r,
		le ? "<=" : ">=", bound);
}

/* A target comparing matrix with another tool, cell group by group. */
struct ratio_target {
	const char *title;
	const char *cells;	/* the cells: this prefix */
	const char *size;	/* and, if set, this size ("/128KiB") */
	const char *poll;	/* and, if set, this poll style */
	const char *metric, *tool;
	double bound;
	int le;			/* at most bound, else at least */
	int where_run;		/* only the groups the tool ran in */
	int not_ipc;		/* not the shm and mq cells (they have targets of their own) */
};

static const struct ratio_target ratio_targets[] = {
	{ "stream MiB/s at least 0.95x the blocking floor, each size", "stream/", NULL, NULL,
	  "mib_per_s", "floor", 0.95, 0, 0, 1 },
	{ "stream 128 KiB at least iperf3's MiB/s", "stream/", "/128KiB", NULL, "mib_per_s",
	  "iperf3", 1.0, 0, 0, 1 },
	{ "pingpong p50 RTT at most 1.05x the floor of the same poll style", "pingpong/", NULL,
	  NULL, "rtt_p50_us", "floor", 1.05, 1, 0, 1 },
	{ "pingpong p50 RTT no higher than sockperf's", "pingpong/", NULL, NULL, "rtt_p50_us",
	  "sockperf", 1.0, 1, 0, 1 },
	{ "pingpong mean RTT no higher than qperf's (qperf has no percentiles)", "pingpong/",
	  NULL, "block", "rtt_mean_us", "qperf", 1.0, 1, 0, 1 },
	{ "poll: busy, unix echo 10 B at least 1.5x the Go echo's msg/s", "echo/unix/10B", NULL,
	  "busy", "msgs_per_s", "go", 1.5, 0, 0, 1 },
	{ "shm pingpong 16 B p50 at most 1.10x the bare ring of the same poll style (spin, futex)",
	  "pingpong/shm/16B", NULL, NULL, "rtt_p50_us", "floor", 1.10, 1, 0, 0 },
	{ "shm stream 1 KiB msg/s at least 0.90x the bare ring", "stream/shm/1KiB", NULL, NULL,
	  "msgs_per_s", "floor", 0.90, 0, 0, 0 },
	{ "mq pingpong 16 B p50 at most 1.10x a bare mq loop of the same poll style",
	  "pingpong/mq/16B", NULL, NULL, "rtt_p50_us", "floor", 1.10, 1, 0, 0 },
	{ "record cost: pingpong mean RTT, record: full at most 1.02x totals", "pingpong/", NULL,
	  NULL, "rtt_mean_us", "matrix-totals", 1.02, 1, 1, 1 },
	{ "record cost: pingpong msg/s, record: full at least 0.98x totals", "pingpong/", NULL,
	  NULL, "msgs_per_s", "matrix-totals", 0.98, 0, 1, 1 },
	{ "record cost: stream msg/s, record: full at least 0.98x totals (the timeline)",
	  "stream/", NULL, NULL, "msgs_per_s", "matrix-totals", 0.98, 0, 1, 1 },
};

static int in_target(const struct ratio_target *t, const struct stat_row *s)
{
	if (t->not_ipc && (strstr(s->cell, "/shm/") || strstr(s->cell, "/mq/")))
		return 0;
	return !strncmp(s->cell, t->cells, strlen(t->cells)) &&
	       (!t->size || strstr(s->cell, t->size)) && (!t->poll || !strcmp(s->poll, t->poll));
}

/* Whether b->s[i], a row of ours, is the first of its group of ours. */
static int first_of_group(const struct bench *b, size_t i)
{
	const struct stat_row *s = &b->s[i];

	for (size_t j = 0; j < i; j++)
		if (!strcmp(b->s[j].tool, OURS) && !strcmp(b->s[j].cell, s->cell) &&
		    !strcmp(b->s[j].place, s->place) && !strcmp(b->s[j].poll, s->poll))
			return 0;
	return 1;
}

/* Every group of matrix's in target t: a line each, or one [not measured]. */
static void ratio_checks(const struct bench *b, FILE *f, const struct ratio_target *t)
{
	size_t n = 0;

	fprintf(f, "%s:\n", t->title);
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i];
		if (strcmp(s->tool, OURS) || !in_target(t, s) || !first_of_group(b, i))
			continue;
		if (t->where_run && !find(b, s, t->metric, t->tool))
			continue;
		check(b, f, s, t->metric, t->tool, t->bound, t->le);
		n++;
	}
	if (!n)
		fprintf(f, "  [not measured] no %s%s%s cell with matrix%s%s\n", t->cells,
			t->size || t->cells[strlen(t->cells) - 1] == '/' ? "*" : "",
			t->size ? t->size : "", t->where_run ? " and " : "", t->where_run ? t->tool : "");
}

/* Runner overhead (bench/overhead.sh's rows): its median per run at most
 * 5 ms per cell repetition. */
static void overhead_checks(const struct bench *b, FILE *f)
{
	size_t n = 0;
	char a[32], lo[32], hi[32];

	fprintf(f, "runner overhead at most 5 ms per cell repetition (meta.csv):\n");
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i];
		if (strcmp(s->tool, OURS) || strcmp(s->metric, "runner_overhead_ms") ||
		    isnan(s->median))
			continue;
		fmt(a, sizeof(a), s->median);
		fmt(lo, sizeof(lo), s->min);
		fmt(hi, sizeof(hi), s->max);
		fprintf(f, "  [%s] %s: runner_overhead_ms %s ms (%s-%s over %zu runs) (target <= 5 ms)\n",
			s->median <= 5 ? "met" : "MISSED", s->cell, a, lo, hi, s->rounds);
		n++;
	}
	if (!n)
		fprintf(f, "  [not measured] no runner_overhead_ms row (bench/overhead.sh)\n");
}

/* A memory.sh cell name NAME_countN: NAME's length, N in *count; 0 if not. */
static size_t count_cell(const char *cell, double *count)
{
	const char *p = strstr(cell, "_count");

	if (!p)
		return 0;
	char *end;
	*count = strtod(p + 6, &end);
	return *end || end == p + 6 ? 0 : (size_t)(p - cell);
}

/* s, a cell at its lowest count: its metric at the highest count of the
 * same name over it.  NULL unless s is the lowest and another is higher. */
static const struct stat_row *highest_count(const struct bench *b, const struct stat_row *s)
{
	const struct stat_row *hi = NULL;
	double c, cs, chi = 0;
	size_t len = count_cell(s->cell, &cs);

	for (size_t j = 0; len && j < b->ns; j++) {
		const struct stat_row *o = &b->s[j];
		if (strcmp(o->tool, OURS) || strcmp(o->metric, s->metric) ||
		    count_cell(o->cell, &c) != len || strncmp(o->cell, s->cell, len))
			continue;
		if (c < cs)
			return NULL;
		if (c > cs && (!hi || c > chi)) {
			hi = o;
			chi = c;
		}
	}
	return hi;
}

/* Peak RSS independent of the count (bench/memory.sh's rows): the high
 * count's median within 10% of the low's, runner and worker. */
static void memory_checks(const struct bench *b, FILE *f)
{
	size_t n = 0;

	fprintf(f, "peak RSS independent of the count: high count within 10%% of low (memory.sh):\n");
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i], *hi;
		if (strcmp(s->tool, OURS) || (strcmp(s->metric, "runner_max_rss_kib") &&
					      strcmp(s->metric, "worker_max_rss_kib")) ||
		    !(hi = highest_count(b, s)) || !(s->median > 0) || isnan(hi->median))
			continue;
		double r = hi->median / s->median;
		fprintf(f, "  [%s] %s vs %s: %s %.0f vs %.0f KiB = %.3fx (target 0.90x-1.10x)\n",
			r >= 0.9 && r <= 1.1 ? "met" : "MISSED", hi->cell, s->cell, s->metric,
			hi->median, s->median, r);
		n++;
	}
	if (!n)
		fprintf(f, "  [not measured] no cell at two counts (bench/memory.sh)\n");
}

/* The runner's largest peak over every run that recorded one: 16 MiB. */
static void runner_rss_check(const struct bench *b, FILE *f)
{
	const struct stat_row *top = NULL;

	fprintf(f, "runner peak RSS at most 16 MiB (meta.csv runner_max_rss_kib):\n");
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i];
		if (!strcmp(s->tool, OURS) && !strcmp(s->metric, "runner_max_rss_kib") &&
		    !isnan(s->max) && (!top || s->max > top->max))
			top = s;
	}
	if (!top)
		fprintf(f, "  [not measured] no runner_max_rss_kib row\n");
	else
		fprintf(f, "  [%s] the largest, %s: %.0f KiB (target <= 16384 KiB)\n",
			top->max <= 16384 ? "met" : "MISSED", top->cell, top->max);
}

/* The reports of 100 tiny cells (bench/report_speed.sh): at most 0.3 s of
 * wall time, its median over the runs; the CPU time beside it. */
static void report_speed_check(const struct bench *b, FILE *f)
{
	const struct stat_row *wall = NULL, *cpu = NULL;

	fprintf(f, "reports of 100 tiny cells at most 0.3 s of wall time (bench/report_speed.sh):\n");
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i];
		if (strcmp(s->tool, OURS) || strcmp(s->cell, "report_100"))
			continue;
		if (!strcmp(s->metric, "report_wall_s"))
			wall = s;
		else if (!strcmp(s->metric, "report_cpu_s"))
			cpu = s;
	}
	if (!wall) {
		fprintf(f, "  [not measured] no report_wall_s row\n");
		return;
	}
	fprintf(f, "  [%s] median %.3f s (%.3f-%.3f)", wall->median <= 0.3 ? "met" : "MISSED",
		wall->median, wall->min, wall->max);
	if (cpu)
		fprintf(f, ", CPU %.3f s", cpu->median);
	fprintf(f, " (target <= 0.3 s)\n");
}

/* The targets: each listed, with its lines or [not measured]. */
static void checklist(const struct bench *b, FILE *f)
{
	fprintf(f, "\nTargets (issue 14; medians over the rounds, ratios from the same run):\n");
	for (size_t i = 0; i < sizeof(ratio_targets) / sizeof(*ratio_targets); i++)
		ratio_checks(b, f, &ratio_targets[i]);
	overhead_checks(b, f);
	memory_checks(b, f);
	runner_rss_check(b, f);
	report_speed_check(b, f);
}

/* The table of b (loaded from raw) into dir and onto stdout: 0 or 1. */
static int tabulate(struct bench *b, const char *raw, const char *dir)
{
	char path[4096];

	for (int c = 0; c < NCOLS; c++)
		if ((b->col[c] = csv_table_col(&b->t, col_names[c])) < 0) {
			fprintf(stderr, "table: %s: no column '%s'\n", raw, col_names[c]);
			return 1;
		}
	if (build(b) < 0) {
		fprintf(stderr, "table: out of memory\n");
		return 1;
	}
	if (write_csv(b, dir) < 0)
		return 1;
	snprintf(path, sizeof(path), "%s/table.md", dir);
	FILE *md = fopen(path, "w");
	if (!md) {
		fprintf(stderr, "table: %s: %s\n", path, strerror(errno));
		return 1;
	}
	markdown(b, md);
	checklist(b, md);
	markdown(b, stdout);
	checklist(b, stdout);
	if (fclose(md) != 0) {
		fprintf(stderr, "table: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bench b = { 0 };
	char err[4200];

	if (argc != 3) {
		fprintf(stderr, "usage: table RAW.CSV OUTDIR\n");
		return 2;
	}
	if (csv_table_load(&b.t, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "table: %s\n", err);
		return 1;
	}
	int rc = tabulate(&b, argv[1], argv[2]);
	free(b.s);
	csv_table_release(&b.t);
	return rc;
}
