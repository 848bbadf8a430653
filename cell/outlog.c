/* A program's output, capped and watched: see outlog.h. */
#include "outlog.h"
#include "arrays.h"
#include "clock.h"
#include "matrix.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 65536
#define READ_BUDGET (4u << 20)	/* bytes one outlog_read or outlog_drain takes at most */

/* the line read in part, then a chunk: matched in place */
static char buf[OUTLOG_LINE + CHUNK + 1];
static uint64_t read_ns;	/* when the chunk in buf was read */
static char rbuf[OUTLOG_LINE + 1];	/* the line being matched, backwards */

int outlog_open(struct outlog *o, const char *path, char *err, size_t errlen)
{
	int p[2];

	memset(o, 0, sizeof(*o));
	o->fd = o->logfd = -1;
	o->last_nl = 1;
	o->path = path;
	o->carry = malloc(OUTLOG_LINE);
	if (!o->carry || pipe2(p, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "output pipe for %s: %s", path, strerror(errno));
		outlog_close(o);
		return -1;
	}
	o->fd = p[0];
	fcntl(o->fd, F_SETFL, O_NONBLOCK);
	return p[1];
}

/* re into *fwd (as matched on a line) and its reverse search into *rev
 * (matrix.h).  0, or -1: both freed. */
static int compile(const char *re, regex_t *fwd, regex_t *rev)
{
	char *back = matrix_regex_reverse_search(re);
	int rc = -1;

	if (back && !regcomp(fwd, re, REG_EXTENDED | REG_NEWLINE)) {
		rc = regcomp(rev, back, REG_EXTENDED) ? -1 : 0;
		if (rc)
			regfree(fwd);
	}
	free(back);
	return rc;
}

int outlog_watch(struct outlog *o, const char *const *re, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n && i < OUTLOG_MAX_RE; i++) {
		if (compile(re[i], &o->re[i], &o->rev[i])) {
			snprintf(err, errlen, "bad regex '%s'", re[i]);
			return -1;
		}
		o->nre = o->left = i + 1;
	}
	return 0;
}

int outlog_collect(struct outlog *o, const char *re, int g0, int g1, char *err, size_t errlen)
{
	if (compile(re, &o->every, &o->every_rev)) {
		snprintf(err, errlen, "bad regex '%s'", re);
		return -1;
	}
	if (g0 < 1 || g1 < 1 || (size_t)g0 > o->every.re_nsub || (size_t)g1 > o->every.re_nsub) {
		snprintf(err, errlen, "regex '%s' has no group %d", re,
			 g0 < 1 || (size_t)g0 > o->every.re_nsub ? g0 : g1);
		regfree(&o->every);
		regfree(&o->every_rev);
		return -1;
	}
	o->collecting = 1;
	o->group[0] = g0;
	o->group[1] = g1;
	return 0;
}

/* The first match of re in the line text (len bytes; rbuf holds it
 * backwards), m[0] the whole and up to nm - 1 groups: its start found by
 * one pass of rev over rbuf, then re run from there alone (REG_STARTEND),
 * where regexec(re) by itself would try every start of the line, a cost
 * that grows with the square of its length.  0, or REG_NOMATCH. */
static int first_match(const regex_t *re, const regex_t *rev, const char *text, size_t len,
		       size_t nm, regmatch_t *m)
{
	regmatch_t r;

	if (regexec(rev, rbuf, 1, &r, 0))
		return REG_NOMATCH;
	m[0].rm_so = (regoff_t)len - r.rm_eo;
	m[0].rm_eo = (regoff_t)len;
	return regexec(re, text, nm, m, REG_STARTEND);
}

/* A group of a match as a number, NaN when it took no part or is none. */
static double group_value(const char *text, const regmatch_t *g)
{
	char num[64], *end;

	if (g->rm_so < 0 || g->rm_eo - g->rm_so >= (regoff_t)sizeof(num))
		return NAN;
	snprintf(num, sizeof(num), "%.*s", (int)(g->rm_eo - g->rm_so), text + g->rm_so);
	double v = strtod(num, &end);
	return end == num ? NAN : v;
}

/* One line (len bytes) that the collected regex matches, as a point
 * stamped with its read; past the cap, counted. */
