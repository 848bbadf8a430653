/* results.csv read back into the report's cells: see report_results.h. */
#include "report_results.h"
#include "arrays.h"
#include "fieldnum.h"
#include "report.h"
#include "report_state.h"
#include "provenance.h"
#include "csvfile.h"
#include "pattern.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns of results.csv that hold a number, besides the metrics
 * (results.h): every one a figure >= 0 (a count, a rate, a time, a
 * duration, a load), empty in a row that has none. */
static const char *const number_cols[] = {
	"elapsed_s", "messages", "bytes", "sndbuf", "rcvbuf", "nodelay", "max_rss_kib", "wall_s",
	"lost", "duplicated", "reordered", "rtt_samples", "sent_messages", "start_spread_us",
	"loadavg_before", "loadavg_after", "steal_pct", "iowait_pct", "runnable", "cpu_mhz",
	"other_cpus", "rev_messages", "rev_bytes", "rev_msgs_per_s", "rev_mib_per_s", "mss", "zc_sends", "zc_completions", "zc_copied",
};

static int out_of_memory(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: out of memory", path);
	return -1;
}

/* ---- a map from a number (a cell's; a cell and repetition's) to an index ---- */

struct nmap {
	uint64_t *keys;
	size_t *vals;		/* SIZE_MAX: a free slot */
	size_t cap, n;
};

static size_t nmap_slot(const struct nmap *m, uint64_t key)
{
	size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (m->cap - 1);

	while (m->vals[h] != SIZE_MAX && m->keys[h] != key)
		h = (h + 1) & (m->cap - 1);
	return h;
}

/* key's index, or SIZE_MAX */
static size_t nmap_get(const struct nmap *m, uint64_t key)
{
	return m->cap ? m->vals[nmap_slot(m, key)] : SIZE_MAX;
}

/* key -> val (key not in m yet); -1 when out of memory */
static int nmap_put(struct nmap *m, uint64_t key, size_t val)
{
	if (2 * (m->n + 1) > m->cap) {
		struct nmap g = { .cap = m->cap ? 2 * m->cap : 64 };
		g.keys = malloc(g.cap * sizeof(*g.keys));
		g.vals = malloc(g.cap * sizeof(*g.vals));
		if (!g.keys || !g.vals) {
			free(g.keys);
			free(g.vals);
			return -1;
		}
		for (size_t i = 0; i < g.cap; i++)
			g.vals[i] = SIZE_MAX;
		for (size_t i = 0; i < m->cap; i++)
			if (m->vals[i] != SIZE_MAX) {
				size_t h = nmap_slot(&g, m->keys[i]);
				g.keys[h] = m->keys[i];
				g.vals[h] = m->vals[i];
			}
		g.n = m->n;
		free(m->keys);
		free(m->vals);
		*m = g;
	}
	size_t h = nmap_slot(m, key);
	m->keys[h] = key;
	m->vals[h] = val;
	m->n++;
	return 0;
}

