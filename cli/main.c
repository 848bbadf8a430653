/* matrix: the command line: which command runs, from one table of the
 * commands (commands[], as git.c's); plan and transports here, the others
 * in cli/cmd_*.c, worker in workers/worker.c.  Only the commands' option
 * parsers (--help) and main() call exit(). */
#include "cmd_common.h"
#include "matrix_command.h"
#include "agent.h"
#include "arrays.h"
#include "cmd_compare.h"
#include "cmd_history.h"
#include "cmd_merge.h"
#include "cmd_report.h"
#include "cmd_run.h"
#include "gnuplot.h"
#include "plan.h"
#include "remote.h"
#include "plan_json.h"
#include "setup.h"
#include "program.h"
#include "suggest.h"
#include "transport.h"
#include "units.h"
#include "version.h"
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The usage text: this head, then the commands' table, then usage_tail. */
static const char usage_head[] =
"usage: matrix COMMAND [options]\n"
"\n"
"How much faster is transport A than transport B, for my message sizes and my\n"
"concurrency, on this machine?  matrix reads a YAML matrix of transports,\n"
"patterns, sizes and concurrency, runs real server and client processes over\n"
"real sockets for every cell, and writes a run folder of CSV files.\n"
"\n"
"commands:\n";

static const char usage_tail[] =
"\n"
"  matrix COMMAND --help     options of one command\n"
"  matrix --version\n";


static const char usage_plan[] =
"usage: matrix plan FILE [--repeat N] [--only KEY=VALUE ...] [--set KEY=VALUE ...]\n"
"                 [--shard K/N] [--json]\n"
"\n"
"Validates FILE and prints one line per cell with its parameters, and the\n"
"number of worker processes a run would start.  Runs nothing.  --repeat,\n"
"--only and --set as for `matrix run`; --shard K/N: only the cells and\n"
"repetitions that `matrix run --shard K/N` runs (a column reps); --json\n"
"prints the whole plan as one JSON document instead.\n";



static const char usage_transports[] =
"usage: matrix transports\n"
"\n"
"Lists each transport: the patterns it does, its limits (message sizes,\n"
"inflight), the matrix: keys that apply to it, and what it is.\n";

/* Which optional columns `matrix plan` shows: placement and poll when the
 * matrix has the key, rate, record and spin when a cell is not at its
 * default (unpaced, full, none). */
struct plan_cols {
	int place, poll, rate, record, spin, direction;
	int sock;	/* sndbuf, rcvbuf, congestion or mss written */
	int zerocopy, batch;	/* issue 29: shown when a cell sets them */
};

static void plan_cols_of(const struct plan *pl, const struct matrix *m, struct plan_cols *c)
{
	memset(c, 0, sizeof(*c));
	c->place = matrix_dim(m, "cpu") != NULL;
	c->poll = matrix_dim(m, "poll") || matrix_dim(m, "busy_poll");
	c->sock = matrix_dim(m, "sndbuf") || matrix_dim(m, "rcvbuf") || matrix_dim(m, "congestion") ||
		  matrix_dim(m, "mss");
	for (size_t i = 0; i < pl->ncells; i++) {
		const struct cell_params *p = &pl->cells[i].p;
		c->rate |= p->rate != 0;
		c->record |= p->record != REC_FULL;
		c->spin |= p->spin_ns != 0;
		c->direction |= p->direction != DIR_ONE;
		c->zerocopy |= p->zerocopy;
		c->batch |= p->batch > 1;
	}
}

