/* Who wrote a run folder, and whether it still runs: see procinfo.h. */
#include "procinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned long proc_self_hwm_kib(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6)) {
			kib = strtoul(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return kib;
}

int proc_start_time(pid_t pid, unsigned long long *ticks)
{
	char path[64], buf[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (!(f = fopen(path, "re")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the command name (field 2) may hold spaces and parentheses: the
	 * fields are counted from the last ')', which ends it; field 3 follows */
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	p++;
	if (p[0] == ' ' && (p[1] == 'Z' || p[1] == 'X'))
		return -1;	/* dead, only not yet reaped by its parent */
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -1;
	}
	char *end;
	errno = 0;
	*ticks = strtoull(p + 1, &end, 10);
	return end == p + 1 || errno ? -1 : 0;
}

void proc_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

enum proc_state proc_state_of(const char *pid, const char *start, const char *boot_id)
{
	unsigned long long want, have;
	char boot[64], *end;
	long p;

	if (!pid || !*pid || !start || !*start)
		return PROC_UNKNOWN;
	errno = 0;
	p = strtol(pid, &end, 10);
	if (*end || errno || p <= 0)
		return PROC_UNKNOWN;
	want = strtoull(start, &end, 10);
	if (*end || errno)
		return PROC_UNKNOWN;
	proc_boot_id(boot, sizeof(boot));
	if (boot_id && *boot_id && *boot && strcmp(boot, boot_id))
		return PROC_GONE;	/* the machine was restarted since */
	if (proc_start_time(getpid(), &have) < 0)
		return PROC_UNKNOWN;	/* no /proc here: nothing can be said */
	if (proc_start_time((pid_t)p, &have) < 0)
		return PROC_GONE;
	return have == want ? PROC_ALIVE : PROC_GONE;
}
