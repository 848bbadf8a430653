/* `matrix compare`, and the comparisons `run` and `report` make: see
 * cmd_compare.h. */
#include "cmd_compare.h"
#include "cmd_guard.h"
#include "history_runs.h"
#include "compare.h"
#include "gnuplot.h"
#include "history.h"
#include "compare_json.h"
#include "json.h"
#include "matrix.h"
#include "report.h"
#include "suggest.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_BADINPUT 2

static const char usage_compare[] =
"usage: matrix compare BASE_DIR NEW_DIR [--threshold PCT] [--metric METRIC ...]\n"
"                      [--history DIR] [-o DIR] [--force] [--quiet]\n"
"                      [--export-json FILE]\n"
"\n"
"Compares two run folders cell by cell (cells matched by their parameters)\n"
"and writes compare.csv, compare.md and plots/compare.gp (and its images)\n"
"into NEW_DIR, or DIR.  A change is `regressed` or `improved` only when a\n"
"one-sided Mann-Whitney test that it is beyond the threshold, corrected for\n"
"every comparison made (Benjamini-Hochberg), says so at 0.0304 AND its whole\n"
"interval (from each side's order-statistic interval of its median) lies\n"
"beyond the threshold; `unchanged` when its whole interval lies within it;\n"
"else `inconclusive`, as is a cell whose two runs' machines were not in the\n"
"same state.  When NEW_DIR holds a second look (NEW_DIR/look2, made by\n"
"`matrix run --baseline`), it is judged too, into DIR/look2.  With\n"
"--history, a regressed or improved change must also be beyond 4 times the\n"
"cell's normal night-to-night spread, learnt as `matrix history DIR` learns\n"
"it from the runs of DIR in BASE_DIR's group that came before NEW_DIR (at\n"
"least 5 changes; with fewer the verdict stands and says so); else it is\n"
"inconclusive.\n"
"\n"
"      --threshold PCT  the smallest change that matters (default 5%)\n"
"      --metric METRIC  compare this metric; repeat for more (default\n"
"                       msgs_per_s and rtt_p50_us)\n"
"      --history DIR    the folder of the benchmark's runs (results/NAME/),\n"
"                       for each cell's normal night-to-night spread\n"
"  -o, --output DIR     write the files here instead of into NEW_DIR\n"
"      --force          compare folders whose machine or inputs differ\n"
"  -q, --quiet          print only the summary line and errors\n"
"      --export-json FILE  also write the verdicts as JSON (`verdicts`, as\n"
"                       run --export-json has them); - is stdout, and the\n"
"                       verdict lines then go to stderr\n"
"\n"
"stdout: the verdict lines and the summary line; notes on stderr\n"
"exit status: 0 nothing regressed, 1 a regression, 2 bad input, a tool or a\n"
"cell failed, 3 inconclusive\n";

/* --threshold: "5%" or a fraction below 1 ("0.05"). */
int cmd_compare_parse_threshold(const char *cmd, const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (end != s && !errno && !strcmp(end, "%"))
		*v /= 100;
	else if (end == s || errno || *end || *v >= 1)
		*v = -1;
	if (*v > 0 && *v < 10)
		return 0;
	fprintf(stderr, "matrix %s: --threshold %s: give a percentage above 0 and below 1000%%, "
		"such as 5%%\n", cmd, s);
	return -1;
}

int cmd_compare_parse_metric(const char *cmd, const char *s, struct compare_args *a)
{
	char hint[128];
	int m = matrix_metric_index(s);

	if (m < 0) {
		fprintf(stderr, "matrix %s: --metric %s: no such metric%s (matrix report --help "
			"lists them)\n", cmd, s,
			suggest_hint(s, matrix_metrics, MATRIX_NMETRICS, hint, sizeof(hint)));
		return -1;
	}
	for (size_t i = 0; i < a->nmetrics; i++)
		if (a->metrics[i] == m)
			return 0;
	a->metrics[a->nmetrics++] = m;
	return 0;
}

void cmd_look_again_release(struct look_again *la)
{
	free(la->cells);
	memset(la, 0, sizeof(*la));
}

