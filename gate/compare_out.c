/* A comparison's console lines, compare.csv, compare.md and its chart
 * script: see compare.h. */
#include "compare.h"
#include "arrays.h"
#include "csvfile.h"
#include "gnuplot_style.h"
#include "markdown_cell.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* "+10.6% (+8.2%..+12.9%)", or "-" when there is no change. */
static void change_text(const struct cmp_row *row, char *buf, size_t len)
{
	if (isnan(row->change))
		snprintf(buf, len, "-");
	else if (isnan(row->lo))
		snprintf(buf, len, "%+.1f%%", row->change * 100);
	else
		snprintf(buf, len, "%+.1f%% (%+.1f%%..%+.1f%%)", row->change * 100, row->lo * 100,
			 row->hi * 100);
}

static const char *side_name(const struct comparison *c, int cand)
{
	if (c->along < 0)
		return cand ? "new" : "base";
	return cand ? "candidate" : "baseline";
}

void compare_print(const struct comparison *c, FILE *f, int every_row)
{
	for (size_t i = 0; every_row && i < c->nrows; i++) {
		const struct cmp_row *row = &c->rows[i];
		char b[64], a[64], ch[96];
		if (row->metric < 0) {
			fprintf(f, "%s: %s\n", row->label, compare_verdict_names[row->verdict]);
			continue;
		}
		const char *name = metrics[row->metric].name;
		units_format_metric(name, row->base_median, b, sizeof(b));
		units_format_metric(name, row->cand_median, a, sizeof(a));
		change_text(row, ch, sizeof(ch));
		fprintf(f, "%s: %s %s vs %s, %s, %s%s%s%s\n", row->label, name, a, b, ch,
			compare_verdict_names[row->verdict], row->why[0] ? " (" : "", row->why,
			row->why[0] ? ")" : "");
	}
	fprintf(f, "compare: %zu regressed, %zu improved, %zu unchanged, %zu inconclusive",
		c->count[V_REGRESSED], c->count[V_IMPROVED], c->count[V_UNCHANGED],
		c->count[V_INCONCLUSIVE]);
	if (c->count[V_ADDED] || c->count[V_REMOVED])
		fprintf(f, ", %zu added, %zu removed", c->count[V_ADDED], c->count[V_REMOVED]);
	fprintf(f, " (threshold %g%%, %s vs %s)\n", c->threshold * 100, side_name(c, 1),
		side_name(c, 0));
}

