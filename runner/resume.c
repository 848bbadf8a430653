/* `matrix run --resume DIR`: see resume.h. */
#include "resume.h"
#include "arrays.h"
#include "fieldnum.h"
#include "fnv.h"
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int resume_hash_file(const char *path, char *out, size_t len)
{
	/* opened without waiting: a fifo in a folder is refused, not read */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	unsigned char buf[8192];
	uint64_t h = FNV1A64_INIT;
	struct stat st;
	ssize_t n;
	int rc = 0;

	if (fd < 0)
		return -1;
	int got = fstat(fd, &st);
	if (got < 0 || !S_ISREG(st.st_mode) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		int e = errno;
		close(fd);
		errno = got < 0 || S_ISREG(st.st_mode) ? e : EINVAL;
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -1;
			break;
		}
		h = fnv1a64(h, buf, (size_t)n);
	}
	close(fd);
	snprintf(out, len, "fnv1a64:%016llx", (unsigned long long)h);
	return rc;
}

/* A key's value in a meta.csv table, NULL when the key is absent. */
static const char *meta_value(const struct csv_table *t, const char *key)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (t->ncols >= 2 && !strcmp(t->rows[r][0], key))
			return t->rows[r][1];
	return NULL;
}

static int finished(const char *status)
{
	return status && (!strcmp(status, "ok") || !strcmp(status, "some repetitions failed"));
}

static int load_meta(struct csv_table *t, const char *dir, char *err, size_t errlen)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/meta.csv", dir);
	if (csv_table_load(t, path, err, errlen) < 0)
		return -1;
	if (t->ncols != 2 || strcmp(t->header[0], "key") || strcmp(t->header[1], "value")) {
		snprintf(err, errlen, "%s:1: not a run folder's meta.csv (columns key, value)", path);
		csv_table_release(t);
		return -1;
	}
	return 0;
}

/* The run of DIR and this build of matrix: the same tool, the same
 * matrix.yaml.  0, or -1 with err. */
static int check_same(const struct csv_table *t, const char *dir, char *err, size_t errlen)
{
	struct meta now = { .n = 0 };
	const char *tv = meta_value(t, "tool_version"), *gr = meta_value(t, "git_revision");
	const char *hash = meta_value(t, "matrix_hash");
	char path[4096], h[64];

	meta_collect_host(&now);
	const char *ntv = "?", *ngr = "?";
	for (size_t i = 0; i < now.n; i++) {
		if (!strcmp(now.key[i], "tool_version"))
			ntv = meta_text(&now, i);
		if (!strcmp(now.key[i], "git_revision"))
			ngr = meta_text(&now, i);
	}
	if (!tv || !gr || strcmp(tv, ntv) || strcmp(gr, ngr)) {
		snprintf(err, errlen, "matrix %s (%s) made it, this is matrix %s (%s): a run is "
			 "resumed by the build that started it", tv ? tv : "?", gr ? gr : "?", ntv, ngr);
		meta_release(&now);
		return -1;
	}
	meta_release(&now);
	snprintf(path, sizeof(path), "%s/matrix.yaml", dir);
	if (!hash) {
		snprintf(err, errlen, "meta.csv has no matrix_hash: cannot tell whether %s changed",
			 path);
		return -1;
	}
	if (resume_hash_file(path, h, sizeof(h)) < 0) {
		snprintf(err, errlen, "%s: %s", path, errno == EINVAL ? "not a regular file" :
			 strerror(errno));
		return -1;
	}
	if (strcmp(h, hash)) {
		snprintf(err, errlen, "%s is not the matrix the run started with (meta.csv "
			 "matrix_hash %s, the file's %s): put it back, or start a new run", path,
			 hash, h);
		return -1;
	}
	return 0;
}

/* One more argument, copied into a's buffer; -1 when it is full. */
static int add_arg(struct resume_args *a, size_t *used, const char *s, size_t n)
{
	if (a->argc + 1 >= RESUME_MAX_ARGS || *used + n + 1 > sizeof(a->buf))
		return -1;
	a->argv[a->argc++] = memcpy(a->buf + *used, s, n);
	a->buf[*used + n] = '\0';
	*used += n + 1;
	a->argv[a->argc] = NULL;
	return 0;
}