static void add_cell(struct look_again *la, unsigned number)
{
	for (size_t i = 0; i < la->ncells; i++)
		if (la->cells[i] == number)
			return;
	unsigned *nc = realloc(la->cells, (la->ncells + 1) * sizeof(*nc));
	if (!nc)
		return;	/* that cell is not looked at again: it stays inconclusive */
	la->cells = nc;
	la->cells[la->ncells++] = number;
}

/* The cells of c's rows that a second look may decide, into la (when not
 * NULL). */
static void note_look_again(const struct comparison *c, struct look_again *la)
{
	if (!la)
		return;
	cmd_look_again_release(la);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *row = &c->rows[i];
		if (!compare_row_looks_again(row))
			continue;
		la->nrows++;
		add_cell(la, row->cand->number);
		if (c->along >= 0)
			add_cell(la, row->base->number);
	}
}

/* DIR/look2 into out when it holds a run folder; 0, or -1 when not. */
static int look2_dir(const char *dir, char *out, size_t len)
{
	char probe[4300];

	snprintf(out, len, "%s/%s", dir, COMPARE_LOOK2);
	snprintf(probe, sizeof(probe), "%s/results.csv", out);
	return access(probe, R_OK) == 0 ? 0 : -1;
}

/* Writes, renders and prints a judged comparison into dir, and adds its
 * verdicts to a->json (when exporting); its exit status (a chart gnuplot
 * fails on is said, and changes nothing; a file or image that cannot be
 * written is 2). */
static int finish_compare(const struct comparison *c, const char *dir,
			  const struct compare_args *a, const char *cmd)
{
	const char *name = c->along < 0 ? "compare" : "ab";
	char err[1024], data[64];
	int rc = 2;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "matrix %s: %s: %s\n", cmd, dir, strerror(errno));
	} else if (compare_write(c, dir, name, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix %s: %s\n", cmd, err);
	} else {
		snprintf(data, sizeof(data), "%s.csv", name);
		int chart = gnuplot_render_chart(dir, name, data, err, sizeof(err));
		if (chart)
			fprintf(stderr, "matrix %s: %s\n", cmd, err);
		compare_print(c, a->results ? a->results : stderr, !a->quiet);
		fprintf(stderr, "matrix: %s in %s/%s.md\n", c->along < 0 ? "comparison"
			: "in-run A/B", dir, name);
		/* an image that could not be written is a file that could not be */
		rc = chart == -2 ? 2 : compare_exit_status(c);
	}
	compare_json_add(a->json, c, dir, rc, c->more ? 2 : 1);
	return rc;
}

/* --history DIR: each cell's normal night-to-night spread, learnt as
 * `matrix history DIR` learns it (history_learn, the same walk and
 * history_noise), from the runs of DIR in BASE's fingerprint group that
 * come before NEW (BASE and NEW join them when DIR lacks them). */
struct noise_ref {
	struct history_runs hr;
	const struct report **rp;
	struct history h;
	size_t group, before, runs;	/* runs: of the group before NEW */
};