/* The optional columns of a cell, after the fixed ones, into buf. */
static void print_cell_extra(const struct plan *pl, const struct cell_params *p,
			     const struct plan_cols *c)
{
	char t[MATRIX_MAX_PLACEMENT + 2];

	if (c->place) {
		plan_placement_text(pl, p, t, sizeof(t));
		printf("  %s", t);
	}
	if (c->poll) {
		snprintf(t, sizeof(t), "-");
		if (p->busy_poll_ns)
			units_format_duration(p->busy_poll_ns, t, sizeof(t));
		printf("  %s %s", poll_names[p->poll], t);
	}
	if (c->rate)
		printf("  %9s", p->rate ? units_format_rate(p->rate, t, sizeof(t)) : "-");
	if (c->record)
		printf("  %-6s", record_names[p->record]);
	if (c->spin) {
		snprintf(t, sizeof(t), "-");
		if (p->spin_ns)
			units_format_duration(p->spin_ns, t, sizeof(t));
		printf("  %6s", t);
	}
	if (c->direction)
		printf("  %-9s", direction_names[p->direction]);
	if (c->sock) {	/* what each socket is asked for: auto sets nothing */
		char s[32], r[32], mss[24] = "auto";
		if (p->mss)
			snprintf(mss, sizeof(mss), "%llu", (unsigned long long)p->mss);
		printf("  %6s %6s %-10s %5s", p->sndbuf ? units_format_size(p->sndbuf, s, sizeof(s))
		       : "auto", p->rcvbuf ? units_format_size(p->rcvbuf, r, sizeof(r)) : "auto",
		       p->congestion ? p->congestion : "-", mss);
	}
	if (c->zerocopy)
		printf("  %8s", p->zerocopy ? "true" : "false");
	if (c->batch)
		printf("  %5u", p->batch);
}

/* plan --shard: the repetitions of the cell at index ci that shard sh
 * runs, as ranges ("1,4", "2-3"; "all" for a whole cell of repeat: auto,
 * which stops when its repetitions agree), after two spaces. */
static void print_shard_reps(const struct plan *pl, const struct shard *sh, size_t ci)
{
	const char *sep = "";

	fputs("  ", stdout);
	if (pl->m->repeat_min > 0) {
		fputs("all", stdout);
		return;
	}
	for (unsigned r = 1; r <= pl->repeat; r++) {
		if (!shard_has_cell(sh, pl, ci, r))
			continue;
		unsigned last = r;
		while (last < pl->repeat && shard_has_cell(sh, pl, ci, last + 1))
			last++;
		printf(last > r ? "%s%u-%u" : "%s%u", sep, r, last);
		sep = ",";
		r = last;
	}
}

/* Does shard sh run any repetition of the cell at index ci? */
static int shard_has_any(const struct plan *pl, const struct shard *sh, size_t ci)
{
	for (unsigned r = 1; r <= pl->repeat; r++)
		if (shard_has_cell(sh, pl, ci, r))
			return 1;
	return 0;
}

/* One line of `matrix plan`: the fixed columns, then the optional ones
 * (plan_cols), the shard's repetitions (--shard), then the topology's
 * link: keys (netns.h). */
static void print_cell(const struct plan *pl, const struct cell *cl, const struct plan_cols *c,
		       const struct shard *sh)
{
	const struct cell_params *p = &cl->p;
	char size[32], resp[32], amount[32];

	units_format_size(p->size, size, sizeof(size));
	if (pattern_info(p->pattern)->reply == PATTERN_REPLY_SIZED)
		units_format_size(p->response_size, resp, sizeof(resp));
	else
		snprintf(resp, sizeof(resp), "-");
	if (p->duration_ns)
		units_format_duration(p->duration_ns, amount, sizeof(amount));
	else
		snprintf(amount, sizeof(amount), "%llu", (unsigned long long)p->count);
	printf("%4u  %-9s %-14s %9s %9s %5u %12s %8u %7s  %s %s", cl->number,
	       pattern_names[p->pattern], p->transport->name, size, resp, p->concurrency, amount,
	       p->inflight, p->transport->has_nodelay ? (p->nodelay ? "on" : "off") : "-",
	       p->server_prog ? p->server_prog->name : "builtin",
	       p->client_prog ? p->client_prog->name : "builtin");
	print_cell_extra(pl, p, c);
	if (sh->n)
		print_shard_reps(pl, sh, (size_t)(cl - pl->cells));
	for (size_t d = 0; d < pl->m->ndims; d++)
		if (matrix_dim_is_link(&pl->m->dims[d]))
			printf("  %s=%s", pl->m->dims[d].key,
			       pl->m->dims[d].values[cl->choice[d]].text);
	putchar('\n');
}