static void collect(struct outlog *o, const char *text, size_t len)
{
	regmatch_t m[16], *mm = m;	/* the groups up to the later of the two */
	size_t want = (size_t)(o->group[0] > o->group[1] ? o->group[0] : o->group[1]) + 1;

	if (want > ARRAY_SIZE(m) && !(mm = malloc(want * sizeof(*mm))))
		return;
	if (!first_match(&o->every, &o->every_rev, text, len, want, mm)) {
		if (o->npoints == o->room && o->npoints < OUTLOG_MAX_POINTS) {
			size_t room = o->room ? o->room * 2 : 64;
			room = room > OUTLOG_MAX_POINTS ? OUTLOG_MAX_POINTS : room;
			struct outlog_point *pts = realloc(o->points, room * sizeof(*pts));
			if (pts) {
				o->points = pts;
				o->room = room;
			}
		}
		if (o->npoints < o->room)
			o->points[o->npoints++] = (struct outlog_point){
				{ group_value(text, &mm[o->group[0]]), group_value(text, &mm[o->group[1]]) },
				read_ns };
		else
			o->points_dropped++;
	}
	if (mm != m)
		free(mm);
}

/* Matches every regex not matched yet against one line (len bytes): the
 * first line that matches is the earliest. */
static void match(struct outlog *o, const char *text, size_t len)
{
	if (o->collecting)
		collect(o, text, len);
	for (size_t i = 0; i < o->nre && o->left; i++) {
		regmatch_t m[2];	/* group 1 only when there is one: without,
					 * glibc skips the costly pass for groups */
		if (o->found[i] || first_match(&o->re[i], &o->rev[i], text, len,
					       o->re[i].re_nsub ? 2 : 1, m))
			continue;
		const regmatch_t *g = o->re[i].re_nsub ? &m[1] : &m[0];
		if (g->rm_so >= 0)	/* else a group that took no part: "" */
			snprintf(o->match[i], sizeof(o->match[i]), "%.*s",
				 (int)(g->rm_eo - g->rm_so), text + g->rm_so);
		o->found[i] = 1;
		o->left--;
	}
}

/* Keeps what fits under the cap in the log, counts the rest.  The file is
 * made with the first byte (a silent program has none) and closed at the
 * cap: a descriptor is held only while it is being written. */
static void keep(struct outlog *o, const char *p, size_t n)
{
	size_t room = o->written < OUTLOG_CAP ? OUTLOG_CAP - o->written : 0;
	size_t w = n < room ? n : room;

	if (w && o->logfd == -1)
		o->logfd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
				0644);
	if (w && o->logfd < 0)
		o->logfd = -2;	/* cannot be made: all is dropped */
	if (w && o->logfd >= 0) {
		ssize_t k = write(o->logfd, p, w);
		if (k > 0) {
			o->written += (size_t)k;
			o->last_nl = p[k - 1] == '\n';
		}
		w = k > 0 ? (size_t)k : 0;
	}
	o->dropped += n - w;
	if (o->written >= OUTLOG_CAP && o->logfd >= 0) {
		close(o->logfd);
		o->logfd = -2;
	}
}

/* The marker when output was dropped (once), appended. */
static void finish_log(struct outlog *o)
{
	if (o->logfd >= 0)
		close(o->logfd);
	o->logfd = -2;
	if ((!o->dropped && !o->points_dropped) || o->marked || !o->written)
		return;
	char marker[256];
	int n = 0;
	if (o->dropped)
		n = snprintf(marker, sizeof(marker), "%s[matrix: log cut at %u MiB; %llu more "
			     "bytes dropped]\n", o->last_nl ? "" : "\n", OUTLOG_CAP >> 20,
			     (unsigned long long)o->dropped);
	if (o->points_dropped)
		n += snprintf(marker + n, sizeof(marker) - (size_t)n, "%s[matrix: timeline cut "
			      "at %u lines; %llu more matching lines dropped]\n",
			      o->last_nl || n ? "" : "\n", OUTLOG_MAX_POINTS,
			      (unsigned long long)o->points_dropped);
	int fd = open(o->path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, marker, (size_t)n) == n)
			o->marked = 1;
		close(fd);
	}
}

