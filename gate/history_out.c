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
#include <string.h>
#include <sys/stat.h>

#define MARK_WORSE "▼"
#define MARK_BETTER "▲"

int history_write_csv(const struct history *h, const char *dir, char *err, size_t errlen)
{
	static const char *const cols[] = {
		"group", "run", "start_utc", "label", "metric", "n", "median", "ci_lo", "ci_hi",
		"change_vs_previous", "verdict_vs_previous", "step", "run_index", "previous", "why",
	};
	char path[4200];
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
		csv_out_field(&w, p->verdict < V__COUNT ? compare_verdict_names[p->verdict] : "");
		csv_out_u64(&w, (unsigned long long)p->step);
		csv_out_u64(&w, run->index);
		csv_out_field(&w, p->prev != SIZE_MAX ? h->runs[p->prev].name : "");
		csv_out_field(&w, p->why);
		csv_out_end_row(&w);
	}
	if (csv_out_close(&w) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

void history_print(const struct history *h, FILE *f, int every_step)
{
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
		if (!p->step)
			continue;
		const char *name = metrics[p->metric].name;
		units_format_metric(name, p->median, a, sizeof(a));
		units_format_metric(name, p->prev_median, b, sizeof(b));
		fprintf(f, "%s: %s: %s %s vs %s, %+.1f%%, %s (against %s)\n", h->runs[p->run].name,
			h->groups[p->group].cells[p->cell].label, name, a, b, p->change * 100,
			compare_verdict_names[p->verdict], h->runs[p->prev].name);
	}
}

static const char *mark_of(const struct hist_point *p)
{
	if (!p->step)
		return "";
	return p->verdict == V_REGRESSED ? " " MARK_WORSE : " " MARK_BETTER;
}

/* The point of run i, group cell k, metric m, or NULL. */
static const struct hist_point *point_at(const struct history *h, size_t i, size_t k, int m)
{
	const struct hist_run *run = &h->runs[i];

	for (size_t j = run->first_point; j < run->first_point + run->npoints; j++) {
		const struct hist_point *p = &h->points[j];
		if (p->cell == k && p->metric == m)
			return p;
	}
	return NULL;
}

