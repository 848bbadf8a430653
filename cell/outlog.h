/*
 * outlog: a program's output (stdout and stderr, one pipe), read by the
 * runner as it comes: kept in its log file up to a cap, and matched
 * against the program's regexes (a server's `ready:`, a client's
 * `result:`) all along, so that a line printed after the cap still counts.
 *
 *   outlog_open    the pipe (the log file is made with the first byte
 *                  kept, and closed at the cap); the write end is the
 *                  program's fds 1 and 2 (spawn_start_flags' log_fd), which
 *                  the caller closes once the program is started
 *   outlog_watch   the regexes to look for
 *   outlog_read    when the pipe is readable (poll); non-blocking
 *   outlog_drain   once the program is reaped: what is left in the pipe,
 *                  then the marker line if anything was dropped
 *   outlog_close   the same if not drained; descriptors closed, memory
 *                  freed
 *
 * The log holds the first OUTLOG_CAP bytes and then, when more came,
 *   [matrix: log cut at 1 MiB; N more bytes dropped]
 * The regexes (PCRE2, base/matrix_regex.h) are matched line by line over
 * everything the program printed, one pcre2_match per line and regex,
 * each bounded by PCRE2's match and depth limits (a line that hits one
 * counts as not matched, and the log ends with
 *   [matrix: a regex hit PCRE2's match limit on N lines; not matched]
 * ); a line longer than OUTLOG_LINE is matched on its first OUTLOG_LINE
 * bytes only, the rest of it is kept in the log but never matched.  The
 * limits keep a line's matching to milliseconds whatever the pattern
 * ("(a+)+$" on 4 KiB of "a"); outlog_read also stops after about
 * OUTLOG_READ_MS of work, so that the runner's loop keeps its deadline and
 * sees a signal at once.  The first match of each regex is kept: its
 * (?<value>...) group, else its group 1, else the whole match.
 *
 * outlog_collect adds one regex whose every matching line is kept (a
 * program's timeline: lines): two of its groups as numbers, and when the
 * line was read, up to OUTLOG_MAX_POINTS lines; past that they are counted
 * and the log ends with
 *   [matrix: timeline cut at 100000 lines; N more matching lines dropped]
 */
#ifndef MATRIX_OUTLOG_H
#define MATRIX_OUTLOG_H

#include "matrix_regex.h"

#include <stddef.h>
#include <stdint.h>

#define OUTLOG_CAP (1u << 20)	/* bytes of a program's output kept in its log */
#define OUTLOG_LINE 4096	/* a line is matched on its first OUTLOG_LINE bytes */
#define OUTLOG_MAX_RE 16
#define OUTLOG_READ_MS 50	/* the work one outlog_read does at most, about */
#define OUTLOG_DRAIN_MS 1000	/* and outlog_drain, after the program's exit */
#define OUTLOG_MAX_POINTS 100000	/* lines outlog_collect keeps (24 bytes each) */

/* A line the collected regex matched: its two groups (NaN when one took
 * no part or does not start with a number) and when it was read. */
struct outlog_point {
	double v[2];
	uint64_t read_ns;		/* clock_now_ns() of the read that brought it */
};

struct outlog {
	int fd;				/* the pipe's read end; -1 once closed */
	const char *path;		/* the log file (the caller's string) */
	int logfd;			/* -1 not made yet, -2 closed */
	int marked;			/* the marker is written */
	uint64_t written, dropped;
	int last_nl;			/* the last byte written was a newline */
	char *carry;			/* the line read in part, OUTLOG_LINE bytes */
	size_t ncarry;
	int skip;			/* in a line past OUTLOG_LINE: not matched */
	pcre2_code *re[OUTLOG_MAX_RE];
	pcre2_match_data *md[OUTLOG_MAX_RE];
	int figure[OUTLOG_MAX_RE];	/* the group kept: (?<value>), 1, or 0 */
	pcre2_match_context *mctx;	/* the limits (matrix_regex.h) */
	uint64_t limited;		/* lines a regex stopped at the limit on */
	size_t nre, left;		/* regexes watched, those still looking (below) */
	size_t last_from;		/* re[last_from..]: the last match is kept */
	int found[OUTLOG_MAX_RE];
	char match[OUTLOG_MAX_RE][64];	/* each one's match (first or last): its figure
					 * group, else the whole match */
	int collecting;			/* outlog_collect was called */
	pcre2_code *every;
	pcre2_match_data *every_md;
	int group[2];
	struct outlog_point *points;
	size_t npoints, room;
	uint64_t points_dropped;	/* matching lines past OUTLOG_MAX_POINTS */
};

/* The pipe for a program whose log is path (kept by the caller until
 * outlog_close).  Returns the pipe's write end (close-on-exec) for the
 * program, or -1 with a message. */
int outlog_open(struct outlog *o, const char *path, char *err, size_t errlen);

/* Watches the regexes re[0..n-1] (n <= OUTLOG_MAX_RE, already checked by
 * the matrix loader): those before last_from keep their first match (a
 * ready: line), those from last_from on their last (a result: figure, so
 * a program that prints running totals is read at its final one).  0, or
 * -1 with a message. */
int outlog_watch(struct outlog *o, const char *const *re, size_t n, size_t last_from,
		 char *err, size_t errlen);

/* Watches re for every line it matches, besides outlog_watch's regexes:
 * each such line's groups g0 and g1 (1-based, at most re's number of
 * groups) into o->points (in the order printed, o->npoints of them).
 * 0, or -1 with a message. */
int outlog_collect(struct outlog *o, const char *re, int g0, int g1, char *err, size_t errlen);

/* Reads what the pipe holds (at most a few MiB or about OUTLOG_READ_MS a
 * call, so no program starves the others, and the caller's loop keeps its
 * deadlines).  1 while the pipe is open, 0 at its end of file. */
int outlog_read(struct outlog *o);

/* The program has exited: reads what is left (bounded, in bytes and in
 * time, OUTLOG_DRAIN_MS: a child of its that writes on is cut off),
 * matches the last line, closes the pipe. */
void outlog_drain(struct outlog *o);

/* The first match of regex i, or NULL. */
const char *outlog_match(const struct outlog *o, size_t i);

/* Writes the marker when output was dropped and outlog_drain did not,
 * closes, frees.  Safe on an outlog never opened ({ .fd = -1 }). */
void outlog_close(struct outlog *o);

#endif
