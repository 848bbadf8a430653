/* A program's output, capped and watched: see outlog.h. */
#include "outlog.h"
#include "arrays.h"
#include "clock.h"
#include "matrix.h"
#include "matrix_regex.h"

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

/* re compiled, with its match data, into *re, *md.  0, or -1 with a
 * message: nothing made. */
static int compile(const char *re, pcre2_code **code, pcre2_match_data **md, char *err,
		   size_t errlen)
{
	char why[300];
	size_t at;

	*md = NULL;
	if (!(*code = matrix_regex_compile(re, &at, why, sizeof why))) {
		snprintf(err, errlen, "regex '%s' %s", re, why);
		return -1;
	}
	if (!(*md = pcre2_match_data_create_from_pattern(*code, NULL))) {
		pcre2_code_free(*code);
		*code = NULL;
		snprintf(err, errlen, "regex '%s': out of memory", re);
		return -1;
	}
	return 0;
}

/* The match context every regex matches with (its limits), once. */
static int context(struct outlog *o, char *err, size_t errlen)
{
	if (!o->mctx && !(o->mctx = matrix_regex_context())) {
		snprintf(err, errlen, "regex match context: out of memory");
		return -1;
	}
	return 0;
}

int outlog_watch(struct outlog *o, const char *const *re, size_t n, size_t last_from,
		 char *err, size_t errlen)
{
	o->last_from = last_from;
	if (context(o, err, errlen))
		return -1;
	for (size_t i = 0; i < n && i < OUTLOG_MAX_RE; i++) {
		unsigned groups;
		if (compile(re[i], &o->re[i], &o->md[i], err, errlen))
			return -1;
		o->nre = o->left = i + 1;
		o->figure[i] = matrix_regex_figure_group(o->re[i], &groups);
	}
	return 0;
}

int outlog_collect(struct outlog *o, const char *re, int g0, int g1, char *err, size_t errlen)
{
	uint32_t groups = 0;

	if (context(o, err, errlen) || compile(re, &o->every, &o->every_md, err, errlen))
		return -1;
	pcre2_pattern_info(o->every, PCRE2_INFO_CAPTURECOUNT, &groups);
	if (g0 < 1 || g1 < 1 || (uint32_t)g0 > groups || (uint32_t)g1 > groups) {
		snprintf(err, errlen, "regex '%s' has no group %d", re,
			 g0 < 1 || (uint32_t)g0 > groups ? g0 : g1);
		pcre2_match_data_free(o->every_md);
		pcre2_code_free(o->every);
		o->every = NULL;
		o->every_md = NULL;
		return -1;
	}
	o->collecting = 1;
	o->group[0] = g0;
	o->group[1] = g1;
	return 0;
}

/* The first match of code in the line text (len bytes) into md: 1, or 0
 * for none, and for a line that hit the match or depth limit (counted in
 * o->limited: pcre2_match stops there, so that no line costs more). */
static int first_match(struct outlog *o, const pcre2_code *code, pcre2_match_data *md,
		       const char *text, size_t len)
{
	int rc = pcre2_match(code, (PCRE2_SPTR)text, len, 0, 0, md, o->mctx);

	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT)
		o->limited++;
	return rc >= 0;
}

/* A group of a match as a number, NaN when it took no part or is none. */
static double group_value(const char *text, pcre2_match_data *md, int g)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	char num[64], *end;

	if ((uint32_t)g >= pcre2_get_ovector_count(md) || ov[2 * g] == PCRE2_UNSET ||
	    ov[2 * g + 1] - ov[2 * g] >= sizeof(num))
		return NAN;
	snprintf(num, sizeof(num), "%.*s", (int)(ov[2 * g + 1] - ov[2 * g]), text + ov[2 * g]);
	double v = strtod(num, &end);
	return end == num ? NAN : v;
}

/* One line (len bytes) that the collected regex matches, as a point
 * stamped with its read; past the cap, counted. */
static void collect(struct outlog *o, const char *text, size_t len)
{
	if (first_match(o, o->every, o->every_md, text, len)) {
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
				{ group_value(text, o->every_md, o->group[0]),
				  group_value(text, o->every_md, o->group[1]) },
				read_ns };
		else
			o->points_dropped++;
	}
}

/* Matches against one line (len bytes) every regex before last_from not
 * matched yet (the first line that matches is the earliest), and every
 * regex from last_from on (the last line that matches wins; they keep
 * left above 0, so every line is looked at). */
static void match(struct outlog *o, const char *text, size_t len)
{
	if (o->collecting)
		collect(o, text, len);
	for (size_t i = 0; i < o->nre && o->left; i++) {
		int last = i >= o->last_from;
		if ((o->found[i] && !last) || !first_match(o, o->re[i], o->md[i], text, len))
			continue;
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(o->md[i]);
		int g = o->figure[i];	/* else the whole match */
		o->match[i][0] = '\0';	/* a group that took no part: "" */
		if (ov[2 * g] != PCRE2_UNSET)
			snprintf(o->match[i], sizeof(o->match[i]), "%.*s",
				 (int)(ov[2 * g + 1] - ov[2 * g]), text + ov[2 * g]);
		o->left -= !last && !o->found[i];
		o->found[i] = 1;
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
	if ((!o->dropped && !o->points_dropped && !o->limited) || o->marked || !o->written)
		return;
	char marker[512];
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
	if (o->limited)
		n += snprintf(marker + n, sizeof(marker) - (size_t)n, "%s[matrix: a regex hit "
			      "PCRE2's match limit on %llu line%s; not matched]\n",
			      o->last_nl || n ? "" : "\n", (unsigned long long)o->limited,
			      o->limited == 1 ? "" : "s");
	int fd = open(o->path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, marker, (size_t)n) == n)
			o->marked = 1;
		close(fd);
	}
}

/* One line at text (len bytes, the byte after it writable): matched on
 * its first OUTLOG_LINE bytes at most, so that no pcre2_match runs on more
 * (the bound README "Bring your own programs" states). */
static void match_line(struct outlog *o, char *text, size_t len)
{
	len = len < OUTLOG_LINE ? len : OUTLOG_LINE;
	text[len] = '\0';
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
	for (size_t i = 0; i < OUTLOG_MAX_RE; i++) {
		pcre2_match_data_free(o->md[i]);
		pcre2_code_free(o->re[i]);
	}
	pcre2_match_data_free(o->every_md);
	pcre2_code_free(o->every);
	pcre2_match_context_free(o->mctx);
	free(o->points);
	free(o->carry);
	memset(o, 0, sizeof(*o));
	o->fd = o->logfd = -1;
}