/* The flags of meta.csv's order, seed, repetitions and only; -1 with err. */
static int meta_flags(struct resume_args *a, const struct csv_table *t, size_t *used,
		      char *err, size_t errlen)
{
	/* a finished run runs nothing: its order and seed do not matter, and
	 * a merged folder's may be its shards' ("per shard: 7 9", merge.h) */
	int done = finished(meta_value(t, "status"));
	const char *order = meta_value(t, "order"), *seed = meta_value(t, "seed");
	const char *reps = meta_value(t, "repetitions"), *only = meta_value(t, "only");
	int bad = 0;

	if (!order || !seed || !reps || !only || (*only && strncmp(only, "--only ", 7))) {
		snprintf(err, errlen, "meta.csv lacks its order, seed, repetitions or only "
			 "(a run of an older matrix?): cannot tell what ran");
		return -1;
	}
	if (!done)
		bad |= add_arg(a, used, "--order", 7) | add_arg(a, used, order, strlen(order));
	if (*seed && !done)
		bad |= add_arg(a, used, "--seed", 6) | add_arg(a, used, seed, strlen(seed));
	if (!meta_value(t, "repeat_auto"))	/* --repeat N turns repeat: auto off */
		bad |= add_arg(a, used, "--repeat", 8) | add_arg(a, used, reps, strlen(reps));
	/* "--only K=V --only K=V": each value runs to the next " --only " */
	for (const char *p = *only ? only + 7 : NULL; p && !bad; ) {
		const char *next = strstr(p, " --only ");
		bad |= add_arg(a, used, "--only", 6) |
		       add_arg(a, used, p, next ? (size_t)(next - p) : strlen(p));
		p = next ? next + 8 : NULL;
	}
	const char *shard = meta_value(t, "shard");	/* a --shard K/N run's */
	if (shard && *shard && !bad)
		bad |= add_arg(a, used, "--shard", 7) | add_arg(a, used, shard, strlen(shard));
	if (bad)
		snprintf(err, errlen, "meta.csv: too many --only flags");
	return bad ? -1 : 0;
}

const char *resume_folder(const char *arg)
{
	static char path[4096];
	char target[2048];
	struct stat st;
	ssize_t n;

	if (lstat(arg, &st) < 0 || !S_ISLNK(st.st_mode) ||
	    (n = readlink(arg, target, sizeof(target) - 1)) <= 0)
		return arg;
	target[n] = '\0';
	const char *slash = strrchr(arg, '/');
	if (target[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", target);
	else
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - arg), arg, target);
	return path;
}

