/* summary.md: see markdown.h. */
#include "markdown.h"
#include "headline.h"
#include "markdown_cell.h"
#include "markdown_header.h"
#include "markdown_tcp.h"
#include "report.h"
#include "outfile.h"
#include "pattern.h"
#include "percentile.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 4096

/* A table's figure: a metric of the table (vocab.h), or from MATRIX_NMETRICS
 * on, a percentile of the matrix's percentiles: the table lacks (report_pct.h:
 * MATRIX_NMETRICS + x for extra x).  The most a pattern's tables show. */
#define MAX_SHOWN (MATRIX_NMETRICS + PERCENTILE_MAX)

static int is_percentile(int m)
{
	for (size_t i = 0; i < PERCENTILE_NDEFAULT; i++)
		if (percentile_metric(percentile_default[i]) == m)
			return 1;
	return m >= MATRIX_NMETRICS;
}

/* The metrics a pattern's tables show, in order (the pattern table's;
 * a name it does not know shows the default pattern's); with the matrix's
 * percentiles:, its percentiles replace the table's, where its first is. */
static size_t pattern_metrics(const struct report *r, const char *pattern, int *out)
{
	const struct pattern_info *pi = pattern_find(pattern);
	const char *const *l = (pi ? pi : pattern_info(PATTERN_DEFAULT))->table_metrics;
	size_t n = 0;
	int placed = 0;

	for (; *l; l++) {
		int m = matrix_metric_index(*l);
		if (!r->npct || !is_percentile(m))
			out[n++] = m;
		else if (!placed++)
			for (size_t i = 0; i < r->npct; i++)
				out[n++] = r->pct[i].metric >= 0 ? r->pct[i].metric
					   : MATRIX_NMETRICS + (int)r->pct[i].x;
	}
	return n;
}

/* Figure m's summary of cell c, and the metric whose marks it takes (a
 * percentile beyond the table: rtt_p999_us's, a round trip's too). */
static const struct stat_summary *stat_of(const struct rcell *c, int m)
{
	return m < MATRIX_NMETRICS ? &c->st[m] : &c->xst[m - MATRIX_NMETRICS];
}

static int marks_of(int m)
{
	return m < MATRIX_NMETRICS ? m : matrix_metric_index("rtt_p999_us");
}

static const struct rpct *extra_of(const struct report *r, int m)
{
	return &r->pct[r->extra[m - MATRIX_NMETRICS]];
}

struct page {
	const struct report *r;
	FILE *f;
	const char *pattern;
	int pattern_dim;
	int col;			/* column dimension, -1 for none */
	int rowdims[32];
	size_t nrowdims;
	const struct rcell *cells[MAXV];	/* this pattern's cells */
	size_t ncells;
};

/* A dimension value for a person: sizes as 10B, 1KiB; durations as 1s;
 * rates as 20k/s. */
static const char *human(const struct report *r, size_t d, const char *v)
{
	static char buf[8][32];
	static unsigned next;
	return report_value_human(r, d, v, buf[next++ % 8], sizeof(buf[0]));
}

static const char *cell_pattern(const struct rcell *c, int pdim)
{
	return pdim >= 0 ? c->dims[pdim] : pattern_info(PATTERN_DEFAULT)->name;
}

/* Does dimension d take more than one value among the page's cells? */
static int varies(const struct page *p, size_t d)
{
	for (size_t i = 1; i < p->ncells; i++)
		if (strcmp(p->cells[i]->dims[d], p->cells[0]->dims[d]))
			return 1;
	return 0;
}

static size_t values_of(const struct page *p, size_t d, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < p->ncells; i++) {
		size_t k;
		for (k = 0; k < n && strcmp(out[k], p->cells[i]->dims[d]); k++)
			;
		if (k == n && n < MAXV)
			out[n++] = p->cells[i]->dims[d];
	}
	return n;
}

/* Same row: equal in every row dimension. */
static int same_row(const struct page *p, const struct rcell *a, const struct rcell *b)
{
	for (size_t i = 0; i < p->nrowdims; i++)
		if (strcmp(a->dims[p->rowdims[i]], b->dims[p->rowdims[i]]))
			return 0;
	return 1;
}

/* The metrics measured on round trips, which a lost request never enters
 * (the metric table has no field that says so; the names do). */
