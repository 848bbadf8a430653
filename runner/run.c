/* `matrix run`: see run.h. */
#include "run.h"
#include "arrays.h"
#include "netns.h"
#include "aggregate.h"
#include "cell.h"
#include "clock.h"
#include "lock.h"
#include "outfile.h"
#include "meta.h"
#include "progress.h"
#include "remote.h"
#include "results.h"
#include "resume.h"
#include "setup.h"
#include "spawn.h"
#include "stale.h"
#include "units.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

static volatile sig_atomic_t interrupted, signals;

static void on_signal(int sig)
{
	interrupted = sig;
	signals++;	/* a second one stops the teardowns */
}

static void unmake_dirs(const char *path, size_t made);

/* mkdir -p; *made becomes the length of the first folder of path it
 * made (0: it made none), for unmake_dirs.  -1 with nothing left made. */
static int mkdir_p(const char *path, size_t *made)
{
	char buf[PATH_MAX];

	*made = 0;
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = buf + 1;; p++)
		if (*p == '/' || !*p) {
			char c = *p;
			*p = '\0';
			if (mkdir(buf, 0755) == 0) {
				if (!*made)
					*made = strlen(buf);
			} else if (errno != EEXIST) {
				int e = errno;
				unmake_dirs(path, *made);
				errno = e;
				return -1;
			}
			if (!c)
				return 0;
			*p = c;
		}
}

/* Removes the folders of path that mkdir_p made (from length made up),
 * each only when it is empty; nothing when made is 0. */
static void unmake_dirs(const char *path, size_t made)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	while (made && strlen(buf) >= made) {
		rmdir(buf);
		char *slash = strrchr(buf, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
}

/* 1 when path holds nothing but a lock file, 0 when it holds more, -1. */
static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, ".lock"))
			empty = 0;
	closedir(d);
	return empty;
}

/* The run folder's matrix.yaml: the file as given, byte for byte, or the
 * text --set made of it (matrix_set.h), which is what was loaded. */
