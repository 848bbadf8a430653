/* `matrix merge`: see cmd_merge.h. */
#include "cmd_merge.h"
#include "cmd_common.h"
#include "cmd_guard.h"
#include "cmd_report.h"
#include "compare.h"
#include "lock.h"
#include "merge.h"
#include "resume.h"
#include "stale.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static const char usage_merge[] =
"usage: matrix merge DIR... -o OUT [--quiet]\n"
"\n"
"Joins the run folders of the N shards of one run (`matrix run --shard K/N`,\n"
"K from 1 to N, each run on any machine) into the run folder OUT, as one\n"
"`matrix run` would have written it: results.csv, timeline.csv and hist.csv\n"
"with every shard's rows (in the order of a sequential run), logs/, matrix.yaml,\n"
"and meta.csv (shard 1's, without `shard`, with `merged_from`); then its\n"
"report, as `matrix report OUT` writes it.\n"
"\n"
"Refused (exit 2, naming the folders and what differs): a folder whose run did\n"
"not finish or is no shard; shards of different N, a shard given twice or\n"
"missing; other machines (kernel, CPU model, cores, governor, matrix version:\n"
"as `matrix compare`), another matrix.yaml, --repeat or --only; a cell\n"
"repetition in two folders, in the folder of another shard, or in none.\n"
"\n"
"  -o, --output OUT  the merged run folder (must not exist or be empty; written\n"
"                    beside it as OUT.merging-PID and renamed when whole)\n"
"  -q, --quiet       only failures on stderr\n"
"\n"
"The run folder's path is the last line on stdout.\n"
"exit status: 0 every repetition ok, 1 some failed (or the report could not\n"
"be written), 2 refused or bad input\n";

/* A folder OUT (st) the merged folder cannot be renamed over (rename(2)
 * fails EBUSY or EINVAL): the current folder or one above it, the root,
 * a mount point.  1 after saying so, 0. */
static int cannot_replace(const char *out, const struct stat *st)
{
	char real[PATH_MAX], cwd[PATH_MAX], up[PATH_MAX + 8];
	struct stat pst;

	if (realpath(out, real) && getcwd(cwd, sizeof(cwd))) {
		size_t n = strlen(real);
		if (!strcmp(real, "/") || (!strncmp(cwd, real, n) && (!cwd[n] || cwd[n] == '/'))) {
			fprintf(stderr, "matrix merge: -o %s: is the current folder (or one above "
				"it): the merged folder is renamed into place when whole, which cannot "
				"replace it; name a new folder\n", out);
			return 1;
		}
	}
	snprintf(up, sizeof(up), "%s/..", out);
	if (stat(up, &pst) == 0 && pst.st_dev != st->st_dev) {
		fprintf(stderr, "matrix merge: -o %s: is a mount point: the merged folder is "
			"renamed into place when whole, which cannot replace it; name a new folder\n",
			out);
		return 1;
	}
	return 0;
}

/* OUT: must not exist or be an empty folder (not a link to one: it is
 * renamed over); -1 after saying why. */
static int check_out(const char *out)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int empty = 1;

	if (!*out) {
		fprintf(stderr, "matrix merge: -o '': expected the merged run folder\n");
		return -1;
	}
	if (lstat(out, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode) && cannot_replace(out, &st))
		return -1;
	if (!S_ISDIR(st.st_mode) || !(d = opendir(out))) {
		fprintf(stderr, "matrix merge: -o %s: exists and is not an empty directory\n", out);
		return -1;
	}
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	if (!empty)
		fprintf(stderr, "matrix merge: -o %s: exists and is not an empty directory\n", out);
	return empty ? 0 : -1;
}

/* OUT, once renamed, holds a run folder's files: none of them may be a
 * file of a shard it reads (-o inside a shard's logs/, say).  -1 after
 * saying which. */
static int check_out_files(char *const *dirs, int n, const char *out)
{
	static const char *const written[] = {
		"results.csv", "meta.csv", "matrix.yaml", "hist.csv", "timeline.csv",
		"summary.csv", "report.html", NULL
	};
	struct cmd_guard g = { .cmd = "merge" };
	int rc = 0;

	for (int i = 0; i < n && !rc; i++)
		rc = cmd_guard_add(&g, dirs[i], CMD_READS | CMD_WRITES);
	if (!rc)
		rc = cmd_guard_check_dir(&g, "-o", out, written);
	cmd_guard_release(&g);
	return rc;
}

