/* summary.md's header, its headline and its key: see markdown_header.h. */
#include "markdown_header.h"
#include "arrays.h"
#include "headline.h"
#include "markdown_cell.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* 1 when some figure of some cell is marked by has (its mark's key is
 * then printed under the tables). */
static int any_figure(const struct report *r, int (*has)(const struct rcell *, int))
{
	for (size_t i = 0; i < r->ncells; i++)
		for (int m = 0; m < MATRIX_NMETRICS; m++)
			if (has(&r->cells[i], m))
				return 1;
	return 0;
}

/* The key to PRINTED_MARK, when a figure has it. */
static void printed_legend(const struct report *r, FILE *f)
{
	if (any_figure(r, markdown_printed_by_programs))
		fputs("\n`" PRINTED_MARK "`: figures the programs printed themselves "
		      "(their `result:` patterns) in some or all of the cell's "
		      "successful repetitions, not measured by matrix; combined over "
		      "clients so that they mean what the built-in figures mean: rates "
		      "as all messages over the longest client's window, means weighted "
		      "by each client's share of the count, the largest maximum (a "
		      "percentile printed by several clients cannot be combined and is "
		      "left empty).\n", f);
}

/* The key to WHOLE_MARK, when a figure has it. */
static void whole_legend(const struct report *r, FILE *f)
{
	if (any_figure(r, report_whole_process))
		fputs("\n`" WHOLE_MARK "`: whole-process figures, in some or all of "
		      "the cell's successful repetitions: the runner timed a program "
		      "from outside, from its spawn to its exit (its CPU: the whole "
		      "process's), so an interpreter's or a JVM's start-up, loading "
		      "and connection set-up are inside them, which a worker's own "
		      "timing and a program's printed figures leave out; a ratio so "
		      "marked has such a figure on either side.\n", f);
}

/* The key to UPPER_MARK, when a figure has it. */
static void upper_legend(const struct report *r, FILE *f)
{
	for (size_t i = 0; i < r->ncells; i++)
		for (int m = 0; m < MATRIX_NMETRICS; m++)
			if (report_upper_bound(r, &r->cells[i], m)) {
				fputs("\n`" UPPER_MARK "`: an upper bound: the server and the clients "
				      "ran on two hosts, whose clocks cannot be subtracted, so a "
				      "stream's window is the longer of the senders' own and the "
				      "receiver's own, both inside the true one, and its msgs_per_s "
				      "and mib_per_s can only read high (close to the truth when "
				      "either side is the bottleneck; README \"Across machines\"); a "
				      "ratio so marked has such a figure on either side.\n", f);
				return;
			}
}

/* The key to BEHIND_MARK, when a figure has it. */
static void behind_legend(const struct report *r, FILE *f)
{
	for (size_t i = 0; i < r->ncells; i++)
		for (int m = 0; m < MATRIX_NMETRICS; m++)
			if (markdown_behind_schedule(r, &r->cells[i], m)) {
				fprintf(f, "\n`" BEHIND_MARK "`: a paced cell (`rate:`) that did not keep "
					"its schedule: in some repetition its connections achieved under "
					"%.0f%% of the rate asked, so its figures describe a queue that "
					"grew, not the rate asked; the line under its rate's table gives "
					"both rates.\n", MATRIX_RATE_KEPT * 100);
				return;
			}
}

/* The key to SHORT_MARK, when a cell has it. */
static void short_legend(const struct report *r, FILE *f)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (r->cells[i].short_window) {
			fprintf(f, "\n`" SHORT_MARK "`: the cell's timed window (the median "
				"`elapsed_s` of its successful repetitions) is under %.0f ms, so its "
				"figures are mostly start-up (connecting, the first messages, waking "
				"the other processes); raise `count` or set `duration`.\n",
				MATRIX_SHORT_WINDOW_S * 1e3);
			return;
		}
}