/* Are a and b the same folder? */
static int same_folder(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

/* Where the run folder of `r` is among rp[0..*n) (the same report, or
 * one read from the same folder), else r appended there: its index. */
static size_t place_run(const struct report **rp, size_t *n, const struct report *r)
{
	for (size_t i = 0; i < *n; i++)
		if (rp[i] == r || same_folder(rp[i]->dir, r->dir))
			return i;
	rp[*n] = r;
	return (*n)++;
}

static void noise_ref_release(struct noise_ref *nr)
{
	history_release(&nr->h);
	free(nr->rp);
	cmd_history_release(&nr->hr);
}

/* Loads DIR's runs and learns their noise; 0, or -1 after a message that
 * names the flag and the path. */
static int noise_ref_load(struct noise_ref *nr, const char *dir, const struct report *rb,
			  const struct report *rn, const struct compare_args *a, const char *cmd)
{
	char *const argv[] = { (char *)dir };
	char err[1024];

	memset(nr, 0, sizeof(*nr));
	if (cmd_history_load(cmd, "--history ", 1, argv, &nr->hr) < 0)
		return -1;
	if (!(nr->rp = calloc(nr->hr.n + 2, sizeof(*nr->rp)))) {
		fprintf(stderr, "matrix %s: out of memory\n", cmd);
		return -1;
	}
	size_t n = nr->hr.n;
	for (size_t i = 0; i < n; i++)
		nr->rp[i] = &nr->hr.runs[i];
	size_t bi = place_run(nr->rp, &n, rb), ni = place_run(nr->rp, &n, rn);
	if (history_learn(&nr->h, nr->rp, n, a->metrics, a->nmetrics, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix %s: --history %s: %s\n", cmd, dir, err);
		return -1;
	}
	size_t hb = history_run_of(&nr->h, nr->rp[bi]);
	nr->group = nr->h.runs[hb].group - 1;
	nr->before = history_run_of(&nr->h, nr->rp[ni]);
	for (size_t i = 0; i < nr->before; i++)
		nr->runs += nr->h.runs[i].group == nr->group + 1;
	if (!a->quiet)
		fprintf(stderr, "matrix %s: --history %s: each cell's normal night-to-night spread "
			"from the %zu run%s of %s's group before %s\n", cmd, dir, nr->runs,
			nr->runs == 1 ? "" : "s", rb->dir, rn->dir);
	return 0;
}

/* The noise rule on c's regressed and improved rows (history_calibrate):
 * those within the spread become inconclusive, each with its why in
 * why[row] (which must outlive c's use). */
static void apply_noise(struct comparison *c, const struct noise_ref *nr, char (*why)[512])
{
	for (size_t i = 0; i < c->nrows; i++) {
		struct cmp_row *row = &c->rows[i];
		size_t nights;
		enum noise_call call;
		if (row->metric < 0 || !row->cand ||
		    (row->verdict != V_REGRESSED && row->verdict != V_IMPROVED))
			continue;
		double noise = history_noise_before(&nr->h, nr->group, nr->before, c->cand, row->cand,
						    row->metric, &nights);
		enum verdict v = history_calibrate(row->verdict, row->change, noise, nights, &call);
		history_why(call, noise, nights, row->why, why[i], sizeof(why[i]));
		row->why = why[i];
		c->count[row->verdict]--;
		c->count[v]++;
		row->verdict = v;
	}
}

/* Before anything is read or written: -o DIR's files are none of the
 * folders' own, and the charts' folders of out (plots/, look2/plots/) are
 * never links.  -1 after saying why. */
static int check_out(const char *base, const char *cand, const char *flag_out,
		     const char *out, const char *cmd)
{
	static const char *const written[] = {
		"compare.csv", "compare.md", "plots/compare.gp", "plots/compare.svg",
		"plots/compare.png", "plots/compare.log", NULL
	};
	struct cmd_guard g = { .cmd = cmd };
	int rc = cmd_guard_add(&g, base, CMD_READS);

	if (!rc)
		rc = cmd_guard_add(&g, cand, CMD_READS);
	if (!rc && flag_out)
		rc = cmd_guard_check_dir(&g, "-o", flag_out, written);
	cmd_guard_release(&g);
	return rc < 0 ? -1 : cmd_check_own_dirs(cmd, out);
}

/* --export-json FILE: never a file compare reads or writes (of BASE, NEW
 * or -o DIR), by its real path; -1 after saying why. */
static int compare_json_guard(const char *base, const char *cand, const char *out,
			      const char *json)
{
	struct cmd_guard g = { .cmd = "compare" };
	int rc = cmd_guard_add(&g, base, CMD_READS);

	if (!rc)
		rc = cmd_guard_add(&g, cand, CMD_READS | (out ? 0 : CMD_WRITES));
	if (!rc && out)
		rc = cmd_guard_add(&g, out, CMD_WRITES);
	if (!rc)
		rc = cmd_guard_check(&g, "--export-json", json);
	cmd_guard_release(&g);
	return rc < 0 ? -1 : 0;
}

/* Baseline folder against a new one: loads both, checks their
 * fingerprints, judges, writes; then, when the new folder holds a second
 * look (NEW/look2), judges again on its rounds too and writes that into
 * OUT/look2.  The exit status of compare (of the last look). */
int cmd_compare_dirs(const char *base, const char *cand, const struct compare_args *a,
		     const char *cmd, struct look_again *la)
{
	struct report rb, rn, rm;
	struct comparison c;
	struct noise_ref nr;
	char err[1024], diff[2048], more[4200], out2[4200], (*why)[512] = NULL;
	const char *out = a->out ? a->out : cand;
	int rc = 2, has_more = look2_dir(cand, more, sizeof(more)) == 0;

	if (check_out(base, cand, a->out, out, cmd) < 0)
		return 2;
	if (report_load(&rb, base, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix %s: %s\n", cmd, err);
		return 2;
	}
	if (report_load(&rn, cand, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix %s: %s\n", cmd, err);
		report_release(&rb);
		return 2;
	}
	if (has_more && report_load(&rm, more, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix %s: the second look: %s\n", cmd, err);
		report_release(&rn);
		report_release(&rb);
		return 2;
	}
	size_t ndiff = compare_fingerprint(&rb, &rn, diff, sizeof(diff));
	double t = a->threshold ? a->threshold : COMPARE_DEFAULT_THRESHOLD;
	memset(&nr, 0, sizeof(nr));
	if (ndiff && !a->force) {
		fprintf(stderr, "matrix %s: %s and %s differ in machine or inputs (--force compares "
			"them anyway):\n%s", cmd, base, cand, diff);
	} else if (a->history && noise_ref_load(&nr, a->history, &rb, &rn, a, cmd) < 0) {
		;	/* said */
	} else {
		for (int look = 1; look <= 1 + has_more; look++) {
			if (compare_folders_more(&c, &rb, &rn, look == 2 ? &rm : NULL, t, a->metrics,
						 a->nmetrics, err, sizeof(err)) < 0) {
				fprintf(stderr, "matrix %s: %s\n", cmd, err);
				compare_release(&c);
				rc = 2;
				break;
			}
			c.forced = ndiff ? diff : NULL;
			if (a->history) {
				free(why);
				if (!(why = calloc(c.nrows + 1, sizeof(*why)))) {
					fprintf(stderr, "matrix %s: out of memory\n", cmd);
					compare_release(&c);
					rc = 2;
					break;
				}
				apply_noise(&c, &nr, why);
			}
			snprintf(out2, sizeof(out2), "%s/%s", out, COMPARE_LOOK2);
			if (look == 2 || a->look != 2)
				rc = finish_compare(&c, look == 2 ? out2 : out, a, cmd);
			if (look == 1)
				note_look_again(&c, la);
			compare_release(&c);
		}
	}
	noise_ref_release(&nr);		/* safe when never loaded */
	free(why);
	if (has_more)
		report_release(&rm);
	report_release(&rn);
	report_release(&rb);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "threshold", 1, 0, 't' }, { "metric", 1, 0, 'm' }, { "output", 1, 0, 'o' },
		{ "force", 0, 0, 'f' }, { "quiet", 0, 0, 'q' }, { "help", 0, 0, 'h' },
		{ "history", 1, 0, 'H' }, { "export-json", 1, 0, 'J' }, { 0, 0, 0, 0 }
	};
	struct compare_args a = { .threshold = COMPARE_DEFAULT_THRESHOLD, .results = stdout };
	const char *json = NULL;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(usage_compare, stdout);
			exit(0);
		case 't':
			if (cmd_compare_parse_threshold("compare", optarg, &a.threshold) < 0)
				return EXIT_BADINPUT;
			break;
		case 'm':
			if (cmd_compare_parse_metric("compare", optarg, &a) < 0)
				return EXIT_BADINPUT;
			break;
		case 'o':
			a.out = optarg;
			break;
		case 'f':
			a.force = 1;
			break;
		case 'H':
			a.history = optarg;
			break;
		case 'q':
			a.quiet = 1;
			break;
		case 'J':
			json = optarg;
			break;
		default:
			fputs(usage_compare, stderr);
			return EXIT_BADINPUT;
		}
	}
	if (optind != argc - 2) {
		fprintf(stderr, "matrix compare: expected BASE_DIR and NEW_DIR\n%s", usage_compare);
		return EXIT_BADINPUT;
	}
	if (json && compare_json_guard(argv[optind], argv[optind + 1], a.out, json) < 0)
		return EXIT_BADINPUT;
	if (json && !(a.json = run_json_new())) {
		fprintf(stderr, "matrix compare: out of memory\n");
		return EXIT_BADINPUT;
	}
	if (a.json) {	/* the new run's figures, as run --baseline --export-json has them */
		struct report rn;
		char err[1024];
		if (report_load(&rn, argv[optind + 1], NULL, err, sizeof(err)) < 0) {
			fprintf(stderr, "matrix compare: %s\n", err);
			run_json_free(a.json);
			return EXIT_BADINPUT;
		}
		run_json_add_report(a.json, &rn);
		report_release(&rn);
	}
	if (json && !strcmp(json, "-"))	/* stdout is the JSON's alone */
		a.results = stderr;
	rc = cmd_compare_dirs(argv[optind], argv[optind + 1], &a, "compare", NULL);
	/* the verdicts of a comparison that was judged; none of bad input */
	if (a.json && rc != EXIT_BADINPUT) {
		char err[4200];
		if (run_json_write(a.json, json, err, sizeof(err)) < 0) {
			fprintf(stderr, "matrix compare: --export-json: %s\n", err);
			rc = EXIT_BADINPUT;
		} else if (!a.quiet && strcmp(json, "-")) {
			fprintf(stderr, "matrix: JSON in %s\n", json);
		}
	}
	run_json_free(a.json);
	return rc;
}


/* One value of dimension `name` as results.csv writes it, from a value as
 * a person writes it ("1KiB" for 1024); -1 after a message. */
static int csv_value(const struct report *r, const char *cmd, const char *name,
		     const char *text, char *out, size_t len)
{
	const struct dimension *d = matrix_dim(&r->m, name);
	struct mvalue v;
	char why[256];

	if (!d) {
		fprintf(stderr, "matrix %s: --compare: %s is not a dimension of %s/matrix.yaml\n",
			cmd, name, r->dir);
		return -1;
	}
	if (matrix_parse_value(d->kind, text, &v, why, sizeof(why)) < 0) {
		fprintf(stderr, "matrix %s: --compare: %s: %s\n", cmd, text, why);
		return -1;
	}
	matrix_format_value(d, &v, out, len);
	free(v.text);
	return 0;
}

/* --compare DIM=BASE:CAND into its three parts (SPEC_PART bytes each); -1
 * after a message. */
#define SPEC_PART 256
static int split_spec(const char *spec, const char *cmd, char *name, char *base, char *cand)
{
	const char *eq = strchr(spec, '='), *colon = eq ? strchr(eq + 1, ':') : NULL;

	if (!eq || !colon || eq == spec || colon == eq + 1 || !colon[1] ||
	    (size_t)(eq - spec) >= SPEC_PART || (size_t)(colon - eq) >= SPEC_PART ||
	    strlen(colon + 1) >= SPEC_PART) {
		fprintf(stderr, "matrix %s: --compare %s: expected DIM=BASELINE:CANDIDATE, e.g. "
			"server=old:new\n", cmd, spec);
		return -1;
	}
	snprintf(name, SPEC_PART, "%.*s", (int)(eq - spec), spec);
	snprintf(base, SPEC_PART, "%.*s", (int)(colon - eq - 1), eq + 1);
	snprintf(cand, SPEC_PART, "%s", colon + 1);
	return 0;
}

int cmd_compare_in_run(const struct report *r, const char *spec, const struct compare_args *a,
		       const char *cmd, struct look_again *la)
{
	const struct compare_spec *ms = &r->m.report.compare;
	struct compare_args args = *a;
	struct comparison c;
	char name[SPEC_PART], base[SPEC_PART], cand[SPEC_PART], err[1024];

	if (spec) {
		if (split_spec(spec, cmd, name, base, cand) < 0 ||
		    csv_value(r, cmd, name, base, base, sizeof(base)) < 0 ||
		    csv_value(r, cmd, name, cand, cand, sizeof(cand)) < 0)
			return EXIT_BADINPUT;
	} else if (ms->set) {
		const struct dimension *d = &r->m.dims[ms->dim];
		snprintf(name, sizeof(name), "%s", d->key);
		matrix_format_value(d, &ms->baseline, base, sizeof(base));
		matrix_format_value(d, &ms->candidate, cand, sizeof(cand));
		if (!args.threshold)
			args.threshold = ms->threshold;
	} else {
		return -1;
	}
	if (!args.threshold)
		args.threshold = COMPARE_DEFAULT_THRESHOLD;
	if (!strcmp(base, cand)) {
		fprintf(stderr, "matrix %s: --compare %s=%s:%s: the baseline and the candidate are "
			"the same value\n", cmd, name, base, cand);
		return EXIT_BADINPUT;
	}
	int dim = report_dim(r, name);
	if (dim < 0) {
		fprintf(stderr, "matrix %s: --compare: %s takes one value in this run: there is "
			"nothing to compare along it\n", cmd, name);
		return EXIT_BADINPUT;
	}
	char more[4200], lerr[1024];
	struct report rm;
	int has_more = look2_dir(r->dir, more, sizeof(more)) == 0, rc = 0;
	if (has_more && report_load(&rm, more, NULL, lerr, sizeof(lerr)) < 0) {
		fprintf(stderr, "matrix %s: the second look: %s\n", cmd, lerr);
		return EXIT_BADINPUT;
	}
	for (int look = 1; look <= 1 + has_more && rc >= 0; look++) {
		rc = compare_along_more(&c, r, look == 2 ? &rm : NULL, (size_t)dim, base, cand,
					args.threshold, args.metrics, args.nmetrics, err, sizeof(err));
		if (rc < 0)
			fprintf(stderr, "matrix %s: --compare %s=%s:%s: %s\n", cmd, name, base, cand,
				err);
		else if (look == 2 || a->look != 2)
			rc = finish_compare(&c, look == 2 ? more : r->dir, &args, cmd);
		if (rc >= 0 && look == 1)
			note_look_again(&c, la);
		compare_release(&c);
	}
	if (has_more)
		report_release(&rm);
	return rc < 0 ? EXIT_BADINPUT : rc;
}

/* One side of DIM=BASE:CAND: the index of a value of d; -1 after a message. */
static int spec_value(const struct dimension *d, const char *cmd, const char *text)
{
	char why[256];
	struct mvalue v;

	if (matrix_parse_value(d->kind, text, &v, why, sizeof(why)) < 0) {
		fprintf(stderr, "matrix %s: --compare: %s: %s\n", cmd, text, why);
		return -1;
	}
	size_t i;
	for (i = 0; i < d->nvalues && d->values[i].num != v.num; i++)
		;
	free(v.text);
	if (i == d->nvalues) {
		fprintf(stderr, "matrix %s: --compare: %s is not a value of dimension '%s'\n", cmd,
			text, d->key);
		return -1;
	}
	return (int)i;
}

int cmd_compare_check_spec(const struct matrix *m, const char *spec, const char *cmd)
{
	char name[SPEC_PART], base[SPEC_PART], cand[SPEC_PART];

	if (!spec)
		return 0;
	if (split_spec(spec, cmd, name, base, cand) < 0)
		return -1;
	const struct dimension *d = matrix_dim(m, name);
	if (!d) {
		fprintf(stderr, "matrix %s: --compare: %s is not a key of matrix:\n", cmd, name);
		return -1;
	}
	int b = spec_value(d, cmd, base);
	int c = b < 0 ? -1 : spec_value(d, cmd, cand);
	if (c < 0)
		return -1;
	if (b == c) {
		fprintf(stderr, "matrix %s: --compare %s: the baseline and the candidate are the "
			"same value\n", cmd, spec);
		return -1;
	}
	return 0;
}
