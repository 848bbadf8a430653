/* results.csv and timeline.csv: see results.h. */
#include "results.h"
#include "arrays.h"
#include "pattern.h"
#include "percentile.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* results.csv's columns after the cell's dimensions, rep, status and
 * error, in the file's order (older folders are read by these names): the
 * figures of a row (aggregate_row_figure), then started_at, then these
 * added later, then any metric of the table neither list names, then the
 * link's dimensions. */
static const char *const figure_cols[] = {
	"elapsed_s", "messages", "bytes", "msgs_per_s", "mib_per_s",
	"rtt_mean_us", "rtt_p50_us", "rtt_p90_us", "rtt_p99_us", "rtt_p999_us", "rtt_max_us",
	"client_cpu_s", "server_cpu_s", "cpu_us_per_msg", "ctx_switches",
	"rtt_min_us", "rtt_samples", "sent_messages", "sent_msgs_per_s", "sent_mib_per_s",
	"sndbuf", "rcvbuf", "nodelay", "max_rss_kib", "wall_s",
};

/* Columns added after started_at, in the order they were added: figures
 * and texts (write_later). */
static const char *const later_cols[] = {
	"lost", "duplicated", "reordered", "measured_by", "cpu_us_per_rtt", "start_spread_us",
	"start_offsets_us", "printed_metrics", "loadavg_before", "loadavg_after", "repeat_stop",
	"placement", "steal_pct", "iowait_pct", "runnable", "cpu_mhz", "other_cpus",
	/* the kernel's view of tcp and tcp6 connections (metrics; aggregate.h) */
	"tcp_retrans", "tcp_rtt_us", "tcp_rttvar_us", "tcp_cwnd", "tcp_delivery_rate",
	"tcp_bytes_retrans", "tcp_mss",
	"rev_messages", "rev_bytes", "rev_msgs_per_s", "rev_mib_per_s",
	"congestion", "mss",
	/* zerocopy: stream senders' MSG_ZEROCOPY (issue 29) */
	"zc_sends", "zc_completions", "zc_copied",
};

static const char *const timeline_cols[] = {
	"cell", "rep", "interval_start_s", "interval_s", "messages", "bytes", "covered_s",
	"rx_cpu_s", "tx_cpu_s",
};

static const char *const hist_cols[] = { "cell", "rep", "low_us", "high_us", "count" };

/* 1 when results.csv's own lists above name the metric; a metric of the
 * table they do not name (a line added to it later) gets a column of its
 * own after theirs (results_columns). */
static int listed(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(figure_cols); i++)
		if (!strcmp(figure_cols[i], name))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(later_cols); i++)
		if (!strcmp(later_cols[i], name))
			return 1;
	return 0;
}

/* The matrix's percentiles the metric table has no line for (percentile.h),
 * in its order, as indexes into m->percentiles: their columns come after
 * every other one.  How many. */
static size_t extra_percentiles(const struct matrix *m, size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < m->npercentiles; i++)
		if (percentile_metric(m->percentiles[i]) < 0)
			out[n++] = i;
	return n;
}

/* Those percentiles of the repetition's round trips (empty for a stream,
 * a failed row, record: totals, a program client): the merged histogram's,
 * as its rtt_p* figures are. */
static void write_percentiles(struct results_writer *w, const struct result_row *row,
			      const struct cell_outcome *o)
{
	size_t pct[PERCENTILE_MAX];
	size_t n = extra_percentiles(w->plan->m, pct);
	struct hist h;

	if (!n)
		return;
	if (row->ok)
		aggregate_rtt_hist(o, &h);
	for (size_t i = 0; i < n; i++)
		csv_out_double(&w->results, row->ok ? aggregate_rtt_percentile_us(&h, w->plan->m->percentiles[pct[i]]) : NAN,
			       10);
}

