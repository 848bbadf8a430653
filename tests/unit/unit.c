/*
 * unit.c: the unit tests' shared helpers (unit.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outlog.h"
#include "report.h"
#include "stats.h"
#include "unit.h"

void unit_expect_near(double got, double want, const char *what)
{
	if (!(fabs(got - want) <= 1e-12 * fabs(want)))
		fail_msg("%s is %.17g, expected %.17g", what, got, want);
}

void unit_expect_nan(double got, const char *what)
{
	if (!isnan(got))
		fail_msg("%s is %.17g, expected NaN", what, got);
}

int unit_tmpdir(char *dir, size_t len, const char *name)
{
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(dir, len, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", name);

	return n > 0 && (size_t)n < len && mkdtemp(dir) ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

int unit_remove_tree(const char *dir)
{
	return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *unit_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		fail_msg("open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

void unit_write_file(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

void unit_hand_cell(struct rcell *c, unsigned number, char **dimv, const char *value,
		    const double *thr, const double *rtt, size_t n)
{
	int mt = matrix_metric_index("msgs_per_s"), mr = matrix_metric_index("rtt_p50_us");

	memset(c, 0, sizeof(*c));
	c->number = number;
	dimv[0] = (char *)value;
	c->dims = dimv;
	c->reps = n ? n : 3;
	c->failed = n ? 0 : 3;
	c->vals[mt] = n ? (double *)thr : NULL;
	c->vals[mr] = n ? (double *)rtt : NULL;
	for (int m = 0; m < MATRIX_NMETRICS; m++)
		stats_summarize(c->vals[m], c->vals[m] ? n : 0, &c->st[m]);
	/* the machine unknown, as in a folder from before its columns */
	c->state.other_cpus = c->state.steal_pct = c->state.iowait_pct = NAN;
	c->state.loadavg = c->state.runnable = c->state.cpu_mhz = NAN;
}

void unit_feed(struct outlog *o, int wr, const char *p, size_t n)
{
	while (n) {
		size_t k = n < 16384 ? n : 16384;
		assert_int_equal(write(wr, p, k), (ssize_t)k);
		outlog_read(o);
		p += k;
		n -= k;
	}
}
