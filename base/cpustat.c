/* The machine's CPU counters around a window: see cpustat.h. */
#include "cpustat.h"
#include "clock.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* The line of text that starts with key, or NULL. */
static const char *line_of(const char *text, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n))
			return p + n;
	return NULL;
}

int cpustat_parse(const char *text, struct cpustat *s)
{
	unsigned long long v[8] = { 0 };
	const char *p = line_of(text, "cpu ");
	int n = 0;

	memset(s, 0, sizeof(*s));
	s->running = -1;
	if (!p)
		return -1;
	while (n < 8) {
		char *end;
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (errno)
			return -1;
		p = end;
		n++;
	}
	if (n < 4)
		return -1;
	/* user nice system idle iowait irq softirq steal */
	s->busy = v[0] + v[1] + v[2] + v[5] + v[6];
	s->iowait = v[4];
	s->steal = v[7];
	s->total = s->busy + v[3] + v[4] + v[7];
	if ((p = line_of(text, "procs_running ")) && *p >= '0' && *p <= '9')
		s->running = strtol(p, NULL, 10);
	return 0;
}

void cpustat_sample(struct cpustat_sample *s)
{
	char line[4096], keep[8192];
	size_t len = 0;
	struct rusage self, kids;
	FILE *f = fopen("/proc/stat", "re");

	memset(s, 0, sizeof(*s));
	keep[0] = '\0';
	/* the lines it needs only: the interrupt counts can be long */
	while (f && fgets(line, sizeof(line), f))
		if ((!strncmp(line, "cpu ", 4) || !strncmp(line, "procs_running ", 14)) &&
		    len + strlen(line) < sizeof(keep)) {
			memcpy(keep + len, line, strlen(line) + 1);
			len += strlen(line);
		}
	if (f)
		fclose(f);
	s->ok = cpustat_parse(keep, &s->cpu) == 0;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	s->own_cpu_s = (double)(clock_rusage_ns(&self) + clock_rusage_ns(&kids)) / 1e9;
	s->at_ns = clock_now_ns();
}

void cpustat_window(const struct cpustat_sample *a, const struct cpustat_sample *b, long hz,
		    struct cpustat_window *w)
{
	double wall = b->at_ns > a->at_ns ? (double)(b->at_ns - a->at_ns) / 1e9 : 0;

	w->steal_pct = w->iowait_pct = w->other_cpus = NAN;
	if (!a->ok || !b->ok || hz <= 0 || wall < CPUSTAT_MIN_WINDOW_S ||
	    b->cpu.total <= a->cpu.total || b->cpu.busy < a->cpu.busy ||
	    b->cpu.steal < a->cpu.steal || b->cpu.iowait < a->cpu.iowait)
		return;	/* nothing passed, or the counters went back */
	double all = (double)(b->cpu.total - a->cpu.total);
	w->steal_pct = 100 * (double)(b->cpu.steal - a->cpu.steal) / all;
	w->iowait_pct = 100 * (double)(b->cpu.iowait - a->cpu.iowait) / all;
	double other = (double)(b->cpu.busy - a->cpu.busy) / (double)hz -
		       (b->own_cpu_s - a->own_cpu_s);
	w->other_cpus = other > 0 ? other / wall : 0;
}

/* "cpu12": a CPU's folder (not cpufreq, cpuidle) */
static int cpu_folder(const char *name)
{
	if (strncmp(name, "cpu", 3) || !name[3])
		return 0;
	for (const char *p = name + 3; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

double cpustat_mhz(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	double sum = 0;
	size_t n = 0;

	if (!d)
		return NAN;
	while ((e = readdir(d))) {
		char path[4096], buf[64], *end;
		if (!cpu_folder(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpufreq/scaling_cur_freq", dir, e->d_name);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		int got = fgets(buf, sizeof(buf), f) != NULL;
		fclose(f);
		double khz = got ? strtod(buf, &end) : 0;
		if (got && end != buf && isfinite(khz) && khz > 0) {
			sum += khz / 1000;
			n++;
		}
	}
	closedir(d);
	return n ? sum / (double)n : NAN;
}