static int write_matrix(const struct plan *pl, const struct run_opts *o, const char *to,
			char *err, size_t errlen)
{
	FILE *f;

	if (!o->sets || !o->sets->text)
		return outfile_copy_new(pl->m->path, to, err, errlen);
	if (!(f = fopen(to, "we")) ||
	    (fwrite(o->sets->text, 1, o->sets->len, f) != o->sets->len) | (fclose(f) != 0)) {
		snprintf(err, errlen, "%s: %s", to, strerror(errno));
		return -1;
	}
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART: poll wakes */

	sigemptyset(&sa.sa_mask);
	/* a signal ignored at start stays ignored, here and in every worker:
	 * nohup's SIGHUP, a background job's SIGINT (SIGTERM is how the runner
	 * stops its workers: it is always caught) */
	const int sigs[] = { SIGINT, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		struct sigaction old;
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			spawn_keep_ignored(sigs[i]);
		else if (sigs[i] != SIGQUIT)
			sigaction(sigs[i], &sa, NULL);
	}
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

struct run_state {
	const struct plan *pl;
	char dir[PATH_MAX], logdir[PATH_MAX + 8], sockdir[PATH_MAX], self[PATH_MAX];
	struct meta meta;
	struct results_writer rw;
	struct progress prog;
	struct order order;
	uint64_t seed;
	unsigned char *warned;		/* by cell index: its short window (1), its
					 * rate not kept (2) was said */
	unsigned char *stopped;		/* by cell index: repeat: auto has enough */
	double **vals;			/* by cell index: msgs_per_s of its ok rows */
	size_t *nvals;
	double (*rel_width)(const double *v, size_t n);
	double *overhead_ms;		/* per ok repetition run: meta_runner_costs */
	size_t noverhead, overhead_cap;
	unsigned failed, skipped;
	int write_failed;
	struct run_lock lock;		/* held to the end of the process */
	size_t made;			/* folders made, for unmake_dirs */
	int rw_open;
	struct resume res;		/* --resume: what the folder holds */
	struct setups setups;		/* programs' setup: and teardown: */
	struct netns net;		/* topology: netns */
};

/* The run folder -o DIR: made (or an empty one taken), locked.  0, or -1
 * with err and nothing left made (a live holder's folder is untouched). */
static int take_outdir(struct run_state *s, const char *dir, char *err, size_t errlen)
{
	struct stat st;
	char why[512];
	pid_t holder;

	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	if (stat(dir, &st) == 0 && (!S_ISDIR(st.st_mode) || dir_is_empty(dir) != 1)) {
		if (S_ISDIR(st.st_mode) && (holder = lock_holder(dir)) >= 0)
			goto held;
		stale_check(dir, "run");	/* a killed run's folder is said */
		snprintf(err, errlen, "-o %s: exists and is not an empty directory", dir);
		return -1;
	}
	if (mkdir_p(dir, &s->made) < 0) {
		snprintf(err, errlen, "-o %s: %s", dir, strerror(errno));
		return -1;
	}
	if (lock_take(&s->lock, dir, &holder, why, sizeof(why)) < 0) {
		if (holder >= 0)
			goto held;	/* it is the holder's now, even what we made */
		snprintf(err, errlen, "-o %s: %s", dir, why);
		unmake_dirs(dir, s->made);
		return -1;
	}
	if (dir_is_empty(dir) != 1) {	/* again, now that no other run can fill it */
		snprintf(err, errlen, "-o %s: exists and is not an empty directory", dir);
		lock_release(&s->lock);
		return -1;
	}
	if (lock_write_pid(&s->lock, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "-o %s: %s", dir, why);
		lock_release(&s->lock);
		unmake_dirs(dir, s->made);
		return -1;
	}
	return 0;
held:
	lock_held_message(holder, why, sizeof(why));
	snprintf(err, errlen, "-o %s: %s: choose another folder", dir, why);
	return -1;
}

/* The run folder results/<name>/<stamp>[-N], claimed by mkdir, locked.
 * 0, or -1 with err and nothing left made. */
static int take_stamped(struct run_state *s, char *err, size_t errlen)
{
	const char *name = s->pl->m->name;
	char stamp[32], parent[PATH_MAX];
	time_t t = time(NULL);
	struct tm tm;
	pid_t holder;

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(parent, sizeof(parent), "results/%s", name);
	if (mkdir_p(parent, &s->made) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", parent, strerror(errno));
		return -1;
	}
	for (int n = 1; n < 100; n++) {
		if (n == 1)
			snprintf(s->dir, sizeof(s->dir), "results/%s/%s", name, stamp);
		else
			snprintf(s->dir, sizeof(s->dir), "results/%s/%s-%d", name, stamp, n);
		/* mkdir is the claim: two runs started in one second never share
		 * a folder, the second takes the next suffix */
		if (mkdir(s->dir, 0755) < 0) {
			if (errno == EEXIST)
				continue;
			snprintf(err, errlen, "cannot create %s: %s", s->dir, strerror(errno));
			unmake_dirs(parent, s->made);
			return -1;
		}
		if (!s->made)
			s->made = strlen(s->dir);
		if (lock_take(&s->lock, s->dir, &holder, err, errlen) < 0 ||
		    lock_write_pid(&s->lock, err, errlen) < 0) {
			lock_release(&s->lock);
			unmake_dirs(s->dir, s->made);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "cannot find a free run folder name under %s", parent);
	unmake_dirs(parent, s->made);
	return -1;
}

/* results/<name>/latest -> <stamp>, replaced atomically, and only when it
 * is our link: a file of the user's is left alone.  Once the run folder is
 * whole: a start that fails leaves latest as it was. */
static void link_latest(const struct run_state *s)
{
	const char *name = s->pl->m->name;
	char link[PATH_MAX], tmp[PATH_MAX];
	struct stat st;

	snprintf(link, sizeof(link), "results/%s/latest", name);
	snprintf(tmp, sizeof(tmp), "results/%s/.latest.%ld", name, (long)getpid());
	if (lstat(link, &st) == 0 && !S_ISLNK(st.st_mode)) {
		fprintf(stderr, "matrix: %s is not a link of ours: left as it is\n", link);
		return;
	}
	stale_check(link, "run");	/* the run before: killed? */
	unlink(tmp);
	if (symlink(strrchr(s->dir, '/') + 1, tmp) == 0 && rename(tmp, link) < 0)
		unlink(tmp);
}

/* After a failed start: what open_fresh made goes, and only that (a
 * folder given with -o that was there stays, empty as it was). */
static void unmake_run(struct run_state *s)
{
	static const char *const made[] = {
		"matrix.yaml", "meta.csv", ".meta.csv.tmp", "results.csv", "timeline.csv", "logs",
	};
	char path[PATH_MAX + 32];

	if (s->rw_open)
		results_close(&s->rw);
	s->rw_open = 0;
	for (size_t i = 0; i < ARRAY_SIZE(made); i++) {
		snprintf(path, sizeof(path), "%s/%s", s->dir, made[i]);
		remove(path);
	}
	rmdir(s->sockdir);
	lock_release(&s->lock);
	unmake_dirs(s->dir, s->made);
}

/* repeat: auto: one more msgs_per_s of an ok row of cell index ci. */
static void keep_value(struct run_state *s, size_t ci, double v)
{
	if (isnan(v))
		return;
	double *nv = realloc(s->vals[ci], (s->nvals[ci] + 1) * sizeof(*nv));
	if (nv) {
		nv[s->nvals[ci]++] = v;
		s->vals[ci] = nv;
	}
}

/* repeat: auto: after the cell's repetition rep (row), whether it has
 * enough: its msgs_per_s interval narrow enough after repeat_min, or the
 * most repetitions.  The row says why it stopped. */
static void auto_stop(struct run_state *s, size_t ci, unsigned rep, struct result_row *row)
{
	const struct matrix *m = s->pl->m;

	if (!m->repeat_min || !s->rel_width)
		return;
	if (row->ok)
		keep_value(s, ci, row->msgs_per_s);
	if (rep < m->repeat_min)
		return;
	double w = s->rel_width(s->vals[ci], s->nvals[ci]);
	if (!isnan(w) && w <= m->repeat_width)
		snprintf(row->repeat_stop, sizeof(row->repeat_stop), "narrow (%.1f%%)", w * 100);
	else if (rep >= s->pl->repeat)
		snprintf(row->repeat_stop, sizeof(row->repeat_stop), "max (%.1f%%)",
			 w * 100);
	s->stopped[ci] = row->repeat_stop[0] != '\0';
}

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

/* A paced cell whose connections sent under 95% of their rate did not
 * keep its schedule (the server, or the client, was too slow): said once a
 * cell, as its latencies count from a schedule that was not kept. */
static void warn_rate(struct run_state *s, size_t ci, const struct cell *c,
		      const struct result_row *row)
{
	double got = (pattern_info(c->p.pattern)->receiver_times ? row->sent_msgs_per_s : row->msgs_per_s) /
		     c->p.concurrency;
	char want[32];

	if (!row->ok || !c->p.rate || !(got < 0.95 * (double)c->p.rate) || (s->warned[ci] & 2))
		return;
	s->warned[ci] |= 2;
	progress_note(&s->prog, "cell %u: %.0f msg/s per connection, under 95%% of rate %s: "
		      "the schedule was not kept", c->number, got,
		      units_format_rate(c->p.rate, want, sizeof(want)));
}

/* Runs one repetition of one cell and records it; -1 when interrupted. */
static int run_one(struct run_state *s, size_t ci, unsigned rep)
{
	const struct cell *c = &s->pl->cells[ci];
	struct cell_ctx ctx = {
		.plan = s->pl, .cell = c, .rep = rep, .self_exe = s->self,
		.sockdir = s->sockdir, .logdir = s->logdir, .interrupted = &interrupted,
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
	if (!setup && netns_apply(&s->net, &c->p, err, sizeof(err)) < 0) {
		setup = 1;
		cell_outcome_refused(c, "link failed", err, "", &out);
	} else if (setup) {
		cell_outcome_refused(c, "setup failed", err, setup_log, &out);
	}
	rc = setup ? 0 : cell_run(&ctx, &out);
	aggregate_row(c, rep, &out, started, &row);
	row.loadavg_before = load_before;
	row.loadavg_after = meta_loadavg();
	auto_stop(s, ci, rep, &row);
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

/* --resume: a repetition the folder holds is not run again, but counts
 * as run for repeat: auto (its msgs_per_s; the cell stopped there). */
static int replay(struct run_state *s, size_t ci, unsigned rep)
{
	const struct resume_row *r = s->res.nrows ? resume_find(&s->res, ci, rep) : NULL;

	if (!r)
		return 0;
	if (r->ok && s->pl->m->repeat_min && s->rel_width)
		keep_value(s, ci, r->msgs_per_s);
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

/* meta.csv as it stands while the run is running. */
static void meta_start(struct run_state *s, const struct run_opts *o)
{
	const struct plan *pl = s->pl;
	char now[32];

	meta_collect_host(&s->meta);
	meta_collect_runner(&s->meta);
	meta_set(&s->meta, "matrix_name", "%s", pl->m->name);
	meta_set(&s->meta, "matrix_file", "%s", pl->m->path);
	meta_set(&s->meta, "command_line", "%s", o->command_line ? o->command_line : "");
	char set[512] = "";
	if (o->sets)
		matrix_sets_join(o->sets, set, sizeof(set));
	meta_set(&s->meta, "set", "%s", set);
	/* the --only flags, as `set`: what --resume runs again */
	char only[512] = "";
	size_t len = 0;
	for (size_t i = 0; i < o->nonly && len < sizeof(only); i++)
		len += (size_t)snprintf(only + len, sizeof(only) - len, "%s--only %s", i ? " " : "",
					o->only[i]);
	meta_set(&s->meta, "only", "%s", len < sizeof(only) ? only : "(too long to keep)");
	meta_utc_now(now, sizeof(now));
	meta_set(&s->meta, "start_utc", "%s", now);
	meta_set(&s->meta, "end_utc", "%s", "");
	meta_set(&s->meta, "cells", "%zu", pl->ncells);
	meta_set(&s->meta, "repetitions", "%u", pl->repeat);
	if (o->shard.n)
		meta_set(&s->meta, "shard", "%u/%u", o->shard.k, o->shard.n);
	if (pl->m->repeat_min)
		meta_set(&s->meta, "repeat_auto", "min %u, max %u, width %g%%", pl->m->repeat_min,
			 pl->repeat, pl->m->repeat_width * 100);
	meta_set(&s->meta, "order", "%s", order_names[s->order.kind]);
	if (s->order.kind == ORDER_SHUFFLED)
		meta_set(&s->meta, "seed", "%llu", (unsigned long long)s->seed);
	else
		meta_set(&s->meta, "seed", "%s", "");
	meta_timeline_interval(&s->meta, pl->m);
	remote_meta(&s->meta, pl->m);
	netns_meta(&s->net, &s->meta);
	meta_set(&s->meta, "status", "%s", "running");
	/* where a killed run's sockets are, for a later run to remove */
	char abs[PATH_MAX];
	meta_set(&s->meta, "socket_dir", "%s", realpath(s->sockdir, abs) ? abs : s->sockdir);
}

/* A new run's folder, whole: matrix.yaml, meta.csv (with matrix.yaml's
 * hash), results.csv (timeline.csv), logs/, then latest.  0, or -1 with
 * err and what was made removed. */
static int open_fresh(struct run_state *s, const struct run_opts *o, char *err, size_t errlen)
{
	char mpath[PATH_MAX + 16], hash[64];

	if ((o->outdir ? take_outdir(s, o->outdir, err, errlen) : take_stamped(s, err, errlen)) < 0)
		return -1;
	snprintf(s->logdir, sizeof(s->logdir), "%s/logs", s->dir);
	snprintf(mpath, sizeof(mpath), "%s/matrix.yaml", s->dir);
	meta_start(s, o);
	if (write_matrix(s->pl, o, mpath, err, errlen) < 0)
		goto fail;
	if (resume_hash_file(mpath, hash, sizeof(hash)) < 0) {
		snprintf(err, errlen, "%s: %s", mpath, strerror(errno));
		goto fail;
	}
	meta_set(&s->meta, "matrix_hash", "%s", hash);
	if (meta_write(&s->meta, s->dir, err, errlen) < 0 ||
	    results_open(&s->rw, s->dir, s->pl, err, errlen) < 0)
		goto fail;
	s->rw_open = 1;
	if (mkdir(s->logdir, 0755) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", s->logdir, strerror(errno));
		goto fail;
	}
	if (!o->outdir)
		link_latest(s);
	return 0;
fail:
	unmake_run(s);
	return -1;
}

/* --resume DIR: the folder locked, read (resume.h), its files opened to
 * append to, meta.csv running again.  0; 1 when the run had finished
 * (said on stderr, nothing touched); -1 with err, the folder as it was
 * but for its rows to run again. */
static int open_resumed(struct run_state *s, const struct run_opts *o, char *err,
			size_t errlen)
{
	char why[1024];
	pid_t holder;
	int rc;

	snprintf(s->dir, sizeof(s->dir), "%s", o->resume);
	snprintf(s->logdir, sizeof(s->logdir), "%s/logs", s->dir);
	/* a finished run is said before the lock, whose file would change */
	if ((rc = resume_open(&s->res, s->dir, why, sizeof(why))) == 0) {
		if (lock_take(&s->lock, s->dir, &holder, why, sizeof(why)) < 0)
			rc = -1;
		else if ((rc = resume_read(&s->res, s->dir, s->pl, why, sizeof(why))) != 0)
			lock_release(&s->lock);
	}
	if (rc > 0)
		fprintf(stderr, "matrix: %s: the run finished (status: %s): nothing to resume\n",
			s->dir, resume_status(&s->res));
	if (rc < 0)
		snprintf(err, errlen, "--resume %s: %s", s->dir, why);
	if (rc)
		return rc;
	if (lock_write_pid(&s->lock, err, errlen) < 0 ||
	    results_reopen(&s->rw, s->dir, s->pl, err, errlen) < 0) {
		lock_release(&s->lock);
		return -1;
	}
	s->rw_open = 1;
	meta_start(s, o);
	resume_meta(&s->res, &s->meta);
	if (meta_write(&s->meta, s->dir, err, errlen) < 0 ||
	    (mkdir(s->logdir, 0755) < 0 && errno != EEXIST &&
	     snprintf(err, errlen, "cannot create %s: %s", s->logdir, strerror(errno))))
		goto fail;
	return 0;
fail:
	results_close(&s->rw);
	lock_release(&s->lock);
	return -1;
}

/* TMPDIR, checked before anything is made: a folder this user can write,
 * short enough for socket paths (the private folder's name plus a cell's
 * socket name, c123-r45.sock.s1024, in 107 bytes).  0, or -1 with err. */
static int check_tmpdir(const char *tmp, char *err, size_t errlen)
{
	struct stat tst;

	if (strlen(tmp) > 60) {
		snprintf(err, errlen, "TMPDIR %s is too long for socket paths: at most 60 bytes",
			 tmp);
		return -1;
	}
	if (stat(tmp, &tst) < 0) {
		snprintf(err, errlen, "TMPDIR %s: %s", tmp, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(tst.st_mode) || access(tmp, W_OK | X_OK) < 0) {
		snprintf(err, errlen, "TMPDIR %s: not a directory this user can write", tmp);
		return -1;
	}
	return 0;
}

/* Everything before the first cell: our own executable, the private
 * socket folder, then the run folder, new (open_fresh) or resumed.
 * Nothing is made before every check has passed, and a start that fails
 * removes what it made.  0; 1: a resumed run had finished; -1 with err. */
static int open_run(struct run_state *s, const struct run_opts *o, char *err, size_t errlen)
{
	ssize_t n = readlink("/proc/self/exe", s->self, sizeof(s->self) - 1);
	const char *tmp = getenv("TMPDIR");
	int rc;

	if (n <= 0) {
		snprintf(err, errlen, "cannot find my own executable: %s", strerror(errno));
		return -1;
	}
	s->self[n] = '\0';
	if (remote_hello(s->pl->m, &interrupted, err, errlen) < 0)	/* before anything is made */
		return -1;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (check_tmpdir(tmp, err, errlen) < 0)
		return -1;
	snprintf(s->sockdir, sizeof(s->sockdir), "%s/matrix.XXXXXX", tmp);
	if (!mkdtemp(s->sockdir)) {
		snprintf(err, errlen, "cannot create a private directory in TMPDIR %s: %s", tmp,
			 strerror(errno));
		return -1;
	}
	/* the guard kills what the runner's programs fork, however it ends;
	 * forked before the run folder's lock, so it never holds that */
	if (spawn_guard_start(s->sockdir, err, errlen) < 0) {
		rmdir(s->sockdir);
		return -1;
	}
	rc = o->resume ? open_resumed(s, o, err, errlen) : open_fresh(s, o, err, errlen);
	if (rc != 0) {
		spawn_guard_stop();
		rmdir(s->sockdir);
	}
	else if (o->dir)
		snprintf(o->dir, PATH_MAX, "%s", s->dir);
	if (rc == 0)	/* one ssh connection per remote host, in the private folder */
		remote_masters_start(s->pl->m, s->sockdir);
	return rc;
}

/* Everything after the last cell: nothing left running or on disk,
 * results.csv closed, meta.csv final, the last words on stderr.  Returns
 * run_plan's exit status. */
static int close_run(struct run_state *s, char *err, size_t errlen)
{
	char now[32], teardown[1024];
	int status;

	/* before the private folder ({tmp}) goes; after an interrupt too */
	setup_teardown(&s->setups, teardown, sizeof(teardown));
	if (teardown[0])
		meta_set(&s->meta, "teardown", "%s", teardown);
	remote_masters_stop();
	spawn_kill_all();	/* nothing should be left; make sure */
	rmdir(s->sockdir);
	spawn_guard_stop();
	rmdir(s->logdir);	/* only when empty */
	if (results_close(&s->rw) < 0 && !s->write_failed) {
		fprintf(stderr, "matrix: %s/results.csv: %s\n", s->dir, strerror(errno));
		s->write_failed = 1;
	}
	status = interrupted ? 130 : (s->failed || s->write_failed) ? 1 : 0;
	meta_utc_now(now, sizeof(now));
	meta_set(&s->meta, "end_utc", "%s", now);
	meta_runner_costs(&s->meta, s->overhead_ms, s->noverhead);
	meta_set(&s->meta, "status", "%s", interrupted ? "interrupted" : s->write_failed ?
		 "stopped: a file could not be written" : s->failed ?
		 "some repetitions failed" : "ok");
	if (meta_write(&s->meta, s->dir, err, errlen) < 0) {
		fprintf(stderr, "matrix: %s\n", err);
		status = status ? status : 1;
	}
	if (interrupted)
		fprintf(stderr, "\nmatrix: interrupted by signal %d; every finished repetition is in %s\n",
			(int)interrupted, s->dir);
	else if (s->write_failed)
		fprintf(stderr, "matrix: the run stopped as it could not write a file of %s (above); "
			"results.csv keeps the %lu rows written before that\n", s->dir, s->rw.rows);
	else
		progress_finish(&s->prog, s->failed, s->skipped, s->dir);
	return status;
}

/* The state of the run going on, as a root for valgrind in the guard:
 * forked from inside run_plan, the guard runs a noreturn function, which
 * need not save the callee-saved register that may be all that holds s,
 * and valgrind following it called the state lost.  volatile: a store
 * nothing reads would be dropped. */
static struct run_state *volatile running;

int run_plan(const struct plan *pl, const struct run_opts *o, char *err, size_t errlen)
{
	struct run_state *s = running = calloc(1, sizeof(*s));
	size_t *idx = calloc(pl->ncells + 1, sizeof(*idx));
	unsigned char *warned = calloc(pl->ncells + 1, 1);
	int status;

	if (!s || !idx || !warned) {
		free(s);
		free(idx);
		free(warned);
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
	s->seed = o->has_seed ? o->seed : order_random_seed();
	order_init(&s->order, o->order, s->seed);
	if (setup_init(&s->setups, pl->m, err, errlen) < 0) {
		status = 2;
		goto out;
	}
	s->setups.logdir = s->logdir;
	s->setups.tmp = s->sockdir;
	s->setups.interrupted = &interrupted;
	s->setups.signals = &signals;
	s->setups.prog = &s->prog;
	install_signals();	/* a signal while the folder is made: an interrupted run */
	netns_sweep();
	status = netns_open(&s->net, pl->m, err, errlen) < 0 ? -1 : open_run(s, o, err, errlen);
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
	for (unsigned rep = 1; rep <= pl->repeat && !interrupted && !s->write_failed; rep++) {
		order_next_round(&s->order, idx, pl->ncells);
		for (size_t k = 0; k < pl->ncells && !interrupted; k++)
			if (!s->stopped[idx[k]] && shard_has_cell(&o->shard, pl, idx[k], rep) &&
			    !replay(s, idx[k], rep) && run_one(s, idx[k], rep) < 0)
				break;
	}
	status = close_run(s, err, errlen);
out:
	netns_close(&s->net);
	setup_release(&s->setups);
	resume_release(&s->res);
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
	return status;
}
