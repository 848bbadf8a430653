/*
 * libFuzzer target: the run-folder reader (reports/report*.c over
 * base/csvfile.c and base/fieldnum.c) on any bytes, as `matrix report`
 * reads a folder: results.csv, hist.csv, timeline.csv and meta.csv
 * together, with the folder's matrix.yaml.
 *
 * An input is a folder: files, each begun by a line "=== NAME" (NAME one
 * of the five above), its bytes up to the next such line.  A folder
 * without a matrix.yaml gets tests/data/tiny-run's.  tests/fuzz/run.sh
 * seeds the corpus from every run folder of tests/data (bad-folders/
 * too) made into this form.
 *
 * Whatever the input, report_load() must return 0 with a report that the
 * writers (summary.csv, ratios.csv, summary.md, the gnuplot scripts, the
 * JSON document) take and that releases cleanly, or -1 with one line of
 * error in err naming the folder's file ("DIR/results.csv:LINE: ..."),
 * never crash, leak, read out of bounds or hang.  ASan and UBSan report
 * the rest.  Built and run by `make fuzz` (tests/fuzz/run.sh).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "gnuplot.h"
#include "json.h"
#include "markdown.h"
#include "report.h"
#include "summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = {
	"matrix.yaml", "results.csv", "hist.csv", "timeline.csv", "meta.csv",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static const char default_matrix[] =
	"name: bad-folder\n"
	"repeat: 2\n"
	"warmup: 5\n"
	"matrix:\n"
	"  pattern: [pingpong, stream]\n"
	"  transport: [unix, tcp]\n"
	"  size: 16\n"
	"  count: 100\n";

static char dir[256];

/* The folder, and all the writers put in it, gone at the end. */
static void remove_dir(void)
{
	char cmd[600];

	if (dir[0] && strlen(dir) < sizeof(cmd) - 16) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "fuzz_folder: %s stays\n", dir);
	}
}

/* The folder every input is written into, made once. */
static void make_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (dir[0])
		return;
	snprintf(dir, sizeof(dir), "%s/fuzz_folder.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir) || strchr(dir, '\'')) {
		perror("fuzz_folder: mkdtemp");
		abort();
	}
	atexit(remove_dir);
}

static void put(const char *name, const char *p, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "we")) || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
		perror(path);
		abort();
	}
}

/* The input's files into dir (the others removed). */
static void write_folder(const char *data, size_t size)
{
	const char *at[NFILES] = { 0 }, *end[NFILES] = { 0 };
	const char *p = data, *stop = data + size;
	char path[512];
	long cur = -1;

	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p));
		const char *next = nl ? nl + 1 : stop;
		long which = -1;
		for (size_t i = 0; i < NFILES && p + 4 <= stop && !memcmp(p, "=== ", 4); i++)
			if ((size_t)(next - p) >= strlen(files[i]) + 4 &&
			    !memcmp(p + 4, files[i], strlen(files[i])) &&
			    (p + 4 + strlen(files[i]) == stop || p[4 + strlen(files[i])] == '\n'))
				which = (long)i;
		if (which >= 0) {
			if (cur >= 0)
				end[cur] = p;
			cur = which;
			at[cur] = end[cur] = next;
		} else if (cur >= 0) {
			end[cur] = next;
		}
		p = next;
	}
	for (size_t i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (unlink(path) < 0 && errno != ENOENT) {
			perror(path);
			abort();
		}
		if (at[i])
			put(files[i], at[i], (size_t)(end[i] - at[i]));
	}
	if (!at[0])
		put("matrix.yaml", default_matrix, sizeof(default_matrix) - 1);
}

/* One line, naming the folder ("DIR/FILE..." or "DIR: ..."), or a bare
 * "out of memory". */
static int well_formed(const char *err)
{
	size_t n = strlen(dir);

	if (!strcmp(err, "out of memory"))
		return 1;
	return !strncmp(err, dir, n) && (err[n] == '/' || err[n] == ':') && err[n + 1] &&
	       !strchr(err, '\n');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report r;
	char err[2048] = "";

	make_dir();
	write_folder((const char *)data, size);
	if (report_load(&r, dir, NULL, err, sizeof(err)) < 0) {
		if (!well_formed(err)) {
			fprintf(stderr, "malformed error line: '%s'\n", err);
			abort();
		}
		return 0;
	}
	/* what `matrix report` does with it, but the images */
	struct run_json *j = run_json_new();
	run_json_add_report(j, &r);
	if (summary_write_csv(&r, err, sizeof(err)) < 0 ||
	    summary_write_ratios(&r, err, sizeof(err)) < 0 ||
	    markdown_write(&r, err, sizeof(err)) < 0 || gnuplot_write_scripts(&r, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz_folder: a writer failed on a folder that loaded: %s\n", err);
		abort();
	}
	char path[512];
	snprintf(path, sizeof(path), "%s/run.json", dir);
	if (run_json_write(j, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz_folder: the JSON of a folder that loaded: %s\n", err);
		abort();
	}
	run_json_free(j);
	report_release(&r);
	return 0;
}
