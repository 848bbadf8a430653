/* A run folder read back into statistics and ratios: see report.h. */
#include "report.h"
#include "report_hist.h"
#include "report_ratios.h"
#include "report_results.h"
#include "report_state.h"
#include "report_timeline.h"
#include "csvfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <unistd.h>

/* meta.csv's facts into r->meta; a folder without one (an older run) has
 * none.  A meta.csv that is there is read as every file of the folder is
 * (csvfile.h: a fifo, a field over the bound, a NUL are refused).  0, or
 * -1 with err. */
static int load_meta(struct report *r, char *err, size_t errlen)
{
	struct csv_table t;
	char path[4096];
	int rc = -1;

	snprintf(path, sizeof(path), "%s/meta.csv", r->dir);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;	/* optional: a report without host facts */
	if (csv_table_load(&t, path, err, errlen) < 0)
		return -1;
	int k = csv_table_col(&t, "key"), v = csv_table_col(&t, "value");
	if (k < 0 || v < 0) {
		snprintf(err, errlen, "%s:1: not a run folder's meta.csv (columns key, value)", path);
	} else if (!(r->meta = calloc(t.nrows + 1, sizeof(*r->meta)))) {
		snprintf(err, errlen, "%s: out of memory", path);
	} else {
		rc = 0;
		for (size_t i = 0; i < t.nrows && !rc; i++) {
			r->meta[r->nmeta].key = strdup(t.rows[i][k]);
			r->meta[r->nmeta].value = strdup(t.rows[i][v]);
			r->nmeta++;	/* report_release frees them */
			if (!r->meta[r->nmeta - 1].key || !r->meta[r->nmeta - 1].value) {
				snprintf(err, errlen, "%s: out of memory", path);
				rc = -1;
			}
		}
	}
	csv_table_release(&t);
	return rc;
}

/* meta.csv's fact i taken out of r->meta. */
static void drop_meta(struct report *r, size_t i)
{
	free(r->meta[i].key);
	free(r->meta[i].value);
	memmove(&r->meta[i], &r->meta[i + 1], (r->nmeta - i - 1) * sizeof(*r->meta));
	r->nmeta--;
}

/* A run folder whose meta.csv still says `running`: its runner still runs,
 * or was killed (procinfo.h).  One that says `reporting` (runner/run.h):
 * the run ended (its own status in run_status) and its reports were being
 * written, by this very process (the report a run ends with: the status
 * read back is then run_status, as the folder will say once the report is
 * whole), by another that still runs, or by one that was killed before
 * they were whole.  The status read back says which. */
static void judge_running(struct report *r)
{
	for (size_t i = 0; i < r->nmeta; i++) {
		int reporting = !strcmp(r->meta[i].value, "reporting");
		if (strcmp(r->meta[i].key, "status") ||
		    (strcmp(r->meta[i].value, "running") && !reporting))
			continue;
		const char *pid = report_meta(r, "runner_pid");
		const char *ran = report_meta(r, "run_status");
		r->runner = proc_state_of(pid, report_meta(r, "runner_start"),
					  report_meta(r, "boot_id"));
		r->reporting = reporting;
		char buf[600];
		if (reporting && r->runner == PROC_ALIVE && atol(pid) == (long)getpid()) {
			r->runner = PROC_UNKNOWN;
			r->reporting = 0;
			snprintf(buf, sizeof(buf), "%s", *ran ? ran : "reporting");
		} else if (reporting && r->runner == PROC_GONE)
			snprintf(buf, sizeof(buf), "killed while its reports were written: its runner "
				 "(pid %.20s) ended after the run did (%.400s)", pid, *ran ? ran : "?");
		else if (reporting && r->runner == PROC_ALIVE)
			snprintf(buf, sizeof(buf), "writing its reports (runner pid %.20s; the run "
				 "ended: %.400s)", pid, *ran ? ran : "?");
		else if (r->runner == PROC_GONE)
			snprintf(buf, sizeof(buf), "killed: its runner (pid %.20s) ended before the "
				 "run did", pid);
		else if (r->runner == PROC_ALIVE)
			snprintf(buf, sizeof(buf), "still running (runner pid %.20s)", pid);
		else
			return;
		char *v = strdup(buf);
		if (v) {
			free(r->meta[i].value);
			r->meta[i].value = v;
		}
		for (size_t k = 0; !r->reporting && reporting && k < r->nmeta; k++)
			if (!strcmp(r->meta[k].key, "run_status"))
				drop_meta(r, k--);
		return;
	}
}

/* The writer's pid in a temporary file's name, .NAME.PID.tmp or
 * .NAME.PID.tmp.EXT (outfile.h), or -1 when it is no such name. */
static long tmp_writer(const char *name)
{
	const char *t = NULL, *ext, *d;

	for (const char *p = name; (p = strstr(p, ".tmp")); p++)
		t = p;
	if (name[0] != '.' || !t)
		return -1;
	ext = t + 4;
	if (*ext && (*ext != '.' || !ext[1] ||
		     strspn(ext + 1, "abcdefghijklmnopqrstuvwxyz0123456789") != strlen(ext + 1)))
		return -1;
	for (d = t; d > name && d[-1] >= '0' && d[-1] <= '9'; d--)
		;
	if (d == t || t - d > 9 || d - name < 3 || d[-1] != '.')
		return -1;
	return strtol(d, NULL, 10);
}

