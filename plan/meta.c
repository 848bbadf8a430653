/* meta.csv: see meta.h. */
#include "meta.h"
#include "csvfile.h"
#include "hist.h"
#include "hostfacts.h"
#include "matrix.h"
#include "procinfo.h"
#include "version.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>


void meta_set(struct meta *m, const char *key, const char *fmt, ...)
{
	va_list ap;
	size_t i;
	char *v = NULL;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->key[i], key))
			break;
	if (i == m->n) {
		if (m->n == META_MAX)
			return;
		m->key[m->n] = key;
		m->value[m->n++] = NULL;
	}
	va_start(ap, fmt);
	int n = vasprintf(&v, fmt, ap);
	va_end(ap);
	if (n < 0)
		v = NULL;
	if (v && n > META_VALUE_MAX) {	/* cut, and said so (meta.h) */
		static const char tail[] = " [cut: %d bytes more]";
		int keep = META_VALUE_MAX - (int)sizeof(tail) - 16;
		snprintf(v + keep, (size_t)n - (size_t)keep + 1, tail, n - keep);
	}
	free(m->value[i]);
	m->value[i] = v;
}

const char *meta_text(const struct meta *m, size_t i)
{
	return i < m->n && m->value[i] ? m->value[i] : "";
}

void meta_release(struct meta *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->value[i]);
	m->n = 0;
}

void meta_collect_host(struct meta *m)
{
	struct hostfacts h;
	struct utsname u;

	hostfacts_collect(&h);
	if (uname(&u) == 0) {
		meta_set(m, "host", "%s", u.nodename);
		meta_set(m, "kernel", "%s", h.kernel);
		meta_set(m, "arch", "%s", u.machine);
	}
	meta_set(m, "cpu_model", "%s", h.cpu_model);
	meta_set(m, "cores", "%s", h.cores);
	meta_set(m, "governor", "%s", h.governor);
	meta_set(m, "tool_version", "%s", MATRIX_VERSION);
	meta_set(m, "git_revision", "%s", MATRIX_GIT_REV);
	meta_set(m, "hist_rel_error", "%.6f", HIST_REL_ERROR);
}

void meta_collect_runner(struct meta *m)
{
	unsigned long long start = 0;
	char boot[64];

	proc_boot_id(boot, sizeof(boot));
	meta_set(m, "runner_pid", "%ld", (long)getpid());
	if (proc_start_time(getpid(), &start) == 0)
		meta_set(m, "runner_start", "%llu", start);
	else
		meta_set(m, "runner_start", "%s", "");
	meta_set(m, "boot_id", "%s", boot);
}

/* "; programs rx, tx: their own timeline: lines" when some have one. */
static void program_timelines(const struct matrix *mx, char *buf, size_t len)
{
	size_t o = 0, n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < mx->nprograms && o < len; i++)
		if (mx->programs[i].timeline.regex)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", n++ ? ", " : "; programs ",
					      mx->programs[i].name);
	if (n && o < len)
		snprintf(buf + o, len - o, ": their own timeline: lines, each interval as long as "
			 "the program's");
}

void meta_timeline_interval(struct meta *m, const struct matrix *mx)
{
	const struct dimension *d = matrix_dim(mx, "interval");
	char v[512] = "", progs[1024];
	size_t len = 0;

	program_timelines(mx, progs, sizeof(progs));
	if (!d) {
		meta_set(m, "timeline_interval", "auto: 20 to 100 intervals per stream repetition (fewer under 2 ms), "
			 "each of 100us, 500us, 1ms, 5ms, 10ms, ... as its length needs "
			 "(interval_s in timeline.csv)%s", progs);
		return;
	}
	for (size_t i = 0; i < d->nvalues && len < sizeof(v); i++)
		len += (size_t)snprintf(v + len, sizeof(v) - len, "%s%s", i ? ", " : "",
					d->values[i].text);
	meta_set(m, "timeline_interval", "%s%s", v, progs);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void meta_runner_costs(struct meta *m, double *ms, size_t n)
{
	if (n) {
		qsort(ms, n, sizeof(*ms), cmp_double);
		meta_set(m, "runner_overhead_ms", "%.3f",
			 n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2);
		meta_set(m, "runner_overhead_ms_max", "%.3f", ms[n - 1]);
	} else {	/* no repetition ran whole: nothing to say */
		meta_set(m, "runner_overhead_ms", "%s", "");
		meta_set(m, "runner_overhead_ms_max", "%s", "");
	}
	meta_set(m, "runner_max_rss_kib", "%lu", proc_self_hwm_kib());
}

double meta_loadavg(void)
{
	char buf[512], *end;
	double v;

	if (hostfacts_read("/proc/loadavg", NULL, buf, sizeof(buf)) < 0)
		return NAN;
	v = strtod(buf, &end);
	return end == buf || !isfinite(v) || v < 0 ? NAN : v;
}

void meta_utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int meta_write(const struct meta *m, const char *dir, char *err, size_t errlen)
{
	char path[4096];
	struct csv_out w;

	/* written whole under a temporary name, then renamed: a full disk
	 * leaves the meta.csv there was, never an empty one */
	snprintf(path, sizeof(path), "%s/meta.csv", dir);
	if (csv_out_create(&w, path, err, errlen) < 0)
		return -1;
	csv_out_field(&w, "key");
	csv_out_field(&w, "value");
	csv_out_end_row(&w);
	for (size_t i = 0; i < m->n; i++) {
		csv_out_field(&w, m->key[i]);
		csv_out_field(&w, meta_text(m, i));
		csv_out_end_row(&w);
	}
	if (csv_out_close(&w) < 0) {	/* any failed row above included */
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