/* Has group g a point of metric m? */
static int group_has_metric(const struct history *h, size_t g, int m)
{
	for (size_t j = 0; j < h->npoints; j++)
		if (h->points[j].group == g && h->points[j].metric == m)
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
			markdown_text(f, h->runs[i].name, "`");
			fputs(" |", f);
		}
	fputs("\n|---|", f);
	for (size_t i = 0; i < hg->nruns; i++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t k = 0; k < hg->ncells; k++) {
		fputs("| ", f);
		markdown_text(f, hg->cells[k].label, "`");
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

/* Group g's steps, one line each. */
static void md_steps(const struct history *h, FILE *f, size_t g)
{
	if (!h->groups[g].nsteps) {
		fputs("No step changes.\n\n", f);
		return;
	}
	fputs("Steps:\n\n", f);
	for (size_t j = 0; j < h->npoints; j++) {
		const struct hist_point *p = &h->points[j];
		char a[64], b[64];
		if (p->group != g || !p->step)
			continue;
		units_format_metric(metrics[p->metric].name, p->prev_median, b, sizeof(b));
		units_format_metric(metrics[p->metric].name, p->median, a, sizeof(a));
		fprintf(f, "- `%s`%s ", h->runs[p->run].name, mark_of(p));
		markdown_text(f, h->groups[g].cells[p->cell].label, "`");
		fprintf(f, ": %s %s → %s, %+.1f%%, **%s** (against `%s`)\n", metrics[p->metric].name,
			b, a, p->change * 100, compare_verdict_names[p->verdict], h->runs[p->prev].name);
	}
	fputc('\n', f);
}

static void md_group(const struct history *h, FILE *f, size_t g)
{
	const struct hist_group *hg = &h->groups[g];
	const struct report *r = h->runs[hg->first].r;

	fprintf(f, "## Group %zu: %zu run%s, %zu step%s\n\n", g + 1, hg->nruns,
		hg->nruns == 1 ? "" : "s", hg->nsteps, hg->nsteps == 1 ? "" : "s");
	fputs("Kernel `", f);
	markdown_text(f, report_meta(r, "kernel"), "`");
	fputs("`, CPU `", f);
	markdown_text(f, report_meta(r, "cpu_model"), "`");
	fprintf(f, "`, %s cores, governor `", report_meta(r, "cores"));
	markdown_text(f, report_meta(r, "governor"), "`");
	fputs("`, tool version `", f);
	markdown_text(f, report_meta(r, "tool_version"), "`");
	fputs("`.\n\n", f);
	if (g)
		fprintf(f, "Differs from group 1 in:\n\n```\n%s```\n\n", hg->differs);
	fputs("| # | run | start_utc |\n|---:|---|---|\n", f);
	for (size_t i = 0; i < h->nruns; i++)
		if (h->runs[i].group == g + 1) {
			fprintf(f, "| %zu | ", h->runs[i].index);
			markdown_text(f, h->runs[i].name, "`");
			fputs(" | ", f);
			markdown_text(f, *h->runs[i].start ? h->runs[i].start : "-", "`");
			fputs(" |\n", f);
		}
	fputc('\n', f);
	for (size_t mi = 0; mi < h->nmetrics; mi++)
		if (group_has_metric(h, g, h->metrics[mi]))
			md_table(h, f, g, h->metrics[mi]);
	md_steps(h, f, g);
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
		"chart is plots/history.svg (and .png).\n\n",
		h->nruns, h->nruns == 1 ? "" : "s", h->ngroups, h->ngroups == 1 ? "" : "s",
		h->nsteps, h->nsteps == 1 ? "" : "s");
	fprintf(f, "Each figure is a cell's median in that run (`failed`: no successful "
		"repetition; `-`: the run has no such cell). Each is judged against the previous "
		"run of its group that measured the cell, as `matrix compare PREVIOUS RUN` "
		"judges it: a step is `regressed` (%s, for the worse) or `improved` (%s, for the "
		"better): a one-sided Mann-Whitney p-value below %g after a Benjamini-Hochberg "
		"correction over that comparison AND the whole 95%% interval of the change "
		"beyond the threshold of %g%%.\n\n", MARK_WORSE, MARK_BETTER, COMPARE_ALPHA,
		h->threshold * 100);
	for (size_t g = 0; g < h->ngroups; g++)
		md_group(h, f, g);
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}

/* Has cell k of group g a figure of metric m in some run? */
static int series_has(const struct history *h, size_t g, size_t k, int m)
{
	for (size_t j = 0; j < h->npoints; j++) {
		const struct hist_point *p = &h->points[j];
		if (p->group == g && p->cell == k && p->metric == m && p->n)
			return 1;
	}
	return 0;
}

/* How many steps of verdict v group g has in metric m. */
static size_t steps_of(const struct history *h, size_t g, int m, enum verdict v)
{
	size_t n = 0;

	for (size_t j = 0; j < h->npoints; j++) {
		const struct hist_point *p = &h->points[j];
		n += p->group == g && p->metric == m && p->step && p->verdict == v;
	}
	return n;
}

static const enum verdict step_verdicts[2] = { V_REGRESSED, V_IMPROVED };

/* The tables of panel (g, mi): one per cell with a figure ($hG_M_K: run
 * index, median, interval) and one per kind of step ($sG_M_V), each
 * filtered from history.csv. */
static void chart_tables(FILE *f, const struct history *h, size_t g, size_t mi)
{
	const char *name = metrics[h->metrics[mi]].name;
	const struct hist_group *hg = &h->groups[g];
	char q[1100];

	for (size_t k = 0; k < hg->ncells; k++) {
		if (!series_has(h, g, k, h->metrics[mi]) ||
		    gnuplot_quote(hg->cells[k].label, q, sizeof(q)) < 0)
			continue;
		fprintf(f, "set table $h%zu_%zu_%zu\n"
			"plot ARG1 using (column('run_index')):(v('median')):(v('ci_lo')):(v('ci_hi')) "
			"with table if (column('group') == %zu && strcol('metric') eq '%s' && "
			"strcol('label') eq %s)\nunset table\n", g, mi, k, g + 1, name, q);
	}
	for (size_t s = 0; s < 2; s++)
		if (steps_of(h, g, h->metrics[mi], step_verdicts[s]))
			fprintf(f, "set table $s%zu_%zu_%zu\n"
				"plot ARG1 using (column('run_index')):(v('median')) with table if "
				"(column('group') == %zu && strcol('metric') eq '%s' && "
				"strcol('verdict_vs_previous') eq '%s')\nunset table\n", g, mi, s, g + 1,
				name, compare_verdict_names[step_verdicts[s]]);
}

