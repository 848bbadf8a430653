/* Progress on stderr: see progress.h. */
#include "progress.h"
#include "clock.h"
#include "units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char *hms(double s, char *buf, size_t len)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
	return buf;
}

void progress_init(struct progress *p, unsigned total, int quiet)
{
	memset(p, 0, sizeof(*p));
	p->tty = isatty(2);
	p->quiet = quiet;
	p->total = total;
	p->t0 = clock_now_ns();
}

void progress_begin(struct progress *p, unsigned cell, unsigned rep, unsigned nreps,
		    const char *label)
{
	p->cell = cell;
	p->rep = rep;
	p->nreps = nreps;
	p->rep_t0 = clock_now_ns();
	snprintf(p->label, sizeof(p->label), "%s", label);
	progress_tick(p);
}

void progress_tick(void *arg)
{
	struct progress *p = arg;
	char e[32], eta[32];
	double elapsed = (double)(clock_now_ns() - p->t0) / 1e9;

	if (!p->tty || p->quiet)
		return;
	if (p->done)
		hms(p->spent_s / p->done * (p->total - p->done) -
		    (double)(clock_now_ns() - p->rep_t0) / 1e9, eta, sizeof(eta));
	else
		snprintf(eta, sizeof(eta), "--:--");
	fprintf(stderr, "\r\033[K[cell %u rep %u/%u; %u of %u] %.120s  %s elapsed, ETA %s",
		p->cell, p->rep, p->nreps, p->done + 1, p->total, p->label,
		hms(elapsed, e, sizeof(e)), eta);
	p->drawn = 1;
}

static void clear_line(struct progress *p)
{
	if (p->drawn) {
		fprintf(stderr, "\r\033[K");
		p->drawn = 0;
	}
}

/* The last 8 lines of a failed worker's log, read from its last 16 KiB
 * only (a log may be large). */
static void tail_log(const char *path)
{
	char lines[8][256];
	unsigned n = 0;
	FILE *f = path && *path ? fopen(path, "re") : NULL;

	if (!f)
		return;
	if (fseek(f, -16384, SEEK_END) == 0)	/* from the next whole line */
		while (fgets(lines[0], sizeof(lines[0]), f) && !strchr(lines[0], '\n'))
			;
	else
		rewind(f);
	while (fgets(lines[n % 8], sizeof(lines[0]), f))
		n++;
	fclose(f);
	for (unsigned i = n > 8 ? n - 8 : 0; i < n; i++)
		fprintf(stderr, "    | %s%s", lines[i % 8],
			strchr(lines[i % 8], '\n') ? "" : "\n");
}

void progress_end(struct progress *p, const struct cell *c, const struct result_row *row,
		  const char *log_hint)
{
	(void)c;
	p->done++;
	p->spent_s += row->wall_s;
	clear_line(p);
	if (row->skipped) {
		if (!p->quiet)
			fprintf(stderr, "[cell %u rep %u/%u; %u of %u] %s: %s (%s)\n", p->cell,
				p->rep, p->nreps, p->done, p->total, p->label, row->status, row->error);
		return;
	}
	if (!row->ok) {
		fprintf(stderr, "[cell %u rep %u/%u; %u of %u] %s: FAILED: %s\n    %s\n", p->cell,
			p->rep, p->nreps, p->done, p->total, p->label, row->status, row->error);
		tail_log(log_hint);
		return;
	}
	if (p->quiet || p->tty)
		return;
	/* the figures as summary.md writes them (units_format_metric) */
	char a[64], b[64];
	fprintf(stderr, "[cell %u rep %u/%u; %u of %u] %s: ok %s", p->cell, p->rep, p->nreps,
		p->done, p->total, p->label,
		units_format_metric("msgs_per_s", row->msgs_per_s, a, sizeof(a)));
	if (!isnan(row->rtt_p50_us))
		fprintf(stderr, ", rtt p50 %s p99 %s",
			units_format_metric("rtt_p50_us", row->rtt_p50_us, a, sizeof(a)),
			units_format_metric("rtt_p99_us", row->rtt_p99_us, b, sizeof(b)));
	else if (!isnan(row->rtt_mean_us))	/* record: totals: no percentiles */
		fprintf(stderr, ", rtt mean %s",
			units_format_metric("rtt_mean_us", row->rtt_mean_us, a, sizeof(a)));
	fprintf(stderr, " (%.1f s)\n", row->wall_s);
}

void progress_note(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	if (p->quiet)
		return;
	clear_line(p);
	fputs("matrix: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void progress_finish(struct progress *p, unsigned failed, unsigned skipped, const char *dir)
{
	char e[32], sk[32] = "";

	clear_line(p);
	if (p->quiet && !failed)
		return;
	if (skipped)
		snprintf(sk, sizeof(sk), ", %u skipped", skipped);
	fprintf(stderr, "matrix: %u of %u cell repetitions ok, %u failed%s, in %s; results in %s\n",
		p->done - failed - skipped, p->done, failed, sk,
		hms((double)(clock_now_ns() - p->t0) / 1e9, e, sizeof(e)), dir);
}
