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

/* One line of the checklist: matrix's METRIC over TOOL's against the
 * bound (at most when le, else at least). */
static void check(const struct bench *b, FILE *f, const struct stat_row *ours,
		  const char *metric, const char *tool, double bound, int le)
{
	const struct stat_row *m = find(b, ours, metric, OURS), *t = find(b, ours, metric, tool);
	char a[32], c[32];

	if (!m || !t || isnan(m->median) || isnan(t->median) || !(t->median > 0)) {
		fprintf(f, "[not measured] %s %s %s: matrix vs %s, %s\n", ours->cell, ours->place,
			ours->poll, tool, metric);
		return;
	}
	double r = m->median / t->median;
	int met = le ? r <= bound : r >= bound;
	fmt(a, sizeof(a), m->median);
	fmt(c, sizeof(c), t->median);
	fprintf(f, "[%s] %s %s %s: %s matrix %s vs %s %s = %.3fx (target %s %.2fx)\n",
		met ? "met" : "MISSED", ours->cell, ours->place, ours->poll, metric, a, tool, c, r,
		le ? "<=" : ">=", bound);
}

/* The targets, for every group matrix was measured in. */
static void checklist(const struct bench *b, FILE *f)
{
	fprintf(f, "\nTargets (issue 14; medians over the rounds, ratios from the same run):\n");
	for (size_t i = 0; i < b->ns; i++) {
		const struct stat_row *s = &b->s[i];
		if (strcmp(s->tool, OURS))
			continue;
		if (!strncmp(s->cell, "stream/", 7) && !strcmp(s->metric, "mib_per_s")) {
			check(b, f, s, "mib_per_s", "floor", 0.95, 0);
			if (strstr(s->cell, "/128KiB"))
				check(b, f, s, "mib_per_s", "iperf3", 1.0, 0);
		} else if (!strncmp(s->cell, "pingpong/", 9) && !strcmp(s->metric, "rtt_p50_us")) {
			check(b, f, s, "rtt_p50_us", "floor", 1.05, 1);
			check(b, f, s, "rtt_p50_us", "sockperf", 1.0, 1);
			check(b, f, s, "rtt_mean_us", "qperf", 1.0, 1);
		} else if (!strcmp(s->cell, "echo/unix/10B") && !strcmp(s->poll, "busy") &&
			   !strcmp(s->metric, "msgs_per_s")) {
			check(b, f, s, "msgs_per_s", "go", 1.5, 0);
		}
	}
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