/* The header's key to the figures, the ratios and the marks. */
static void legend(const struct report *r, FILE *f)
{
	fprintf(f, "\nEach figure is the median of a cell's successful repetitions, then in "
		"brackets the order-statistic interval of that median, low–high (none with one "
		"repetition), whose confidence depends on "
		"the number of repetitions (75%% with 3; %.4g%% needs 6 or more) and is given under "
		"each table", STATS_LEVEL * 100);
	fprintf(f, ". Ratios are ratios of medians. A ratio's interval is made of the two "
		"cells' own intervals of the median, each at %.4g%%: from the numerator's lower end "
		"over the denominator's upper end to the numerator's upper end over the "
		"denominator's lower end. It assumes nothing about the shape of either cell's "
		"distribution and holds the true ratio with at least the product of the two "
		"confidences: %.4g%% needs 7 or more repetitions on each side, and below that the "
		"lower bound stands beside the interval (≥56%% for 3 and 3). `~`: CV above %.4g%% "
		"(noisy); `(k/n ok)`: k of n repetitions succeeded.\n", sqrt(STATS_LEVEL) * 100,
		STATS_LEVEL * 100, r->m.report.noisy_cv * 100);
	printed_legend(r, f);
	whole_legend(r, f);
	upper_legend(r, f);
	behind_legend(r, f);
	short_legend(r, f);
}

/* The answer first (headline.h): a sentence per ratio and scenario. */
static void headline(const struct report *r, FILE *f)
{
	struct headline h;

	if (headline_build(r, &h) < 0 || !h.nlines) {
		headline_release(&h);
		return;
	}
	fputs("## Headline\n\n", f);
	for (size_t i = 0; i < h.nlines; i++) {
		fputs("- ", f);
		markdown_text(f, h.lines[i]);
		fputc('\n', f);
	}
	if (h.more)
		fprintf(f, "- and %zu more in the ratio tables below.\n", h.more);
	fputc('\n', f);
	headline_release(&h);
}

/* A row "placement" under the machine's when some cell's workers were
 * placed on CPUs (results.csv's placement): each distinct placement once,
 * after the cpu: value that asked for it when cpu is a dimension, e.g.
 * "same: server=0;clients=0, split: server=0;clients=1".  Nothing for
 * cells all unplaced (and so for a folder from before the column). */
static void placement_row(const struct report *r, FILE *f)
{
	int cpu = report_dim(r, "cpu"), any = 0;
	char buf[4096] = "";
	size_t o = 0;

	for (size_t i = 0; i < r->ncells; i++)
		any |= r->cells[i].placement[0] && strcmp(r->cells[i].placement, "none");
	for (size_t i = 0; any && i < r->ncells && o < sizeof(buf); i++) {
		const struct rcell *c = &r->cells[i];
		size_t k;
		for (k = 0; k < i; k++)
			if (!strcmp(r->cells[k].placement, c->placement) &&
			    (cpu < 0 || !strcmp(r->cells[k].dims[cpu], c->dims[cpu])))
				break;
		if (k < i)
			continue;
		const char *place = c->placement[0] ? c->placement : "none";
		int named = cpu >= 0 && strcmp(c->dims[cpu], place);	/* "split: server=..." */
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s%s%s", o ? ", " : "",
				      named ? c->dims[cpu] : "", named ? ": " : "", place);
	}
	if (!any)
		return;
	markdown_cell(f, "placement");
	markdown_cell(f, buf);
	fputs("|\n", f);
}

/* A run with hosts: (meta.csv server_host, client_host): where each role
 * ran, and a remote one's facts. */