/* A later column of a row: a figure, or one of the texts. */
static void write_later(struct results_writer *w, const struct cell *c,
			const struct result_row *row, const char *col)
{
	char place[MATRIX_MAX_PLACEMENT];

	if (!strcmp(col, "measured_by"))
		csv_out_field(&w->results, row->measured_by);
	else if (!strcmp(col, "start_offsets_us"))
		csv_out_field(&w->results, row->start_offsets_us);
	else if (!strcmp(col, "printed_metrics"))
		csv_out_field(&w->results, row->printed_metrics);
	else if (!strcmp(col, "repeat_stop"))
		csv_out_field(&w->results, row->repeat_stop);
	else if (!strcmp(col, "congestion"))
		csv_out_field(&w->results, row->congestion);
	else if (!strcmp(col, "placement")) {
		plan_placement_text(w->plan, &c->p, place, sizeof(place));
		csv_out_field(&w->results, place);
	} else
		csv_out_double(&w->results, aggregate_row_figure(row, col), 10);
}

/* The cell's values of the dimensions of matrix: (link 0), or of
 * topology: link: (link 1), whose columns come last. */
static void write_dims(struct results_writer *w, const struct matrix *m, const struct cell *c,
		       int link)
{
	char buf[MATRIX_MAX_PLACEMENT];

	for (size_t d = 0; d < m->ndims; d++)
		if (matrix_dim_is_link(&m->dims[d]) == link) {
			matrix_format_value(&m->dims[d], &m->dims[d].values[c->choice[d]], buf,
					    sizeof(buf));
			csv_out_field(&w->results, buf);
		}
}

/* Which files besides results.csv the plan's cells write into. */
static void plan_files(struct results_writer *w, const struct plan *pl)
{
	for (size_t i = 0; i < pl->ncells; i++) {
		unsigned files = pattern_info(pl->cells[i].p.pattern)->files;
		w->has_timeline |= (files & PATTERN_FILE_TIMELINE) != 0;
		w->has_hist |= (files & PATTERN_FILE_HIST) != 0;
	}
}

