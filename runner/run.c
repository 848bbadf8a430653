/* `matrix run`: see run.h.  The rounds of repetitions; the run's start
 * and end are in run_open.c, one repetition in run_step.c. */
#include "run.h"
#include "netns.h"
#include "run_auto.h"
#include "run_open.h"
#include "run_signal.h"
#include "run_state.h"
#include "run_step.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --resume: a repetition the folder holds is not run again, but counts
 * as run for repeat: auto (its msgs_per_s; the cell stopped there). */
static int replay(struct run_state *s, size_t ci, unsigned rep)
{
	const struct resume_row *r = s->res.nrows ? resume_find(&s->res, ci, rep) : NULL;

	if (!r)
		return 0;
	if (r->ok && s->pl->m->repeat_min && s->rel_width)
		run_auto_keep(s, ci, r->msgs_per_s);
	s->stopped[ci] = r->stop;
	return 1;
}

/* --resume: the counts and the progress line go on from what is kept. */
static void resume_progress(struct run_state *s, const struct shard *sh)
{
	s->failed += s->res.failed;
	s->skipped += s->res.skipped;
	s->prog.done = (unsigned)s->res.nrows;
	s->prog.spent_s = s->res.wall_s;
	size_t all = shard_count(sh, s->pl);
	progress_note(&s->prog, "resuming %s: %zu cell repetition%s kept, %s%zu to run (%zu of "
		      "them again)", s->dir, s->res.nrows, s->res.nrows == 1 ? "" : "s",
		      s->pl->m->repeat_min ? "up to " : "", all > s->res.nrows ? all - s->res.nrows : 0,
		      s->res.dropped);
}

/* The folder's final status after its reports (run.h): s->end_status,
 * run_status gone.  The run's exit status, 1 when meta.csv could not be
 * written (said; the folder then still says `reporting`, which a later
 * --resume finishes). */
static int reported(struct run_state *s, const struct run_opts *o, int status)
{
	struct meta *m = malloc(sizeof(*m));
	char err[1024];

	o->report(o->report_arg, s->dir);
	if (!m) {
		fprintf(stderr, "matrix: %s/meta.csv: out of memory\n", s->dir);
		return status ? status : 1;
	}
	m->n = 0;
	for (size_t i = 0; i < s->meta.n; i++)
		if (strcmp(s->meta.key[i], "run_status"))
			meta_set(m, s->meta.key[i], "%s", strcmp(s->meta.key[i], "status") ?
				 meta_text(&s->meta, i) : s->end_status);
	meta_release(&s->meta);	/* its values are the run's own copies */
	s->meta = *m;
	free(m);
	if (meta_write(&s->meta, s->dir, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix: %s\n", err);
		return status ? status : 1;
	}
	return status;
}

/* --resume DIR of a folder whose run had ended whole (resume.h,
 * resume_reports_only) but whose reports had not been written: the
 * folder locked, meta.csv `reporting` again with this runner in it, the
 * reports, the final status; nothing else (no repetition, no host, no
 * socket folder).  The run's exit status (0 ok, 1 failed repetitions or a
 * file that could not be written); 2 with err (the folder as it was);
 * -1 when the folder is no such one: it is resumed as any. */
static int finish_reports(struct run_state *s, const struct run_opts *o, char *err,
			  size_t errlen)
{
	char why[1024];
	pid_t holder;

	if (!o->report || resume_reports_only(&s->res, o->resume, why, sizeof(why)) != 1) {
		resume_release(&s->res);
		return -1;
	}
	if (lock_take(&s->lock, o->resume, &holder, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "--resume %s: %s", o->resume, why);
		return 2;
	}
	resume_release(&s->res);	/* again, now that the folder is ours */
	if (resume_reports_only(&s->res, o->resume, why, sizeof(why)) != 1) {
		lock_release(&s->lock);
		resume_release(&s->res);
		return -1;
	}
	snprintf(s->dir, sizeof(s->dir), "%s", o->resume);
	resume_meta_all(&s->res, &s->meta);
	meta_collect_runner(&s->meta);
	if (lock_write_pid(&s->lock, err, errlen) < 0 || meta_write(&s->meta, s->dir, err, errlen) < 0) {
		lock_release(&s->lock);
		return 2;
	}
	s->end_status = resume_fact(&s->res, "run_status");
	fprintf(stderr, "matrix: %s: the run had ended (%s) but its reports had not been written "
		"(its runner was killed): writing them\n", s->dir, s->end_status);
	if (o->dir)
		snprintf(o->dir, PATH_MAX, "%s", s->dir);
	return reported(s, o, strcmp(s->end_status, "ok") ? 1 : 0);
}

/* The state of the run going on, as a root for valgrind in the guard:
 * forked from inside run_plan, the guard runs a noreturn function, which
 * need not save the callee-saved register that may be all that holds s,
 * and valgrind following it called the state lost.  volatile: a store
 * nothing reads would be dropped. */
static struct run_state *volatile running;

/* The groups of an in-run A/B (order.h): group[i] for cell i, then
 * side[i] (group[pl->ncells + i]), the index of its value along the
 * dimension; *ngroups of them.  NULL when not paired or out of memory (the
 * cells then run in order_next_round's order). */
static size_t *pair_groups(const struct plan *pl, const struct run_opts *o, size_t *ngroups)
{
	size_t n = pl->ncells, nd = pl->m->ndims, *g;

	*ngroups = 0;
	if (!o->paired || o->pair_dim >= nd || !(g = malloc((2 * n + 1) * sizeof(*g))))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const size_t *ci = pl->cells[i].choice;
		size_t j;
		for (j = 0; j < i; j++) {
			const size_t *cj = pl->cells[j].choice;
			size_t d;
			for (d = 0; d < nd && (d == o->pair_dim || ci[d] == cj[d]); d++)
				;
			if (d == nd)
				break;
		}
		g[i] = j < i ? g[j] : (*ngroups)++;
		g[n + i] = ci[o->pair_dim];
	}
	return g;
}