int resume_args(struct resume_args *a, const char *dir, int given)
{
	struct csv_table t;
	char err[2048], path[4096];
	size_t used = 0;
	int rc = 0;

	a->argc = 0;
	if (given) {
		fprintf(stderr, "matrix run: --resume %s runs the folder's own matrix.yaml with the "
			"folder's -o, --repeat, --only, --set, --order, --seed and --shard: give none "
			"of them\n",
			dir);
		return -1;
	}
	if (load_meta(&t, dir, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix run: --resume %s: not a run folder: %s\n", dir, err);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/matrix.yaml", dir);
	if (add_arg(a, &used, "run", 3) < 0 ||
	    (!finished(meta_value(&t, "status")) && check_same(&t, dir, err, sizeof(err)) < 0) ||
	    meta_flags(a, &t, &used, err, sizeof(err)) < 0 ||
	    (add_arg(a, &used, path, strlen(path)) < 0 &&
	     snprintf(err, sizeof(err), "%s: path too long", path))) {
		fprintf(stderr, "matrix run: --resume %s: %s\n", dir, err);
		rc = -1;
	}
	csv_table_release(&t);
	return rc;
}

static int row_cmp(const void *a, const void *b)
{
	const struct resume_row *x = a, *y = b;

	if (x->ci != y->ci)
		return x->ci < y->ci ? -1 : 1;
	return x->rep < y->rep ? -1 : x->rep > y->rep;
}

/* The plan's index of cell number text, or -1. */
static long cell_index(const struct plan *pl, const char *text)
{
	const char *why;
	double n;

	return fieldnum_parse(text, FIELDNUM_WHOLE, &n, &why) < 0 || n > UINT32_MAX ? -1 :
	       plan_cell_index(pl, (unsigned long)n);
}

/* Repetition number text, 0 when it is none of the plan's. */
static unsigned rep_number(const struct plan *pl, const char *text)
{
	const char *why;
	double n;

	return fieldnum_parse(text, FIELDNUM_WHOLE, &n, &why) < 0 || n < 1 || n > pl->repeat ? 0
	       : (unsigned)n;
}

/* A figure of a kept row, NaN when it has none (report_load has read the
 * folder strictly before --resume touches it: cmd_run.c). */
static double figure(const char *text)
{
	const char *why;
	double v;

	return fieldnum_parse(text, FIELDNUM_AMOUNT, &v, &why) < 0 ? NAN : v;
}

/* results.csv's header is the one this plan writes: -1 with err if not. */
static int check_header(const struct csv_table *t, const char *path, const struct plan *pl,
			char *err, size_t errlen)
{
	const char *want[512];
	size_t n = results_columns(pl, want, 512);

	if (n > 512 || t->ncols != n) {
		snprintf(err, errlen, "%s:1: %zu columns, this matrix writes %zu", path, t->ncols,
			 n);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(t->header[i], want[i])) {
			snprintf(err, errlen, "%s:1: column %zu is %s, this matrix writes %s", path,
				 i + 1, t->header[i], want[i]);
			return -1;
		}
	return 0;
}

/* The row of results.csv row i as a resume_row; -1 with err when it is
 * no cell repetition of the plan. */
static int read_row(const struct csv_table *t, const char *path, size_t i, const struct plan *pl,
		    struct resume_row *out, char *err, size_t errlen)
{
	char **f = t->rows[i];
	const char *status = f[csv_table_col(t, "status")];
	long ci = cell_index(pl, f[0]);

	memset(out, 0, sizeof(*out));
	out->rep = rep_number(pl, f[csv_table_col(t, "rep")]);
	if (ci < 0 || !out->rep) {
		char c[256], r[256];
		snprintf(err, errlen, "%s:%lu: cell '%s' repetition '%s' is not one of "
			 "this plan's", path, t->lines[i], fieldnum_show(f[0], c, sizeof(c)),
			 fieldnum_show(f[csv_table_col(t, "rep")], r, sizeof(r)));
		return -1;
	}
	out->line = t->lines[i];
	out->ci = (size_t)ci;
	out->ok = !strcmp(status, "ok");
	out->skipped = !strncmp(status, "skipped:", 8);
	out->stop = f[csv_table_col(t, "repeat_stop")][0] != '\0';
	out->msgs_per_s = figure(f[csv_table_col(t, "msgs_per_s")]);
	out->wall_s = figure(f[csv_table_col(t, "wall_s")]);
	if (isnan(out->wall_s))
		out->wall_s = 0;
	return 0;
}

/* Writes DIR/NAME anew with t's header and the rows keep[] says, under a
 * temporary name renamed over it.  0, or -1 with err. */
static int rewrite(const char *dir, const char *name, const struct csv_table *t,
		   const unsigned char *keep, char *err, size_t errlen)
{
	char tmp[4096], path[4096];
	struct csv_out w;
	int rc = 0;

	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (csv_out_open(&w, tmp, "w", err, errlen) < 0)
		return -1;
	for (size_t c = 0; c < t->ncols; c++)
		csv_out_field(&w, t->header[c]);
	rc |= csv_out_end_row(&w);
	for (size_t r = 0; r < t->nrows && !rc; r++) {
		if (!keep[r])
			continue;
		for (size_t c = 0; c < t->ncols; c++)
			csv_out_field(&w, t->rows[r][c]);
		rc |= csv_out_end_row(&w);
	}
	if ((csv_out_close(&w) | rc) < 0 || rename(tmp, path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The files whose rows belong to a repetition (cell and rep their first
 * two columns), written before its results row: timeline.csv (stream
 * intervals) and hist.csv (round-trip times). */
static const char *const side_files[] = { "timeline.csv", "hist.csv" };

/* DIR/NAME, a side file, keeps the rows of the ok repetitions kept
 * (r->rows); it is rewritten when it keeps fewer, or its last row was
 * cut.  A repetition's rows there are written before its results row, so
 * rows without one (a kill between them, or a cut row) go and that
 * repetition runs again.  A file the run never made stays unmade.  0, or
 * -1 with err. */
static int trim_side(const struct resume *r, const char *dir, const char *name,
		     const struct plan *pl, char *err, size_t errlen)
{
	struct csv_table t;
	char path[4096];
	size_t kept = 0;
	int cut = 0, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (csv_table_load_opts(&t, path, CSV_DROP_UNFINISHED, &cut, err, errlen) < 0)
		return -1;
	unsigned char *keep = calloc(t.nrows + 1, 1);
	if (!keep) {
		snprintf(err, errlen, "out of memory");
		csv_table_release(&t);
		return -1;
	}
	for (size_t i = 0; i < t.nrows; i++) {
		long ci = cell_index(pl, t.rows[i][0]);
		unsigned rep = rep_number(pl, t.ncols > 1 ? t.rows[i][1] : "");
		const struct resume_row *row = ci >= 0 && rep ? resume_find(r, (size_t)ci, rep) : NULL;
		keep[i] = row && row->ok;
		kept += keep[i];
	}
	if (cut || kept < t.nrows)
		rc = rewrite(dir, name, &t, keep, err, errlen);
	free(keep);
	csv_table_release(&t);
	return rc;
}

/* The kept rows of res, sorted; -1 with err on a repetition twice. */
static int collect(struct resume *r, const struct csv_table *res, const char *path,
		   const unsigned char *keep, const struct plan *pl, char *err, size_t errlen)
{
	r->rows = calloc(res->nrows + 1, sizeof(*r->rows));
	if (!r->rows) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < res->nrows; i++) {
		if (!keep[i])
			continue;
		struct resume_row *row = &r->rows[r->nrows++];
		read_row(res, path, i, pl, row, err, errlen);
		r->failed += !row->ok && !row->skipped;
		r->skipped += row->skipped;
		r->wall_s += row->wall_s;
	}
	qsort(r->rows, r->nrows, sizeof(*r->rows), row_cmp);
	for (size_t i = 1; i < r->nrows; i++)
		if (!row_cmp(&r->rows[i - 1], &r->rows[i])) {
			const struct resume_row *a = &r->rows[i - 1], *b = &r->rows[i];
			snprintf(err, errlen, "%s:%lu: cell %u repetition %u again: line %lu "
				 "has it already", path, a->line > b->line ? a->line : b->line,
				 pl->cells[b->ci].number, b->rep, a->line < b->line ? a->line : b->line);
			return -1;
		}
	return 0;
}

/* Which rows of res are kept (keep[]): all but `interrupted` ones. */
static int choose(struct resume *r, const struct csv_table *res, const char *path,
		  const struct plan *pl, unsigned char *keep, char *err, size_t errlen)
{
	struct resume_row row;

	if (check_header(res, path, pl, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < res->nrows; i++) {
		if (read_row(res, path, i, pl, &row, err, errlen) < 0)
			return -1;
		keep[i] = strcmp(res->rows[i][csv_table_col(res, "status")], "interrupted") != 0;
		r->dropped += !keep[i];
	}
	return 0;
}

/* results.csv and the side files without what runs again, and r->rows.
 * The side files are rewritten first: a kill between them and
 * results.csv leaves rows that run again once more, never side rows of a
 * row run twice. */
static int read_results(struct resume *r, const char *dir, const struct plan *pl, char *err,
			size_t errlen)
{
	struct csv_table res;
	char path[4096];
	int cut = 0, rc = -1;

	snprintf(path, sizeof(path), "%s/results.csv", dir);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;	/* killed before it was made: nothing done */
	if (csv_table_load_opts(&res, path, CSV_DROP_UNFINISHED, &cut, err, errlen) < 0)
		return -1;
	unsigned char *keep = calloc(res.nrows + 1, 1);
	r->dropped = (size_t)cut;
	if (!keep)
		snprintf(err, errlen, "out of memory");
	else if (choose(r, &res, path, pl, keep, err, errlen) == 0 &&
		 collect(r, &res, path, keep, pl, err, errlen) == 0) {
		rc = 0;
		for (size_t i = 0; i < ARRAY_SIZE(side_files) && !rc; i++)
			rc = trim_side(r, dir, side_files[i], pl, err, errlen);
		if (!rc && r->dropped)
			rc = rewrite(dir, "results.csv", &res, keep, err, errlen);
	}
	free(keep);
	csv_table_release(&res);
	return rc;
}

int resume_open(struct resume *r, const char *dir, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (load_meta(&r->meta, dir, err, errlen) < 0)
		return -1;
	return finished(meta_value(&r->meta, "status"));
}

int resume_read(struct resume *r, const char *dir, const struct plan *pl, char *err,
		size_t errlen)
{
	/* again, now that the folder is ours: the meta.csv of a run that was
	 * still ending when resume_open read it, a matrix.yaml changed since */
	csv_table_release(&r->meta);
	if (load_meta(&r->meta, dir, err, errlen) < 0)
		return -1;
	if (finished(meta_value(&r->meta, "status")))
		return 1;
	if (check_same(&r->meta, dir, err, errlen) < 0)
		return -1;
	/* what resume_args rebuilt is what ran (a folder of a run no flags
	 * describe, a confirmation's, is not) */
	const char *cells = meta_value(&r->meta, "cells"), *reps = meta_value(&r->meta, "repetitions");
	char ours[64], theirs[64];
	snprintf(ours, sizeof(ours), "%zu cells x %u repetitions", pl->ncells, pl->repeat);
	snprintf(theirs, sizeof(theirs), "%s cells x %s repetitions", cells ? cells : "?",
		 reps ? reps : "?");
	if (strcmp(ours, theirs)) {
		snprintf(err, errlen, "meta.csv says the run had %s, its flags make %s: it cannot "
			 "be resumed", theirs, ours);
		return -1;
	}
	return read_results(r, dir, pl, err, errlen);
}

const struct resume_row *resume_find(const struct resume *r, size_t ci, unsigned rep)
{
	struct resume_row key = { .ci = ci, .rep = rep };

	return r->nrows ? bsearch(&key, r->rows, r->nrows, sizeof(*r->rows), row_cmp) : NULL;
}

void resume_meta(const struct resume *r, struct meta *m)
{
	static const char *const kept[] = {
		"matrix_file", "command_line", "set", "only", "start_utc", "matrix_hash",
	};
	const char *was = meta_value(&r->meta, "resumed_utc");
	char now[32];

	for (size_t i = 0; i < ARRAY_SIZE(kept); i++) {
		const char *v = meta_value(&r->meta, kept[i]);
		if (v)
			meta_set(m, kept[i], "%s", v);
	}
	meta_utc_now(now, sizeof(now));
	meta_set(m, "resumed_utc", "%s%s%s", was ? was : "", was && *was ? " " : "", now);
}

int resume_reports_only(struct resume *r, const char *dir, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (load_meta(&r->meta, dir, err, errlen) < 0)
		return -1;
	const char *status = meta_value(&r->meta, "status");
	return status && !strcmp(status, "reporting") && finished(meta_value(&r->meta, "run_status"));
}

void resume_meta_all(const struct resume *r, struct meta *m)
{
	for (size_t i = 0; i < r->meta.nrows; i++)
		meta_set(m, r->meta.rows[i][0], "%s", r->meta.rows[i][1]);
	resume_meta(r, m);
}

const char *resume_fact(const struct resume *r, const char *key)
{
	const char *v = meta_value(&r->meta, key);

	return v ? v : "";
}

const char *resume_status(const struct resume *r)
{
	const char *s = meta_value(&r->meta, "status");

	return s ? s : "";
}

void resume_release(struct resume *r)
{
	csv_table_release(&r->meta);
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}