static void hosts_rows(const struct report *r, FILE *f)
{
	static const char *const roles[] = { "server", "client" };
	char key[32], buf[2048];

	for (size_t i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "%s_host", roles[i]);
		if (!*report_meta(r, key))
			continue;
		size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", report_meta(r, key));
		snprintf(key, sizeof(key), "%s_kernel", roles[i]);
		const char *kernel = report_meta(r, key);
		snprintf(key, sizeof(key), "%s_cpu_model", roles[i]);
		const char *cpu = report_meta(r, key);
		snprintf(key, sizeof(key), "%s_cores", roles[i]);
		const char *cores = report_meta(r, key);
		snprintf(key, sizeof(key), "%s_governor", roles[i]);
		if (*kernel && n < sizeof(buf))
			snprintf(buf + n, sizeof(buf) - n, ": %s, %s, %s cores, governor %s", kernel,
				 cpu, cores, report_meta(r, key));
		markdown_cell(f, roles[i]);
		markdown_cell(f, buf);
		fputs("|\n", f);
	}
}

void markdown_header(const struct report *r, FILE *f)
{
	fputs("# ", f);
	markdown_text(f, r->m.name);
	fputs("\n\n", f);
	if (r->m.description && *r->m.description) {
		markdown_lines(f, r->m.description);
		fputs("\n\n", f);
	}
	headline(r, f);
	fprintf(f, "| | |\n|---|---|\n");
	const char *rows[][2] = {
		{ "host", report_meta(r, "host") }, { "kernel", report_meta(r, "kernel") },
		{ "CPU", report_meta(r, "cpu_model") }, { "cores", report_meta(r, "cores") },
		{ "governor", report_meta(r, "governor") }, { "started", report_meta(r, "start_utc") },
		{ "ended", report_meta(r, "end_utc") }, { "run status", report_meta(r, "status") },
		{ "matrix version", report_meta(r, "tool_version") },
		{ "revision", report_meta(r, "git_revision") },
		{ "command", report_meta(r, "command_line") },
	};
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		markdown_cell(f, rows[i][0]);
		markdown_cell(f, *rows[i][1] ? rows[i][1] : "unknown");
		fputs("|\n", f);
	}
	if (*report_meta(r, "merged_from")) {	/* `matrix merge`'s: command is shard 1's */
		markdown_cell(f, "merged from");
		markdown_cell(f, report_meta(r, "merged_from"));
		fputs("|\n", f);
	}
	if (*report_meta(r, "shard")) {		/* one Nth of a run: not the whole of it */
		char part[160];
		snprintf(part, sizeof(part), "%.40s of a run (matrix merge joins the shards)",
			 report_meta(r, "shard"));
		markdown_cell(f, "shard");
		markdown_cell(f, part);
		fputs("|\n", f);
	}
	hosts_rows(r, f);
	placement_row(r, f);
	if (r->reporting && r->runner == PROC_GONE)
		fputs("\n**Reports cut short:** its runner was killed while it wrote them, after "
		      "the run had ended; `matrix run --resume` finishes them.\n", f);
	else if (r->reporting && r->runner == PROC_ALIVE)
		fputs("\n**Reports being written:** the run has ended and its runner is still "
		      "writing its reports.\n", f);
	else if (r->runner == PROC_GONE || r->runner == PROC_ALIVE)
		fprintf(f, "\n**A partial run:** %s; these are the repetitions it had finished.\n",
			r->runner == PROC_GONE ? "its runner was killed before the end"
			: "it is still running");
	char busy[768], cols[128];
	if (report_busy_text(r, busy, sizeof(busy))) {	/* as hyperfine warns of outliers */
		report_busy_columns(r, cols, sizeof(cols));
		fprintf(f, "\n**A busy machine:** %s. Other work shared its CPUs, so these "
			"figures may be slower and noisier than the code alone makes them; "
			"compare them with a quiet machine's with care (results.csv's %s).\n",
			busy, cols);
	}
	if (report_stale_stream_rates(r))
		fprintf(f, "\n**This run folder predates the fixed stream rate** (its results.csv has "
			"no `cpu_us_per_rtt` column): its stream msgs_per_s and mib_per_s were timed "
			"from the receiver's first read, leaving out what that read found queued, and "
			"may read high (1.5x to 2.7x the senders' rate over tcp); rerun those cells.\n");
	legend(r, f);
}
