/* A program's timeline lines as timeline.csv rows: see prog_timeline.h. */
#include "prog_timeline.h"

#include <math.h>

/* t - from in seconds, either way round */
static double seconds(uint64_t t, uint64_t from)
{
	return t >= from ? (double)(t - from) / 1e9 : -(double)(from - t) / 1e9;
}

/* The end of line p's interval on the program's clock (seconds), NaN for
 * a line left out: figures no numbers, or not later than prev (any: a line
 * before it was kept). */
static double line_end(const struct program_timeline *tl, const struct outlog_point *p, int any,
		       double prev)
{
	double x = p->v[0], y = p->v[1];
	double end = tl->index_group ? x * ((double)tl->interval_ns / 1e9) : x * tl->time_scale;

	return !isfinite(end) || !isfinite(y) || y < 0 || (any && end <= prev) ? NAN : end;
}

/* Where the program's time 0 is, in seconds from the first sender's
 * spawn: the smallest (read stamp - line's time), as a line is read after
 * it is printed; INFINITY without lines.  An (?<index>) line says where its
 * interval would end, and a program that stops mid-interval prints its
 * last, shorter one early: that line places the clock only when alone. */
static double clock_offset(const struct program_timeline *tl, const struct outlog_point *pts,
			   size_t n, uint64_t first_ns)
{
	double off = INFINITY, prev = 0, end, last = INFINITY;
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(end = line_end(tl, &pts[i], any, prev)))
			continue;
		if (last < off)
			off = last;
		last = seconds(pts[i].read_ns, first_ns) - end;
		any = 1;
		prev = end;
	}
	return tl->index_group && off < INFINITY ? off : fmin(off, last);
}

/* The lines as intervals on the program's clock (rows[].start_s); off:
 * where the program's time 0 is (clock_offset), spawn: the receiver's
 * spawn, both in seconds from the first sender's spawn.  The first
 * interval without interval: runs from the program's time 0, or from its
 * spawn when that is later (a clock counting from the epoch): a rate over
 * it counts no messages from before the receiver was there.  How many
 * rows. */
static size_t program_clock(const struct program_timeline *tl, const struct outlog_point *pts,
			    size_t n, double off, double spawn, struct prog_tl_row *rows)
{
	double interval = (double)tl->interval_ns / 1e9, prev = 0, end;
	double from = spawn - off > 0 ? spawn - off : 0;	/* on the program's clock */
	size_t k = 0;
	int any = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(end = line_end(tl, &pts[i], any, prev)))
			continue;
		double len = tl->index_group ? interval : any ? end - prev
			     : interval > 0 ? interval : end - from;
		double msgs = tl->rate_group ? pts[i].v[1] * tl->rate_scale * len : pts[i].v[1];
		any = 1;
		prev = end;
		if (len <= 0 || msgs >= 1e18)	/* a line that only marks a start */
			continue;
		rows[k++] = (struct prog_tl_row){ .start_s = end - len, .interval_s = len,
						  .messages = (uint64_t)llround(msgs) };
	}
	return k;
}

size_t prog_timeline_rows(const struct program_timeline *tl, const struct outlog_point *pts,
			  size_t n, const struct prog_tl_clock *clk, struct prog_tl_row *rows)
{
	double spawn = seconds(clk->server_ns, clk->first_ns);
	double last = clk->last_ns ? seconds(clk->last_ns, clk->first_ns) : INFINITY;
	double off = clock_offset(tl, pts, n, clk->first_ns);
	size_t k = program_clock(tl, pts, n, off, spawn, rows), m = 0, from = 0;

	for (size_t i = 0; i < k; i++) {	/* on the runner's clock, after the spawn */
		double start = rows[i].start_s + off, end = start + rows[i].interval_s;
		if (start < spawn)
			start = spawn;
		if (end <= start)
			continue;
		rows[m++] = (struct prog_tl_row){ .start_s = start, .interval_s = end - start,
						  .covered_s = end - start,
						  .messages = rows[i].messages };
	}
	/* the receiver's wait for its senders, and its wait to be stopped */
	while (from < m && !rows[from].messages && rows[from].start_s + rows[from].interval_s <= 0)
		from++;
	while (m > from && !rows[m - 1].messages && rows[m - 1].start_s >= last)
		m--;
	for (size_t i = from; i < m; i++)
		rows[i - from] = rows[i];
	return m - from;
}