static void nmap_release(struct nmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* Where results.csv keeps what the report reads. */
struct columns {
	int rep, status;
	int pattern;			/* -1: no pattern column (pingpong) */
	int metric[MATRIX_NMETRICS];	/* -1: an older file without it */
	int extra[PERCENTILE_MAX];	/* the matrix's percentiles: (report_pct.h); -1: likewise */
	int lost, rtt_samples;		/* -1: likewise */
	int zc[3];			/* zc_sends, zc_completions, zc_copied; -1: likewise */
	int measured_by, printed_metrics;	/* -1: likewise */
	int elapsed;			/* elapsed_s; -1 when missing */
	int placement;			/* -1: likewise */
	int repeat_stop;		/* -1: likewise */
	int rev_msgs, rev_mib;		/* rev_msgs_per_s, rev_mib_per_s; -1: likewise */
	struct rstate_cols state;	/* the machine's (report_state.h) */
};

/* The columns of results.csv, and its dimension names (the columns between
 * cell and rep) into r; -1 with err. */
static int read_columns(struct report *r, const struct csv_table *t, const char *path,
			struct columns *col, char *err, size_t errlen)
{
	col->rep = csv_table_col(t, "rep");
	col->status = csv_table_col(t, "status");
	if (csv_table_col(t, "cell") != 0 || col->rep < 1 || col->status < 0) {
		snprintf(err, errlen, "%s:1: not a matrix results file: expected columns cell, ..., "
			 "rep, status", path);
		return -1;
	}
	r->ndims = (size_t)col->rep - 1;
	r->dimnames = calloc(t->ncols + 1, sizeof(*r->dimnames));
	r->dimcol = calloc(t->ncols + 1, sizeof(*r->dimcol));
	if (!r->dimnames || !r->dimcol)
		return out_of_memory(path, err, errlen);
	for (size_t d = 0; d < r->ndims; d++)
		r->dimcol[d] = d + 1;
	/* topology: link: values, last (results.h) */
	for (size_t i = (size_t)col->rep + 1; i < t->ncols; i++) {
		const struct dimension *dim = matrix_dim(&r->m, t->header[i]);
		if (dim && matrix_dim_is_link(dim))
			r->dimcol[r->ndims++] = i;
	}
	for (size_t d = 0; d < r->ndims; d++)
		if (!(r->dimnames[d] = strdup(t->header[r->dimcol[d]])))
			return out_of_memory(path, err, errlen);
	col->pattern = csv_table_col(t, "pattern");
	if (col->pattern >= col->rep)
		col->pattern = -1;
	for (size_t m = 0; m < MATRIX_NMETRICS; m++)
		col->metric[m] = csv_table_col(t, matrix_metrics[m]);
	for (size_t x = 0; x < r->nextra; x++)
		col->extra[x] = csv_table_col(t, r->pct[r->extra[x]].name);
	col->lost = csv_table_col(t, "lost");
	col->rtt_samples = csv_table_col(t, "rtt_samples");
	col->zc[0] = csv_table_col(t, "zc_sends");
	col->zc[1] = csv_table_col(t, "zc_completions");
	col->zc[2] = csv_table_col(t, "zc_copied");
	col->measured_by = csv_table_col(t, "measured_by");
	col->printed_metrics = csv_table_col(t, "printed_metrics");
	col->elapsed = csv_table_col(t, "elapsed_s");
	col->placement = csv_table_col(t, "placement");
	col->repeat_stop = csv_table_col(t, "repeat_stop");
	col->rev_msgs = csv_table_col(t, "rev_msgs_per_s");
	col->rev_mib = csv_table_col(t, "rev_mib_per_s");
	report_state_columns(t, &col->state);
	r->before_stream_fix = col->metric[matrix_metric_index("cpu_us_per_rtt")] < 0;
	return 0;
}

/* A file from before cpu_us_per_rtt was a column kept the CPU per round
 * trip of a pingpong or echo row in cpu_us_per_msg: that figure is now
 * cpu_us_per_rtt, and cpu_us_per_msg is half of it (a round trip is two
 * messages).  A stream row's figure was per message already. */
static void older_cpu_figures(char **row, const struct columns *col, double *v)
{
	int per_msg = matrix_metric_index("cpu_us_per_msg");
	int per_rtt = matrix_metric_index("cpu_us_per_rtt");

	if (col->metric[per_rtt] >= 0 || (col->pattern >= 0 && pattern_named_one_way(row[col->pattern])))
		return;
	v[per_rtt] = v[per_msg];
	v[per_msg] = v[per_msg] / 2;
}

/* Who measured a successful repetition, already counted in c->nokreps:
 * its measured_by into the cell's, and for each figure v[m] it has, whether
 * a program printed it (printed[m]) or the runner timed the program's whole
 * process (outside[m]), as provenance.h reads the row. */
static void add_provenance(struct rcell *c, char **row, const struct columns *col,
			   const double *v)
{
	const char *by = col->measured_by >= 0 ? row[col->measured_by] : NULL;
	const char *printed = col->printed_metrics >= 0 ? row[col->printed_metrics] : NULL;

	if (by) {
		if (c->nokreps == 1)
			snprintf(c->measured_by, sizeof(c->measured_by), "%s", by);
		else if (strcmp(c->measured_by, by))
			snprintf(c->measured_by, sizeof(c->measured_by), "mixed");
	}
	for (int m = 0; m < MATRIX_NMETRICS; m++) {
		if (isnan(v[m]))
			continue;
		switch (provenance_of(by, printed, m)) {
		case PROV_PRINTED:
			c->printed[m]++;
			break;
		case PROV_PROCESS:
			c->outside[m]++;
			break;
		case PROV_WORKER:
			break;
		}
	}
}

/* A dimension's values as results.csv writes them (matrix_format_value),
 * from the folder's matrix.yaml; known 0 for a column the matrix has no
 * dimension of (its values are not checked). */
struct dimvals {
	char **v;
	size_t n;
	int known;
};

/* A cell's failed repetitions by status: the first STATUS_REASONS distinct
 * ones (copies), in the order met, each with its count; the rest counted. */
#define STATUS_REASONS 3
struct failures {
	char *why[STATUS_REASONS];
	size_t n[STATUS_REASONS], nwhy, others;
};

/* results.csv being read: what the rows before this one left. */
struct loading {
	struct report *r;
	const char *path;
	struct columns col;
	size_t ncols;
	char **names;		/* the header, kept for the messages */
	unsigned char *number;	/* by column: 1 for a figure (number_cols, a metric) */
	double *vals;		/* by column: the row's figure, NaN when empty */
	struct dimvals *dv;	/* by dimension (r->dimnames) */
	struct failures *fails;	/* by cell index: its failures' statuses */
	unsigned long *first_line;	/* by cell index: the line of its first row */
	size_t cells_cap, reps_cap;
	struct nmap dims;	/* a hash of a cell's dimension values -> its index */
	struct nmap cells;	/* cell number -> index into r->cells */
	struct nmap reps;	/* cell << 32 | rep -> index into r->reps */
};

/* The values of every dimension of r->dimnames that matrix.yaml has. */
static int dim_values(struct loading *ld)
{
	struct report *r = ld->r;
	char buf[MATRIX_MAX_PLACEMENT];

	if (!(ld->dv = calloc(r->ndims + 1, sizeof(*ld->dv))))
		return -1;
	for (size_t d = 0; d < r->ndims; d++) {
		const struct dimension *dim = matrix_dim(&r->m, r->dimnames[d]);
		if (!dim)
			continue;
		ld->dv[d].known = 1;
		if (!(ld->dv[d].v = calloc(dim->nvalues + 1, sizeof(char *))))
			return -1;
		for (size_t i = 0; i < dim->nvalues; i++, ld->dv[d].n++) {
			matrix_format_value(dim, &dim->values[i], buf, sizeof(buf));
			if (!(ld->dv[d].v[i] = strdup(buf)))
				return -1;
		}
	}
	return 0;
}

/* csv_read's header: the columns, the figures among them, and the
 * dimensions' values. */
static int on_header(void *ctx, char **fields, size_t n, char *err, size_t errlen)
{
	struct loading *ld = ctx;
	const struct csv_table hdr = { .header = fields, .ncols = n };

	if (read_columns(ld->r, &hdr, ld->path, &ld->col, err, errlen) < 0)
		return -1;
	ld->ncols = n;
	ld->names = calloc(n + 1, sizeof(*ld->names));
	ld->number = calloc(n + 1, 1);
	ld->vals = calloc(n + 1, sizeof(*ld->vals));
	if (!ld->names || !ld->number || !ld->vals || dim_values(ld) < 0)
		return out_of_memory(ld->path, err, errlen);
	for (size_t c = 0; c < n; c++)
		if (!(ld->names[c] = strdup(fields[c])))
			return out_of_memory(ld->path, err, errlen);
	for (size_t m = 0; m < MATRIX_NMETRICS; m++)
		if (ld->col.metric[m] >= 0)
			ld->number[ld->col.metric[m]] = 1;
	for (size_t x = 0; x < ld->r->nextra; x++)
		if (ld->col.extra[x] >= 0)
			ld->number[ld->col.extra[x]] = 1;
	/* after rep: a dimension may have a figure's name (nodelay) */
	for (size_t c = (size_t)ld->col.rep + 1; c < n; c++)
		for (size_t k = 0; k < ARRAY_SIZE(number_cols); k++)
			ld->number[c] |= !strcmp(fields[c], number_cols[k]);
	return 0;
}

/* A cell or repetition number of row line `line`: a whole number from
 * `least` up to UINT32_MAX.  -1 with err. */
static int whole(const struct loading *ld, const char *s, const char *name, unsigned least,
		 unsigned long line, unsigned *out, char *err, size_t errlen)
{
	double v;

	if (fieldnum_read(s, FIELDNUM_WHOLE, 0, &v, ld->path, line, name, err, errlen) < 0)
		return -1;
	if (v < least) {
		snprintf(err, errlen, "%s:%lu: %s %.0f: repetitions count from %u", ld->path, line,
			 name, v, least);
		return -1;
	}
	if (v > UINT32_MAX) {
		snprintf(err, errlen, "%s:%lu: %s %.0f is above %u, the most it can be", ld->path,
			 line, name, v, UINT32_MAX);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

/* Every figure of the row into ld->vals, each read strictly (fieldnum.h);
 * -1 with err naming the first that is none. */
static int read_figures(struct loading *ld, char **row, unsigned long line, char *err,
			size_t errlen)
{
	for (size_t c = 0; c < ld->ncols; c++) {
		ld->vals[c] = NAN;
		if (ld->number[c] && fieldnum_read(row[c], FIELDNUM_AMOUNT, 1, &ld->vals[c], ld->path,
						   line, ld->names[c], err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* The row's dimension values, each one its dimension has in matrix.yaml
 * (a value it has not, a transport "tcp\n...", is no cell of this run);
 * -1 with err. */
static int check_dims(const struct loading *ld, char **row, unsigned long line, char *err,
		      size_t errlen)
{
	const struct report *r = ld->r;
	char shown[256];

	for (size_t d = 0; d < r->ndims; d++) {
		const struct dimvals *dv = &ld->dv[d];
		const char *v = row[r->dimcol[d]];
		size_t i = 0;
		while (dv->known && i < dv->n && strcmp(dv->v[i], v))
			i++;
		if (dv->known && i == dv->n) {
			snprintf(err, errlen, "%s:%lu: %s '%s' is not a value of %s in %s: a row of "
				 "another matrix, or an edit", ld->path, line, r->dimnames[d],
				 fieldnum_show(v, shown, sizeof(shown)), r->dimnames[d], r->m.path);
			return -1;
		}
	}
	return 0;
}

/* FNV-1a of a row's dimension values, each with its NUL. */
static uint64_t dims_hash(const struct report *r, char **row)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t d = 0; d < r->ndims; d++)
		for (const char *p = row[r->dimcol[d]];; p++) {
			h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
			if (!*p)
				break;
		}
	return h;
}

/* A new cell's dimension values are no other cell's: a plan gives each
 * cell values of its own, so two numbers of one cell are rows of
 * another run or an edit (and would draw two lines where one is).  -1
 * with err. */
static int own_dims(struct loading *ld, char **row, unsigned number, unsigned long line,
		    char *err, size_t errlen)
{
	const struct report *r = ld->r;
	uint64_t h = dims_hash(r, row);
	size_t j = nmap_get(&ld->dims, h), d = 0;

	while (j != SIZE_MAX && d < r->ndims && !strcmp(r->cells[j].dims[d], row[r->dimcol[d]]))
		d++;
	if (j != SIZE_MAX && d == r->ndims) {
		snprintf(err, errlen, "%s:%lu: cell %u has the dimension values of cell %u (line "
			 "%lu): one cell under two numbers, rows of another run or an edit", ld->path,
			 line, number, r->cells[j].number, ld->first_line[j]);
		return -1;
	}
	/* a hash two cells share (never seen) leaves the second unchecked */
	if (j == SIZE_MAX && nmap_put(&ld->dims, h, r->ncells) < 0)
		return out_of_memory(ld->path, err, errlen);
	return 0;
}

/* The index of cell `number` in r->cells, made from the row (line
 * `line`) when it is new, into *ci; -1 with err. */
/* One more failed repetition of status why; -1: out of memory. */
static int failures_add(struct failures *f, const char *why)
{
	size_t i = 0;

	while (i < f->nwhy && strcmp(f->why[i], why))
		i++;
	if (i < f->nwhy)
		f->n[i]++;
	else if (f->nwhy == STATUS_REASONS)
		f->others++;
	else if (!(f->why[f->nwhy] = strdup(why)))
		return -1;
	else
		f->n[f->nwhy++] = 1;
	return 0;
}

static int cell_for(struct loading *ld, unsigned number, char **row, unsigned long line,
		    size_t *ci, char *err, size_t errlen)
{
	struct report *r = ld->r;

	if ((*ci = nmap_get(&ld->cells, number)) != SIZE_MAX)
		return 0;
	if (own_dims(ld, row, number, line, err, errlen) < 0)
		return -1;
	if (r->ncells == ld->cells_cap) {
		size_t cap = ld->cells_cap ? 2 * ld->cells_cap : 16;
		struct rcell *cells = realloc(r->cells, cap * sizeof(*cells));
		struct failures *ff = cells ? realloc(ld->fails, cap * sizeof(*ff)) : NULL;
		unsigned long *fl = ff ? realloc(ld->first_line, cap * sizeof(*fl)) : NULL;
		if (cells)
			r->cells = cells;
		if (ff)
			ld->fails = ff;
		if (fl)
			ld->first_line = fl;
		if (!cells || !ff || !fl)
			return out_of_memory(ld->path, err, errlen);
		ld->cells_cap = cap;
	}
	struct rcell *c = &r->cells[r->ncells];
	memset(c, 0, sizeof(*c));
	memset(&ld->fails[r->ncells], 0, sizeof(*ld->fails));
	ld->first_line[r->ncells] = line;
	c->number = number;
	c->lost = c->rtt_samples = NAN;
	c->zc_sends = c->zc_completions = c->zc_copied = NAN;
	r->ncells++;	/* report_release frees what it holds from here on */
	if (!(c->dims = calloc(r->ndims + 1, sizeof(*c->dims))))
		return out_of_memory(ld->path, err, errlen);
	for (size_t d = 0; d < r->ndims; d++)
		if (!(c->dims[d] = strdup(row[r->dimcol[d]])))
			return out_of_memory(ld->path, err, errlen);
	*ci = r->ncells - 1;
	return nmap_put(&ld->cells, number, *ci) < 0 ? out_of_memory(ld->path, err, errlen) : 0;
}

/* The row's repetition into r->reps, refused when the file has it
 * already; -1 with err. */
static int add_rep(struct loading *ld, unsigned cell, unsigned rep, unsigned long line,
		   char *err, size_t errlen)
{
	struct report *r = ld->r;
	uint64_t key = (uint64_t)cell << 32 | rep;
	size_t was = nmap_get(&ld->reps, key);

	if (was != SIZE_MAX) {
		snprintf(err, errlen, "%s:%lu: cell %u repetition %u again: line %lu has it already "
			 "(rows written twice, by hand or by a merge?)", ld->path, line, cell, rep,
			 r->reps[was].line);
		return -1;
	}
	if (r->nreps == ld->reps_cap) {
		size_t cap = ld->reps_cap ? 2 * ld->reps_cap : 64;
		struct rrep *reps = realloc(r->reps, cap * sizeof(*reps));
		if (!reps)
			return out_of_memory(ld->path, err, errlen);
		r->reps = reps;
		ld->reps_cap = cap;
	}
	r->reps[r->nreps] = (struct rrep){ .cell = cell, .rep = rep, .line = line, .ok = -1,
					   .rtt_samples = NAN };
	if (nmap_put(&ld->reps, key, r->nreps) < 0)
		return out_of_memory(ld->path, err, errlen);
	r->nreps++;
	return 0;
}

/* A figure of the row (column col, -1 for none) added to *sum, which
 * stays NaN until a repetition has it. */
static void add_count(double *sum, const struct loading *ld, int col)
{
	double v = col >= 0 ? ld->vals[col] : NAN;

	if (!isnan(v))
		*sum = isnan(*sum) ? v : *sum + v;
}

/* A successful repetition (rep) added to its cell: its number, and every
 * figure it has (read_figures); -1 with err. */
static int add_ok_rep(struct loading *ld, struct rcell *c, char **row, unsigned rep,
		      char *err, size_t errlen)
{
	const struct columns *col = &ld->col;
	unsigned *ok = realloc(c->okreps, (c->nokreps + 1) * sizeof(*ok));
	if (!ok)
		return out_of_memory(ld->path, err, errlen);
	c->okreps = ok;
	ok[c->nokreps++] = rep;
	struct rrep *rr = &ld->r->reps[ld->r->nreps - 1];
	rr->ok = (long)c->nokreps - 1;
	rr->rtt_samples = col->rtt_samples >= 0 ? ld->vals[col->rtt_samples] : NAN;
	add_count(&c->lost, ld, col->lost);
	add_count(&c->rtt_samples, ld, col->rtt_samples);
	if (col->rev_msgs >= 0 && col->rev_mib >= 0 && !isnan(ld->vals[col->rev_msgs]) &&
	    !isnan(ld->vals[col->rev_mib])) {	/* direction: bidir */
		c->rev_msgs_per_s += ld->vals[col->rev_msgs];
		c->rev_mib_per_s += ld->vals[col->rev_mib];
		c->rev_reps++;
	}
	add_count(&c->zc_sends, ld, col->zc[0]);
	add_count(&c->zc_completions, ld, col->zc[1]);
	add_count(&c->zc_copied, ld, col->zc[2]);
	if (col->elapsed >= 0 && !isnan(ld->vals[col->elapsed])) {
		double *nv = realloc(c->elapsed, (c->nelapsed + 1) * sizeof(*nv));
		if (!nv)
			return out_of_memory(ld->path, err, errlen);
		c->elapsed = nv;
		nv[c->nelapsed++] = ld->vals[col->elapsed];
	}
	for (size_t x = 0; x < ld->r->nextra; x++) {	/* percentiles: beyond the table's */
		double *nv, xv = col->extra[x] >= 0 ? ld->vals[col->extra[x]] : NAN;
		if (isnan(xv))
			continue;
		if (!(nv = realloc(c->xvals[x], (c->xst[x].n + 1) * sizeof(*nv))))
			return out_of_memory(ld->path, err, errlen);
		c->xvals[x] = nv;
		nv[c->xst[x].n++] = xv;	/* counts until summarized */
	}
	double v[MATRIX_NMETRICS];
	for (size_t m = 0; m < MATRIX_NMETRICS; m++)
		v[m] = col->metric[m] >= 0 ? ld->vals[col->metric[m]] : NAN;
	older_cpu_figures(row, col, v);
	add_provenance(c, row, col, v);
	for (size_t m = 0; m < MATRIX_NMETRICS; m++) {
		if (isnan(v[m]))
			continue;
		double *nv = realloc(c->vals[m], (c->st[m].n + 1) * sizeof(*nv));
		if (!nv)
			return out_of_memory(ld->path, err, errlen);
		c->vals[m] = nv;
		unsigned *nr = realloc(c->valrep[m], (c->st[m].n + 1) * sizeof(*nr));
		if (!nr)
			return out_of_memory(ld->path, err, errlen);
		c->valrep[m] = nr;
		nr[c->st[m].n] = rep;
		nv[c->st[m].n++] = v[m];	/* st[m].n counts until summarized */
	}
	return 0;
}

/* csv_read's row: read into its cell; a failed one counted, and its
 * status kept when it is the cell's first failure.  -1 with err. */
static int on_row(void *ctx, char **row, unsigned long line, char *err, size_t errlen)
{
	struct loading *ld = ctx;
	struct report *r = ld->r;
	const struct columns *col = &ld->col;
	unsigned number, rep;

	if (whole(ld, row[0], "cell", 0, line, &number, err, errlen) < 0 ||
	    whole(ld, row[col->rep], "rep", 1, line, &rep, err, errlen) < 0 ||
	    read_figures(ld, row, line, err, errlen) < 0 || check_dims(ld, row, line, err, errlen) < 0)
		return -1;
	size_t ci;
	if (cell_for(ld, number, row, line, &ci, err, errlen) < 0)
		return -1;
	struct rcell *c = &r->cells[ci];
	for (size_t d = 0; d < r->ndims; d++)
		if (strcmp(c->dims[d], row[r->dimcol[d]])) {
			char shown[256];
			snprintf(err, errlen, "%s:%lu: cell %u has %s %s here but %s above: rows of "
				 "another matrix?", ld->path, line, number, r->dimnames[d],
				 fieldnum_show(row[r->dimcol[d]], shown, sizeof(shown)), c->dims[d]);
			return -1;
		}
	if (add_rep(ld, number, rep, line, err, errlen) < 0)
		return -1;
	int ok = !strcmp(row[col->status], "ok");
	if (report_state_add_row(r, c, row, &col->state, ok) < 0)
		return out_of_memory(ld->path, err, errlen);
	const char *place = col->placement >= 0 ? row[col->placement] : "none";
	if (!c->reps)
		snprintf(c->placement, sizeof(c->placement), "%s", place);
	else if (strcmp(c->placement, place))
		snprintf(c->placement, sizeof(c->placement), "mixed");
	if (col->repeat_stop >= 0 && row[col->repeat_stop][0])
		snprintf(c->repeat_stop, sizeof(c->repeat_stop), "%s", row[col->repeat_stop]);
	c->reps++;
	if (!ok) {
		c->failed++;
		return failures_add(&ld->fails[ci], row[col->status]) < 0 ?
		       out_of_memory(ld->path, err, errlen) : 0;
	}
	return add_ok_rep(ld, c, row, rep, err, errlen);
}

/* "ok"; "ok, 1 of 3 failed (timeout)"; every repetition failed: the
 * reason, "timeout (all 3)", "timeout ×2; exit 1 ×1 (all 3)", with at
 * most STATUS_REASONS reasons named (each cut at 80 bytes: 3 fit in why),
 * then "other reasons ×K". */
static int set_status(struct rcell *c, const struct failures *f)
{
	char buf[512], why[400] = "";
	size_t ok = c->reps - c->failed, o = 0;

	for (size_t i = 0; i < f->nwhy && o < sizeof(why); i++)
		if (f->nwhy > 1 || f->others)	/* counted only beside another */
			o += (size_t)snprintf(why + o, sizeof(why) - o, "%s%.80s ×%zu", i ? "; " : "",
					      f->why[i], f->n[i]);
		else
			o += (size_t)snprintf(why + o, sizeof(why) - o, "%.80s", f->why[i]);
	if (f->others && o < sizeof(why))
		snprintf(why + o, sizeof(why) - o, "; other reasons ×%zu", f->others);
	if (!c->failed)
		snprintf(buf, sizeof(buf), "ok");
	else if (!ok && c->reps == 1)
		snprintf(buf, sizeof(buf), "%s", why);
	else if (!ok)
		snprintf(buf, sizeof(buf), "%s (all %zu)", why, c->reps);
	else
		snprintf(buf, sizeof(buf), "ok, %zu of %zu failed (%s)", c->failed, c->reps, why);
	c->status = strdup(buf);
	return c->status ? 0 : -1;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct rcell *x = a, *y = b;

	return (x->number > y->number) - (x->number < y->number);
}

static int cmp_rep(const void *a, const void *b)
{
	const struct rrep *x = a, *y = b;

	if (x->cell != y->cell)
		return x->cell < y->cell ? -1 : 1;
	return (x->rep > y->rep) - (x->rep < y->rep);
}

/* The cells sorted by number, the repetitions by cell and number, each
 * with its cell's index. */
static void sort_cells(struct report *r)
{
	if (r->ncells)
		qsort(r->cells, r->ncells, sizeof(*r->cells), cmp_cell);
	if (r->nreps)
		qsort(r->reps, r->nreps, sizeof(*r->reps), cmp_rep);
	for (size_t i = 0, ci = 0; i < r->nreps; i++) {
		while (r->cells[ci].number != r->reps[i].cell)
			ci++;	/* both in number order; every rep's cell is there */
		r->reps[i].ci = ci;
	}
}

const struct rrep *report_find_rep(const struct report *r, unsigned cell, unsigned rep)
{
	const struct rrep key = { .cell = cell, .rep = rep };

	return r->nreps ? bsearch(&key, r->reps, r->nreps, sizeof(*r->reps), cmp_rep) : NULL;
}

static void loading_release(struct loading *ld)
{
	for (size_t d = 0; ld->dv && d < ld->r->ndims; d++) {
		for (size_t i = 0; i < ld->dv[d].n; i++)
			free(ld->dv[d].v[i]);
		free(ld->dv[d].v);
	}
	for (size_t c = 0; ld->names && c < ld->ncols; c++)
		free(ld->names[c]);
	for (size_t i = 0; ld->fails && i < ld->r->ncells; i++)
		for (size_t k = 0; k < ld->fails[i].nwhy; k++)
			free(ld->fails[i].why[k]);
	free(ld->fails);
	free(ld->first_line);
	free(ld->dv);
	free(ld->names);
	free(ld->number);
	free(ld->vals);
	nmap_release(&ld->cells);
	nmap_release(&ld->reps);
	nmap_release(&ld->dims);
}

int report_results_load(struct report *r, char *err, size_t errlen)
{
	char path[4096];
	struct loading ld = { .r = r, .path = path };
	const struct csv_rows cb = { .header = on_header, .row = on_row, .ctx = &ld };
	int rc = -1;

	snprintf(path, sizeof(path), "%s/results.csv", r->dir);
	if (csv_read(path, CSV_DROP_UNFINISHED, &cb, &r->dropped_row, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < r->ncells; i++)
		if (set_status(&r->cells[i], &ld.fails[i])) {
			out_of_memory(path, err, errlen);
			goto out;
		}
	sort_cells(r);
	rc = 0;
out:
	loading_release(&ld);
	return rc;
}
