/* Result records -> one row of figures: see aggregate.h. */
#include "aggregate.h"
#include "arrays.h"
#include "clock.h"
#include "pattern.h"
#include "plan.h"
#include "program.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the cell's pattern is (pattern.h): who times it, what comes back. */
static const struct pattern_info *pattern_of(const struct cell *c)
{
	return pattern_info(c->p.pattern);
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/* Every figure of a row, by name: the metrics, one line each in the
 * metric table (vocab.h), and the counts and facts beside them. */
#define ROW_FIELD(n) { #n, offsetof(struct result_row, n) },
#define METRIC_FIELD(n, t, u, b, cb, ph, what) ROW_FIELD(n)
static const struct {
	const char *name;
	size_t off;
} row_fields[] = {
	MATRIX_METRICS(METRIC_FIELD)
	ROW_FIELD(elapsed_s) ROW_FIELD(messages) ROW_FIELD(bytes) ROW_FIELD(rtt_min_us)
	ROW_FIELD(rtt_samples) ROW_FIELD(sent_messages) ROW_FIELD(sent_mib_per_s)
	ROW_FIELD(client_cpu_s) ROW_FIELD(server_cpu_s) ROW_FIELD(ctx_switches)
	ROW_FIELD(max_rss_kib) ROW_FIELD(sndbuf) ROW_FIELD(rcvbuf) ROW_FIELD(nodelay)
	ROW_FIELD(wall_s) ROW_FIELD(lost) ROW_FIELD(duplicated) ROW_FIELD(reordered)
	ROW_FIELD(start_spread_us) ROW_FIELD(loadavg_before) ROW_FIELD(loadavg_after)
	ROW_FIELD(steal_pct) ROW_FIELD(iowait_pct) ROW_FIELD(runnable) ROW_FIELD(cpu_mhz)
	ROW_FIELD(other_cpus)
	ROW_FIELD(rev_messages) ROW_FIELD(rev_bytes) ROW_FIELD(rev_msgs_per_s)
	ROW_FIELD(rev_mib_per_s)
	ROW_FIELD(mss)
	ROW_FIELD(zc_sends) ROW_FIELD(zc_completions) ROW_FIELD(zc_copied)
	ROW_FIELD(link_cpu_s)
};

double *aggregate_row_field(struct result_row *row, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(row_fields); i++)
		if (!strcmp(row_fields[i].name, name))
			return (double *)((char *)row + row_fields[i].off);
	return NULL;
}

double aggregate_row_figure(const struct result_row *row, const char *name)
{
	double *v = aggregate_row_field((struct result_row *)row, name);

	return v ? *v : NAN;
}

static void set_figures_nan(struct result_row *row)
{
	for (size_t i = 0; i < ARRAY_SIZE(row_fields); i++)
		*(double *)((char *)row + row_fields[i].off) = NAN;
}

void aggregate_rtt_hist(const struct cell_outcome *o, struct hist *h)
{
	hist_init(h);
	for (unsigned i = 0; i < o->nclients; i++)
		if (o->clients[i].hist)
			hist_merge(h, o->clients[i].hist);
}

