/* Programs' setup: and teardown: steps: see setup.h. */
#include "setup.h"
#include "cell.h"
#include "clock.h"
#include "outlog.h"
#include "program.h"
#include "spawn.h"
#include "units.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define TICK_MS 200
#define GRACE_NS 1000000000ull

int setup_init(struct setups *su, const struct matrix *m, char *err, size_t errlen)
{
	const char *env = getenv("MATRIX_SETUP_TIMEOUT");
	char why[256];

	size_t steps = 0;

	memset(su, 0, sizeof(*su));
	su->m = m;
	su->timeout_ns = m->timeout_ns > SETUP_STEP_TIMEOUT_NS ? m->timeout_ns
							       : SETUP_STEP_TIMEOUT_NS;
	for (size_t i = 0; i < m->nprograms; i++)
		steps += m->programs[i].nsetup + m->programs[i].nteardown;
	/* read only where it is used: a stray value in the environment fails
	 * no matrix without steps */
	if (steps && env && *env) {
		if (units_parse_duration(env, &su->timeout_ns, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "MATRIX_SETUP_TIMEOUT=%s: %s (the environment's time "
				 "limit of a setup: or teardown: step)", env, why);
			return -1;
		}
		if (!su->timeout_ns) {
			snprintf(err, errlen, "MATRIX_SETUP_TIMEOUT=%s: must be more than 0 (the "
				 "environment's time limit of a setup: or teardown: step)", env);
			return -1;
		}
	}
	su->state = calloc(m->nprograms + 1, 1);
	su->used = calloc(m->nprograms + 1, 1);
	su->why = calloc(m->nprograms + 1, sizeof(*su->why));
	su->log = calloc(m->nprograms + 1, sizeof(*su->log));
	if (!su->state || !su->used || !su->why || !su->log) {
		setup_release(su);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void setup_release(struct setups *su)
{
	free(su->state);
	free(su->used);
	free(su->why);
	free(su->log);
	su->state = su->used = NULL;
	su->why = NULL;
	su->log = NULL;
}

void setup_format_words(char *const *words, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && o + 4 < len; i++) {
		const char *w = words[i];
		int plain = *w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_./:=,@%+-{}") == strlen(w);
		if (i)
			buf[o++] = ' ';
		if (!plain)
			buf[o++] = '\'';
		for (; *w && o + 5 < len; w++) {
			if (!plain && *w == '\'') {	/* ' as '\'' */
				memcpy(buf + o, "'\\''", 4);
				o += 4;
			} else {
				buf[o++] = *w;
			}
		}
		if (!plain && o + 2 < len)
			buf[o++] = '\'';
		buf[o] = '\0';
	}
	if (o + 5 >= len && len > 4)	/* cut: say so */
		snprintf(buf + len - 4, 4, "...");
}

/* {tmp}, the only placeholder of a step (the loader saw to it). */
static void tmp_lookup(const char *name, char *out, size_t len, void *arg)
{
	snprintf(out, len, "%s", !strcmp(name, "tmp") ? (const char *)arg : "");
}

/* Says what runs: "matrix: ..." unless --quiet; a failure (loud) always. */
__attribute__((format(printf, 3, 4)))
static void say(struct setups *su, int loud, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (su->prog && !su->prog->quiet)
		progress_note(su->prog, "%s", msg);
	else if (loud || !su->prog)
		fprintf(stderr, "matrix: %s\n", msg);
}

/* A line of the runner's own into a step's log, between its output. */
__attribute__((format(printf, 3, 4)))
static void log_line(struct outlog *o, int wr, const char *fmt, ...)
{
	char line[1200];
	va_list ap;

	outlog_read(o);		/* room in the pipe */
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = n < (int)sizeof(line) ? n : (int)sizeof(line) - 1;
	if (n > 0 && write(wr, line, (size_t)n) < 0)
		return;	/* the log only */
}

/* Whether to stop the step now: the run's interrupt (a setup step), a
 * signal since the teardowns began (a teardown step). */
static int stop_asked(const struct setups *su, int teardown)
{
	return teardown ? *su->signals != su->sig0 : *su->interrupted != 0;
}

/* Runs one step (argv a) to its end, its output into o through wr.  0 when
 * it exited 0; else 1 with what went wrong in st; -1 when stopped by a
 * signal (stop_asked). */
static int setup_run_step(struct setups *su, const struct spawn_argv *a, struct outlog *o,
			  int wr, int teardown, char *st, size_t len)
{
	uint64_t deadline = clock_now_ns() + su->timeout_ns, kill_at = 0;
	struct child ch;
	char err[512];
	int why = 0;	/* 1 timeout, 2 a signal */

	if (spawn_start_flags(&ch, a->argv, -1, wr, SPAWN_PROGRAM, NULL, err, sizeof(err)) < 0) {
		snprintf(st, len, "%s", err);
		return 1;
	}
	while (!spawn_reap(&ch)) {
		uint64_t now = clock_now_ns(), wake;
		if (!why && (stop_asked(su, teardown) || now >= deadline)) {
			why = stop_asked(su, teardown) ? 2 : 1;
			spawn_signal(&ch, SIGTERM);	/* its whole group */
			kill_at = now + GRACE_NS;
		} else if (why && now >= kill_at) {
			spawn_signal(&ch, SIGKILL);
			kill_at = UINT64_MAX;
		}
		wake = why ? kill_at : deadline;
		uint64_t ms = wake > now ? (wake - now) / 1000000 + 1 : 0;
		struct pollfd pfd[2] = { { .fd = ch.pidfd, .events = POLLIN },
					 { .fd = o->fd, .events = POLLIN } };
		if (poll(pfd, o->fd >= 0 ? 2 : 1, ms > TICK_MS ? TICK_MS : (int)ms) > 0 &&
		    o->fd >= 0 && pfd[1].revents)
			outlog_read(o);
		spawn_exits_pending();
	}
	outlog_read(o);
	spawn_group_end(&ch);	/* what it left running goes with it */
	spawn_release(&ch);
	if (why == 1) {
		char d[32];
		units_format_duration(su->timeout_ns, d, sizeof(d));
		snprintf(st, len, "timeout after %s", d);
		return 1;
	}
	if (why == 2) {
		snprintf(st, len, "interrupted");
		return -1;
	}
	spawn_describe_status(ch.status, st, len);
	return !(WIFEXITED(ch.status) && WEXITSTATUS(ch.status) == 0);
}

/* The log of pr's steps of kind: logs/KIND-NAME.log, or when a run before
 * this one (resumed) left it, KIND-NAME.log.2, .3 and on: the first free
 * name, so that nothing an earlier run wrote is lost.  No program's name
 * makes these (each first log ends in .log). */
static void log_path(const struct setups *su, const char *kind, const struct program *pr,
		     char *path, size_t len)
{
	struct stat st;

	snprintf(path, len, "%s/%s-%s.log", su->logdir, kind, pr->name);
	for (unsigned k = 2; lstat(path, &st) == 0 && k < 1000; k++)
		snprintf(path, len, "%s/%s-%s.log.%u", su->logdir, kind, pr->name, k);
}

/* The setup (or teardown) steps of program pr, in order, until one fails.
 * 0; 1 with why ("setup of program NAME failed: ..."); -1 interrupted. */
static int setup_run_steps(struct setups *su, const struct program *pr, int teardown,
			   char *why, size_t len)
{
	const char *kind = teardown ? "teardown" : "setup";
	const struct program_step *steps = teardown ? pr->teardown : pr->setup;
	size_t n = teardown ? pr->nteardown : pr->nsetup;
	char path[PATH_MAX], st[512], words[1024];
	const char *base;
	struct outlog o;
	int rc = 0, wr;

	log_path(su, kind, pr, path, sizeof(path));
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if ((wr = outlog_open(&o, path, st, sizeof(st))) < 0) {
		snprintf(why, len, "%s of program %s failed: %s", kind, pr->name, st);
		return 1;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		struct spawn_argv *a = calloc(1, sizeof(*a));	/* 64 KiB: not on the stack */
		setup_format_words(steps[i].argv, steps[i].argc, words, sizeof(words));
		say(su, 0, "%s of %s, step %zu of %zu: %s", kind, pr->name, i + 1, n, words);
		if (!a) {
			snprintf(st, sizeof(st), "out of memory");
			rc = 1;
		} else {
			program_words(steps[i].argv, steps[i].argc, tmp_lookup, (void *)su->tmp, a);
			setup_format_words(a->argv, (size_t)a->argc, words, sizeof(words));
			log_line(&o, wr, "%s$ %s\n", i ? "\n" : "", words);
			rc = a->overflow ? 1 : setup_run_step(su, a, &o, wr, teardown, st, sizeof(st));
			if (a->overflow)
				snprintf(st, sizeof(st), "command too long: more than %d words or %zu "
					 "bytes", SPAWN_MAX_ARGS - 1, sizeof(a->store));
		}
		free(a);
		if (rc) {
			log_line(&o, wr, "[matrix: %s]\n", st);
			setup_format_words(steps[i].argv, steps[i].argc, words, sizeof(words));
			if (snprintf(why, len, "%s of program %s failed: step %zu of %zu (%.300s): "
				     "%.200s; log: logs/%s", kind, pr->name, i + 1, n, words, st,
				     base) >= (int)len && len > 4)
				memcpy(why + len - 4, "...", 4);	/* cut: said */
			if (!teardown)
				snprintf(su->log[pr - su->m->programs], sizeof(*su->log), "%s",
					 path);
		}
	}
	close(wr);
	outlog_drain(&o);
	outlog_close(&o);
	return rc;
}

int setup_cell(struct setups *su, const struct cell *c, char *err, size_t errlen, char *log,
	       size_t loglen)
{
	const struct program *progs[2] = { c->p.server_prog, c->p.client_prog };

	log[0] = '\0';
	for (int k = 0; k < 2; k++) {
		const struct program *pr = progs[k];
		size_t i = pr ? (size_t)(pr - su->m->programs) : 0;
		if (!pr)
			continue;
		if (su->state[i] == SETUP_NOT_YET && pr->nsetup) {
			if (*su->interrupted)
				return -1;
			su->used[i] = 1;	/* its teardown is due, whatever happens */
			int rc = setup_run_steps(su, pr, 0, su->why[i], sizeof(su->why[i]));
			if (rc < 0)
				return -1;
			su->state[i] = rc ? SETUP_FAILED : SETUP_OK;
			if (rc)
				snprintf(log, loglen, "%s", su->log[i]);
		}
		su->used[i] = 1;
		if (su->state[i] == SETUP_NOT_YET)
			su->state[i] = SETUP_OK;	/* nothing to set up */
		if (su->state[i] == SETUP_FAILED) {
			snprintf(err, errlen, "%s", su->why[i]);
			return 1;
		}
	}
	return 0;
}

unsigned setup_teardown(struct setups *su, char *summary, size_t len)
{
	unsigned failed = 0, ran = 0;
	size_t o = 0;
	char why[768];

	summary[0] = '\0';
	su->sig0 = *su->signals;
	for (size_t i = 0; i < su->m->nprograms; i++) {
		const struct program *pr = &su->m->programs[i];
		if (!su->used[i] || !pr->nteardown)
			continue;
		ran++;
		if (*su->signals != su->sig0) {
			snprintf(why, sizeof(why), "teardown of program %s skipped: interrupted",
				 pr->name);
		} else if (!setup_run_steps(su, pr, 1, why, sizeof(why))) {
			continue;
		}
		failed++;
		say(su, 1, "%s", why);
		if (o < len)
			o += (size_t)snprintf(summary + o, len - o, "%s%s", o ? "; " : "", why);
	}
	if (ran && !failed)
		snprintf(summary, len, "ok");
	return failed;
}

int setup_print_plan(const struct plan *pl, FILE *f, char *err, size_t errlen)
{
	const struct matrix *m = pl->m;
	struct setups su;
	char words[1024], limit[32];
	int any = 0;

	if (setup_init(&su, m, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < pl->ncells; i++)	/* the programs the cells use */
		for (int k = 0; k < 2; k++) {
			const struct program *pr = k ? pl->cells[i].p.client_prog
						     : pl->cells[i].p.server_prog;
			if (pr)
				su.used[pr - m->programs] = 1;
		}
	for (size_t i = 0; i < m->nprograms; i++)
		for (int t = 0; t < 2; t++) {
			const struct program *pr = &m->programs[i];
			const struct program_step *st = t ? pr->teardown : pr->setup;
			size_t n = t ? pr->nteardown : pr->nsetup;
			if (!su.used[i] || !n)
				continue;
			if (!any++)
				fprintf(f, "programs' steps, each within %s (run in this folder; {tmp} is "
					"the run's private folder):\n", units_format_duration(su.timeout_ns,
					limit, sizeof(limit)));
			fprintf(f, "  %s of %s, once %s:\n", t ? "teardown" : "setup", pr->name,
				t ? "at the end of the run" : "before its first cell");
			for (size_t s = 0; s < n; s++) {
				setup_format_words(st[s].argv, st[s].argc, words, sizeof(words));
				fprintf(f, "    %s\n", words);
			}
		}
	setup_release(&su);
	return 0;
}
