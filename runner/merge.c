/* Shards joined into one run folder: see merge.h. */
#include "merge.h"
#include "arrays.h"
#include "fieldnum.h"
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

const char *merge_meta(const struct csv_table *t, const char *key)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(t->rows[r][0], key))
			return t->rows[r][1];
	return NULL;
}

/* src's meta.csv: a finished shard's.  0, or -1 with err. */
static int open_src(struct merge_src *s, char *err, size_t errlen)
{
	char path[4096], why[1024];

	snprintf(path, sizeof(path), "%s/meta.csv", s->dir);
	if (csv_table_load(&s->meta, path, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: not a run folder: %s", s->dir, why);
		return -1;
	}
	if (s->meta.ncols != 2 || strcmp(s->meta.header[0], "key")) {
		snprintf(err, errlen, "%s:1: not a run folder's meta.csv (columns key, value)", path);
		return -1;
	}
	const char *status = merge_meta(&s->meta, "status"), *shard = merge_meta(&s->meta, "shard");
	if (!status || (strcmp(status, "ok") && strcmp(status, "some repetitions failed"))) {
		/* the shard named too: a Slurm task's or CI job's number, not
		 * only its folder */
		char which[64] = "";
		if (shard && *shard && shard_parse(shard, &s->shard, why, sizeof(why)) == 0)
			snprintf(which, sizeof(which), " (shard %u/%u)", s->shard.k, s->shard.n);
		snprintf(err, errlen, "%s%s: its run did not finish (status: %s): `matrix run "
			 "--resume %s` first", s->dir, which, status ? status : "none", s->dir);
		return -1;
	}
	if (!shard || !*shard) {
		snprintf(err, errlen, "%s: not a shard (its meta.csv has no shard): merge joins "
			 "the folders of `matrix run --shard K/N`", s->dir);
		return -1;
	}
	if (shard_parse(shard, &s->shard, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s/meta.csv: shard %s: %s", s->dir, shard, why);
		return -1;
	}
	return 0;
}

int merge_open(struct merge *mg, char *const *dirs, size_t n, char *err, size_t errlen)
{
	memset(mg, 0, sizeof(*mg));
	mg->src = calloc(n + 1, sizeof(*mg->src));
	if (!mg->src) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		mg->src[mg->nsrc++].dir = dirs[i];
		if (open_src(&mg->src[i], err, errlen) < 0)
			return -1;
		mg->failed |= !strcmp(merge_meta(&mg->src[i].meta, "status"),
				      "some repetitions failed");
	}
	return 0;
}

static int by_shard(const void *a, const void *b)
{
	const struct merge_src *x = a, *y = b;

	return x->shard.k < y->shard.k ? -1 : x->shard.k > y->shard.k;
}

/* The facts that make two folders shards of one run, besides the
 * fingerprint (compare_fingerprint, checked by the caller). */
static const char *const same_keys[] = {
	"matrix_hash", "cells", "repetitions", "repeat_auto", "only", "set",
};

/* Every K of 1..N once; -1 with err. */
static int check_every_k(const struct merge *mg, char *err, size_t errlen)
{
	unsigned n = mg->src[0].shard.n;
	size_t len = 0, missing = 0;

	for (size_t i = 1; i < mg->nsrc; i++)
		if (mg->src[i].shard.k == mg->src[i - 1].shard.k) {
			snprintf(err, errlen, "shard %u/%u given twice: %s and %s", mg->src[i].shard.k,
				 n, mg->src[i - 1].dir, mg->src[i].dir);
			return -1;
		}
	len = (size_t)snprintf(err, errlen, "shards missing:");
	for (unsigned k = 1, i = 0; k <= n; k++) {
		if (i < mg->nsrc && mg->src[i].shard.k == k) {
			i++;
			continue;
		}
		if (missing++ < 20 && len < errlen)
			len += (size_t)snprintf(err + len, errlen - len, " %u/%u", k, n);
	}
	if (missing > 20 && len < errlen)
		snprintf(err + len, errlen - len, " and %zu more", missing - 20);
	if (missing && len < errlen)
		snprintf(err + len, errlen - len, " (%zu of %u given)", mg->nsrc, n);
	return missing ? -1 : 0;
}

int merge_check_shards(struct merge *mg, char *err, size_t errlen)
{
	const struct merge_src *a = &mg->src[0];

	for (size_t i = 1; i < mg->nsrc; i++)
		if (mg->src[i].shard.n != a->shard.n) {
			snprintf(err, errlen, "%s is shard %u/%u, %s shard %u/%u: not shards of one "
				 "run (split in as many shards)", a->dir, a->shard.k, a->shard.n,
				 mg->src[i].dir, mg->src[i].shard.k, mg->src[i].shard.n);
			return -1;
		}
	for (size_t i = 1; i < mg->nsrc; i++)
		for (size_t k = 0; k < ARRAY_SIZE(same_keys); k++) {
			const char *va = merge_meta(&a->meta, same_keys[k]);
			const char *vb = merge_meta(&mg->src[i].meta, same_keys[k]);
			if (!va != !vb || (va && strcmp(va, vb))) {
				snprintf(err, errlen, "%s and %s differ in meta.csv's %s: '%s' vs '%s': "
					 "not shards of one run", a->dir, mg->src[i].dir, same_keys[k],
					 va ? va : "(none)", vb ? vb : "(none)");
				return -1;
			}
		}
	qsort(mg->src, mg->nsrc, sizeof(*mg->src), by_shard);
	return check_every_k(mg, err, errlen);
}

static int row_order(const void *a, const void *b)
{
	const struct merge_row *x = a, *y = b;

	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	if (x->cell != y->cell)
		return x->cell < y->cell ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* A whole number field, 0 when it is none (fieldnum.h). */
static unsigned field_number(const char *s)
{
	const char *why;
	double v;

	return fieldnum_parse(s, FIELDNUM_WHOLE, &v, &why) < 0 || v > 0xffffffffu ? 0 : (unsigned)v;
}

/* The rows of src i's table t appended to *rows (cell and rep in columns
 * cell_col and rep_col); -1 with err when out of memory. */
static int add_rows(struct merge_row **rows, size_t *n, size_t *cap, const struct csv_table *t,
		    size_t i, int rep_col, char *err, size_t errlen)
{
	for (size_t r = 0; r < t->nrows; r++) {
		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 256;
			struct merge_row *nr = realloc(*rows, c * sizeof(*nr));
			if (!nr) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			*rows = nr;
			*cap = c;
		}
		(*rows)[(*n)++] = (struct merge_row){ .cell = field_number(t->rows[r][0]),
						      .rep = field_number(t->rows[r][rep_col]),
						      .src = i, .row = r };
	}
	return 0;
}

/* Whether tables a and b have the same columns, by name and in order. */
static int same_columns(const struct csv_table *a, const struct csv_table *b)
{
	int same = a->ncols == b->ncols;

	for (size_t c = 0; same && c < a->ncols; c++)
		same = !strcmp(a->header[c], b->header[c]);
	return same;
}

/* Every source's results.csv, read, with one header, into mg->rows. */
static int read_results(struct merge *mg, char *err, size_t errlen)
{
	size_t cap = 0;
	char path[4096];

	for (size_t i = 0; i < mg->nsrc; i++) {
		struct merge_src *s = &mg->src[i];
		const struct csv_table *a = &mg->src[0].results;
		snprintf(path, sizeof(path), "%s/results.csv", s->dir);
		if (csv_table_load(&s->results, path, err, errlen) < 0)
			return -1;
		if (!same_columns(&s->results, a) || csv_table_col(&s->results, "rep") < 1 ||
		    csv_table_col(&s->results, "repeat_stop") < 0) {
			snprintf(err, errlen, "%s: its columns are not those of %s/results.csv", path,
				 mg->src[0].dir);
			return -1;
		}
		if (add_rows(&mg->rows, &mg->nrows, &cap, &s->results, i,
			     csv_table_col(&s->results, "rep"), err, errlen) < 0)
			return -1;
	}
	qsort(mg->rows, mg->nrows, sizeof(*mg->rows), row_order);
	return 0;
}

/* Each row a cell repetition of the plan, once, in its shard's folder. */
static int check_placed(const struct merge *mg, const struct plan *pl, char *err,
			size_t errlen)
{
	int whole = pl->m->repeat_min > 0;

	for (size_t i = 0; i < mg->nrows; i++) {
		const struct merge_row *r = &mg->rows[i];
		const struct merge_src *s = &mg->src[r->src];
		if (plan_cell_index(pl, r->cell) < 0 || r->rep < 1 || r->rep > pl->repeat) {
			char c[256], k[256];
			snprintf(err, errlen, "%s/results.csv:%lu: cell '%s' repetition '%s' is not "
				 "one of the run's", s->dir, s->results.lines[r->row],
				 fieldnum_show(s->results.rows[r->row][0], c, sizeof(c)),
				 fieldnum_show(s->results.rows[r->row][csv_table_col(&s->results, "rep")],
					       k, sizeof(k)));
			return -1;
		}
		if (i && r->cell == r[-1].cell && r->rep == r[-1].rep && r->src == r[-1].src) {
			snprintf(err, errlen, "%s/results.csv:%lu: cell %u repetition %u again: line "
				 "%lu has it already", s->dir, s->results.lines[r->row], r->cell, r->rep,
				 s->results.lines[r[-1].row]);
			return -1;
		}
		if (i && r->cell == r[-1].cell && r->rep == r[-1].rep) {
			snprintf(err, errlen, "cell %u repetition %u is in two folders: %s and %s",
				 r->cell, r->rep, mg->src[r[-1].src].dir, s->dir);
			return -1;
		}
		size_t ci = (size_t)plan_cell_index(pl, r->cell);
		if (!shard_has(&s->shard, ci, r->rep, pl->repeat, whole)) {
			struct shard its = s->shard;
			while (!shard_has(&its, ci, r->rep, pl->repeat, whole))
				its.k = its.k % its.n + 1;
			snprintf(err, errlen, "%s (shard %u/%u) holds cell %u repetition %u, which is "
				 "shard %u/%u's", s->dir, s->shard.k, s->shard.n, r->cell, r->rep,
				 its.k, its.n);
			return -1;
		}
	}
	return 0;
}

/* The cell repetitions of pl no folder holds: -1 with err naming a few. */
static int check_missing(const struct merge *mg, const struct plan *pl, char *err,
			 size_t errlen)
{
	unsigned char *have = calloc(pl->ncells * pl->repeat + 1, 1);
	int whole = pl->m->repeat_min > 0;
	size_t missing = 0, len = 0;

	if (!have) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < mg->nrows; i++) {
		const struct merge_row *r = &mg->rows[i];
		const struct merge_src *s = &mg->src[r->src];
		const char *stop = s->results.rows[r->row][csv_table_col(&s->results, "repeat_stop")];
		size_t at = (size_t)plan_cell_index(pl, r->cell) * pl->repeat;
		have[at + r->rep - 1] = 1;
		for (unsigned k = r->rep; whole && *stop && k < pl->repeat; k++)
			have[at + k] = 2;	/* repeat: auto stopped before these */
	}
	for (size_t ci = 0; ci < pl->ncells; ci++)
		for (unsigned rep = 1; rep <= pl->repeat; rep++) {
			struct shard its = { 1, mg->src[0].shard.n };
			if (have[ci * pl->repeat + rep - 1] || missing++ >= 5)
				continue;
			while (!shard_has(&its, ci, rep, pl->repeat, whole))
				its.k++;
			len += (size_t)snprintf(err + len, errlen - len, "%s cell %u repetition %u "
						"(shard %u/%u, %s)", missing > 1 ? ";" : "missing:",
						pl->cells[ci].number, rep, its.k, its.n,
						mg->src[its.k - 1].dir);
			if (len >= errlen)
				len = errlen - 1;
		}
	if (missing > 5)
		snprintf(err + len, errlen - len, "; and %zu more", missing - 5);
	free(have);
	return missing ? -1 : 0;
}