static int round_trip_metric(int m)
{
	return !strncmp(metrics[m].name, "rtt_", 4);
}

/* A cell's figure of metric m that leaves lost requests out: marked with a
 * dagger, and said how many under the table (lost_notes). */
static int leaves_out_lost(const struct rcell *c, int m)
{
	return round_trip_metric(m) && c->st[m].n > 0 && c->lost > 0;
}


/* A ratio's table cell: its text, marked when a side's figure is
 * whole-process or an upper bound, and the published ratio the matrix
 * file sets beside it ("; source 5.7×", the label user text). */
static void ratio_cell(FILE *f, const struct report *r, const struct rpair *p)
{
	double ref;
	const char *label;
	int m = p ? r->defs[p->def].metric : -1;
	char buf[128];
	size_t len = sizeof(buf);

	headline_ratio_text(r, p, buf, len);
	if (p && !isnan(p->ratio) && (report_whole_process(p->num, m) ||
				      report_whole_process(p->den, m)))
		snprintf(buf + strlen(buf), len - strlen(buf), " " WHOLE_MARK);
	if (p && !isnan(p->ratio) && (report_upper_bound(r, p->num, m) ||
				      report_upper_bound(r, p->den, m)))
		snprintf(buf + strlen(buf), len - strlen(buf), " " UPPER_MARK);
	fputs("| ", f);
	markdown_own(f, buf);
	if (p && report_pair_reference(r, p, &ref, &label)) {
		fputs("; ", f);
		markdown_text(f, label);
		fprintf(f, " %.3g×", ref);
	}
	fputc(' ', f);
}


/* The figure of a cell, or when none succeeded its status (user text:
 * results.csv's): 1 then. */
static int cell_text(const struct report *r, const struct rcell *c, int m, char *buf,
		     size_t len)
{
	size_t ok = c->reps - c->failed;
	const struct stat_summary *s = stat_of(c, m);
	int noisy = m < MATRIX_NMETRICS ? c->noisy[m] : c->xnoisy[m - MATRIX_NMETRICS];
	char marks[64] = "";

	if (!ok) {
		snprintf(buf, len, "%s%s", strncmp(c->status, "skipped", 7) ? "failed: " : "",
			 c->status);
		return 1;
	}
	m = marks_of(m);	/* a percentile beyond the table: rtt_p999_us's unit and marks */
	/* one repetition has no interval to speak of (stats.h) */
	units_format_metric_ci(matrix_metrics[m], s->median, stats_has_interval(s) ? s->ci_lo : NAN,
			       stats_has_interval(s) ? s->ci_hi : NAN, buf, len);
	if (!strcmp(matrix_metrics[m], "mib_per_s") && isfinite(s->median)) {
		char bits[32];	/* what iperf3 says: bits per second */
		units_format_bits(s->median * 1048576.0 * 8, bits, sizeof(bits));
		snprintf(buf + strlen(buf), len - strlen(buf), ", %s", bits);
	}
	if (markdown_printed_by_programs(c, m))
		strcat(marks, " " PRINTED_MARK);
	if (report_whole_process(c, m))	/* key: whole_legend */
		strcat(marks, " " WHOLE_MARK);
	if (report_upper_bound(r, c, m))	/* key: upper_legend */
		strcat(marks, " " UPPER_MARK);
	if (markdown_behind_schedule(r, c, m))	/* said: behind_notes */
		strcat(marks, " " BEHIND_MARK);
	if (leaves_out_lost(c, m))
		strcat(marks, " †");
	if (noisy)
		strcat(marks, " ~");
	if (c->short_window)
		strcat(marks, " " SHORT_MARK);
	if (c->failed)
		snprintf(marks + strlen(marks), sizeof(marks) - strlen(marks), " (%zu/%zu ok)", ok,
			 c->reps);
	snprintf(buf + strlen(buf), len - strlen(buf), "%s", marks);
	return 0;
}