static void rtt_figures(const struct cell_outcome *o, struct result_row *row)
{
	struct hist h;

	aggregate_rtt_hist(o, &h);
	if (!h.count)
		return;
	row->rtt_samples = (double)h.count;
	row->rtt_mean_us = hist_mean(&h) / 1e3;
	row->rtt_min_us = (double)h.min / 1e3;
	row->rtt_max_us = (double)h.max / 1e3;
	if (h.totals)	/* record: totals: no percentiles (NaN, empty) */
		return;
	row->rtt_p50_us = (double)hist_percentile(&h, 0.50) / 1e3;
	row->rtt_p90_us = (double)hist_percentile(&h, 0.90) / 1e3;
	row->rtt_p99_us = (double)hist_percentile(&h, 0.99) / 1e3;
	row->rtt_p999_us = (double)hist_percentile(&h, 0.999) / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* v[0..n) (n > 0) combined as a connection's figures are (vocab.h): the
 * sum, or the median (of an even number, the mean of the middle two; v is
 * sorted in place). */
static double combine_each(enum combine how, double *v, size_t n)
{
	double sum = 0;

	if (how == COMBINE_MEDIAN) {
		qsort(v, n, sizeof(*v), cmp_double);
		return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum;
}

/* A figure each program client printed (metric m), summed or the median
 * (combine_each); NaN when none printed it or out of memory. */
static double printed_each(const struct cell_outcome *o, int m, enum combine how)
{
	double *v = malloc((o->nclients ? o->nclients : 1) * sizeof(*v)), fig = NAN;
	size_t n = 0;

	for (unsigned i = 0; v && i < o->nclients; i++) {
		double x = o->printed[i * PROGRAM_NFIGURES + (unsigned)m];
		if (!isnan(x))
			v[n++] = x;
	}
	if (n)
		fig = combine_each(how, v, n);
	free(v);
	return fig;
}

double aggregate_rtt_percentile_us(const struct hist *h, double pct)
{
	if (!h->count || h->totals)
		return NAN;
	return (double)hist_percentile(h, pct / 100) / 1e3;
}

/* What program clients printed, combined over the clients as the metric
 * table says, so that each figure means what the built-in one means; the
 * row is then measured_by "printed" and names the metrics. */
static void printed_figures(const struct cell *c, const struct cell_outcome *o,
			    struct result_row *row)
{
	size_t len = 0;

	for (int m = 0; m < MATRIX_NMETRICS; m++) {
		double *fig = aggregate_row_field(row, metrics[m].name);
		double shares = 0, wsum = 0, longest = 0, top = -INFINITY;
		unsigned n = 0;
		for (unsigned i = 0; i < o->nclients; i++) {
			double v = o->printed[i * PROGRAM_NFIGURES + (unsigned)m];
			double share = (double)plan_client_share(&c->p, i + 1);
			if (isnan(v))
				continue;
			n++;
			shares += share;
			wsum += share * v;
			if (v > 0 && share / v > longest)
				longest = share / v;	/* this client's window */
			if (v > top)
				top = v;
		}
		if (!n || !fig)
			continue;
		switch (metrics[m].combine) {
		case COMBINE_RATE:
			*fig = longest > 0 ? shares / longest : NAN;
			break;
		case COMBINE_MEAN:
			*fig = shares > 0 ? wsum / shares : NAN;
			break;
		case COMBINE_MAX:
			*fig = top;
			break;
		case COMBINE_ONE:
			*fig = o->nclients == 1 ? top : NAN;
			break;
		case COMBINE_SUM:
		case COMBINE_MEDIAN:
			*fig = printed_each(o, m, metrics[m].combine);
			break;
		}
		len += (size_t)snprintf(row->printed_metrics + len, sizeof(row->printed_metrics) - len,
					"%s%s", len ? ";" : "", metrics[m].name);
		if (len >= sizeof(row->printed_metrics))
			len = sizeof(row->printed_metrics) - 1;
	}
	if (len)
		row->measured_by = "printed";
}

static void loss_figures(const struct cell *c, const struct cell_outcome *o, uint64_t sent,
			 struct result_row *row)
{
	uint64_t lost = 0;

	if (pattern_of(c)->receiver_times) {
		lost = sent > o->server.messages ? sent - o->server.messages : 0;
		row->duplicated = (double)o->server.duplicated;
		row->reordered = (double)o->server.reordered;
	} else {
		for (unsigned i = 0; i < o->nclients; i++)
			lost += o->clients[i].lost;
		row->duplicated = row->reordered = 0;
	}
	row->lost = (double)lost;
	if (lost && !c->p.allow_loss) {
		uint64_t total = pattern_of(c)->receiver_times ? sent : lost + (uint64_t)row->messages;
		row->ok = 0;
		snprintf(row->status, sizeof(row->status), "loss: %llu of %llu lost",
			 (unsigned long long)lost, (unsigned long long)total);
		snprintf(row->error, sizeof(row->error), "%llu of %llu %s lost; set allow_loss: true "
			 "to accept loss", (unsigned long long)lost, (unsigned long long)total,
			 pattern_of(c)->sent);
	}
}

/* The kernel's view of the TCP connections (the workers' tcp lines, read
 * at the end of the timed window): a sender's figures are its own
 * (retransmits, cwnd, delivery rate, its segment size), so a stream takes
 * the senders' ends (the clients'), the other patterns, where both ends
 * send, both.  Each figure is summed or the median over those ends as the
 * metric table says; NaN (empty) where none has it: another transport, a
 * program's end (its connections are not ours to read), an old kernel. */
static void tcp_figures(const struct cell *c, const struct cell_outcome *o,
			struct result_row *row)
{
	int both = !pattern_of(c)->one_way;
	size_t n = both ? o->server.ntcp : 0;

	for (unsigned i = 0; i < o->nclients; i++)
		n += o->clients[i].ntcp;
	double *v = n ? malloc(n * sizeof(*v)) : NULL;
	for (int k = 0; v && k < TCPV__COUNT; k++) {
		char name[64];
		snprintf(name, sizeof(name), "tcp_%s", wire_tcp_keys[k]);
		int m = matrix_metric_index(name);
		double *fig = aggregate_row_field(row, name);
		size_t got = 0;
		for (unsigned i = 0; i <= o->nclients; i++) {
			const struct worker_result *w = i < o->nclients ? &o->clients[i] : &o->server;
			if (i == o->nclients && !both)
				break;
			for (size_t j = 0; j < w->ntcp; j++)
				if (w->tcp[j].v[k] >= 0)
					v[got++] = (double)w->tcp[j].v[k];
		}
		if (got && m >= 0 && fig)
			*fig = combine_each(metrics[m].combine, v, got);
	}
	free(v);
}

/* The figure of metric name printed in p[], NaN if none. */
static double printed_metric(const double *p, const char *name)
{
	return p[matrix_metric_index(name)];
}

/* Appends metric names to the row's printed_metrics. */
static void add_printed(struct result_row *row, const char *names)
{
	size_t len = strlen(row->printed_metrics);

	snprintf(row->printed_metrics + len, sizeof(row->printed_metrics) - len, "%s%s",
		 len ? ";" : "", names);
}

/* A stream's program receiver: its count as printed (else what the
 * senders sent: it exited saying it had everything), and its time as
 * printed (seconds, or a rate), else whole-process: from the first
 * sender's spawn to its own exit.  1 when its rates are printed ones. */
static int program_receiver_figures(const struct cell *c, const struct cell_outcome *o,
				     uint64_t sent, struct result_row *row)
{
	const double *pf = o->server_printed;
	double rate = printed_metric(pf, "msgs_per_s"), mib = printed_metric(pf, "mib_per_s");
	double msgs = isnan(pf[PROGRAM_MESSAGES]) ? (double)sent : (double)o->server.messages;
	double mibs = msgs * (double)c->p.size / 1048576.0, secs = pf[PROGRAM_SECONDS];

	if (isnan(secs))
		secs = !isnan(rate) ? ratio(msgs, rate) : !isnan(mib) ? ratio(mibs, mib) : NAN;
	int printed = !isnan(secs);

	if (printed)
		add_printed(row, "msgs_per_s;mib_per_s");
	else if (o->server.end_ns > o->server.start_ns && o->server.start_ns)
		secs = (double)(o->server.end_ns - o->server.start_ns) / 1e9;	/* whole-process */
	row->messages = msgs;
	row->bytes = msgs * (double)c->p.size;
	row->elapsed_s = secs;
	row->msgs_per_s = !isnan(rate) ? rate : ratio(msgs, secs);
	row->mib_per_s = !isnan(mib) ? mib : ratio(mibs, secs);
	return printed;
}

/* A stream row with a program on either side names both sides: receiver
 * and senders each 0 worker, 1 process, 2 printed. */
static const char *stream_measured_by(int receiver, int senders)
{
	static const char *const by[3][3] = {
		{ "receiver=worker;senders=worker", "receiver=worker;senders=process",
		  "receiver=worker;senders=printed" },
		{ "receiver=process;senders=worker", "receiver=process;senders=process",
		  "receiver=process;senders=printed" },
		{ "receiver=printed;senders=worker", "receiver=printed;senders=process",
		  "receiver=printed;senders=printed" },
	};

	return by[receiver][senders];
}

/* A stream row with a program on either side: the receiver's figures
 * when it is one, and measured_by names both sides. */
static void stream_program_figures(const struct cell *c, const struct cell_outcome *o,
				   uint64_t sent, struct result_row *row)
{
	int senders = !c->p.client_prog ? 0 : row->printed_metrics[0] ? 2 : 1, receiver = 0;

	if (c->p.server_prog)
		receiver = program_receiver_figures(c, o, sent, row) ? 2 : 1;
	row->measured_by = stream_measured_by(receiver, senders);
}

/* What every row has, failed or not: which repetition, its outcome, its
 * wall time; every figure NaN until it is known. */
static void row_outcome(const struct cell *c, unsigned rep, const struct cell_outcome *o,
			const char *started_at, struct result_row *row)
{
	memset(row, 0, sizeof(*row));
	set_figures_nan(row);
	row->cell = c->number;
	row->rep = rep;
	row->ok = o->ok;
	row->skipped = o->skipped;
	row->wall_s = o->wall_s;
	snprintf(row->status, sizeof(row->status), "%s", o->status);
	snprintf(row->error, sizeof(row->error), "%s", o->error);
	snprintf(row->started_at, sizeof(row->started_at), "%s", started_at);
	row->measured_by = o->measured_by_process ? "process" : "worker";
	if (pattern_of(c)->receiver_times && (c->p.server_prog || c->p.client_prog))	/* as planned */
		row->measured_by = stream_measured_by(!c->p.server_prog ? 0 :
						      program_times_itself(c->p.server_prog) ? 2 : 1,
						      c->p.client_prog != NULL);
	row->start_spread_us = NAN;
	row->loadavg_before = row->loadavg_after = NAN;
}

/* A reliable transport must deliver every message it accepted: a stream
 * whose receiver got fewer (or more) than was sent is not ok.  A program
 * receiver's count is checked when it printed one. */
static void delivery_check(const struct cell *c, const struct cell_outcome *o, uint64_t sent,
			   struct result_row *row)
{
	if (!pattern_of(c)->receiver_times || o->server.messages == sent ||
	    (c->p.server_prog && isnan(o->server_printed[PROGRAM_MESSAGES])))
		return;
	row->ok = 0;
	snprintf(row->status, sizeof(row->status), "lost: %llu of %llu received",
		 (unsigned long long)o->server.messages, (unsigned long long)sent);
	snprintf(row->error, sizeof(row->error), "the receiver got %llu of the %llu messages "
		 "the senders sent, over %s, which should lose none",
		 (unsigned long long)o->server.messages, (unsigned long long)sent,
		 c->p.transport->name);
}

/* direction: bidir: the server-to-client stream, counted at the clients,
 * timed from the earliest sender's start to their last read; every
 * message the server sent must have arrived. */
static void reverse_figures(const struct cell_outcome *o, uint64_t cstart,
			    struct result_row *row)
{
	uint64_t msgs = 0, bytes = 0, end = 0;
	int any = 0;

	for (unsigned i = 0; i < o->nclients; i++) {
		const struct worker_result *w = &o->clients[i];
		if (!w->has_reverse)
			continue;
		any = 1;
		msgs += w->rev_messages;
		bytes += w->rev_bytes;
		if (w->rev_end_ns > end)
			end = w->rev_end_ns;
	}
	if (!any)
		return;
	double secs = end > cstart && cstart != UINT64_MAX ? (double)(end - cstart) / 1e9 : NAN;
	row->rev_messages = (double)msgs;
	row->rev_bytes = (double)bytes;
	row->rev_msgs_per_s = ratio((double)msgs, secs);
	row->rev_mib_per_s = ratio((double)bytes / 1048576.0, secs);
	if (!row->ok || msgs == o->server.sent_messages)
		return;
	row->ok = 0;
	snprintf(row->status, sizeof(row->status), "lost: %llu of %llu received back",
		 (unsigned long long)msgs, (unsigned long long)o->server.sent_messages);
	snprintf(row->error, sizeof(row->error), "the clients got %llu of the %llu messages "
		 "the server sent back (direction: bidir), which should lose none",
		 (unsigned long long)msgs, (unsigned long long)o->server.sent_messages);
}

/* A stream receiver cannot finish before the last message began to go
 * out: if it did (beyond the clock's resolution), its rate would exceed
 * what the senders could send, and the row fails its check. */
static void causality_check(const struct cell_outcome *o, struct result_row *row)
{
	uint64_t last_send = 0, res = clock_resolution_ns();

	for (unsigned i = 0; i < o->nclients; i++)
		if (o->clients[i].last_send_ns > last_send)
			last_send = o->clients[i].last_send_ns;
	if (!row->ok || !last_send || !o->server.end_ns || o->server.end_ns + res >= last_send ||
	    o->cross_host)	/* two clocks: nothing to compare */
		return;
	row->ok = 0;
	snprintf(row->status, sizeof(row->status), "check: receiver faster than its senders");
	snprintf(row->error, sizeof(row->error), "the receiver's last read ended %.3f µs before "
		 "the last send began, so its rate (%.6g msg/s) would exceed what the senders "
		 "could send: a clock or a count is wrong",
		 (double)(last_send - o->server.end_ns) / 1e3, row->msgs_per_s);
}

/* How far apart the worker clients started, and each one's delay after
 * the release of the start signal. */
static void start_figures(const struct cell_outcome *o, struct result_row *row)
{
	uint64_t first = UINT64_MAX, last = 0;
	size_t len = 0;
	int cut = 0;	/* the list did not fit: it ends with ";..." */

	if (o->measured_by_process || !o->nclients || !o->release_ns)
		return;
	int clock = !o->remote_clients;	/* offsets from the release: the runner's clock */
	for (unsigned i = 0; i < o->nclients; i++) {
		uint64_t t = o->clients[i].start_ns;
		if (t < first)
			first = t;
		if (t > last)
			last = t;
		double off = t > o->release_ns ? (double)(t - o->release_ns) / 1e3 : 0;
		if (!clock)
			continue;
		if (len + 32 < sizeof(row->start_offsets_us))
			len += (size_t)snprintf(row->start_offsets_us + len,
						sizeof(row->start_offsets_us) - len, "%s%.3f",
						i ? ";" : "", off);
		else if (!cut) {
			snprintf(row->start_offsets_us + len, sizeof(row->start_offsets_us) - len,
				 ";...");
			cut = 1;
		}
	}
	row->start_spread_us = (double)(last - first) / 1e3;
}

/* CPU over the timed window per message each way (a round trip is two
 * messages), and per round trip. */
static void cpu_figures(const struct cell *c, uint64_t window_cpu_ns, uint64_t msgs,
			struct result_row *row)
{
	double us = (double)window_cpu_ns / 1e3;

	if (pattern_of(c)->one_way) {
		row->cpu_us_per_msg = ratio(us, (double)msgs);
	} else {
		row->cpu_us_per_msg = ratio(us, 2.0 * (double)msgs);
		row->cpu_us_per_rtt = ratio(us, (double)msgs);
	}
}

/* The largest worker's peak resident set: our workers' own (VmHWM in
 * their records); a program's from wait4, which counts from fork and so
 * is never below the runner's resident set then (procinfo.h). */
static double max_rss_kib(const struct cell *c, const struct cell_outcome *o)
{
	uint64_t kib = c->p.server_prog || !o->server.hwm_kib ? (uint64_t)o->server_ru.ru_maxrss
							      : o->server.hwm_kib;

	for (unsigned i = 0; i < o->nclients; i++) {
		uint64_t k = c->p.client_prog || !o->clients[i].hwm_kib
			     ? (uint64_t)o->clients_ru.ru_maxrss : o->clients[i].hwm_kib;
		if (k > kib)
			kib = k;
	}
	return (double)kib;
}

/* A stream across two hosts: the senders' start and the receiver's last
 * read are on two clocks.  Each same-host window, the senders' (first
 * start to last end) and the receiver's (first to last timed read), lies
 * inside the true one (the senders' start to the last read), so the
 * longer of the two is the closest from below: the rate an upper bound. */
static double cross_host_window(const struct cell_outcome *o, double sender_s)
{
	double recv_s = o->server.end_ns > o->server.start_ns && o->server.start_ns
			? (double)(o->server.end_ns - o->server.start_ns) / 1e9 : NAN;

	if (isnan(recv_s) || sender_s > recv_s)
		return sender_s;
	return recv_s;
}

/* zerocopy: the clients' MSG_ZEROCOPY counts, summed. */
static void zerocopy_figures(const struct cell_outcome *o, struct result_row *row)
{
	uint64_t sends = 0, done = 0, copied = 0;

	for (unsigned i = 0; i < o->nclients; i++) {
		sends += o->clients[i].zc_sends;
		done += o->clients[i].zc_completions;
		copied += o->clients[i].zc_copied;
	}
	row->zc_sends = (double)sends;
	row->zc_completions = (double)done;
	row->zc_copied = (double)copied;
}

void aggregate_row(const struct cell *c, unsigned rep, const struct cell_outcome *o,
		   const char *started_at, struct result_row *row)
{
	uint64_t cstart = UINT64_MAX, cend = 0, sent = 0, sent_bytes = 0, msgs = 0, bytes = 0;
	uint64_t window_cpu_ns = o->server.cpu_ns;

	row_outcome(c, rep, o, started_at, row);
	if (!o->ok)
		return;

	for (unsigned i = 0; i < o->nclients; i++) {
		const struct worker_result *w = &o->clients[i];
		if (w->start_ns < cstart)
			cstart = w->start_ns;
		if (w->end_ns > cend)
			cend = w->end_ns;
		sent += w->sent_messages;
		sent_bytes += w->sent_bytes;
		msgs += w->messages;
		bytes += w->bytes;
		window_cpu_ns += w->cpu_ns;
	}
	double sender_s = cend > cstart ? (double)(cend - cstart) / 1e9 : NAN;
	if (pattern_of(c)->receiver_times) {
		msgs = o->server.messages;
		bytes = o->server.bytes;
		/* from the senders' start to the last read: what was queued
		 * before the receiver first ran is inside the window too */
		row->elapsed_s = o->server.end_ns > cstart && cstart != UINT64_MAX
				 ? (double)(o->server.end_ns - cstart) / 1e9 : NAN;
		if (o->cross_host)	/* two clocks: the longer of two same-host windows */
			row->elapsed_s = cross_host_window(o, sender_s);
	} else {
		row->elapsed_s = sender_s;
		rtt_figures(o, row);
	}
	row->messages = (double)msgs;
	row->bytes = (double)bytes;
	row->msgs_per_s = ratio((double)msgs, row->elapsed_s);
	row->mib_per_s = ratio((double)bytes / 1048576.0, row->elapsed_s);
	row->sent_messages = (double)sent;
	row->sent_msgs_per_s = ratio((double)sent, sender_s);
	row->sent_mib_per_s = ratio((double)sent_bytes / 1048576.0, sender_s);
	row->client_cpu_s = tv_s(o->clients_ru.ru_utime) + tv_s(o->clients_ru.ru_stime);
	row->server_cpu_s = tv_s(o->server_ru.ru_utime) + tv_s(o->server_ru.ru_stime);
	cpu_figures(c, window_cpu_ns, msgs, row);
	row->ctx_switches = (double)(o->clients_ru.ru_nvcsw + o->clients_ru.ru_nivcsw +
				     o->server_ru.ru_nvcsw + o->server_ru.ru_nivcsw);
	row->max_rss_kib = max_rss_kib(c, o);
	/* socket figures as the client saw its connection (the sender's side) */
	const struct worker_result *w0 = o->nclients ? &o->clients[0] : &o->server;
	row->sndbuf = w0->sndbuf >= 0 ? w0->sndbuf : NAN;
	row->rcvbuf = o->server.rcvbuf >= 0 ? o->server.rcvbuf : NAN;
	row->nodelay = w0->nodelay >= 0 ? w0->nodelay : NAN;
	row->mss = w0->mss >= 0 ? w0->mss : NAN;
	for (unsigned i = 0; i < o->nclients; i++)
		wire_name_join(row->congestion, sizeof(row->congestion), o->clients[i].congestion);
	wire_name_join(row->congestion, sizeof(row->congestion), o->server.congestion);
	start_figures(o, row);
	tcp_figures(c, o, row);
	if (o->measured_by_process && o->printed)
		printed_figures(c, o, row);
	if (pattern_of(c)->receiver_times && (c->p.server_prog || c->p.client_prog))
		stream_program_figures(c, o, sent, row);
	if (c->p.transport->lossy)
		loss_figures(c, o, sent, row);
	else
		delivery_check(c, o, sent, row);
	if (pattern_of(c)->receiver_times)
		causality_check(o, row);
	if (c->p.direction == DIR_BIDIR)
		reverse_figures(o, cstart, row);
	if (c->p.zerocopy)
		zerocopy_figures(o, row);
}