int merge_rows(struct merge *mg, const struct plan *pl, char *err, size_t errlen)
{
	if (read_results(mg, err, errlen) < 0 || check_placed(mg, pl, err, errlen) < 0)
		return -1;
	return check_missing(mg, pl, err, errlen);
}

/* out/name: header, then rows[0..n) of tabs[src]; 0 or -1 with err. */
static int write_rows(const char *out, const char *name, const struct csv_table *header,
		      const struct csv_table *const *tabs, const struct merge_row *rows, size_t n,
		      char *err, size_t errlen)
{
	char path[4096];
	struct csv_out w;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", out, name);
	if (csv_out_open(&w, path, "w", err, errlen) < 0)
		return -1;
	for (size_t c = 0; c < header->ncols; c++)
		csv_out_field(&w, header->header[c]);
	rc |= csv_out_end_row(&w);
	for (size_t i = 0; i < n && !rc; i++) {
		const struct csv_table *t = tabs[rows[i].src];
		for (size_t c = 0; c < t->ncols; c++)
			csv_out_field(&w, t->rows[rows[i].row][c]);
		rc |= csv_out_end_row(&w);
	}
	if ((csv_out_close(&w) | rc) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* A side file (timeline.csv, hist.csv: cell and rep its first two
 * columns) of the shards that have it, merged in results.csv's order;
 * none when no shard has it.  0, or -1 with err. */
static int merge_side(const struct merge *mg, const char *out, const char *name, char *err,
		      size_t errlen)
{
	struct csv_table *tabs = calloc(mg->nsrc + 1, sizeof(*tabs));
	const struct csv_table **tp = calloc(mg->nsrc + 1, sizeof(*tp));
	struct merge_row *rows = NULL;
	const struct csv_table *header = NULL;
	size_t n = 0, cap = 0;
	char path[4096];
	int rc = tabs && tp ? 0 : -1;

	for (size_t i = 0; i < mg->nsrc && !rc; i++) {
		snprintf(path, sizeof(path), "%s/%s", mg->src[i].dir, name);
		tp[i] = &tabs[i];
		if (access(path, F_OK) < 0)
			continue;
		rc = csv_table_load(&tabs[i], path, err, errlen);
		if (!rc && (tabs[i].ncols < 2 || (header && !same_columns(header, &tabs[i])))) {
			snprintf(err, errlen, "%s: its columns are not those of the other shards'", path);
			rc = -1;
		}
		header = header ? header : &tabs[i];
		if (!rc)
			rc = add_rows(&rows, &n, &cap, &tabs[i], i, 1, err, errlen);
	}
	if (!tabs || !tp)
		snprintf(err, errlen, "out of memory");
	if (!rc && header) {
		qsort(rows, n, sizeof(*rows), row_order);
		rc = write_rows(out, name, header, tp, rows, n, err, errlen);
	}
	for (size_t i = 0; tabs && i < mg->nsrc; i++)
		csv_table_release(&tabs[i]);
	free(tabs);
	free(tp);
	free(rows);
	return rc;
}

/* Whether files a and b hold the same bytes (0 when either cannot be
 * read). */
static int same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "re"), *fb = fopen(b, "re");
	char x[4096], y[4096];
	int same = fa && fb;
	size_t n;

	while (same && (n = fread(x, 1, sizeof(x), fa)) > 0)
		same = fread(y, 1, n, fb) == n && !memcmp(x, y, n);
	same = same && !ferror(fa) && fgetc(fb) == EOF;
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* Every file of every shard's logs/ into out/logs/ (a name taken: once
 * when the bytes are the same, else as NAME.shardK).  0, or -1 with err. */
