/*
 * guard: were two separate runs' machines alike enough for their figures
 * to be compared?  Two runs of one matrix, minutes or nights apart, see
 * other machines: another process on the CPUs, a hypervisor taking its
 * share, a lower clock.  A cell measured on a busier machine reads slower
 * with no change of the code, so a verdict between such cells says
 * nothing about the code: `inconclusive`, with the guard's reason, never
 * `regressed` (README "Machine-state guard").
 *
 * Both functions read struct rcell's state (report.h: the medians over the
 * cell's successful repetitions of results.csv's machine-state columns)
 * and meta.csv's `cores`.  They are pure: no file is read.
 *
 * guard_judge's bounds, each checked only when both sides have the
 * figure (a NaN on either side skips it), in this order, the first one
 * exceeded giving the reason:
 *   other_cpus  the two differ by more than GUARD_OTHER_CPUS CPUs or
 *               GUARD_OTHER_SHARE of the cores, whichever is larger (the
 *               larger side's cores when the two differ)
 *   steal_pct   the two differ by more than GUARD_STEAL_POINTS points
 *   cpu_mhz     the candidate's differs from the base's by more than
 *               GUARD_MHZ_CHANGE of the base's
 *   runnable    each side's median of the tasks runnable at its
 *               repetitions' ends differ by more than GUARD_RUNNABLE (one
 *               task more is one CPU's worth of work more, as other_cpus'
 *               0.25 CPUs is a quarter of one); only when a side has no
 *               other_cpus (repetitions under 0.1 s): an instant, but a
 *               direct one
 *   loadavg     per core (each side's load over its own cores) the two
 *               differ by more than GUARD_LOAD_PER_CORE; only when a side
 *               has no other_cpus (an older folder, repetitions under
 *               0.1 s): the load average lags a minute and counts our own
 *               workers, other_cpus is the direct figure
 * "More than": a difference exactly at a bound is within it.
 */
#ifndef MATRIX_GUARD_H
#define MATRIX_GUARD_H

#include <stddef.h>

#include "report.h"

#define GUARD_OTHER_CPUS 0.25
#define GUARD_OTHER_SHARE 0.125
#define GUARD_STEAL_POINTS 5.0
#define GUARD_MHZ_CHANGE 0.05
#define GUARD_LOAD_PER_CORE 0.5
#define GUARD_RUNNABLE 0.5

/* Cell b of the base run against cell c of the candidate run (the same
 * cell, matched by compare).  1 when their machines' states differ beyond
 * the bounds, with a sentence naming the side whose figure is worse for
 * speed and both figures in why ("the new run's machine was busier: other
 * processes used 1.60 CPUs against 0.00 (load 5.4 against 0.2 on 2
 * CPUs)"); 0, why "", when they are comparable or nothing can be said.
 * why may be NULL (len 0). */
int guard_judge(const struct report *base, const struct rcell *b, const struct report *cand,
		const struct rcell *c, char *why, size_t len);

/* Did run r share its machine?  c NULL: the whole run, any repetition
 * busy (report_busy_text: other_cpus above REPORT_BUSY_OTHER_SHARE of the
 * cores, steal_pct above REPORT_BUSY_STEAL_PCT, the load average above
 * the cores); c a cell of r: the same bounds on its medians.  1 with what
 * was seen in why ("other processes used 1.62 of the 2 CPUs"), else 0
 * and why "". */
int guard_busy(const struct report *r, const struct rcell *c, char *why, size_t len);

#endif