/* Every folder ran on the first one's machine, with its matrix.yaml
 * (compare_fingerprint); -1 after saying which differ and how. */
static int check_fingerprints(const struct merge *mg)
{
	struct report first, other;
	char err[1024], diff[2048];
	int rc = 0;

	if (report_load(&first, mg->src[0].dir, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix merge: %s\n", err);
		return -1;
	}
	for (size_t i = 1; i < mg->nsrc && !rc; i++) {
		if (report_load(&other, mg->src[i].dir, NULL, err, sizeof(err)) < 0) {
			fprintf(stderr, "matrix merge: %s\n", err);
			rc = -1;
			break;
		}
		if (compare_fingerprint(&first, &other, diff, sizeof(diff))) {
			fprintf(stderr, "matrix merge: %s and %s differ in machine or inputs: not "
				"shards of one run:\n%s", mg->src[0].dir, mg->src[i].dir, diff);
			rc = -1;
		}
		report_release(&other);
	}
	report_release(&first);
	return rc;
}

/* The folders: each a finished shard, all of one machine and one
 * matrix.yaml, and together the N shards of one run.  -1 after saying why. */
static int open_shards(struct merge *mg, char *const *dirs, size_t n)
{
	char err[2048];

	if (merge_open(mg, dirs, n, err, sizeof(err)) < 0)
		goto refused;
	if (check_fingerprints(mg) < 0)
		return -1;
	if (merge_check_shards(mg, err, sizeof(err)) < 0)
		goto refused;
	return 0;
refused:
	fprintf(stderr, "matrix merge: %s\n", err);
	return -1;
}

/* The plan the shards ran (the first folder's flags, as --resume reads
 * them), its rows checked against it.  -1 after saying why. */
static int check_rows(struct merge *mg)
{
	struct resume_args ra;
	struct common c = { .quiet = 1, .elsewhere = 1 };
	struct matrix m;
	struct plan pl;
	char err[2048];
	int rc = 0;

	if (resume_args(&ra, mg->src[0].dir, 0) < 0 ||
	    cmd_parse_common(ra.argc, ra.argv, &c, 1, "") < 0 || cmd_load_plan(&c, &m, &pl) < 0) {
		matrix_sets_release(&c.sets);
		return -1;
	}
	if (merge_rows(mg, &pl, err, sizeof(err)) < 0) {
		fprintf(stderr, "matrix merge: %s\n", err);
		rc = -1;
	}
	plan_release(&pl);
	matrix_release(&m);
	matrix_sets_release(&c.sets);
	return rc;
}

/* The folders given, in shard order, for meta.csv's merged_from (merge.h):
 * separated by spaces, a name with a space, tab, newline or " in it (or
 * none) double-quoted with its " doubled, so each can be read back. */
static char *merged_from(const struct merge *mg)
{
	size_t len = 1;

	for (size_t i = 0; i < mg->nsrc; i++)
		len += 2 * strlen(mg->src[i].dir) + 3;
	char *s = malloc(len), *p = s;
	for (size_t i = 0; s && i < mg->nsrc; i++) {
		const char *d = mg->src[i].dir;
		int quote = !*d || strpbrk(d, " \t\n\r\"") != NULL;
		if (i)
			*p++ = ' ';
		if (quote)
			*p++ = '"';
		for (; *d; d++) {
			if (*d == '"')
				*p++ = '"';
			*p++ = *d;
		}
		if (quote)
			*p++ = '"';
	}
	if (s)
		*p = '\0';
	return s;
}

/* A signal of sig (SIGINT, SIGTERM, SIGHUP: Ctrl-C, scancel, a closed
 * terminal) that came while they were blocked: its number, else 0. */
static int pending_stop(const sigset_t *sig)
{
	sigset_t p;
	int n;

	if (sigpending(&p) < 0)
		return 0;
	for (n = 1; n < NSIG; n++) {
		struct sigaction sa;
		if (sigismember(sig, n) == 1 && sigismember(&p, n) == 1 &&
		    sigaction(n, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
			return n;	/* one ignored stays ignored (nohup, a & job's SIGINT) */
	}
	return 0;
}

/* OUT written whole or not at all: into a new folder OUT.merging-PID
 * beside it, locked, renamed to OUT once every file is written (over OUT
 * when that is an empty folder); on any failure that folder is removed,
 * so no OUT that looks whole but is not is ever left.  SIGINT, SIGTERM and
 * SIGHUP wait while it is written: one that came meanwhile removes it,
 * renames nothing, and then ends the process as it would have (a scancel
 * of the merge job leaves no OUT.merging-PID; SIGKILL still does).  0,
 * or -1 after saying why. */
static int write_out(const struct merge *mg, const char *out, struct run_lock *lock)
{
	char err[2048], tmp[4200];
	size_t len = strlen(out);
	char *from = merged_from(mg);
	pid_t holder;
	int rc = -1, sig = 0;
	sigset_t stop, old;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);

	while (len > 1 && out[len - 1] == '/')
		len--;
	snprintf(tmp, sizeof(tmp), "%.*s.merging-%ld", (int)len, out, (long)getpid());
	if (!from) {
		fprintf(stderr, "matrix merge: out of memory\n");
		return -1;
	}
	sigprocmask(SIG_BLOCK, &stop, &old);
	if (mkdir(tmp, 0755) < 0) {
		fprintf(stderr, "matrix merge: -o %s: cannot create %s: %s\n", out, tmp,
			strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		free(from);
		return -1;
	}
	if (lock_take(lock, tmp, &holder, err, sizeof(err)) < 0 ||
	    lock_write_pid(lock, err, sizeof(err)) < 0 ||
	    merge_write(mg, tmp, from, err, sizeof(err)) < 0)
		fprintf(stderr, "matrix merge: %s\n", err);
	else if ((sig = pending_stop(&stop)))
		fprintf(stderr, "matrix merge: interrupted by signal %d: nothing merged into %s\n",
			sig, out);
	else if (rename(tmp, out) == 0)
		rc = 0;
	else if (errno == ENOTEMPTY || errno == EEXIST || errno == ENOTDIR)	/* made meanwhile */
		fprintf(stderr, "matrix merge: -o %s: exists and is not an empty directory\n", out);
	else
		fprintf(stderr, "matrix merge: -o %s: cannot rename %s to it: %s\n", out, tmp,
			strerror(errno));
	if (rc < 0) {
		lock_release(lock);
		stale_sockdir_remove_all(tmp);	/* what we wrote, all of it */
	}
	free(from);
	sigprocmask(SIG_SETMASK, &old, NULL);	/* a pending signal ends us here */
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", 1, 0, 'o' }, { "quiet", 0, 0, 'q' }, { "help", 0, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *out = NULL;
	struct merge mg;
	int ch, quiet = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(usage_merge, stdout);
			exit(0);
		} else if (ch == 'o') {
			out = optarg;
		} else if (ch == 'q') {
			quiet = 1;
		} else {
			fputs(usage_merge, stderr);
			return EXIT_BADINPUT;
		}
	}
	if (!out || optind >= argc) {
		fprintf(stderr, "matrix merge: %s\n%s", out ? "expected the shards' run folders"
			: "expected -o OUT", usage_merge);
		return EXIT_BADINPUT;
	}
	if (check_out(out) < 0 || check_out_files(argv + optind, argc - optind, out) < 0)
		return EXIT_BADINPUT;
	struct run_lock lock = { .fd = -1 };
	if (open_shards(&mg, argv + optind, (size_t)(argc - optind)) < 0 || check_rows(&mg) < 0 ||
	    write_out(&mg, out, &lock) < 0) {
		merge_release(&mg);
		return EXIT_BADINPUT;
	}
	int failed = mg.failed;
	merge_release(&mg);
	struct report_opts ro = { .nratios = 0 };
	struct compare_args ca = { .quiet = quiet };
	struct report_ask ask = { .cmd = "merge", .ca = &ca };
	int rc = cmd_report_build(out, &ro, quiet, &ask);
	printf("%s\n", out);
	return rc ? (rc == EXIT_BADINPUT ? 1 : rc) : failed || ask.chart_failed;
}