static int merge_logs(const struct merge *mg, const char *out, char *err, size_t errlen)
{
	char from[4400], to[4400], logs[4096];
	int rc = 0;

	snprintf(logs, sizeof(logs), "%s/logs", out);
	for (size_t i = 0; i < mg->nsrc && !rc; i++) {
		snprintf(from, sizeof(from), "%s/logs", mg->src[i].dir);
		DIR *d = opendir(from);
		struct dirent *e;
		while (d && !rc && (e = readdir(d))) {
			struct stat st;
			snprintf(from, sizeof(from), "%s/logs/%s", mg->src[i].dir, e->d_name);
			if (stat(from, &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			if (mkdir(logs, 0755) < 0 && errno != EEXIST) {
				snprintf(err, errlen, "cannot create %s: %s", logs, strerror(errno));
				rc = -1;
				break;
			}
			snprintf(to, sizeof(to), "%s/%s", logs, e->d_name);
			rc = outfile_copy_new(from, to, err, errlen);
			if (rc < 0 && errno == EEXIST && same_bytes(from, to))
				rc = 0;		/* a setup log, the same on every machine */
			else if (rc < 0 && errno == EEXIST) {
				snprintf(to, sizeof(to), "%s/%s.shard%u", logs, e->d_name,
					 mg->src[i].shard.k);
				rc = outfile_copy_new(from, to, err, errlen);
			}
		}
		if (d)
			closedir(d);
	}
	return rc;
}

/* Shard i's host, "" when its meta.csv has none. */
static const char *host_of(const struct merge *mg, size_t i)
{
	const char *h = merge_meta(&mg->src[i].meta, "host");

	return h ? h : "";
}

/* The shards' hosts, each once, in shard order ("bench1 bench2"); NULL
 * when out of memory. */
static char *shard_hosts(const struct merge *mg)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; i < mg->nsrc; i++)
		len += strlen(host_of(mg, i)) + 1;
	if (!(s = p = malloc(len)))
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < mg->nsrc; i++) {
		size_t j = 0;
		while (j < i && strcmp(host_of(mg, i), host_of(mg, j)))
			j++;
		if (j == i && *host_of(mg, i))
			p += sprintf(p, "%s%s", p == s ? "" : " ", host_of(mg, i));
	}
	return s;
}

