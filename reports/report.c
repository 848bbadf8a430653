/* A run folder read back into statistics and ratios: see report.h. */
#include "report.h"
#include "report_hist.h"
#include "report_ratios.h"
#include "report_results.h"
#include "report_state.h"
#include "report_timeline.h"
#include "csvfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* A run folder whose meta.csv still says `running`: its runner still runs,
 * or was killed (procinfo.h).  The status read back says which. */
static void judge_running(struct report *r)
{
	for (size_t i = 0; i < r->nmeta; i++) {
		if (strcmp(r->meta[i].key, "status") || strcmp(r->meta[i].value, "running"))
			continue;
		const char *pid = report_meta(r, "runner_pid");
		r->runner = proc_state_of(pid, report_meta(r, "runner_start"),
					  report_meta(r, "boot_id"));
		char buf[256];
		if (r->runner == PROC_GONE)
			snprintf(buf, sizeof(buf), "killed: its runner (pid %s) ended before the "
				 "run did", pid);
		else if (r->runner == PROC_ALIVE)
			snprintf(buf, sizeof(buf), "still running (runner pid %s)", pid);
		else
			return;
		char *v = strdup(buf);
		if (v) {
			free(r->meta[i].value);
			r->meta[i].value = v;
		}
	}
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
