/* A program's output, capped and watched: see outlog.h. */
#include "outlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 65536
#define READ_BUDGET (4u << 20)	/* bytes one outlog_read or outlog_drain takes at most */

/* the line read in part, then a chunk: matched in place */
static char buf[OUTLOG_LINE + CHUNK + 1];

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

int outlog_watch(struct outlog *o, const char *const *re, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n && i < OUTLOG_MAX_RE; i++) {
		if (regcomp(&o->re[i], re[i], REG_EXTENDED | REG_NEWLINE)) {
			snprintf(err, errlen, "bad regex '%s'", re[i]);
			return -1;
		}
		o->nre = o->left = i + 1;
	}
	return 0;
}

/* Matches every regex not matched yet against text (whole lines, NUL
 * ended): the first match anywhere in it is the earliest. */
static void match(struct outlog *o, const char *text)
{
	for (size_t i = 0; i < o->nre && o->left; i++) {
		regmatch_t m[2];
		if (o->found[i] || regexec(&o->re[i], text, 2, m, 0))
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
		o->logfd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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
	if (!o->dropped || o->marked || !o->written)
		return;
	char marker[128];
	int n = snprintf(marker, sizeof(marker), "%s[matrix: log cut at %u MiB; %llu more bytes "
			 "dropped]\n", o->last_nl ? "" : "\n", OUTLOG_CAP >> 20,
			 (unsigned long long)o->dropped);
	int fd = open(o->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, marker, (size_t)n) == n)
			o->marked = 1;
		close(fd);
	}
}

/* One chunk read (buf + ncarry, n bytes): kept, then matched line by line;
 * the last line, still open, is carried. */
static void take(struct outlog *o, size_t n)
{
	keep(o, buf + o->ncarry, n);
	if (!o->left) {
		o->ncarry = 0;	/* nothing more to look for */
		return;
	}
	size_t total = o->ncarry + n;
	for (size_t i = o->ncarry; i < total; i++)
		if (!buf[i])
			buf[i] = ' ';	/* a NUL would end the text early */
	char *nl = memrchr(buf, '\n', total);
	size_t lines = nl ? (size_t)(nl - buf) + 1 : 0;
	if (lines) {
		buf[lines - 1] = '\0';
		match(o, buf);
	}
	o->ncarry = total - lines;
	if (o->ncarry >= OUTLOG_LINE) {	/* a line too long: matched as it is */
		buf[total] = '\0';
		match(o, buf + lines);
		o->ncarry = 0;
	}
	memcpy(o->carry, buf + lines, o->ncarry);
}

/* Reads until the pipe is empty, at its end, or budget bytes are read.
 * 1 while open, 0 at end of file (the pipe is closed). */
static int read_some(struct outlog *o, size_t budget)
{
	size_t got = 0;

	while (o->fd >= 0 && got < budget) {
		memcpy(buf, o->carry, o->ncarry);
		ssize_t n = read(o->fd, buf + o->ncarry, CHUNK);
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
	return read_some(o, READ_BUDGET);
}

void outlog_drain(struct outlog *o)
{
	read_some(o, READ_BUDGET);
	if (o->fd >= 0) {
		close(o->fd);
		o->fd = -1;
	}
	if (o->ncarry && o->left) {	/* the last line, without its newline */
		memcpy(buf, o->carry, o->ncarry);
		buf[o->ncarry] = '\0';
		match(o, buf);
	}
	o->ncarry = 0;
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
	for (size_t i = 0; i < o->nre; i++)
		regfree(&o->re[i]);
	free(o->carry);
	memset(o, 0, sizeof(*o));
	o->fd = o->logfd = -1;
}