/* Does an argv (NULL-ended, or n words) hold {tmp}? */
static int has_tmp(char *const *argv, int n)
{
	for (int i = 0; argv && (n < 0 ? argv[i] != NULL : i < n); i++)
		if (strstr(argv[i], "{tmp}"))
			return 1;
	return 0;
}

/* {tmp} is never a path `plan` could show (it is made when the run
 * starts): say what it will be, when a program's words hold it. */
static void print_tmp_note(const struct matrix *m)
{
	const char *tmp = getenv("TMPDIR");
	int any = 0;

	for (size_t i = 0; i < m->nprograms; i++) {
		const struct program *pr = &m->programs[i];
		any |= has_tmp(pr->server, -1) || has_tmp(pr->client, -1);
		for (size_t s = 0; s < pr->nserver_by; s++)
			any |= has_tmp(pr->server_by[s].argv, (int)pr->server_by[s].argc);
		for (size_t s = 0; s < pr->nclient_by; s++)
			any |= has_tmp(pr->client_by[s].argv, (int)pr->client_by[s].argc);
		for (size_t s = 0; s < pr->nsetup; s++)
			any |= has_tmp(pr->setup[s].argv, (int)pr->setup[s].argc);
		for (size_t s = 0; s < pr->nteardown; s++)
			any |= has_tmp(pr->teardown[s].argv, (int)pr->teardown[s].argc);
	}
	if (any)
		printf("{tmp} is the run's private folder, one for the whole run (every cell and "
		       "repetition), made when it starts: %s/matrix.XXXXXX\n",
		       tmp && *tmp ? tmp : "/tmp");
}

/* The line after the cells: how many cell runs and worker processes (of
 * shard sh's repetitions alone, with --shard), the warmup and timeout. */
static void print_plan_counts(const struct plan *pl, const struct matrix *m,
			      const struct shard *sh)
{
	int unwarmed = 0;	/* stream cells with a program: no warmup (program.h) */
	char t[32];

	for (size_t i = 0; i < pl->ncells; i++)
		unwarmed |= program_cell_warmup(&pl->cells[i].p, m->warmup) != m->warmup;
	printf("%zu cell%s x %u repetition%s = %zu cell runs, ", pl->ncells,
	       pl->ncells == 1 ? "" : "s", pl->repeat, pl->repeat == 1 ? "" : "s",
	       pl->ncells * pl->repeat);
	if (sh->n) {	/* the shard's part, in the numbering of plan/shard.h */
		size_t cells = 0, reps = shard_count(sh, pl);
		unsigned long long workers = 0;
		for (size_t i = 0; i < pl->ncells; i++) {
			cells += (size_t)shard_has_any(pl, sh, i);
			for (unsigned r = 1; r <= pl->repeat; r++)
				workers += shard_has_cell(sh, pl, i, r) ? 1 + pl->cells[i].p.concurrency
					   : 0;
		}
		printf("of which shard %u/%u runs %zu%s in %zu cell%s", sh->k, sh->n, reps,
		       m->repeat_min ? " at most" : "", cells, cells == 1 ? "" : "s");
		if (!reps)
			printf(" (more shards than %s)", m->repeat_min ? "cells with repeat: auto"
			       : "cell repetitions");
		printf(", %llu worker processes", workers);
	} else {
		printf("%llu worker processes", (unsigned long long)plan_worker_runs(pl));
	}
	printf("; warmup %llu messages per connection%s, timeout %s per repetition\n",
	       (unsigned long long)m->warmup, unwarmed ? " (none in a stream cell with a program)"
	       : "", units_format_duration(m->timeout_ns, t, sizeof(t)));
}