/* DIR/NAME anew, with its header; -1 with err. */
static int create(struct csv_out *out, const char *dir, const char *name,
		  const char *const *cols, size_t n, char *err, size_t errlen)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (csv_out_open(out, path, "w", err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		csv_out_field(out, cols[i]);
	if (csv_out_end_row(out) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int results_open(struct results_writer *w, const char *dir, const struct plan *pl,
		 char *err, size_t errlen)
{
	char path[4096];

	memset(w, 0, sizeof(*w));
	w->plan = pl;
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	if (csv_out_open(&w->results, path, "w", err, errlen) < 0)
		return -1;
	const char *cols[512];
	size_t n = results_columns(pl, cols, 512);
	for (size_t i = 0; i < n && i < 512; i++)
		csv_out_field(&w->results, cols[i]);
	if (csv_out_end_row(&w->results) < 0) {
		/* no header, no run: an empty results.csv is no results.csv */
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		csv_out_close(&w->results);
		unlink(path);
		return -1;
	}
	plan_files(w, pl);
	if (w->has_timeline &&
	    create(&w->timeline, dir, "timeline.csv", timeline_cols, ARRAY_SIZE(timeline_cols), err,
		   errlen) < 0)
		return -1;
	if (w->has_hist &&
	    create(&w->hist, dir, "hist.csv", hist_cols, ARRAY_SIZE(hist_cols), err, errlen) < 0)
		return -1;
	return 0;
}

/* One row of timeline.csv: its figures (the CPU ones NaN, empty, when
 * not measured). */
struct tl_row {
	double start_s, interval_s;
	uint64_t messages, bytes;
	double covered_s, rx_cpu_s, tx_cpu_s;
};

/* One row of timeline.csv; on failure the file is cut back to start (the
 * repetition's first row: its rows go whole, or none), -1 with errno. */
static int timeline_row(struct results_writer *w, const struct cell *c, unsigned rep,
			off_t start, const struct tl_row *t)
{
	csv_out_u64(&w->timeline, c->number);
	csv_out_u64(&w->timeline, rep);
	csv_out_double(&w->timeline, t->start_s, 9);
	csv_out_double(&w->timeline, t->interval_s, 9);
	csv_out_u64(&w->timeline, t->messages);
	csv_out_u64(&w->timeline, t->bytes);
	csv_out_double(&w->timeline, t->covered_s, 9);
	csv_out_double(&w->timeline, t->rx_cpu_s, 9);
	csv_out_double(&w->timeline, t->tx_cpu_s, 9);
	if (csv_out_end_row(&w->timeline) < 0) {
		int e = errno;
		csv_out_cut_to(&w->timeline, start);
		errno = e;
		return -1;
	}
	return 0;
}

/* The senders' CPU in the receiver's interval i (of interval_ns): every
 * client's CPU timeline (on its own reading of the start signal) added at
 * the receiver's interval, which is a multiple of theirs (both pick theirs
 * alike, timeline.h; the senders end first).  NaN when no client has one,
 * or one's interval does not divide the receiver's. */
static double senders_cpu_s(const struct cell_outcome *o, size_t i, uint64_t interval_ns)
{
	uint64_t ns = 0;
	int any = 0;

	for (unsigned k = 0; k < o->nclients; k++) {
		const struct worker_result *w = &o->clients[k];
		if (!w->tl_has_cpu || !w->tl_interval_ns || !interval_ns)
			continue;
		if (interval_ns % w->tl_interval_ns)
			return NAN;
		uint64_t f = interval_ns / w->tl_interval_ns;
		for (size_t j = i * f; j < (i + 1) * f && j < w->tl_len; j++)
			ns += w->tl_cpu_ns[j];
		any = 1;
	}
	return any ? (double)ns / 1e9 : NAN;
}

static int write_timeline(struct results_writer *w, const struct cell *c, unsigned rep,
			  const struct cell_outcome *o)
{
	const struct worker_result *srv = &o->server;
	/* the receiver's own (auto: the one it picked), else the cell's */
	uint64_t interval_ns = srv->tl_interval_ns ? srv->tl_interval_ns : c->p.interval_ns;
	double interval = (double)interval_ns / 1e9;
	off_t start = w->timeline.good;

	for (size_t i = 0; i < srv->tl_len; i++) {
		struct tl_row t = { (double)i * interval, interval, srv->tl_messages[i],
				    srv->tl_bytes[i], interval, NAN, NAN };
		/* the last interval ends with the last message */
		if (i + 1 == srv->tl_len && srv->t0_ns && srv->end_ns > srv->t0_ns) {
			double end = (double)(srv->end_ns - srv->t0_ns) / 1e9 - (double)i * interval;
			if (end > 0 && end < interval)
				t.covered_s = end;
		}
		if (srv->tl_has_cpu && srv->tl_cpu_ns)
			t.rx_cpu_s = (double)srv->tl_cpu_ns[i] / 1e9;
		t.tx_cpu_s = senders_cpu_s(o, i, interval_ns);
		if (timeline_row(w, c, rep, start, &t) < 0)
			return -1;
	}
	return 0;
}

/* A program server's timeline: rows (prog_timeline.h), whole or none. */
static int write_prog_timeline(struct results_writer *w, const struct cell *c, unsigned rep,
			       const struct cell_outcome *o)
{
	off_t start = w->timeline.good;

	for (size_t i = 0; i < o->nprog_tl; i++) {
		const struct prog_tl_row *p = &o->prog_tl[i];
		struct tl_row t = { p->start_s, p->interval_s, p->messages,
				    p->messages * c->p.size, p->covered_s, NAN, NAN };
		if (timeline_row(w, c, rep, start, &t) < 0)
			return -1;
	}
	return 0;
}

/* How many adjacent buckets of h make one row of hist.csv, as a power of
 * two: the fewest that keep its rows within HIST_CSV_ROWS.  Pairs never
 * straddle an octave (HIST_SUB buckets, an even number), so 2^HIST_SUB_BITS
 * leaves one row per octave, HIST_MAX_BITS rows at most. */
static unsigned hist_level(const struct hist *h)
{
	unsigned k;

	for (k = 0; k < HIST_SUB_BITS; k++) {
		size_t rows = h->overflow > 0, last = SIZE_MAX;
		for (size_t i = 0; i < HIST_BUCKETS; i++)
			if (h->buckets[i] && i >> k != last) {
				last = i >> k;
				rows++;
			}
		if (rows <= HIST_CSV_ROWS)
			break;
	}
	return k;
}

/* ns as µs, exactly: 12288 ns is 12.288, 5000 ns is 5 */
static void csv_out_us(struct csv_out *w, uint64_t ns)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%llu.%03llu", (unsigned long long)(ns / 1000),
			 (unsigned long long)(ns % 1000));

	while (buf[n - 1] == '0')
		buf[--n] = '\0';
	if (buf[n - 1] == '.')
		buf[--n] = '\0';
	csv_out_field(w, buf);
}

static int hist_row(struct csv_out *out, unsigned cell, unsigned rep, uint64_t lo,
		    uint64_t end, uint64_t count)
{
	csv_out_u64(out, cell);
	csv_out_u64(out, rep);
	csv_out_us(out, lo);
	csv_out_us(out, end);
	csv_out_u64(out, count);
	return csv_out_end_row(out);
}

/* A repetition's round-trip times as rows of hist.csv: its non-empty
 * buckets in ascending order, [low_us, high_us) each, adjacent ones
 * merged as hist_level says; the overflow (values of 2^HIST_MAX_BITS ns
 * and more) as a last row up to the maximum.  The rows go whole, or none. */
static int write_hist(struct results_writer *w, unsigned cell, unsigned rep,
		      const struct hist *h)
{
	unsigned k = hist_level(h);
	off_t start = w->hist.good;
	uint64_t lo, hi, end;
	int rc = 0;

	for (size_t i = 0; i < HIST_BUCKETS && !rc; i++) {
		if (!h->buckets[i])
			continue;
		size_t first = i >> k << k, last = first + ((size_t)1 << k) - 1;
		uint64_t count = 0;
		for (; i <= last; i++)
			count += h->buckets[i];
		i--;
		hist_bucket_range(first, &lo, &hi);
		hist_bucket_range(last, &hi, &end);
		rc = hist_row(&w->hist, cell, rep, lo, end + 1, count);
	}
	if (!rc && h->overflow)
		rc = hist_row(&w->hist, cell, rep, (uint64_t)1 << HIST_MAX_BITS, h->max + 1,
			      h->overflow);
	if (rc) {
		int e = errno;
		csv_out_cut_to(&w->hist, start);
		errno = e;
	}
	return rc;
}

int results_write(struct results_writer *w, const struct cell *c, const struct result_row *row,
		  const struct cell_outcome *o, char *err, size_t errlen)
{
	const struct matrix *m = w->plan->m;
	off_t tl_start = w->has_timeline ? w->timeline.good : 0;
	off_t hist_start = w->has_hist ? w->hist.good : 0;
	unsigned files = pattern_info(c->p.pattern)->files;

	/* the timeline and hist rows first, the results row last: that row
	 * says the repetition is done, and a resume drops rows without one */
	if (row->ok && (files & PATTERN_FILE_TIMELINE) && w->has_timeline &&
	    (o->has_prog_tl ? write_prog_timeline(w, c, row->rep, o)
	     : write_timeline(w, c, row->rep, o)) < 0) {
		snprintf(err, errlen, "timeline.csv: %s", strerror(errno));
		return -1;
	}
	if (row->ok && (files & PATTERN_FILE_HIST) && w->has_hist) {
		struct hist h;
		aggregate_rtt_hist(o, &h);
		/* record: totals kept no buckets: no rows */
		if (h.count && !h.totals && write_hist(w, row->cell, row->rep, &h) < 0) {
			snprintf(err, errlen, "hist.csv: %s", strerror(errno));
			if (w->has_timeline)
				csv_out_cut_to(&w->timeline, tl_start);
			return -1;
		}
	}
	csv_out_u64(&w->results, row->cell);
	write_dims(w, m, c, 0);
	csv_out_u64(&w->results, row->rep);
	csv_out_field(&w->results, row->status);
	csv_out_field(&w->results, row->error);
	for (size_t i = 0; i < ARRAY_SIZE(figure_cols); i++)
		csv_out_double(&w->results, aggregate_row_figure(row, figure_cols[i]), 10);
	csv_out_field(&w->results, row->started_at);
	for (size_t i = 0; i < ARRAY_SIZE(later_cols); i++)
		write_later(w, c, row, later_cols[i]);
	for (int i = 0; i < MATRIX_NMETRICS; i++)
		if (!listed(metrics[i].name))
			csv_out_double(&w->results, aggregate_row_figure(row, metrics[i].name), 10);
	if (m->topology.netns)
		csv_out_double(&w->results, row->link_cpu_s, 10);
	write_dims(w, m, c, 1);
	write_percentiles(w, row, o);
	if (csv_out_end_row(&w->results) < 0) {
		snprintf(err, errlen, "results.csv: %s", strerror(errno));
		if (w->has_timeline)
			csv_out_cut_to(&w->timeline, tl_start);
		if (w->has_hist)
			csv_out_cut_to(&w->hist, hist_start);
		return -1;
	}
	w->rows++;
	return 0;
}

int results_close(struct results_writer *w)
{
	int rc = csv_out_close(&w->results);

	if (w->has_timeline && csv_out_close(&w->timeline) < 0)
		rc = -1;
	if (w->has_hist && csv_out_close(&w->hist) < 0)
		rc = -1;
	return rc;
}

size_t results_columns(const struct plan *pl, const char **names, size_t max)
{
	const size_t nfig = ARRAY_SIZE(figure_cols);
	const size_t nlater = ARRAY_SIZE(later_cols);
	size_t n = 0;

#define ADD(s) do { if (n < max) names[n] = (s); n++; } while (0)
	ADD("cell");
	for (size_t d = 0; d < pl->m->ndims; d++)
		if (!matrix_dim_is_link(&pl->m->dims[d]))
			ADD(pl->m->dims[d].key);
	ADD("rep");
	ADD("status");
	ADD("error");
	for (size_t i = 0; i < nfig; i++)
		ADD(figure_cols[i]);
	ADD("started_at");
	for (size_t i = 0; i < nlater; i++)
		ADD(later_cols[i]);
	for (int i = 0; i < MATRIX_NMETRICS; i++)	/* a metric added to the table */
		if (!listed(metrics[i].name))
			ADD(metrics[i].name);
	if (pl->m->topology.netns)	/* the link process's CPU, then link:'s keys */
		ADD("link_cpu_s");
	for (size_t d = 0; d < pl->m->ndims; d++)	/* topology: link:, after placement */
		if (matrix_dim_is_link(&pl->m->dims[d]))
			ADD(pl->m->dims[d].key);
	size_t pct[PERCENTILE_MAX];	/* percentiles:, last of all */
	for (size_t i = 0, np = extra_percentiles(pl->m, pct); i < np; i++)
		ADD(pl->m->percentile_cols[pct[i]]);
#undef ADD
	return n;
}

/* Opens path to append to; a file that is missing or empty (its run was
 * killed before it was made) gets its header first.  0, or -1 with err. */
static int open_append(struct csv_out *w, const char *path, const char *const *cols, size_t n,
		       char *err, size_t errlen)
{
	struct stat st;
	int fresh = stat(path, &st) < 0 || st.st_size == 0;

	if (csv_out_open(w, path, "a", err, errlen) < 0)
		return -1;
	for (size_t i = 0; fresh && i < n; i++)
		csv_out_field(w, cols[i]);
	if (fresh && csv_out_end_row(w) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		csv_out_close(w);
		return -1;
	}
	return 0;
}

int results_reopen(struct results_writer *w, const char *dir, const struct plan *pl,
		   char *err, size_t errlen)
{
	const char *cols[512];
	size_t n = results_columns(pl, cols, 512);
	char path[4096];

	memset(w, 0, sizeof(*w));
	w->plan = pl;
	plan_files(w, pl);
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	if (n > 512) {
		snprintf(err, errlen, "%s: too many columns", path);
		return -1;
	}
	if (open_append(&w->results, path, cols, n, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/timeline.csv", dir);
	if (w->has_timeline &&
	    open_append(&w->timeline, path, timeline_cols, ARRAY_SIZE(timeline_cols), err, errlen) < 0) {
		csv_out_close(&w->results);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/hist.csv", dir);
	if (w->has_hist &&
	    open_append(&w->hist, path, hist_cols, ARRAY_SIZE(hist_cols), err, errlen) < 0) {
		csv_out_close(&w->results);
		if (w->has_timeline)
			csv_out_close(&w->timeline);
		return -1;
	}
	return 0;
}
