/* A program's timeline lines as timeline.csv rows: see prog_timeline.h. */
#include "prog_timeline.h"

#include <math.h>

/* t - from in seconds, either way round */
static double seconds(uint64_t t, uint64_t from)
{
	return t >= from ? (double)(t - from) / 1e9 : -(double)(from - t) / 1e9;
}

/* The lines as intervals on the program's clock (rows[].start_s); *off:
 * where the program's time 0 is, in seconds from the first sender's
 * spawn.  How many rows. */
static size_t program_clock(const struct program_timeline *tl, const struct outlog_point *pts,
			    size_t n, uint64_t first_ns, struct prog_tl_row *rows, double *off)
{
	double interval = (double)tl->interval_ns / 1e9, prev = 0;
	size_t k = 0;
	int any = 0;

	*off = INFINITY;
	for (size_t i = 0; i < n; i++) {
		double x = pts[i].v[0], y = pts[i].v[1];
		double end = tl->index_group ? x * interval : x * tl->time_scale;
		if (!isfinite(end) || !isfinite(y) || y < 0 || (any && end <= prev))
			continue;
		double len = tl->index_group ? interval : any ? end - prev
			     : interval > 0 ? interval : end;
		double msgs = tl->rate_group ? y * tl->rate_scale * len : y;
		double late = seconds(pts[i].read_ns, first_ns) - end;
		if (late < *off)
			*off = late;
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
	double off, spawn = seconds(clk->server_ns, clk->first_ns);
	double last = clk->last_ns ? seconds(clk->last_ns, clk->first_ns) : INFINITY;
	size_t k = program_clock(tl, pts, n, clk->first_ns, rows, &off), m = 0, from = 0;

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
