/* A run's start and end: see run_open.h. */
#include "run_open.h"
#include "arrays.h"
#include "outfile.h"
#include "remote.h"
#include "run_folder.h"
#include "run_signal.h"
#include "spawn.h"
#include "stale.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* The run folder's matrix.yaml: the file as given, byte for byte, or the
 * text --set made of it (matrix_set.h), which is what was loaded. */
static int write_matrix(const struct plan *pl, const struct run_opts *o, const char *to,
			char *err, size_t errlen)
{
	FILE *f = NULL;
	int fd;

	if (!o->sets || !o->sets->text)
		return outfile_copy_new(pl->m->path, to, err, errlen);
	/* a new file, never through a link */
	if ((fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666)) < 0 ||
	    !(f = fdopen(fd, "w")) ||
	    (fwrite(o->sets->text, 1, o->sets->len, f) != o->sets->len) | (fclose(f) != 0)) {
		snprintf(err, errlen, "%s: %s", to, outfile_strerror(errno));
		if (fd >= 0 && !f)
			close(fd);
		return -1;
	}
	return 0;
}

/* --resume DIR: what it reads, appends to or writes there, checked before
 * anything is touched.  A folder may come from anywhere: a file that is a
 * symbolic link would have its file elsewhere appended to, truncated or
 * given our pid; a FIFO or a device would block or take the rows.  Each
 * must be a regular file (or absent); logs/ and plots/ folders of the
 * run's own (not links), and every log in logs/ a regular file (a log
 * not yet written that is a link would get a program's output).  0, or
 * -1 with err naming the first that is not. */
static int check_resumed_folder(const char *dir, char *err, size_t errlen)
{
	static const char *const files[] = {
		".lock", "matrix.yaml", "meta.csv", "results.csv", "timeline.csv", "hist.csv",
	};
	static const char *const dirs[] = { "logs", "plots" };
	char path[PATH_MAX + 300];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int rc = 0;

	for (size_t i = 0; i < ARRAY_SIZE(files) + ARRAY_SIZE(dirs); i++) {
		int isdir = i >= ARRAY_SIZE(files);
		snprintf(path, sizeof(path), "%s/%s", dir,
			 isdir ? dirs[i - ARRAY_SIZE(files)] : files[i]);
		if (isdir && outfile_own_dir(path, 0, err, errlen) < 0)
			return -1;
		if (isdir || lstat(path, &st) < 0)
			continue;	/* absent: made anew */
		if (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%.800s: %s", path, S_ISLNK(st.st_mode) ? "a symbolic "
				 "link: refused (a run folder's files are its own; remove the link)"
				 : "not a regular file");
			return -1;
		}
	}
	snprintf(path, sizeof(path), "%s/logs", dir);
	if (!(d = opendir(path)))
		return 0;
	while (!rc && (e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/logs/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || lstat(path, &st) < 0 || S_ISREG(st.st_mode))
			continue;
		snprintf(err, errlen, "%.800s: %s", path, S_ISLNK(st.st_mode) ? "a symbolic link: "
			 "refused (a run's logs are written there; remove the link)"
			 : "not a regular file");
		rc = -1;
	}
	closedir(d);
	return rc;
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
	stale_sockdir_release(s->sockdir);
	lock_release(&s->lock);
	run_folder_unmake(s->dir, s->made);
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
	/* every --set whole (MATRIX_MAX_SETS of MATRIX_SET_MAX_VALUE at most) */
	char set[MATRIX_MAX_SETS * (MATRIX_SET_MAX_VALUE + 80)] = "";
	if (o->sets)
		matrix_sets_join(o->sets, set, sizeof(set));
	meta_set(&s->meta, "set", "%s", set);
	/* the --only flags, as `set`: what --resume runs again, whole or not
	 * at all (meta.csv keeps META_VALUE_MAX of a value) */
	static char only[META_VALUE_MAX];
	size_t len = 0;
	only[0] = '\0';
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
	/* an in-run A/B's rounds ran its pairs side by side (order.h) */
	if (o->paired && o->pair_dim < pl->m->ndims)
		meta_set(&s->meta, "paired_by", "%s", pl->m->dims[o->pair_dim].key);
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

	if ((o->outdir ? run_folder_take_outdir(s, o->outdir, err, errlen)
	     : run_folder_take_stamped(s, err, errlen)) < 0)
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
		run_folder_link_latest(s);
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
		if (check_resumed_folder(s->dir, why, sizeof(why)) < 0 ||
		    lock_take(&s->lock, s->dir, &holder, why, sizeof(why)) < 0)
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