/* A count with thousands separators: 29,812. */
static const char *count_text(double v, char *buf, size_t len)
{
	char digits[32];
	size_t n, o = 0;

	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/* What names a cell of a table: its column as the heading says it, then
 * the row's dimensions, name and value ("udp, size 16B"). */
static void cell_label(const struct page *p, const struct rcell *c, char *buf, size_t len)
{
	const struct report *r = p->r;
	size_t o = 0;

	buf[0] = '\0';
	if (p->col >= 0 && strcmp(r->dimnames[p->col], "transport"))
		o += (size_t)snprintf(buf, len, "%s ", r->dimnames[p->col]);
	if (p->col >= 0 && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s",
				      human(r, (size_t)p->col, c->dims[p->col]));
	for (size_t i = 0; i < p->nrowdims && o < len; i++) {
		size_t d = (size_t)p->rowdims[i];
		o += (size_t)snprintf(buf + o, len - o, "%s%s %s", o ? ", " : "", r->dimnames[d],
				      human(r, d, c->dims[d]));
	}
	if (!o)
		snprintf(buf, len, "%s", p->pattern);
}

/* Under a round-trip table: for each cell marked †, how many requests were
 * lost (summed over its successful repetitions) and left out of it. */
static void lost_notes(const struct page *p, int m)
{
	char label[256], lost[32], answered[32];

	for (size_t i = 0; i < p->ncells; i++) {
		const struct rcell *c = p->cells[i];
		if (!leaves_out_lost(c, m))
			continue;
		cell_label(p, c, label, sizeof(label));
		fputs("\n† ", p->f);
		markdown_text(p->f, label);
		fprintf(p->f, ": %s %s lost (no reply within loss_timeout), summed over its "
			"%zu successful repetition%s, %s not in these round-trip times",
			count_text(c->lost, lost, sizeof(lost)), c->lost == 1 ? "request" : "requests",
			c->nokreps, c->nokreps == 1 ? "" : "s", c->lost == 1 ? "is" : "are");
		if (c->rtt_samples > 0)
			fprintf(p->f, ", which are of the %s answered round trips",
				count_text(c->rtt_samples, answered, sizeof(answered)));
		fputs(".\n", p->f);
	}
}

/* An achieved rate per connection for a person: 1.41k/s, as a figure of
 * msgs_per_s reads (three digits), in the rate dimension's unit. */
static const char *rate_text(double v, char *buf, size_t len)
{
	units_format_metric("msgs_per_s", v, buf, len);
	char *unit = strstr(buf, " msg/s");
	if (unit)
		snprintf(unit, len - (size_t)(unit - buf), "/s");
	return buf;
}

/* Under the table of the figure a paced cell's schedule is judged by
 * (report_rate_schedule): for each cell marked BEHIND_MARK, the rate
 * asked and achieved, and what that does to its figures. */
static void behind_notes(const struct page *p, int m)
{
	char label[256], asked[32], got[32];
	struct rate_schedule s;

	for (size_t i = 0; i < p->ncells; i++) {
		const struct rcell *c = p->cells[i];
		if (!markdown_behind_schedule(p->r, c, m) || !report_rate_schedule(p->r, c, &s) ||
		    s.metric != m)
			continue;
		const struct pattern_info *pi = pattern_find(p->pattern);
		cell_label(p, c, label, sizeof(label));
		/* the share rounded down, as "under 95%" reads */
		fputs("\n" BEHIND_MARK " ", p->f);
		markdown_text(p->f, label);
		fprintf(p->f, ": the schedule was not kept: %s asked per "
			"connection, %s achieved (%.0f%%, the median repetition's; %zu of %zu "
			"repetition%s under %.0f%%)",
			units_format_rate((uint64_t)llround(s.asked), asked, sizeof(asked)),
			rate_text(s.achieved, got, sizeof(got)),
			floor(s.achieved / s.asked * 100 + 1e-9), s.behind, s.reps,
			s.reps == 1 ? "" : "s", MATRIX_RATE_KEPT * 100);
		if (pi && pi->receiver_times)
			fputs(": the senders fell behind, so its rates are what the receiver "
			      "allowed, not the rate asked.\n", p->f);
		else
			fputs(": its round-trip times count from when each request was due, so "
			      "they hold the queue that grew behind the schedule, and grow with the "
			      "window's length; its rates are what the server allowed.\n", p->f);
	}
}

/* Under a metric's table: the confidence of its intervals of the median.
 * Each is the metric's own, from its own number of values, which can be
 * fewer than the successful repetitions (a figure one of them lacks). */
static void median_levels(const struct page *p, int m)
{
	size_t ns[32], k = 0;
	double lv[32];
	int low = 0;

	for (size_t i = 0; i < p->ncells; i++) {
		const struct stat_summary *s = stat_of(p->cells[i], m);
		size_t j;
		if (!stats_has_interval(s))	/* one value shows none */
			continue;
		for (j = 0; j < k && ns[j] != s->n; j++)
			;
		if (j < k || k == 32)
			continue;
		for (j = k++; j > 0 && ns[j - 1] < s->n; j--) {	/* most values first */
			ns[j] = ns[j - 1];
			lv[j] = lv[j - 1];
		}
		ns[j] = s->n;
		lv[j] = s->ci_level;
		low |= s->ci_level < STATS_LEVEL;
	}
	for (size_t j = 0; j < k; j++)
		fprintf(p->f, j ? ", %.4g%% with %zu" : "\nIntervals of the median: %.4g%% confidence "
			"with %zu repetitions", lv[j] * 100, ns[j]);
	if (k)
		fprintf(p->f, "%s.\n", low ? " (95% needs 6 or more)" : "");
}

static void table(struct page *p, int m)
{
	const struct report *r = p->r;
	const char *colv[MAXV];
	size_t ncol = p->col >= 0 ? values_of(p, (size_t)p->col, colv) : 1;
	size_t defs[32], ndefs = 0;
	FILE *f = p->f;

	for (size_t d = 0; d < r->ndefs && ndefs < 32; d++)
		if (r->defs[d].metric == m && (int)r->defs[d].dim == p->col)
			defs[ndefs++] = d;
	fprintf(f, "\n### %s\n\n", m < MATRIX_NMETRICS ? metrics[m].title : extra_of(r, m)->title);
	for (size_t i = 0; i < p->nrowdims; i++)
		markdown_cell(f, r->dimnames[p->rowdims[i]]);
	if (!p->nrowdims)
		markdown_cell(f, "");
	for (size_t c = 0; c < ncol; c++) {
		char head[160];
		/* transports name themselves; other columns say what they are */
		if (p->col >= 0 && strcmp(r->dimnames[p->col], "transport"))
			snprintf(head, sizeof(head), "%s %s", r->dimnames[p->col],
				 human(r, (size_t)p->col, colv[c]));
		else
			snprintf(head, sizeof(head), "%s",
				 p->col >= 0 ? human(r, (size_t)p->col, colv[c])
				 : m < MATRIX_NMETRICS ? matrix_metrics[m] : extra_of(r, m)->name);
		markdown_cell(f, head);
	}
	for (size_t d = 0; d < ndefs; d++)
		markdown_cell(f, r->defs[defs[d]].name);
	fputs("|\n", f);
	for (size_t i = 0; i < (p->nrowdims ? p->nrowdims : 1) + ncol + ndefs; i++)
		fputs(i < (p->nrowdims ? p->nrowdims : 1) ? "|---" : "|---:", f);
	fputs("|\n", f);

	/* one row per distinct combination of the row dimensions, in cell order */
	for (size_t i = 0; i < p->ncells; i++) {
		const struct rcell *c = p->cells[i];
		size_t k;
		char buf[128];
		for (k = 0; k < i && !same_row(p, p->cells[k], c); k++)
			;
		if (k < i)
			continue;
		for (size_t d = 0; d < p->nrowdims; d++)
			markdown_cell(f, human(r, (size_t)p->rowdims[d], c->dims[p->rowdims[d]]));
		if (!p->nrowdims)
			markdown_cell(f, p->pattern);
		for (size_t v = 0; v < ncol; v++) {
			const struct rcell *hit = NULL;
			for (size_t j = 0; j < p->ncells && !hit; j++)
				if (same_row(p, p->cells[j], c) &&
				    (p->col < 0 || !strcmp(p->cells[j]->dims[p->col], colv[v])))
					hit = p->cells[j];
			int user = 0;
			if (hit)
				user = cell_text(r, hit, m, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "not run");
			(user ? markdown_cell : markdown_cell_own)(f, buf);
		}
		for (size_t d = 0; d < ndefs; d++) {
			const struct rpair *hit = NULL;
			for (size_t j = 0; j < r->npairs && !hit; j++)
				if (r->pairs[j].def == defs[d] && same_row(p, r->pairs[j].num, c) &&
				    !strcmp(cell_pattern(r->pairs[j].num, p->pattern_dim), p->pattern))
					hit = &r->pairs[j];
			ratio_cell(f, r, hit);
		}
		fputs("|\n", f);
	}
	median_levels(p, m);
	lost_notes(p, marks_of(m));
	behind_notes(p, marks_of(m));
}

/* A ratio over another dimension than the tables' columns (say size:
 * 1KiB/16): a small table of its own, a row per cell pair. */
static void ratio_table(struct page *p, size_t di)
{
	const struct report *r = p->r;
	const struct rratio_def *def = &r->defs[di];
	int dims[32];
	size_t nd = 0;
	FILE *f = p->f;

	for (size_t d = 0; d < r->ndims && nd < 32; d++)
		if (d != def->dim && (int)d != p->pattern_dim && varies(p, d))
			dims[nd++] = (int)d;
	fputs("\n### ", f);
	markdown_text(f, def->name);
	fprintf(f, " (%s over ", matrix_metrics[def->metric]);
	markdown_text(f, r->dimnames[def->dim]);
	fputs(")\n\n", f);
	for (size_t k = 0; k < nd; k++)
		markdown_cell(f, r->dimnames[dims[k]]);
	if (!nd)
		markdown_cell(f, "");
	markdown_cell(f, def->name);
	fputs("|\n", f);
	for (size_t k = 0; k < (nd ? nd : 1); k++)
		fputs("|---", f);
	fputs("|---:|\n", f);
	for (size_t i = 0; i < r->npairs; i++) {
		const struct rpair *pr = &r->pairs[i];
		if (pr->def != di || strcmp(cell_pattern(pr->num, p->pattern_dim), p->pattern))
			continue;
		for (size_t k = 0; k < nd; k++)
			markdown_cell(f, human(r, (size_t)dims[k], pr->num->dims[dims[k]]));
		if (!nd)
			markdown_cell(f, p->pattern);
		ratio_cell(f, r, pr);
		fputs("|\n", f);
	}
}

/* direction: bidir cells: each way's rate beside the other's, means over
 * the successful repetitions (the forward one as the tables above count
 * it, at the server; the reverse one at the clients). */
static void reverse_table(struct page *p)
{
	int fm = matrix_metric_index("msgs_per_s"), fb = matrix_metric_index("mib_per_s");
	char label[512], buf[64];
	int any = 0;

	for (size_t i = 0; i < p->ncells; i++) {
		const struct rcell *c = p->cells[i];
		if (!c->rev_reps)
			continue;
		if (!any)
			fputs("\nReverse direction (direction: bidir; server to client, counted at "
			      "the clients; mean over the repetitions):\n\n| cell | forward msg/s | "
			      "reverse msg/s | forward MiB/s | reverse MiB/s |\n"
			      "|---|---:|---:|---:|---:|\n", p->f);
		any = 1;
		cell_label(p, c, label, sizeof(label));
		markdown_cell(p->f, label);
		double v[4] = { c->st[fm].mean, c->rev_msgs_per_s / (double)c->rev_reps,
				c->st[fb].mean, c->rev_mib_per_s / (double)c->rev_reps };
		for (int k = 0; k < 4; k++)
			markdown_cell_own(p->f, units_format_metric(k < 2 ? "msgs_per_s" : "mib_per_s",
								    v[k], buf, sizeof(buf)));
		fputs("|\n", p->f);
	}
}

static void pattern_section(struct page *p)
{
	const struct report *r = p->r;
	int ms[MAX_SHOWN];
	size_t nm = pattern_metrics(r, p->pattern, ms);
	FILE *f = p->f;

	/* columns: transport, else the client, else the server, else the first
	 * ratio's dimension: the first that varies */
	p->col = -1;
	const char *colkeys[] = { "transport", "client", "server" };
	for (size_t k = 0; k < 3 && p->col < 0; k++) {
		int d = report_dim(r, colkeys[k]);
		if (d >= 0 && varies(p, (size_t)d))
			p->col = d;
	}
	for (size_t d = 0; p->col < 0 && d < r->ndefs; d++)
		if (varies(p, r->defs[d].dim))
			p->col = (int)r->defs[d].dim;
	p->nrowdims = 0;
	for (size_t d = 0; d < r->ndims && p->nrowdims < 32; d++)
		if ((int)d != p->col && (int)d != p->pattern_dim && varies(p, d))
			p->rowdims[p->nrowdims++] = (int)d;

	fprintf(f, "\n## %s\n\n", p->pattern);
	int first = 1;
	for (size_t d = 0; d < r->ndims; d++) {
		if ((int)d == p->pattern_dim || varies(p, d) || (int)d == p->col)
			continue;
		fputs(first ? "Same in every cell: " : ", ", f);
		markdown_text(f, r->dimnames[d]);
		fputc(' ', f);
		markdown_text(f, human(r, d, p->cells[0]->dims[d]));
		first = 0;
	}
	if (!first)
		fputs(".\n", f);
	/* ratio metrics this pattern's tables do not show yet get a table too */
	for (size_t d = 0; d < r->ndefs; d++) {
		size_t k;
		for (k = 0; k < nm && ms[k] != r->defs[d].metric; k++)
			;
		if (k == nm && nm < MAX_SHOWN)
			ms[nm++] = r->defs[d].metric;
	}
	for (size_t i = 0; i < nm; i++) {
		int any = 0;
		for (size_t c = 0; c < p->ncells; c++)
			any |= stat_of(p->cells[c], ms[i])->n > 0 ||
			       p->cells[c]->failed == p->cells[c]->reps;
		if (any)
			table(p, ms[i]);
	}
	reverse_table(p);
	for (size_t d = 0; d < r->ndefs; d++) {
		int here = 0;
		for (size_t i = 0; i < r->npairs && !here; i++)
			here = r->pairs[i].def == d &&
			       !strcmp(cell_pattern(r->pairs[i].num, p->pattern_dim), p->pattern);
		if (here && (int)r->defs[d].dim != p->col)
			ratio_table(p, d);
	}
}


/* Last, each ratio's geometric mean per pattern (headline_means): a
 * stream ratio and a pingpong ratio answer different questions. */
static void geomeans(const struct report *r, FILE *f)
{
	struct headline_mean *g;
	size_t n;
	char buf[64];

	if (!r->ndefs || headline_means(r, &g, &n) < 0)
		return;
	if (n)
		fprintf(f, "\n## Ratios, geometric mean per pattern\n\n| ratio | metric | pattern | "
			"geometric mean | range | cell pairs measured |\n|---|---|---|---:|---:|---:|\n");
	for (size_t i = 0; i < n; i++) {
		markdown_cell(f, r->defs[g[i].def].name);
		markdown_cell_own(f, matrix_metrics[r->defs[g[i].def].metric]);
		markdown_cell(f, g[i].pattern);
		if (isnan(g[i].geomean))
			snprintf(buf, sizeof(buf), "-");
		else
			snprintf(buf, sizeof(buf), "%.2f×", g[i].geomean);
		markdown_cell_own(f, buf);
		if (g[i].npairs < 2)
			snprintf(buf, sizeof(buf), "-");
		else
			snprintf(buf, sizeof(buf), "%.2f× to %.2f×", g[i].min, g[i].max);
		markdown_cell_own(f, buf);
		snprintf(buf, sizeof(buf), "%zu", g[i].npairs);
		markdown_cell_own(f, buf);
		fputs("|\n", f);
	}
	free(g);
}

int markdown_write(const struct report *r, char *err, size_t errlen)
{
	char path[4096];
	static struct page p;
	struct outfile out;
	const char *patterns[8];
	size_t np = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/summary.md", r->dir);
	if (outfile_open(&out, path, err, errlen) < 0)
		return -1;
	f = out.f;
	markdown_header(r, f);
	memset(&p, 0, sizeof(p));
	p.r = r;
	p.f = f;
	p.pattern_dim = report_dim(r, "pattern");
	for (size_t i = 0; i < r->ncells; i++) {
		const char *pat = cell_pattern(&r->cells[i], p.pattern_dim);
		size_t k;
		for (k = 0; k < np && strcmp(patterns[k], pat); k++)
			;
		if (k == np && np < 8)
			patterns[np++] = pat;
	}
	for (size_t k = 0; k < np; k++) {
		p.pattern = patterns[k];
		p.ncells = 0;
		for (size_t i = 0; i < r->ncells && p.ncells < MAXV; i++)
			if (!strcmp(cell_pattern(&r->cells[i], p.pattern_dim), p.pattern))
				p.cells[p.ncells++] = &r->cells[i];
		pattern_section(&p);
	}
	markdown_tcp(r, f);
	geomeans(r, f);
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}