static int cmd_plan(int argc, char **argv)
{
	struct common c = { 0 };
	struct matrix m;
	struct plan pl;

	if (cmd_parse_common(argc, argv, &c, 0, usage_plan) < 0)
		return EXIT_BADINPUT;
	if (cmd_load_plan(&c, &m, &pl) < 0)
		return EXIT_BADINPUT;
	if (c.json && c.shard.n) {
		fprintf(stderr, "matrix plan: --json and --shard %u/%u: the JSON plan is the whole "
			"run's; give one of them\n", c.shard.k, c.shard.n);
		plan_release(&pl);
		matrix_release(&m);
		matrix_sets_release(&c.sets);
		return EXIT_BADINPUT;
	}
	if (c.json) {
		int rc = plan_json_print(&pl, stdout);
		if (rc < 0)
			fprintf(stderr, "matrix plan: --json: %s\n", strerror(errno));
		plan_release(&pl);
		matrix_release(&m);
		matrix_sets_release(&c.sets);
		return rc < 0 ? 1 : 0;
	}
	printf("matrix %s: %s\n", m.name, m.description);
	struct plan_cols cols;
	plan_cols_of(&pl, &m, &cols);
	printf("%4s  %-9s %-14s %9s %9s %5s %12s %8s %7s  %s%s%s", "cell", "pattern", "transport",
	       "size", "response", "conc", "count/dur", "inflight", "nodelay", "server client",
	       cols.place ? "  placement" : "", cols.poll ? "  poll busy_poll" : "");
	if (cols.rate)
		printf("  %9s", "rate");
	if (cols.record)
		printf("  %-6s", "record");
	if (cols.spin)
		printf("  %6s", "spin");
	if (cols.direction)
		printf("  %-9s", "direction");
	if (cols.sock)
		printf("  %6s %6s %-10s %5s", "sndbuf", "rcvbuf", "congestion", "mss");
	if (cols.zerocopy)
		printf("  %8s", "zerocopy");
	if (cols.batch)
		printf("  %5s", "batch");
	if (c.shard.n)
		printf("  reps");
	putchar('\n');
	for (size_t i = 0; i < pl.ncells; i++)
		if (!c.shard.n || shard_has_any(&pl, &c.shard, i))
			print_cell(&pl, &pl.cells[i], &cols, &c.shard);
	print_plan_counts(&pl, &m, &c.shard);
	remote_print_plan(&m, stdout);
	print_tmp_note(&m);
	char err[512];
	int rc = setup_print_plan(&pl, stdout, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "matrix plan: %s\n", err);
	plan_release(&pl);
	matrix_release(&m);
	matrix_sets_release(&c.sets);
	return rc < 0 ? EXIT_BADINPUT : 0;
}

static int cmd_transports(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_transports, stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "matrix transports: unexpected argument '%s'\n%s", argv[1],
			usage_transports);
		return EXIT_BADINPUT;
	}
	printf("%-15s %-30s %-32s %s\n", "transport", "patterns", "limits", "options");
	for (size_t i = 0; i < transport_count(); i++) {
		const struct transport *t = transport_at(i);
		char pats[64] = "", lim[96] = "", a[32], b[32];
		for (int p = 0; p < PAT__COUNT; p++)
			if (transport_does(t, (enum pattern)p))
				snprintf(pats + strlen(pats), sizeof(pats) - strlen(pats), "%s%s",
					 pats[0] ? "," : "", pattern_names[p]);
		if (t->max_size != UINT64_MAX && t->max_size % 1024)
			snprintf(b, sizeof(b), "%lluB", (unsigned long long)t->max_size);
		else if (t->max_size != UINT64_MAX)
			units_format_size(t->max_size, b, sizeof(b));
		if (t->min_size > 1 || t->max_size != UINT64_MAX)
			snprintf(lim, sizeof(lim), "size %s to %s",
				 units_format_size(t->min_size ? t->min_size : 1, a, sizeof(a)),
				 t->max_size == UINT64_MAX ? "any" : b);
		if (t->max_inflight)
			snprintf(lim + strlen(lim), sizeof(lim) - strlen(lim), "%sinflight %u",
				 lim[0] ? ", " : "", t->max_inflight);
		if (t->max_window)
			snprintf(lim + strlen(lim), sizeof(lim) - strlen(lim), "%swindow %s",
				 lim[0] ? ", " : "", units_format_size(t->max_window, a, sizeof(a)));
		const char *key;
		if (t->limits_now)	/* this machine's: mq's sysctls */
			t->limits_now(NULL, &key, lim, sizeof(lim));
		printf("%-15s %-30s %-32s %s\n   %s\n", t->name, pats, lim[0] ? lim : "-",
		       t->options ? t->options : "-", t->summary);
	}
	return 0;
}