/* When this boot began, in seconds since the epoch (/proc/stat's btime);
 * -1 when unreadable. */
static long long boot_time(void)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[256];
	long long bt = -1;

	if (!f)
		return -1;
	while (bt < 0 && fgets(line, sizeof(line), f))
		if (!strncmp(line, "btime ", 6))
			bt = strtoll(line + 6, NULL, 10);
	fclose(f);
	return bt;
}

/* Is the writer of a file last written at mtime, process pid, gone?  No
 * such process; or a process of that pid started after the file was
 * written (2 s for the clocks' grain), so another one.  A live process
 * whose start cannot be read is taken for the writer. */
static int writer_gone(long pid, time_t mtime)
{
	unsigned long long ticks;
	long long bt;
	long hz = sysconf(_SC_CLK_TCK);

	if (pid <= 0 || pid == (long)getpid())
		return 0;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return 1;
	if (proc_start_time((pid_t)pid, &ticks) < 0 || (bt = boot_time()) < 0 || hz <= 0)
		return 0;
	return bt + (long long)(ticks / (unsigned long long)hz) > (long long)mtime + 2;
}

/* The temporary files of gone writers in the folder open as dfd. */
static void sweep_at(int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	struct stat st;
	long pid;

	if (!d) {
		close(dfd);
		return;
	}
	while ((e = readdir(d)))
		if ((pid = tmp_writer(e->d_name)) > 0 &&
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && writer_gone(pid, st.st_mtime))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

void report_sweep_tmp(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (dfd < 0)
		return;
	int pfd = openat(dfd, "plots", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd >= 0)
		sweep_at(pfd);
	sweep_at(dfd);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void summarize(struct report *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		struct rcell *c = &r->cells[i];
		for (size_t m = 0; m < MATRIX_NMETRICS; m++) {
			size_t n = c->st[m].n;
			stats_summarize(c->vals[m], n, &c->st[m]);
			c->noisy[m] = c->st[m].cv > r->m.report.noisy_cv;
		}
		if (c->nelapsed)
			qsort(c->elapsed, c->nelapsed, sizeof(*c->elapsed), cmp_double);
		c->window_s = stats_median_sorted(c->elapsed, c->nelapsed);
		c->short_window = c->window_s < MATRIX_SHORT_WINDOW_S;	/* NaN: no */
		report_state_summarize(c);
	}
	report_pct_summarize(r);
}

int report_load(struct report *r, const char *dir, const struct report_opts *o,
		char *err, size_t errlen)
{
	char path[4096];
	struct stat st;

	memset(r, 0, sizeof(*r));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a run folder: %s", dir,
			 errno ? strerror(errno) : "not a directory");
		return -1;
	}
	r->dir = strdup(dir);
	snprintf(path, sizeof(path), "%s/matrix.yaml", dir);
	if (!r->dir || matrix_load(&r->m, path, err, errlen) < 0) {
		free(r->dir);
		r->dir = NULL;
		return -1;
	}
	report_pct_define(r);
	if (load_meta(r, err, errlen) < 0)
		goto fail;
	judge_running(r);
	if (report_results_load(r, err, errlen) < 0)
		goto fail;
	for (size_t d = 0; d < r->m.ndims; d++)
		if (report_dim(r, r->m.dims[d].key) < 0) {
			snprintf(err, errlen, "%s:%d:%d: dimension '%s' has no column in %s/results.csv",
				 path, r->m.dims[d].pos.line, r->m.dims[d].pos.col, r->m.dims[d].key, dir);
			goto fail;
		}
	summarize(r);
	if (report_hist_load(r, err, errlen) < 0 || report_timeline_load(r, err, errlen) < 0)
		goto fail;
	if (report_ratios_define(r, o, err, errlen) < 0)
		goto fail;
	if (report_ratios_pair(r) < 0) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (report_ratios_check(r, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	report_release(r);
	return -1;
}

void report_release(struct report *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		for (size_t d = 0; d < r->ndims && r->cells[i].dims; d++)
			free(r->cells[i].dims[d]);
		free(r->cells[i].dims);
		free(r->cells[i].status);
		free(r->cells[i].okreps);
		free(r->cells[i].elapsed);
		free(r->cells[i].buckets);
		free(r->cells[i].states);
		report_pct_release(&r->cells[i]);
		for (size_t m = 0; m < MATRIX_NMETRICS; m++) {
			free(r->cells[i].vals[m]);
			free(r->cells[i].valrep[m]);
		}
	}
	for (size_t d = 0; d < r->ndims && r->dimnames; d++)
		free(r->dimnames[d]);
	for (size_t i = 0; i < r->ndefs; i++) {
		free(r->defs[i].name);
		free(r->defs[i].num);
		free(r->defs[i].den);
	}
	for (size_t i = 0; i < r->nmeta; i++) {
		free(r->meta[i].key);
		free(r->meta[i].value);
	}
	free(r->meta);
	free(r->reps);
	free(r->defs);
	free(r->pairs);
	free(r->dimnames);
	free(r->dimcol);
	free(r->cells);
	free(r->dir);
	if (r->m.path)
		matrix_release(&r->m);
	memset(r, 0, sizeof(*r));
}

int report_set_outdir(struct report *r, const char *dir)
{
	char *d = strdup(dir);

	if (!d)
		return -1;
	free(r->dir);
	r->dir = d;
	return 0;
}