/* Shard i's value of key, "" when its meta.csv has none. */
static const char *fact_of(const struct merge *mg, size_t i, const char *key)
{
	const char *v = merge_meta(&mg->src[i].meta, key);

	return v ? v : "";
}

/* What is true of the merged folder's key (order, seed) when its shards'
 * differ: "per shard: " and each one's in shard order ("-" for none);
 * NULL when they agree (shard 1's is then every one's), or out of memory
 * (*oom set). */
static char *per_shard(const struct merge *mg, const char *key, int *oom)
{
	size_t len = sizeof("per shard:"), same = 1;
	char *s, *p;

	for (size_t i = 0; i < mg->nsrc; i++) {
		same &= !strcmp(fact_of(mg, i, key), fact_of(mg, 0, key));
		len += strlen(fact_of(mg, i, key)) + 2;
	}
	if (same)
		return NULL;
	if (!(s = p = malloc(len))) {
		*oom = 1;
		return NULL;
	}
	p += sprintf(p, "per shard:");
	for (size_t i = 0; i < mg->nsrc; i++)
		p += sprintf(p, " %s", *fact_of(mg, i, key) ? fact_of(mg, i, key) : "-");
	return s;
}

/* out/meta.csv: shard 1's (merge.h).  0, or -1 with err. */
static int merge_meta_file(const struct merge *mg, const char *out, const char *merged_from,
			   char *err, size_t errlen)
{
	const struct csv_table *t = &mg->src[0].meta;
	const char *start = NULL, *end = NULL;
	int oom = 0;
	char path[4096], *hosts = shard_hosts(mg);
	char *order = per_shard(mg, "order", &oom), *seed = per_shard(mg, "seed", &oom);
	struct csv_out w;
	int rc = 0;

	for (size_t i = 0; i < mg->nsrc; i++) {
		const char *s = merge_meta(&mg->src[i].meta, "start_utc");
		const char *e = merge_meta(&mg->src[i].meta, "end_utc");
		start = s && (!start || strcmp(s, start) < 0) ? s : start;
		end = e && (!end || strcmp(e, end) > 0) ? e : end;
	}
	snprintf(path, sizeof(path), "%s/meta.csv", out);
	if (!hosts || oom || csv_out_create(&w, path, err, errlen) < 0) {
		if (!hosts || oom)
			snprintf(err, errlen, "out of memory");
		free(hosts);
		free(order);
		free(seed);
		return -1;
	}
	csv_out_field(&w, "key");
	csv_out_field(&w, "value");
	csv_out_end_row(&w);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *k = t->rows[r][0], *v = t->rows[r][1];
		if (!strcmp(k, "shard"))
			continue;
		if (!strcmp(k, "start_utc") || !strcmp(k, "end_utc"))
			v = *k == 's' ? start : end;
		if (!strcmp(k, "status"))
			v = mg->failed ? "some repetitions failed" : "ok";
		if (!strcmp(k, "host"))
			v = hosts;
		if (!strcmp(k, "order") && order)
			v = order;
		if (!strcmp(k, "seed") && seed)
			v = seed;
		csv_out_field(&w, k);
		csv_out_field(&w, v);
		csv_out_end_row(&w);
	}
	csv_out_field(&w, "merged_from");
	csv_out_field(&w, merged_from);
	csv_out_end_row(&w);
	if (csv_out_close(&w) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	free(hosts);
	free(order);
	free(seed);
	return rc;
}

