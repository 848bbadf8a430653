/*
 * hostfacts: what makes one host's figures comparable with another's,
 * read from this host: the kernel (uname: "Linux 6.1.0-18-amd64 #1 SMP
 * ..."), the CPU model (/proc/cpuinfo's first "model name"), the cores
 * online, and cpu0's frequency governor.  A fact that cannot be read is
 * "unknown" ("unknown (no cpufreq)" for the governor).  meta.csv's
 * kernel, cpu_model, cores and governor, and a remote host's handshake
 * (workers/hello.h), are these.
 */
#ifndef MATRIX_HOSTFACTS_H
#define MATRIX_HOSTFACTS_H

#include <stddef.h>

struct hostfacts {
	char kernel[512];
	char cpu_model[512];
	char cores[32];
	char governor[512];
};

void hostfacts_collect(struct hostfacts *h);

/* The first line of the file at path, or the value after the colon of
 * its first line starting with prefix (NULL: none), into out; -1 when
 * there is none. */
int hostfacts_read(const char *path, const char *prefix, char *out, size_t len);

#endif
