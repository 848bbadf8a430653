/*
 * prog_timeline: a program server's timeline: lines (matrix.h, struct
 * program_timeline), as collected from its output (outlog_collect), turned
 * into the rows of timeline.csv for one stream repetition.  Pure: no
 * clock read, no I/O (tests/unit/test_prog_timeline.c).
 *
 * Each line is one interval, printed as it ends: (?<time>) is that end on
 * the program's own clock (in time: units), or (?<index>) counts intervals
 * of interval: each.  An interval runs from the line before's time to its
 * own; the first one, interval: long when given, else from the program's
 * clock zero or the receiver's spawn, whichever is later.  A line whose time is not later than the one before, or
 * whose figures are no numbers, is left out.  messages is (?<messages>),
 * or (?<rate>) x the interval's length.
 *
 * The program's clock is placed on the runner's by the lines themselves:
 * each is stamped when the runner read it, which is after the program
 * printed it, so the smallest (read stamp - line's time) over all lines is
 * where the program's time 0 is at the latest, and within a pipe's latency
 * for any line printed and flushed as its interval ended.  Neither the
 * program's start-up nor its clock's origin (its start, the epoch, the
 * first message) matters.  No interval starts before the program's spawn.
 *
 * interval_start_s counts from the first sender's spawn (the receiver
 * starts before its senders: a program's timeline begins with its empty
 * intervals).  Leading intervals with no messages that end by then are
 * dropped, and so are trailing ones with no messages that start once
 * every sender has exited.  covered_s is interval_s: a line does not say
 * when in its interval the last message came.
 */
#ifndef MATRIX_PROG_TIMELINE_H
#define MATRIX_PROG_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "matrix.h"
#include "outlog.h"

/* One row of timeline.csv (results.h), seconds from the first sender's
 * spawn. */
struct prog_tl_row {
	double start_s, interval_s, covered_s;
	uint64_t messages;
};

/* The repetition's moments on the runner's clock (clock_now_ns). */
struct prog_tl_clock {
	uint64_t server_ns;		/* the receiver's spawn */
	uint64_t first_ns;		/* the first sender's spawn: interval_start_s 0 */
	uint64_t last_ns;		/* the last sender's exit; 0 when not known */
};

/* The rows for the n lines pts (v[0] the time or index, v[1] the
 * messages or rate, as tl says) into rows (room for n); how many. */
size_t prog_timeline_rows(const struct program_timeline *tl, const struct outlog_point *pts,
			  size_t n, const struct prog_tl_clock *clk, struct prog_tl_row *rows);

#endif