int merge_write(const struct merge *mg, const char *out, const char *merged_from, char *err,
		size_t errlen)
{
	const struct csv_table **tabs = calloc(mg->nsrc + 1, sizeof(*tabs));
	char from[4096], to[4096];
	int rc;

	if (!tabs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < mg->nsrc; i++)
		tabs[i] = &mg->src[i].results;
	snprintf(from, sizeof(from), "%s/matrix.yaml", mg->src[0].dir);
	snprintf(to, sizeof(to), "%s/matrix.yaml", out);
	rc = outfile_copy_new(from, to, err, errlen);
	if (!rc)
		rc = write_rows(out, "results.csv", &mg->src[0].results, tabs, mg->rows, mg->nrows,
				err, errlen);
	free(tabs);
	if (!rc)
		rc = merge_side(mg, out, "timeline.csv", err, errlen);
	if (!rc)
		rc = merge_side(mg, out, "hist.csv", err, errlen);
	if (!rc)
		rc = merge_logs(mg, out, err, errlen);
	return rc ? rc : merge_meta_file(mg, out, merged_from, err, errlen);
}

void merge_release(struct merge *mg)
{
	for (size_t i = 0; mg->src && i < mg->nsrc; i++) {
		csv_table_release(&mg->src[i].meta);
		csv_table_release(&mg->src[i].results);
	}
	free(mg->src);
	free(mg->rows);
	memset(mg, 0, sizeof(*mg));
}