int run_open(struct run_state *s, const struct run_opts *o, char *err, size_t errlen)
{
	ssize_t n = readlink("/proc/self/exe", s->self, sizeof(s->self) - 1);
	const char *tmp = getenv("TMPDIR");
	int rc;

	if (n <= 0) {
		snprintf(err, errlen, "cannot find my own executable: %s", strerror(errno));
		return -1;
	}
	s->self[n] = '\0';
	if (remote_hello(s->pl->m, &run_interrupted, err, errlen) < 0)	/* before anything is made */
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
	if (stale_sockdir_claim(s->sockdir) < 0) {
		snprintf(err, errlen, "%s: cannot mark it as this run's (%s.PID.START): %s",
			 s->sockdir, STALE_OWNER, strerror(errno));
		rmdir(s->sockdir);
		return -1;
	}
	/* the guard kills what the runner's programs fork, however it ends;
	 * forked before the run folder's lock, so it never holds that */
	if (spawn_guard_start(s->sockdir, err, errlen) < 0) {
		stale_sockdir_release(s->sockdir);
		return -1;
	}
	rc = o->resume ? open_resumed(s, o, err, errlen) : open_fresh(s, o, err, errlen);
	if (rc != 0) {
		spawn_guard_stop();
		stale_sockdir_release(s->sockdir);
	}
	else if (o->dir)
		snprintf(o->dir, PATH_MAX, "%s", s->dir);
	if (rc == 0)	/* one ssh connection per remote host, in the private folder */
		remote_masters_start(s->pl->m, s->sockdir);
	return rc;
}

int run_close(struct run_state *s, char *err, size_t errlen)
{
	char now[32], teardown[1024];
	int status;

	/* before the private folder ({tmp}) goes; after an interrupt too */
	setup_teardown(&s->setups, teardown, sizeof(teardown));
	if (teardown[0])
		meta_set(&s->meta, "teardown", "%s", teardown);
	remote_masters_stop();
	spawn_kill_all();	/* nothing should be left; make sure */
	stale_sockdir_release(s->sockdir);
	spawn_guard_stop();
	rmdir(s->logdir);	/* only when empty */
	if (results_close(&s->rw) < 0 && !s->write_failed) {
		fprintf(stderr, "matrix: %s/results.csv: %s\n", s->dir, strerror(errno));
		s->write_failed = 1;
	}
	status = run_interrupted ? 130 : (s->failed || s->write_failed) ? 1 : 0;
	meta_utc_now(now, sizeof(now));
	meta_set(&s->meta, "end_utc", "%s", now);
	meta_runner_costs(&s->meta, s->overhead_ms, s->noverhead);
	s->end_status = run_interrupted ? "interrupted" : s->write_failed ?
			"stopped: a file could not be written" : s->failed ?
			"some repetitions failed" : "ok";
	/* with reports to come (run.h), the folder says so until they are whole */
	meta_set(&s->meta, "status", "%s", s->reports ? "reporting" : s->end_status);
	if (s->reports)
		meta_set(&s->meta, "run_status", "%s", s->end_status);
	if (meta_write(&s->meta, s->dir, err, errlen) < 0) {
		fprintf(stderr, "matrix: %s\n", err);
		status = status ? status : 1;
	}
	if (run_interrupted)
		fprintf(stderr, "\nmatrix: interrupted by signal %d; every finished repetition is in %s\n",
			(int)run_interrupted, s->dir);
	else if (s->write_failed)
		fprintf(stderr, "matrix: the run stopped as it could not write a file of %s (above); "
			"results.csv keeps the %lu rows written before that\n", s->dir, s->rw.rows);
	else
		progress_finish(&s->prog, s->failed, s->skipped, s->dir);
	return status;
}