static int write_csv(const struct comparison *c, const char *dir, const char *name, char *err,
		     size_t errlen)
{
	static const char *const cols[] = {
		"label", "metric", "base_cell", "new_cell", "base_n", "new_n", "base_median",
		"new_median", "change", "change_lo", "change_hi", "ci_level", "p_worse", "q_worse",
		"p_better", "q_better", "verdict", "why", "rounds", "look", "test",
	};
	char path[4200];
	struct csv_out w;

	snprintf(path, sizeof(path), "%s/%s.csv", dir, name);
	if (csv_out_create(&w, path, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		csv_out_field(&w, cols[i]);
	csv_out_end_row(&w);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		const double v[] = { (double)r->n_base, (double)r->n_cand, r->base_median,
				     r->cand_median, r->change, r->lo, r->hi, r->level, r->p_worse,
				     r->q_worse, r->p_better, r->q_better };
		csv_out_text(&w, r->label);
		csv_out_field(&w, r->metric >= 0 ? metrics[r->metric].name : "");
		if (r->base)
			csv_out_u64(&w, r->base->number);
		else
			csv_out_field(&w, "");
		if (r->cand)
			csv_out_u64(&w, r->cand->number);
		else
			csv_out_field(&w, "");
		for (size_t k = 0; k < ARRAY_SIZE(v); k++)
			csv_out_double(&w, r->metric >= 0 ? v[k] : NAN, 10);
		csv_out_field(&w, compare_verdict_names[r->verdict]);
		csv_out_field(&w, r->why);
		if (r->metric >= 0 && c->paired)
			csv_out_u64(&w, r->rounds);
		else
			csv_out_field(&w, "");
		if (r->metric >= 0)
			csv_out_u64(&w, (uint64_t)r->look);
		else
			csv_out_field(&w, "");
		csv_out_field(&w, r->metric < 0 ? "" : c->paired ? "sign" : "mann-whitney");
		csv_out_end_row(&w);
	}
	if (csv_out_close(&w) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void md_rows(const struct comparison *c, FILE *f)
{
	fprintf(f, "| cell | metric | %s | %s | change (interval) | p, BH-corrected | "
		"verdict |\n|---|---|---:|---:|---:|---:|---|\n", side_name(c, 0), side_name(c, 1));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		char b[64], a[64], ch[96], p[64];
		if (r->metric < 0)
			continue;
		const char *name = metrics[r->metric].name;
		int higher = metrics[r->metric].better == HIGHER_IS_BETTER;
		units_format_metric(name, r->base_median, b, sizeof(b));
		units_format_metric(name, r->cand_median, a, sizeof(a));
		change_text(r, ch, sizeof(ch));
		double q = r->change < 0 ? (higher ? r->q_worse : r->q_better)
					 : (higher ? r->q_better : r->q_worse);
		snprintf(p, sizeof(p), isnan(q) ? "-" : "%.3g", q);
		fputs("| ", f);
		markdown_text(f, r->label);
		fprintf(f, " | %s | %s | %s | %s | %s | **%s**%s%s%s |\n", name, b, a, ch, p,
			compare_verdict_names[r->verdict], r->why[0] ? " (" : "", r->why,
			r->why[0] ? ")" : "");
	}
}

static int write_md(const struct comparison *c, const char *dir, const char *name, char *err,
		    size_t errlen)
{
	char path[4200];
	struct outfile out;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.md", dir, name);
	if (outfile_open(&out, path, err, errlen) < 0)
		return -1;
	f = out.f;
	fprintf(f, "# %s\n\n", c->along < 0 ? "compare" : "in-run A/B");
	fputs(c->along < 0 ? "Baseline " : "In-run A/B in ", f);
	markdown_code(f, c->base->dir);
	fputs(c->along < 0 ? ", new " : " along ", f);
	markdown_code(f, c->along < 0 ? c->cand->dir : c->base->dimnames[c->along]);
	fputs(".\n\n", f);
	fprintf(f, "**%zu regressed, %zu improved, %zu unchanged, %zu inconclusive**",
		c->count[V_REGRESSED], c->count[V_IMPROVED], c->count[V_UNCHANGED],
		c->count[V_INCONCLUSIVE]);
	if (c->count[V_ADDED] || c->count[V_REMOVED])
		fprintf(f, ", %zu added, %zu removed", c->count[V_ADDED], c->count[V_REMOVED]);
	fputs(".\n\n", f);
	if (c->along >= 0 && !c->paired)
		fputs("A merged folder: its shards ran their rounds on other machines, so the two "
		      "sides are judged as two separate runs, not round by round. ", f);
	if (c->paired)
		fprintf(f, "Paired by round: each round ran the baseline and the candidate side by "
			"side, so a change is judged round by round, on the log of the candidate over "
			"the baseline. A change is the median of the rounds' ratios, minus 1, with its "
			"order-statistic interval (its exact level in ab.csv's ci_level, at least "
			"%.1f%%). `regressed` needs the exact one-sided sign-test p-value "
			"that the candidate is worse by more than the threshold of %g%% below %g after "
			"a Benjamini-Hochberg correction over every row (`improved` the same the other "
			"way); `unchanged` needs the whole interval within the threshold; anything else "
			"is `inconclusive`.",
			100 * (1 - 2 * c->alpha), c->threshold * 100, c->alpha);
	else
		fprintf(f, "A change is the %s median over the %s median, minus 1, with an interval "
			"made of each side's order-statistic interval of its median, which holds "
			"with at least the level in compare.csv's ci_level whatever the two sides' "
			"spreads. `regressed` needs a one-sided Mann-Whitney p-value that the candidate "
			"is worse by more than the threshold of %g%% below %g after a "
			"Benjamini-Hochberg correction over every row AND the whole interval beyond "
			"the threshold (`improved` the same the other way); `unchanged` needs the "
			"whole interval within it; anything else is `inconclusive`, as is every row "
			"whose two machines' state differed (the reason is given).",
			side_name(c, 1), side_name(c, 0), c->threshold * 100, c->alpha);
	fprintf(f, " Each look judges at %g, so that a second look (RUN/look2) keeps the "
		"false-alarm rate of both at %g.%s\n\n", c->alpha, COMPARE_OVERALL_ALPHA,
		c->more ? " This is the second look: a row decided at the first keeps its "
		"verdict (look 1), the others are judged on the rounds of both (look 2)." : "");
	if (c->forced && *c->forced)
		fprintf(f, "Compared with `--force` although these differ:\n\n```\n%s```\n\n",
			c->forced);
	md_rows(c, f);
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].metric < 0) {
			fprintf(f, "\n- %s: ", compare_verdict_names[c->rows[i].verdict]);
			markdown_text(f, c->rows[i].label);
		}
	if (c->count[V_ADDED] || c->count[V_REMOVED])
		fputc('\n', f);
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}

/* plots/compare.gp: each row's change in percent with its interval as an
 * error bar, one bar per row, and a band at +-threshold. */
static int write_chart(const struct comparison *c, const char *dir, const char *name, char *err,
		       size_t errlen)
{
	char path[4200];
	size_t n = c->nrows - c->count[V_ADDED] - c->count[V_REMOVED];
	struct outfile out;
	FILE *f;

	snprintf(path, sizeof(path), "%s/plots", dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/plots/%s.gp", dir, name);
	if (outfile_open(&out, path, err, errlen) < 0)
		return -1;
	f = out.f;
	char data[64];
	snprintf(data, sizeof(data), "%s.csv", name);
	gnuplot_preamble(f, name, data, "relative change per cell and metric", 900,
			 220 + 22 * (n ? n : 1));
	fprintf(f,
"thr = %.10g\n"
"set title sprintf('change, %s over %s, with its interval; band at +-%%g%%%%', thr) noenhanced\n"
"set xlabel 'change (%%)'\n"
"set ytics noenhanced font ',8'\n"
"set offsets 0, 0, 0.5, 0.5\n"
"set object 1 rectangle from -thr, graph 0 to thr, graph 1 behind fc rgb '#e8f0e8' fs solid 1.0 noborder\n"
"set xzeroaxis\n"
"set key off\n"
"ok(s) = (s eq 'regressed' ? 1 : s eq 'improved' ? 2 : 0)\n"
"plot ARG1 using (100 * column('change')):0:(100 * column('change_lo')):(100 * column('change_hi')):"
"(ok(strcol('verdict'))):yticlabels(strcol('label') . ' ' . strcol('metric')) "
"skip 0 with xerrorbars lc variable pt 7\n",
		c->threshold * 100, side_name(c, 1), side_name(c, 0));
	return outfile_commit(&out, err, errlen);	/* checks every write above */
}

int compare_write(const struct comparison *c, const char *dir, const char *name, char *err,
		  size_t errlen)
{
	if (write_csv(c, dir, name, err, errlen) < 0 || write_md(c, dir, name, err, errlen) < 0)
		return -1;
	return write_chart(c, dir, name, err, errlen);
}