/* Panel (g, mi)'s x axis: the run's index in its group, labelled with the
 * folder's name when there are few enough runs to read them. */
static void chart_x_axis(FILE *f, const struct history *h, size_t g)
{
	const struct hist_group *hg = &h->groups[g];
	char q[600];
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
		if (gnuplot_quote(h->runs[i].name, q, sizeof(q)) < 0)
			snprintf(q, sizeof(q), "'%zu'", h->runs[i].index);
		fprintf(f, "%s%s %zu", first ? "" : ", ", q, h->runs[i].index);
		first = 0;
	}
	fputs(")\n", f);
}

/* Panel (g, mi): a line per cell with a figure, the steps over them. */
static void chart_panel(FILE *f, const struct history *h, size_t g, size_t mi)
{
	static const char *const step_style[2] = {
		"pt 11 ps 2.2 lc rgb '#d62728' title 'step: regressed'",
		"pt 9 ps 2.2 lc rgb '#2ca02c' title 'step: improved'",
	};
	const struct metric *mt = &metrics[h->metrics[mi]];
	const struct hist_group *hg = &h->groups[g];
	char q[1100], unit[64];
	const char *sep = "plot ";

	if (gnuplot_quote(mt->unit, unit, sizeof(unit)) < 0)
		snprintf(unit, sizeof(unit), "''");
	fprintf(f, "set title 'group %zu: %s (%s is better)'\nset ylabel %s\nset format y '%s'\n",
		g + 1, mt->name, mt->better == HIGHER_IS_BETTER ? "higher" : "lower", unit,
		!strcmp(mt->unit, "msg/s") ? "%.1s%c" : "%g");
	chart_x_axis(f, h, g);
	for (size_t k = 0; k < hg->ncells; k++) {
		if (!series_has(h, g, k, h->metrics[mi]) ||
		    gnuplot_quote(hg->cells[k].label, q, sizeof(q)) < 0 ||
		    gnuplot_quote(hg->cells[k].title, q, sizeof(q)) < 0)
			continue;
		fprintf(f, "%s\\\n    $h%zu_%zu_%zu using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 0.6 "
			"lc %zu title %s", sep, g, mi, k, k + 1, q);
		sep = ", ";
	}
	for (size_t s = 0; s < 2 && *sep == ','; s++)
		if (steps_of(h, g, h->metrics[mi], step_verdicts[s]))
			fprintf(f, ", \\\n    $s%zu_%zu_%zu using 1:2 with points %s", g, mi, s,
				step_style[s]);
	if (*sep != ',')	/* every run of every cell failed: say so */
		fputs("set label 1 'no successful repetition' at graph 0.5, graph 0.5 center\n"
		      "plot [0:1] [0:1] 2 notitle\nunset label 1", f);
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
	for (size_t g = 0; g < h->ngroups; g++)
		for (size_t mi = 0; mi < h->nmetrics; mi++)
			npanels += group_has_metric(h, g, h->metrics[mi]);
	gnuplot_preamble(f, "history", "history.csv", "each cell's median per run, steps marked",
			 1000, 320 * (npanels ? npanels : 1) + 60);
	for (size_t g = 0; g < h->ngroups; g++)
		for (size_t mi = 0; mi < h->nmetrics; mi++)
			if (group_has_metric(h, g, h->metrics[mi]))
				chart_tables(f, h, g, mi);
	fprintf(f, "set datafile separator whitespace\nset key outside right top vertical\n"
		"set multiplot layout %zu,1 title 'history: each cell''s median per run (whiskers: "
		"its interval); triangles: steps, as matrix compare judges them'\n",
		npanels ? npanels : 1);
	for (size_t g = 0; g < h->ngroups; g++)
		for (size_t mi = 0; mi < h->nmetrics; mi++)
			if (group_has_metric(h, g, h->metrics[mi]))
				chart_panel(f, h, g, mi);
	if (!npanels)
		fputs("set label 1 'no figures' at graph 0.5, graph 0.5 center\n"
		      "plot [0:1] [0:1] 2 notitle\n", f);
	fputs("unset multiplot\n", f);
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}
