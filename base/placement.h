/*
 * placement: where a cell's workers run, the `cpu:` key of a matrix, as
 * text both ways.  Pure: nothing here asks the machine; the runner reads
 * its allowed CPUs (sched_getaffinity) and hands them to
 * placement_resolve().
 *
 * A placement is written (matrix files, --only, --set, results.csv) as
 *   none                      no affinity set: the kernel places the workers
 *   same                      server and every client on the first allowed CPU
 *   split                     server on the first allowed CPU, the clients on
 *                             all the other allowed CPUs
 *   server=0;clients=1-3      exactly those CPUs (a matrix file may write the
 *                             mapping {server: [0], clients: [1, 2, 3]})
 * A CPU list is ascending, without repeats: single CPUs and pairs as "1,2",
 * runs of three or more as "1-3" (placement_format writes it so; parsing
 * takes any order, repeats and ranges, so "server=0;clients=3,1-2" names
 * the same placement as "server=0;clients=1-3").
 */
#ifndef MATRIX_PLACEMENT_H
#define MATRIX_PLACEMENT_H

#include <sched.h>
#include <stddef.h>

enum placement_mode { PLACE_NONE, PLACE_SAME, PLACE_SPLIT, PLACE_MAP };

struct placement {
	enum placement_mode mode;
	cpu_set_t server, clients;	/* PLACE_MAP only; each has a CPU */
};

/* The CPUs of text ("0", "1,2", "1-3", "0,4-7") added to *set: 0, or -1
 * with why ("'x' is not a CPU number", a CPU of CPU_SETSIZE or more, an
 * empty list or item, a range that goes down). */
int cpus_parse(const char *text, cpu_set_t *set, char *why, size_t whylen);
/* set as "0,2-4" ("" for an empty set); cut short at len. */
void cpus_format(const cpu_set_t *set, char *buf, size_t len);

/* "none", "same", "split" or "server=LIST;clients=LIST" into *pl: 0, or
 * -1 with why (for a word, "did you mean"). */
int placement_parse(const char *text, struct placement *pl, char *why, size_t whylen);
/* pl as placement_parse reads it, its lists in the form above. */
void placement_format(const struct placement *pl, char *buf, size_t len);

/* The CPUs in force on a runner that may use `allowed`: same and split
 * made a PLACE_MAP of those CPUs, a mapping checked against them, none
 * left alone.  0, or -1 with why: a mapping's CPU outside allowed ("CPU 5
 * is not one this runner may use (allowed: 0-3)"), split with fewer than
 * two allowed CPUs, an empty allowed set. */
int placement_resolve(const struct placement *pl, const cpu_set_t *allowed, struct placement *out,
		      char *why, size_t whylen);

#endif