/* Standard descriptors closed at start (`matrix run m.yaml 2>&-`) are
 * opened on /dev/null first: else the first file the run opens would be
 * descriptor 2, and every progress line would land in it. */
static void open_standard_fds(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
			if (n >= 0 && n != fd)	/* a lower one was closed too: taken above */
				close(n);
		}
}

/* A cell of 1024 clients needs some thousands of descriptors in the
 * runner; the common soft limit is 1024: raise it to the hard limit. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* `matrix run` keeps the whole command line in meta.csv: argv is main's
 * from argv[1], the command's name, as every command is called. */
static int run_command(int argc, char **argv)
{
	return cmd_run(argc, argv, argc + 1, argv - 1);
}

/* The commands, in the order usage lists them: dispatch, the did-you-mean
 * list and usage's "commands:" lines all read this table, so a command is
 * one line here.  Each is called with argv from its own name on and
 * returns the exit status. */
static const struct command {
	const char *name;
	const char *args;		/* what follows the name in usage, "" for nothing */
	const char *synopsis;		/* one line: what it does */
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", "FILE", "run every cell of a matrix and write a run folder", run_command },
	{ "plan", "FILE", "validate a matrix and print its cells, running nothing", cmd_plan },
	{ "report", "DIR", "rebuild a run folder's summary, ratios and charts", cmd_report },
	{ "compare", "BASE NEW", "regression verdicts of a new run folder against a baseline",
	  cmd_compare },
	{ "history", "DIR", "each cell's medians across DIR's runs, steps beyond the noise marked",
	  cmd_history },
	{ "merge", "DIR... -o OUT", "join the shards of one run (run --shard K/N) into OUT",
	  cmd_merge },
	{ "transports", "", "list the transports, their patterns and limits", cmd_transports },
	{ "worker", "ROLE", "run one server or client worker by hand", worker_main },
	{ "agent", "", "a remote host's end of a run over ssh (started by the runner)", agent_main },
};

/* The usage text, with a line per command: its name and arguments in a
 * column of 14 (or more, then two spaces), its synopsis. */
static void print_usage(FILE *f)
{
	char left[64];

	fputs(usage_head, f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		snprintf(left, sizeof(left), "%s%s%s", commands[i].name,
			 commands[i].args[0] ? " " : "", commands[i].args);
		fprintf(f, "  %-14s  %s\n", left, commands[i].synopsis);
	}
	fputs(usage_tail, f);
}

int main(int argc, char **argv)
{
	open_standard_fds();
	raise_fd_limit();
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		print_usage(stderr);
		exit(EXIT_BADINPUT);
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		print_usage(stdout);
		exit(0);
	}
	if (!strcmp(cmd, "--version")) {
		printf("matrix %s (%s)\n", MATRIX_VERSION, MATRIX_GIT_REV);
		exit(0);
	}
	char err[256];
	if (gnuplot_formats_check(err, sizeof(err)) < 0) {	/* before anything runs */
		fprintf(stderr, "matrix: %s\n", err);
		exit(EXIT_BADINPUT);
	}
	const char *names[ARRAY_SIZE(commands)];
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(cmd, commands[i].name))
			exit(commands[i].fn(argc - 1, argv + 1));
		names[i] = commands[i].name;
	}
	char hint[128];
	fprintf(stderr, "matrix: unknown command '%s'%s\n", cmd,
		suggest_hint(cmd, names, ARRAY_SIZE(names), hint, sizeof(hint)));
	print_usage(stderr);
	exit(EXIT_BADINPUT);
}

