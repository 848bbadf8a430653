/* A history's history.csv, history.md and plots/history.gp: see
 * history.h. */
#include "csvfile.h"
#include "arrays.h"
#include "gnuplot_style.h"
#include "history.h"
#include "markdown_cell.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MARK_WORSE "▼"
#define MARK_BETTER "▲"
#define MARK_EARLY "†"

static const char *verdict_name(enum verdict v)
{
	return v < V__COUNT ? compare_verdict_names[v] : "";
}

/* A point's why after the noise rule (history_why). */
static void point_why(const struct hist_point *p, char *buf, size_t len)
{
	history_why(p->call, p->noise, p->noise_nights, p->why, buf, len);
}

int history_write_csv(const struct history *h, const char *dir, char *err, size_t errlen)
{
	static const char *const cols[] = {
		"group", "run", "start_utc", "label", "metric", "n", "median", "ci_lo", "ci_hi",
		"change_vs_previous", "verdict_vs_previous", "step", "run_index", "previous", "why",
		"compare_verdict", "noise", "noise_nights", "gate", "gate_verdict", "gate_why",
		"night_verdict",
	};
	char path[4200], why[512];
	struct csv_out w;

	snprintf(path, sizeof(path), "%s/history.csv", dir);
	if (csv_out_create(&w, path, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		csv_out_field(&w, cols[i]);
	csv_out_end_row(&w);
	for (size_t k = 0; k < h->npoints; k++) {
		const struct hist_point *p = &h->points[k];
		const struct hist_run *run = &h->runs[p->run];
		csv_out_u64(&w, run->group);
		csv_out_field(&w, run->name);
		csv_out_field(&w, run->start);
		csv_out_text(&w, h->groups[p->group].cells[p->cell].label);
		csv_out_field(&w, metrics[p->metric].name);
		csv_out_u64(&w, p->n);
		csv_out_double(&w, p->median, 10);
		csv_out_double(&w, p->ci_lo, 10);
		csv_out_double(&w, p->ci_hi, 10);
		csv_out_double(&w, p->change, 10);
		csv_out_field(&w, verdict_name(p->verdict));
		csv_out_u64(&w, (unsigned long long)p->step);
		csv_out_u64(&w, run->index);
		csv_out_field(&w, p->prev != SIZE_MAX ? h->runs[p->prev].name : "");
		point_why(p, why, sizeof(why));
		csv_out_field(&w, why);
		csv_out_field(&w, verdict_name(p->compared));
		csv_out_double(&w, p->noise, 6);
		if (p->prev != SIZE_MAX)
			csv_out_u64(&w, p->noise_nights);
		else
			csv_out_field(&w, "");
		csv_out_field(&w, p->gate);
		csv_out_field(&w, verdict_name(p->gate_verdict));
		csv_out_field(&w, p->gate_why);
		csv_out_field(&w, verdict_name(p->night));
		csv_out_end_row(&w);
	}
	if (csv_out_close(&w) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Is the point's night verdict a mark (regressed or improved)? */
static int marked(const struct hist_point *p)
{
	return p->night == V_REGRESSED || p->night == V_IMPROVED;
}

/* Is it a mark of the gate's (else of its own step)? */
static int gate_mark(const struct hist_point *p)
{
	return marked(p) && p->gate_verdict != V__COUNT;
}

void history_print(const struct history *h, FILE *f, int every_step)
{
	char why[512];

	for (size_t g = 0; g < h->ngroups; g++) {
		const struct hist_group *hg = &h->groups[g];
		fprintf(f, "history: group %zu: %zu run%s, %zu step%s%s\n", g + 1, hg->nruns,
			hg->nruns == 1 ? "" : "s", hg->nsteps, hg->nsteps == 1 ? "" : "s",
			g ? "; differs from group 1 in:" : "");
		fputs(hg->differs, f);
	}
	for (size_t k = 0; every_step && k < h->npoints; k++) {
		const struct hist_point *p = &h->points[k];
		char a[64], b[64];
		const char *name = metrics[p->metric].name;
		units_format_metric(name, p->median, a, sizeof(a));
		if (gate_mark(p)) {
			fprintf(f, "%s: %s: %s %s, %s (its own gate, %s%s%s)\n", h->runs[p->run].name,
				h->groups[p->group].cells[p->cell].label, name, a,
				compare_verdict_names[p->night], p->gate, *p->gate_why ? ": " : "",
				p->gate_why);
		}
		if (!p->step)
			continue;
		units_format_metric(name, p->prev_median, b, sizeof(b));
		point_why(p, why, sizeof(why));
		fprintf(f, "%s: %s: %s %s vs %s, %+.1f%%, %s (against %s)%s%s\n", h->runs[p->run].name,
			h->groups[p->group].cells[p->cell].label, name, a, b, p->change * 100,
			compare_verdict_names[p->verdict], h->runs[p->prev].name, *why ? ", " : "", why);
	}
}

/* The mark of a figure: its night verdict's, and a dagger when that is a
 * step made while the spread was not known yet. */
static const char *mark_of(const struct hist_point *p)
{
	if (!marked(p))
		return "";
	int early = !gate_mark(p) && p->call == NOISE_UNKNOWN;
	if (p->night == V_REGRESSED)
		return early ? " " MARK_WORSE MARK_EARLY : " " MARK_WORSE;
	return early ? " " MARK_BETTER MARK_EARLY : " " MARK_BETTER;
}

/* The position of metric m in h->metrics, or nmetrics. */
static size_t metric_pos(const struct history *h, int m)
{
	size_t mi;

	for (mi = 0; mi < h->nmetrics && h->metrics[mi] != m; mi++)
		;
	return mi;
}

/* The point of run i, group cell k, metric m, or NULL. */
static const struct hist_point *point_at(const struct history *h, size_t i, size_t k, int m)
{
	size_t mi = metric_pos(h, m);
	size_t pi = mi < h->nmetrics ? h->runs[i].point_of[k * h->nmetrics + mi] : SIZE_MAX;

	return pi == SIZE_MAX ? NULL : &h->points[pi];
}

/* Has group g a point of metric m? */
static int group_has_metric(const struct history *h, size_t g, int m)
{
	size_t mi = metric_pos(h, m);

	for (size_t k = 0; mi < h->nmetrics && k < h->groups[g].ncells; k++)
		if (h->groups[g].cells[k].has[mi])
			return 1;
	return 0;
}

/* Group g's table of metric m: a row per cell, a column per run. */
static void md_table(const struct history *h, FILE *f, size_t g, int m)
{
	const struct hist_group *hg = &h->groups[g];

	fprintf(f, "### %s (%s, %s is better)\n\n| cell |", metrics[m].name, metrics[m].unit,
		metrics[m].better == HIGHER_IS_BETTER ? "higher" : "lower");
	for (size_t i = 0; i < h->nruns; i++)
		if (h->runs[i].group == g + 1) {
			fputc(' ', f);
			markdown_text(f, h->runs[i].name);
			fputs(" |", f);
		}
	fputs("\n|---|", f);
	for (size_t i = 0; i < hg->nruns; i++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t k = 0; k < hg->ncells; k++) {
		if (!hg->cells[k].has[metric_pos(h, m)])
			continue;
		fputs("| ", f);
		markdown_text(f, hg->cells[k].label);
		fputs(" |", f);
		for (size_t i = 0; i < h->nruns; i++) {
			if (h->runs[i].group != g + 1)
				continue;
			const struct hist_point *p = point_at(h, i, k, m);
			char v[64];
			if (!p)
				snprintf(v, sizeof(v), "-");
			else if (!p->n)
				snprintf(v, sizeof(v), "failed");
			else
				units_format_metric(metrics[m].name, p->median, v, sizeof(v));
			fprintf(f, " %s%s |", v, p ? mark_of(p) : "");
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* Group g's steps, one line each: those the night's own gate overrules
 * are said so (and not marked). */
static void md_steps(const struct history *h, FILE *f, size_t g)
{
	char why[512];

	if (!h->groups[g].nsteps) {
		fputs("No step changes.\n\n", f);
		return;
	}
	fputs("Steps (against the previous run):\n\n", f);
	for (size_t j = 0; j < h->npoints; j++) {
		const struct hist_point *p = &h->points[j];
		char a[64], b[64];
		if (p->group != g || !p->step)
			continue;
		units_format_metric(metrics[p->metric].name, p->prev_median, b, sizeof(b));
		units_format_metric(metrics[p->metric].name, p->median, a, sizeof(a));
		fputs("- ", f);
		markdown_code(f, h->runs[p->run].name);
		fprintf(f, " %s%s ", p->verdict == V_REGRESSED ? MARK_WORSE : MARK_BETTER,
			p->call == NOISE_UNKNOWN ? MARK_EARLY : "");
		markdown_text(f, h->groups[g].cells[p->cell].label);
		point_why(p, why, sizeof(why));
		fprintf(f, ": %s %s → %s, %+.1f%%, **%s** (against ", metrics[p->metric].name,
			b, a, p->change * 100, compare_verdict_names[p->verdict]);
		markdown_code(f, h->runs[p->prev].name);
		fprintf(f, "%s%s)", *why ? "; " : "", why);
		if (p->night != p->verdict)
			fprintf(f, "; not marked: the night's own gate (%s) says **%s**", p->gate,
				compare_verdict_names[p->night]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* Group g's nights that gated themselves: their final regressions and
 * improvements. */
static void md_gates(const struct history *h, FILE *f, size_t g)
{
	size_t runs = 0, lines = 0;

	for (size_t i = 0; i < h->nruns; i++)
		runs += h->runs[i].group == g + 1 && h->runs[i].gated;
	if (!runs)
		return;
	fprintf(f, "The nights' own gates (%zu run%s with an ab.csv or a compare.csv, the "
		"second look's when there was one):\n\n", runs, runs == 1 ? "" : "s");
	for (size_t j = 0; j < h->npoints; j++) {
		const struct hist_point *p = &h->points[j];
		char a[64];
		if (p->group != g || !gate_mark(p))
			continue;
		units_format_metric(metrics[p->metric].name, p->median, a, sizeof(a));
		fputs("- ", f);
		markdown_code(f, h->runs[p->run].name);
		fprintf(f, "%s ", mark_of(p));
		markdown_text(f, h->groups[g].cells[p->cell].label);
		fprintf(f, ": %s %s, **%s** (%s%s", metrics[p->metric].name, a,
			compare_verdict_names[p->night], p->gate, *p->gate_why ? ": " : "");
		markdown_text(f, p->gate_why);
		fputs(")\n", f);
		lines++;
	}
	if (!lines)
		fputs("- nothing regressed or improved\n", f);
	fputc('\n', f);
}

/* How many nights group g's noise is learnt from. */
static void md_noise(const struct history *h, FILE *f, size_t g)
{
	const struct hist_group *hg = &h->groups[g];

	if (hg->nruns < 2) {
		fputs("The normal night-to-night spread: not known yet (one run).\n\n", f);
		return;
	}
	fprintf(f, "The normal night-to-night spread: its last run was judged with one learnt "
		"from %zu night%s", hg->nights_hi, hg->nights_hi == 1 ? "" : "s");
	if (hg->nights_lo != hg->nights_hi)
		fprintf(f, " (%zu for a cell some runs lack)", hg->nights_lo);
	if (hg->nights_lo < HISTORY_NOISE_MIN)
		fprintf(f, "; with fewer than %d the spread is not known yet: compare's verdict "
			"stands, and a step is marked %s", HISTORY_NOISE_MIN, MARK_EARLY);
	fputs(".\n\n", f);
}

static void md_group(const struct history *h, FILE *f, size_t g)
{
	const struct hist_group *hg = &h->groups[g];
	const struct report *r = h->runs[hg->first].r;

	fprintf(f, "## Group %zu: %zu run%s, %zu step%s\n\n", g + 1, hg->nruns,
		hg->nruns == 1 ? "" : "s", hg->nsteps, hg->nsteps == 1 ? "" : "s");
	fputs("Kernel ", f);
	markdown_code(f, report_meta(r, "kernel"));
	fputs(", CPU ", f);
	markdown_code(f, report_meta(r, "cpu_model"));
	fputs(", ", f);
	markdown_text(f, report_meta(r, "cores"));
	fputs(" cores, governor ", f);
	markdown_code(f, report_meta(r, "governor"));
	fputs(", tool version ", f);
	markdown_code(f, report_meta(r, "tool_version"));
	fputs(".\n\n", f);
	if (g)
		fprintf(f, "Differs from group 1 in:\n\n```\n%s```\n\n", hg->differs);
	md_noise(h, f, g);
	fputs("| # | run | start_utc |\n|---:|---|---|\n", f);
	for (size_t i = 0; i < h->nruns; i++)
		if (h->runs[i].group == g + 1) {
			fprintf(f, "| %zu | ", h->runs[i].index);
			markdown_text(f, h->runs[i].name);
			fputs(" | ", f);
			if (*h->runs[i].start)
				markdown_text(f, h->runs[i].start);
			else
				fputc('-', f);
			fputs(" |\n", f);
		}
	fputc('\n', f);
	for (size_t mi = 0; mi < h->nmetrics; mi++)
		if (group_has_metric(h, g, h->metrics[mi]))
			md_table(h, f, g, h->metrics[mi]);
	md_steps(h, f, g);
	md_gates(h, f, g);
}

int history_write_md(const struct history *h, const char *dir, char *err, size_t errlen)
{
	char path[4200];
	struct outfile out;
	FILE *f;

	snprintf(path, sizeof(path), "%s/history.md", dir);
	if (outfile_open(&out, path, err, errlen) < 0)
		return -1;
	f = out.f;
	fprintf(f, "# history\n\n**%zu run%s in %zu group%s, %zu step%s.** Runs are in the order "
		"they started; a group holds the runs of one fingerprint (kernel, CPU model, "
		"cores, governor, tool version, matrix.yaml), and is a history of its own. The "
		"chart is plots/history.svg (and .png): each cell's median per run over its "
		"median of the group's runs (1×), that median in the key.\n\n",
		h->nruns, h->nruns == 1 ? "" : "s", h->ngroups, h->ngroups == 1 ? "" : "s",
		h->nsteps, h->nsteps == 1 ? "" : "s");
	fprintf(f, "Each figure is a cell's median in that run (`failed`: no successful "
		"repetition; `-`: the run has no such cell). Each is judged against the previous "
		"run of its group that measured the cell, as `matrix compare PREVIOUS RUN` "
		"judges it (a one-sided Mann-Whitney test at %g after a Benjamini-Hochberg "
		"correction over that comparison AND the whole interval of the change beyond "
		"the threshold of %g%%), and then by the cell's normal night-to-night "
		"spread: a step is a change compare calls `regressed` or `improved` that is also "
		"beyond %g times that spread (1.4826 times the median absolute log change "
		"between the cell's consecutive earlier runs of the group, the last %d; "
		"learnt from earlier runs only, once there are %d). A run whose folder holds "
		"its own gate (ab.csv of an in-run A/B, else compare.csv of `run --baseline`) "
		"gives its night's verdict itself (the second look's, look2/, when it took "
		"one: the final verdicts). Each figure is "
		"marked with its night's verdict, its gate's when it has one, else its step's: "
		"%s regressed (for the worse), %s improved (for the better); %s a step while "
		"the spread was not known yet (compare's verdict as it is).\n\n", COMPARE_ALPHA,
		h->threshold * 100, HISTORY_NOISE_K, HISTORY_NOISE_MAX, HISTORY_NOISE_MIN,
		MARK_WORSE, MARK_BETTER, MARK_EARLY);
	for (size_t g = 0; g < h->ngroups; g++)
		md_group(h, f, g);
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}

/* Has cell k of group g a figure of metric position mi in some run? */
static int series_has(const struct history *h, size_t g, size_t k, size_t mi)
{
	const struct hist_cell *c = &h->groups[g].cells[k];

	return c->measured && c->has[mi] && mi < h->nmetrics;
}

/* The cells panel (g, mi) draws, into out (room for the group's cells):
 * those with a figure, the marked first, at most HISTORY_CHART_LINES, in
 * the group's order; how many.  *total: how many have a figure. */
static size_t chart_cells(const struct history *h, size_t g, size_t mi, size_t *out,
			  size_t *total)
{
	const struct hist_group *hg = &h->groups[g];
	size_t n = 0;

	*total = 0;
	for (size_t k = 0; k < hg->ncells; k++)
		*total += series_has(h, g, k, mi);
	for (int pass = 1; pass >= 0; pass--)
		for (size_t k = 0; k < hg->ncells && n < HISTORY_CHART_LINES; k++)
			if (series_has(h, g, k, mi) && !hg->cells[k].marked[mi] == !pass)
				out[n++] = k;
	/* back into the group's order, so the colours follow the cells */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
			size_t t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

/* How many night verdicts v group g has in metric position mi among its
 * cells cells[0..n) (those a panel draws). */
static size_t marks_of(const struct history *h, size_t g, size_t mi, enum verdict v,
		       const size_t *cells, size_t n)
{
	size_t count = 0;

	for (size_t j = 0; j < h->npoints; j++) {
		const struct hist_point *p = &h->points[j];
		if (p->group != g || p->mi != mi || p->night != v)
			continue;
		for (size_t i = 0; i < n; i++)
			count += p->cell == cells[i];
	}
	return count;
}

static const enum verdict step_verdicts[2] = { V_REGRESSED, V_IMPROVED };

/* What the panels need besides the history: room for a group's cells and
 * for a group's runs' figures, and the bases of the cells a panel draws. */
struct chart_room {
	size_t *cells;
	double *vals;
	double base[HISTORY_CHART_LINES];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Cell k's base in panel (g, mi), the 1x of its line: the median of its
 * medians over the group's runs that have one; when that is not above 0
 * (a cell that sent nothing), the largest; 1 when no figure is. */
static double chart_base(const struct history *h, size_t g, size_t k, size_t mi, double *vals)
{
	size_t n = 0;
	double b;

	for (size_t i = 0; i < h->nruns; i++) {
		const struct hist_point *p = h->runs[i].group == g + 1 ?
			point_at(h, i, k, h->metrics[mi]) : NULL;
		if (p && p->n && isfinite(p->median))
			vals[n++] = p->median;
	}
	if (!n)
		return 1;
	qsort(vals, n, sizeof(*vals), cmp_double);
	b = n % 2 ? vals[n / 2] : (vals[n / 2 - 1] + vals[n / 2]) / 2;
	if (!(b > 0))
		b = vals[n - 1];
	return b > 0 ? b : 1;
}

/* The cells panel (g, mi) draws into room->cells, their bases into
 * room->base; how many (*total: chart_cells'). */
static size_t chart_panel_cells(const struct history *h, size_t g, size_t mi,
				struct chart_room *room, size_t *total)
{
	size_t n = chart_cells(h, g, mi, room->cells, total);

	for (size_t i = 0; i < n; i++)
		room->base[i] = chart_base(h, g, room->cells[i], mi, room->vals);
	return n;
}

/* The gnuplot function base(p, s): the base (chart_base) of panel p's
 * cell s (series(p)'s number), 0 for none. */
static void chart_base_fn(FILE *f, const struct history *h, struct chart_room *room)
{
	size_t panel = 0;

	fputs("# each cell's 1x: its median over the runs of its group\nbase(p, s) = ", f);
	for (size_t g = 0; g < h->ngroups; g++)
		for (size_t mi = 0; mi < h->nmetrics; mi++) {
			if (!group_has_metric(h, g, h->metrics[mi]))
				continue;
			size_t total, n = chart_panel_cells(h, g, mi, room, &total);
			fprintf(f, "p == %zu ? (", ++panel);
			for (size_t i = 0; i < n; i++)
				fprintf(f, "s == %zu ? %.12g : ", room->cells[i] + 1, room->base[i]);
			fputs("0) : ", f);
		}
	fputs("0\n", f);
}

/* The tables of the panels, from one pass over history.csv (a file of
 * 100 runs x 1,000 cells is read once, not once per line): gnuplot
 * functions that number each row's panel (panel(group, metric), 1, 2, ...
 * in the order drawn, 0 for none), its cell among those its panel draws
 * (series(panel): the cell's index in its group + 1, 0 for none) and that
 * cell's base (base(panel, series)), a table $rows of what the panels need
 * (panel, series, run index, median, interval, mark: 1 regressed, 2
 * improved, 0 none, base), and from it, per panel, a table per cell drawn
 * ($hG_M_K: run index, median and interval over the cell's base) and per
 * kind of mark ($sG_M_V: the night verdicts of the cells drawn, likewise). */
static void chart_tables(FILE *f, const struct history *h, struct chart_room *room)
{
	size_t panel = 0;
	char q[1100];

	fputs("# each row's panel, and its cell's line there (0: none)\npanel(g, m) = ", f);
	for (size_t g = 0; g < h->ngroups; g++) {
		fprintf(f, "g == %zu ? (", g + 1);
		for (size_t mi = 0; mi < h->nmetrics; mi++)
			if (group_has_metric(h, g, h->metrics[mi]))
				fprintf(f, "m eq '%s' ? %zu : ", metrics[h->metrics[mi]].name, ++panel);
		fputs("0) : ", f);
	}
	fputs("0\nseries(p) = ", f);
	panel = 0;
	for (size_t g = 0; g < h->ngroups; g++)
		for (size_t mi = 0; mi < h->nmetrics; mi++) {
			if (!group_has_metric(h, g, h->metrics[mi]))
				continue;
			size_t total, n = chart_cells(h, g, mi, room->cells, &total);
			fprintf(f, "p == %zu ? (", ++panel);
			for (size_t i = 0; i < n; i++)
				if (gnuplot_quote(h->groups[g].cells[room->cells[i]].label, q, sizeof(q)) == 0)
					fprintf(f, "strcol('label') eq %s ? %zu : ", q, room->cells[i] + 1);
			fputs("0) : ", f);
		}
	fputs("0\n", f);
	chart_base_fn(f, h, room);
	/* PP, SS and MM, set by the using columns, are what the filter reads
	 * (gnuplot evaluates the columns first): each function once a row */
	fputs("mark(v) = v eq 'regressed' ? 1 : v eq 'improved' ? 2 : 0\n"
	      "set table $rows separator comma\n"
	      "plot ARG1 using (PP = panel(column('group'), strcol('metric')), PP):"
	      "(SS = PP > 0 ? series(PP) : 0, SS):(column('run_index')):(v('median')):(v('ci_lo')):"
	      "(v('ci_hi')):(MM = mark(strcol('night_verdict')), MM):(SS > 0 ? base(PP, SS) : 0) "
	      "with table if (PP > 0 && (SS > 0 || MM > 0))\nunset table\n", f);
	panel = 0;
	for (size_t g = 0; g < h->ngroups; g++)
		for (size_t mi = 0; mi < h->nmetrics; mi++) {
			if (!group_has_metric(h, g, h->metrics[mi]))
				continue;
			size_t total, n = chart_cells(h, g, mi, room->cells, &total);
			panel++;
			for (size_t i = 0; i < n; i++)
				fprintf(f, "set table $h%zu_%zu_%zu separator whitespace\nplot $rows using "
					"($3):($4/$8):($5/$8):($6/$8) with table if ($1 == %zu && $2 == %zu)\n"
					"unset table\n", g, mi, room->cells[i], panel, room->cells[i] + 1);
			for (size_t s = 0; s < 2; s++)
				if (marks_of(h, g, mi, step_verdicts[s], room->cells, n))
					fprintf(f, "set table $s%zu_%zu_%zu separator whitespace\nplot $rows using "
						"($3):($4/$8) with table if ($1 == %zu && $7 == %zu && $2 > 0)\n"
						"unset table\n", g, mi, s, panel, s + 1);
		}
}

/* Panel (g, mi)'s x axis: the run's index in its group, labelled with the
 * folder's name when there are few enough runs to read them. */
static void chart_x_axis(FILE *f, const struct history *h, size_t g)
{
	const struct hist_group *hg = &h->groups[g];
	char q[2400];
	int first = 1;

	fprintf(f, "set xrange [0.5:%zu.5]\n", hg->nruns);
	if (hg->nruns > 20) {
		fputs("set xtics norotate autofreq\nset xlabel 'run (index in its group)'\n", f);
		return;
	}
	fputs("set xlabel ''\nset xtics rotate by 30 right font ',8' (", f);
	for (size_t i = 0; i < h->nruns; i++) {
		if (h->runs[i].group != g + 1)
			continue;
		gnuplot_quote_tic(h->runs[i].name, q, sizeof(q));	/* a tick label: a format */
		fprintf(f, "%s%s %zu", first ? "" : ", ", q, h->runs[i].index);
		first = 0;
	}
	fputs(")\n", f);
}

/* Panel (g, mi)'s y axis: the ratio to each cell's base, from the
 * lowest to the highest the lines and whiskers reach, 1 always inside and
 * at least 0.95 to 1.05 (a flat history is no empty range). */
static void chart_y_axis(FILE *f, const struct history *h, size_t g, size_t mi,
			 const struct chart_room *room, size_t n)
{
	double lo = 0.95, hi = 1.05;

	for (size_t i = 0; i < h->nruns; i++)
		for (size_t c = 0; c < n && h->runs[i].group == g + 1; c++) {
			const struct hist_point *p = point_at(h, i, room->cells[c], h->metrics[mi]);
			double v[3] = { p ? p->median : NAN, p ? p->ci_lo : NAN, p ? p->ci_hi : NAN };
			for (size_t j = 0; p && p->n && j < 3; j++) {
				double r = v[j] / room->base[c];
				lo = isfinite(r) && r < lo ? r : lo;
				hi = isfinite(r) && r > hi ? r : hi;
			}
		}
	double pad = (hi - lo) * 0.06;
	fprintf(f, "set yrange [%.6g:%.6g]\nset format y '%%g×'\n", lo - pad < 0 && lo >= 0 ? 0 : lo - pad,
		hi + pad);
}

/* Panel (g, mi): the 1x line, a line per cell drawn over its base (its
 * title the cell and its base with the unit), the night verdicts over
 * them. */
static void chart_panel(FILE *f, const struct history *h, size_t g, size_t mi,
			struct chart_room *room)
{
	static const char *const step_style[2] = {
		"pt 11 ps 2.2 lc rgb '#d62728' title 'regressed'",
		"pt 9 ps 2.2 lc rgb '#2ca02c' title 'improved'",
	};
	const struct metric *mt = &metrics[h->metrics[mi]];
	const struct hist_group *hg = &h->groups[g];
	char q[2400], txt[640], v[64], some[96] = "";
	const char *sep = "plot 1 with lines dt 2 lw 1 lc rgb '#666666' title '1× = the cell''s median'";
	size_t total, n = chart_panel_cells(h, g, mi, room, &total);

	if (n < total)
		snprintf(some, sizeof(some), ", %zu of its %zu cells (the marked first)", n, total);
	fprintf(f, "set title 'group %zu: %s (%s is better)%s'\nset ylabel '× the cell''s median'\n", g + 1, mt->name,
		mt->better == HIGHER_IS_BETTER ? "higher" : "lower", some);
	chart_x_axis(f, h, g);
	chart_y_axis(f, h, g, mi, room, n);
	for (size_t i = 0; i < n; i++) {
		size_t k = room->cells[i];
		units_format_metric(mt->name, room->base[i], v, sizeof(v));
		snprintf(txt, sizeof(txt), "%s%smedian %s", hg->cells[k].title,
			 *hg->cells[k].title ? ": " : "", v);
		if (gnuplot_quote(hg->cells[k].label, q, sizeof(q)) < 0 ||
		    gnuplot_quote(txt, q, sizeof(q)) < 0)
			continue;
		fprintf(f, "%s, \\\n    $h%zu_%zu_%zu using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.6 "
			"lc %zu title %s", sep, g, mi, k, k + 1, q);
		sep = "";
	}
	for (size_t s = 0; s < 2 && !*sep; s++)
		if (marks_of(h, g, mi, step_verdicts[s], room->cells, n))
			fprintf(f, ", \\\n    $s%zu_%zu_%zu using 1:2 with points %s", g, mi, s,
				step_style[s]);
	if (*sep)	/* every run of every cell failed: say so, over the runs' names */
		fputs("set label 1 'no successful repetition' at graph 0.5, graph 0.5 center\n"
		      "plot [] [0:1] 2 notitle\nunset label 1", f);
	fputc('\n', f);
}

int history_write_chart(const struct history *h, const char *dir, char *err, size_t errlen)
{
	char path[4200];
	size_t npanels = 0;
	struct outfile out;
	FILE *f;

	snprintf(path, sizeof(path), "%s/plots", dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/plots/history.gp", dir);
	if (outfile_open(&out, path, err, errlen) < 0)
		return -1;
	f = out.f;
	size_t most = 1;
	for (size_t g = 0; g < h->ngroups; g++) {
		most = h->groups[g].ncells > most ? h->groups[g].ncells : most;
		for (size_t mi = 0; mi < h->nmetrics; mi++)
			npanels += group_has_metric(h, g, h->metrics[mi]);
	}
	struct chart_room room = {
		.cells = malloc(most * sizeof(*room.cells)),
		.vals = malloc((h->nruns ? h->nruns : 1) * sizeof(*room.vals)),
	};
	if (!room.cells || !room.vals) {
		free(room.cells);
		free(room.vals);
		outfile_abort(&out);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	gnuplot_preamble(f, "history", "history.csv", "each cell's median per run over its own median, night verdicts marked",
			 
			 1000, 320 * (npanels ? npanels : 1) + 60);
	chart_tables(f, h, &room);
	fprintf(f, "set datafile separator whitespace\nset key outside right top vertical\n"
		"set multiplot layout %zu,1 title 'history: each cell''s median per run over its median "
		"of these runs (1×; whiskers: its interval); triangles: the night verdicts'\n",
		npanels ? npanels : 1);
	for (size_t g = 0; g < h->ngroups; g++)
		for (size_t mi = 0; mi < h->nmetrics; mi++)
			if (group_has_metric(h, g, h->metrics[mi]))
				chart_panel(f, h, g, mi, &room);
	if (!npanels)
		fputs("set label 1 'no figures' at graph 0.5, graph 0.5 center\n"
		      "plot [0:1] [0:1] 2 notitle\n", f);
	fputs("unset multiplot\n", f);
	free(room.cells);
	free(room.vals);
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}
