/* This host's facts: see hostfacts.h. */
#include "hostfacts.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

int hostfacts_read(const char *path, const char *prefix, char *out, size_t len)
{
	FILE *f = fopen(path, "re");
	char line[512];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		char *v = line;
		if (prefix) {
			if (strncmp(line, prefix, strlen(prefix)) || !(v = strchr(line, ':')))
				continue;
			for (v++; *v == ' ' || *v == '\t'; v++)
				;
		}
		v[strcspn(v, "\n")] = '\0';
		snprintf(out, len, "%s", v);
		found = 1;
	}
	fclose(f);
	return found ? 0 : -1;
}

void hostfacts_collect(struct hostfacts *h)
{
	struct utsname u;

	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s", u.sysname, u.release, u.version);
	else
		snprintf(h->kernel, sizeof(h->kernel), "unknown");
	if (hostfacts_read("/proc/cpuinfo", "model name", h->cpu_model, sizeof(h->cpu_model)) < 0)
		snprintf(h->cpu_model, sizeof(h->cpu_model), "unknown");
	snprintf(h->cores, sizeof(h->cores), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	if (hostfacts_read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", NULL, h->governor,
		      sizeof(h->governor)) < 0)
		snprintf(h->governor, sizeof(h->governor), "unknown (no cpufreq)");
}