/* The programs' setup: and teardown: steps of the run (setup.h); -1 with
 * err. */
static int setups_start(struct run_state *s, char *err, size_t errlen)
{
	if (setup_init(&s->setups, s->pl->m, err, errlen) < 0)
		return -1;
	s->setups.logdir = s->logdir;
	s->setups.tmp = s->sockdir;
	s->setups.interrupted = &run_interrupted;
	s->setups.signals = &run_signals;
	s->setups.prog = &s->prog;
	return 0;
}

int run_plan(const struct plan *pl, const struct run_opts *o, char *err, size_t errlen)
{
	struct run_state *s = running = calloc(1, sizeof(*s));
	size_t *idx = calloc(pl->ncells + 1, sizeof(*idx));
	unsigned char *warned = calloc(pl->ncells + 1, 1);
	int status;
	size_t ngroups;
	size_t *group = pair_groups(pl, o, &ngroups);

	if (!s || !idx || !warned) {
		free(s);
		free(idx);
		free(warned);
		free(group);
		snprintf(err, errlen, "out of memory");
		return 2;
	}
	s->pl = pl;
	s->warned = warned;
	s->rel_width = o->rel_width;
	s->stopped = calloc(pl->ncells + 1, 1);
	s->vals = calloc(pl->ncells + 1, sizeof(*s->vals));
	s->nvals = calloc(pl->ncells + 1, sizeof(*s->nvals));
	if (!s->stopped || !s->vals || !s->nvals) {
		snprintf(err, errlen, "out of memory");
		status = 2;
		goto out;
	}
	s->reports = o->report != NULL;	/* `reporting` until they are whole (run.h) */
	if (o->resume && (status = finish_reports(s, o, err, errlen)) >= 0)
		goto out;
	s->seed = o->has_seed ? o->seed : order_random_seed();
	order_init(&s->order, o->order, s->seed);
	if (setups_start(s, err, errlen) < 0) {
		status = 2;
		goto out;
	}
	run_signal_install();	/* a signal while the folder is made: an interrupted run */
	netns_sweep();
	status = netns_open(&s->net, pl->m, err, errlen) < 0 ? -1 : run_open(s, o, err, errlen);
	if (status != 0) {
		status = status < 0 ? 2 : 0;
		goto out;
	}
	progress_init(&s->prog, (unsigned)shard_count(&o->shard, pl), o->quiet);
	if (o->resume)
		resume_progress(s, &o->shard);
	/* rounds of one repetition of every cell, each round in its own order
	 * (a resumed run draws every round as the run did, and skips what it
	 * holds) */
	for (unsigned rep = 1; rep <= pl->repeat && !run_interrupted && !s->write_failed; rep++) {
		if (group)
			order_next_round_paired(&s->order, idx, pl->ncells, group, group + pl->ncells,
						ngroups, rep);
		else
			order_next_round(&s->order, idx, pl->ncells);
		for (size_t k = 0; k < pl->ncells && !run_interrupted; k++)
			if (!s->stopped[idx[k]] && shard_has_cell(&o->shard, pl, idx[k], rep) &&
			    !replay(s, idx[k], rep) && run_step(s, idx[k], rep) < 0)
				break;
	}
	status = run_close(s, err, errlen);
	if (s->reports)
		status = reported(s, o, status);
out:
	netns_close(&s->net);
	setup_release(&s->setups);
	resume_release(&s->res);
	meta_release(&s->meta);
	for (size_t i = 0; s->vals && i < pl->ncells; i++)
		free(s->vals[i]);
	free(s->vals);
	free(s->nvals);
	free(s->stopped);
	free(s->overhead_ms);
	free(s);
	running = NULL;
	free(idx);
	free(warned);
	free(group);
	return status;
}