/* One line at text (len bytes, the byte after it writable): matched on
 * its first OUTLOG_LINE bytes at most, so that no regexec runs on more
 * (the bound README "Bring your own programs" states). */
static void match_line(struct outlog *o, char *text, size_t len)
{
	len = len < OUTLOG_LINE ? len : OUTLOG_LINE;
	text[len] = '\0';
	for (size_t i = 0; i < len; i++)
		rbuf[i] = text[len - 1 - i];
	rbuf[len] = '\0';
	match(o, text, len);
}

/* One chunk read (buf + ncarry, n bytes): kept, then matched line by line;
 * the last line, still open, is carried.  A line that reaches OUTLOG_LINE
 * bytes is matched then, and the rest of it skipped up to its newline. */
static void take(struct outlog *o, size_t n)
{
	keep(o, buf + o->ncarry, n);
	if (!o->left && !o->collecting) {
		o->ncarry = 0;	/* nothing more to look for */
		o->skip = 0;
		return;
	}
	read_ns = clock_now_ns();
	size_t total = o->ncarry + n, start = 0;
	for (size_t i = o->ncarry; i < total; i++)
		if (!buf[i])
			buf[i] = ' ';	/* a NUL would end the text early */
	for (char *nl; start < total && (nl = memchr(buf + start, '\n', total - start));
	     start = (size_t)(nl - buf) + 1) {
		if (!o->skip)
			match_line(o, buf + start, (size_t)(nl - buf) - start);
		o->skip = 0;
	}
	o->ncarry = o->skip ? 0 : total - start;
	if (o->ncarry >= OUTLOG_LINE) {	/* a line too long: its first bytes */
		match_line(o, buf + start, o->ncarry);
		o->ncarry = 0;
		o->skip = 1;
	}
	memcpy(o->carry, buf + start, o->ncarry);
}

/* Reads until the pipe is empty, at its end, budget bytes are read or
 * ms milliseconds have gone by (checked between chunks: one chunk's
 * matching is the most it runs over).  1 while open, 0 at end of file (the
 * pipe is closed). */
static int read_some(struct outlog *o, size_t budget, unsigned ms)
{
	uint64_t until = clock_now_ns() + (uint64_t)ms * 1000000u;
	size_t got = 0;

	while (o->fd >= 0 && got < budget && (!got || clock_now_ns() < until)) {
		/* while regexes look, a line's worth a read: the time is checked
		 * after at most two lines' matching */
		size_t want = o->left || o->collecting ? OUTLOG_LINE : CHUNK;
		memcpy(buf, o->carry, o->ncarry);
		ssize_t n = read(o->fd, buf + o->ncarry, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 1;
		if (n <= 0) {
			close(o->fd);
			o->fd = -1;
			return 0;
		}
		take(o, (size_t)n);
		got += (size_t)n;
	}
	return o->fd >= 0;
}

int outlog_read(struct outlog *o)
{
	return read_some(o, READ_BUDGET, OUTLOG_READ_MS);
}

void outlog_drain(struct outlog *o)
{
	read_some(o, READ_BUDGET, OUTLOG_DRAIN_MS);
	if (o->fd >= 0) {
		close(o->fd);
		o->fd = -1;
	}
	if (o->ncarry && (o->left || o->collecting)) {	/* the last line, without its newline */
		memcpy(buf, o->carry, o->ncarry);
		read_ns = clock_now_ns();
		match_line(o, buf, o->ncarry);
	}
	o->ncarry = 0;
	o->skip = 0;
	finish_log(o);
}

const char *outlog_match(const struct outlog *o, size_t i)
{
	return i < o->nre && o->found[i] ? o->match[i] : NULL;
}

void outlog_close(struct outlog *o)
{
	if (o->path)
		finish_log(o);
	if (o->fd >= 0)
		close(o->fd);
	for (size_t i = 0; i < o->nre; i++) {
		regfree(&o->re[i]);
		regfree(&o->rev[i]);
	}
	if (o->collecting) {
		regfree(&o->every);
		regfree(&o->every_rev);
	}
	free(o->points);
	free(o->carry);
	memset(o, 0, sizeof(*o));
	o->fd = o->logfd = -1;
}
