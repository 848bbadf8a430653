/* One repetition of one cell, run and recorded: see run_step.h. */
#include "run_step.h"
#include "aggregate.h"
#include "cell.h"
#include "clock.h"
#include "cpustat.h"
#include "run_auto.h"
#include "run_signal.h"
#include "units.h"
#include "vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* One more repetition's runner overhead (meta.h), from t0 to now. */
static void keep_overhead(struct run_state *s, uint64_t t0, const struct result_row *row)
{
	double ms = (double)(clock_now_ns() - t0) / 1e6 - row->elapsed_s * 1e3;

	if (!row->ok || isnan(ms))
		return;
	if (s->noverhead == s->overhead_cap) {
		size_t cap = s->overhead_cap ? 2 * s->overhead_cap : 256;
		double *v = realloc(s->overhead_ms, cap * sizeof(*v));
		if (!v)
			return;
		s->overhead_ms = v;
		s->overhead_cap = cap;
	}
	s->overhead_ms[s->noverhead++] = ms;
}

/* v to the nearest 1/scale (NaN stays NaN): the figures say no more */
static double rounded(double v, double scale)
{
	return round(v * scale) / scale;
}

/* The machine around the repetition (results.h), from the samples taken
 * before its workers started and after they were reaped. */
static void machine_state(struct result_row *row, const struct cpustat_sample *before,
			  const struct cpustat_sample *after)
{
	struct cpustat_window w;

	cpustat_window(before, after, sysconf(_SC_CLK_TCK), &w);
	row->steal_pct = rounded(w.steal_pct, 100);
	row->iowait_pct = rounded(w.iowait_pct, 100);
	row->other_cpus = rounded(w.other_cpus, 1000);
	row->runnable = after->ok && after->cpu.running >= 0 ? (double)after->cpu.running : NAN;
	row->cpu_mhz = rounded(cpustat_mhz("/sys/devices/system/cpu"), 1);
}

/* A paced cell whose connections sent under 95% of their rate did not
 * keep its schedule (the server, or the client, was too slow): said once a
 * cell, as its latencies count from a schedule that was not kept. */
static void warn_rate(struct run_state *s, size_t ci, const struct cell *c,
		      const struct result_row *row)
{
	double got = (pattern_info(c->p.pattern)->receiver_times ? row->sent_msgs_per_s
		      : row->msgs_per_s) / c->p.concurrency;
	char want[32];

	if (!row->ok || !c->p.rate || !(got < MATRIX_RATE_KEPT * (double)c->p.rate) ||
	    (s->warned[ci] & 2))
		return;
	s->warned[ci] |= 2;
	progress_note(&s->prog, "cell %u: %.0f msg/s per connection, under 95%% of rate %s: "
		      "the schedule was not kept", c->number, got,
		      units_format_rate(c->p.rate, want, sizeof(want)));
}

int run_step(struct run_state *s, size_t ci, unsigned rep)
{
	const struct cell *c = &s->pl->cells[ci];
	struct cell_ctx ctx = {
		.plan = s->pl, .cell = c, .rep = rep, .self_exe = s->self,
		.sockdir = s->sockdir, .logdir = s->logdir, .interrupted = &run_interrupted,
		.tick = progress_tick, .tick_arg = &s->prog, .net = &s->net,
	};
	struct cell_outcome out;
	struct result_row row;
	char label[256], started[32], err[768], setup_log[PATH_MAX];
	int rc;

	/* its programs' setup first, once: a failed one fails the row */
	int setup = setup_cell(&s->setups, c, err, sizeof(err), setup_log, sizeof(setup_log));
	if (setup < 0)
		return -1;
	uint64_t t0 = clock_now_ns();	/* the runner overhead's start (meta.h) */
	plan_cell_label(s->pl, c, label, sizeof(label));
	progress_begin(&s->prog, c->number, rep, s->pl->repeat, label);
	meta_utc_now(started, sizeof(started));
	double load_before = meta_loadavg();
	struct cpustat_sample before, after;
	cpustat_sample(&before);
	if (!setup && netns_apply(&s->net, &c->p, err, sizeof(err)) < 0) {
		setup = 1;
		cell_outcome_refused(c, "link failed", err, "", &out);
	} else if (setup) {
		cell_outcome_refused(c, "setup failed", err, setup_log, &out);
	}
	uint64_t link0 = 0, link1 = 0;
	int link_cpu = !setup && netns_cpu_ns(&s->net, &link0) == 0;
	rc = setup ? 0 : cell_run(&ctx, &out);
	link_cpu = link_cpu && netns_cpu_ns(&s->net, &link1) == 0;
	cpustat_sample(&after);
	aggregate_row(c, rep, &out, started, &row);
	row.link_cpu_s = link_cpu ? (double)(link1 - link0) / 1e9 : NAN;
	row.loadavg_before = load_before;
	row.loadavg_after = meta_loadavg();
	machine_state(&row, &before, &after);
	run_auto_stop(s, ci, rep, &row);
	if (results_write(&s->rw, c, &row, &out, err, sizeof(err)) < 0) {
		/* measured, but not kept: nothing more is measured either */
		fprintf(stderr, "\nmatrix: %s/%s: the run stops here\n", s->dir, err);
		s->write_failed = 1;
		rc = -1;
	}
	s->failed += !row.ok && !row.skipped;
	s->skipped += row.skipped;
	progress_end(&s->prog, c, &row, out.log);
	warn_rate(s, ci, c, &row);
	if (row.ok && row.elapsed_s < MATRIX_SHORT_WINDOW_S && !(s->warned[ci] & 1)) {
		s->warned[ci] |= 1;
		/* rounded down, so that a window just under never reads as the limit */
		progress_note(&s->prog, "cell %u: timed window %.1f ms, under %.0f ms: mostly "
			      "start-up; raise count or set duration", c->number,
			      floor(row.elapsed_s * 1e4) / 10, MATRIX_SHORT_WINDOW_S * 1e3);
	}
	if (!setup && !s->write_failed)
		keep_overhead(s, t0, &row);
	cell_outcome_release(&out);
	return rc;
}
