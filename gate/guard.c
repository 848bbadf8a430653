/* Were two runs' machines alike: see guard.h. */
#include "guard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* meta.csv's cores; NaN when missing or not a count. */
static double cores_of(const struct report *r)
{
	double v = strtod(report_meta(r, "cores"), NULL);

	return v > 0 && isfinite(v) ? v : NAN;
}

/* "on 2 CPUs", "on 4 and 2 CPUs" (base's first), "" when unknown. */
static void on_cpus(double bc, double cc, char *buf, size_t len)
{
	if (isnan(bc) || isnan(cc))
		snprintf(buf, len, "%s", "");
	else if (bc == cc)
		snprintf(buf, len, " on %.0f CPUs", bc);
	else
		snprintf(buf, len, " on %.0f and %.0f CPUs", bc, cc);
}

static const char *side(int cand)
{
	return cand ? "the new run's" : "the base run's";
}

/* The loads of both sides, " (load 5.4 against 0.2 on 2 CPUs)" with the
 * named side's first, or "" when a side has none. */
static void load_note(double bl, double cl, int cand_first, const char *cpus, char *buf,
		      size_t len)
{
	if (isnan(bl) || isnan(cl))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, " (load %.1f against %.1f%s)", cand_first ? cl : bl,
			 cand_first ? bl : cl, cpus);
}

int guard_judge(const struct report *base, const struct rcell *b, const struct report *cand,
		const struct rcell *c, char *why, size_t len)
{
	const struct rstate *x = &b->state, *y = &c->state;
	double bc = cores_of(base), cc = cores_of(cand);
	double cores = isnan(bc) ? cc : isnan(cc) ? bc : fmax(bc, cc);
	double bound = fmax(GUARD_OTHER_CPUS, isnan(cores) ? 0 : GUARD_OTHER_SHARE * cores);
	char cpus[64], note[128], dummy[1];

	if (!why || !len) {
		why = dummy;
		len = sizeof(dummy);
	}
	why[0] = '\0';
	on_cpus(bc, cc, cpus, sizeof(cpus));
	if (!isnan(x->other_cpus) && !isnan(y->other_cpus) &&
	    fabs(y->other_cpus - x->other_cpus) > bound) {
		int n = y->other_cpus > x->other_cpus;
		load_note(x->loadavg, y->loadavg, n, cpus, note, sizeof(note));
		snprintf(why, len, "%s machine was busier: other processes used %.2f CPUs against "
			 "%.2f%s", side(n), n ? y->other_cpus : x->other_cpus,
			 n ? x->other_cpus : y->other_cpus, note);
		return 1;
	}
	if (!isnan(x->steal_pct) && !isnan(y->steal_pct) &&
	    fabs(y->steal_pct - x->steal_pct) > GUARD_STEAL_POINTS) {
		int n = y->steal_pct > x->steal_pct;
		snprintf(why, len, "%s machine lost more of its CPUs' time to the hypervisor: "
			 "steal %.1f%% against %.1f%%", side(n), n ? y->steal_pct : x->steal_pct,
			 n ? x->steal_pct : y->steal_pct);
		return 1;
	}
	if (x->cpu_mhz > 0 && y->cpu_mhz > 0 && fabs(y->cpu_mhz / x->cpu_mhz - 1) > GUARD_MHZ_CHANGE) {
		int n = y->cpu_mhz < x->cpu_mhz;
		snprintf(why, len, "%s machine ran its CPUs at a lower clock: %.0f MHz against %.0f MHz",
			 side(n), n ? y->cpu_mhz : x->cpu_mhz, n ? x->cpu_mhz : y->cpu_mhz);
		return 1;
	}
	/* no other_cpus (repetitions too short for /proc/stat's ticks): the
	 * tasks runnable at each repetition's end, at once, then the load */
	if ((isnan(x->other_cpus) || isnan(y->other_cpus)) && !isnan(x->runnable) &&
	    !isnan(y->runnable) && fabs(y->runnable - x->runnable) > GUARD_RUNNABLE) {
		int n = y->runnable > x->runnable;
		load_note(x->loadavg, y->loadavg, n, cpus, note, sizeof(note));
		snprintf(why, len, "%s machine was busier: %.0f tasks runnable against %.0f%s",
			 side(n), n ? y->runnable : x->runnable, n ? x->runnable : y->runnable,
			 note[0] ? note : cpus);
		return 1;
	}
	if ((isnan(x->other_cpus) || isnan(y->other_cpus)) && !isnan(x->loadavg) &&
	    !isnan(y->loadavg) && !isnan(bc) && !isnan(cc) &&
	    fabs(y->loadavg / cc - x->loadavg / bc) > GUARD_LOAD_PER_CORE) {
		int n = y->loadavg / cc > x->loadavg / bc;
		snprintf(why, len, "%s machine was busier: load %.1f against %.1f%s", side(n),
			 n ? y->loadavg : x->loadavg, n ? x->loadavg : y->loadavg, cpus);
		return 1;
	}
	return 0;
}

int guard_busy(const struct report *r, const struct rcell *c, char *why, size_t len)
{
	const char *cpus = report_meta(r, "cores");
	double cores = cores_of(r);
	size_t o = 0;
	char dummy[1];

	if (!why || !len) {
		why = dummy;
		len = sizeof(dummy);
	}
	why[0] = '\0';
	if (!c)
		return report_busy_text(r, why, len);
	const struct rstate *s = &c->state;
	if (s->other_cpus > REPORT_BUSY_OTHER_SHARE * cores)	/* NaN: never */
		o += (size_t)snprintf(why + o, len - o, "other processes used %.2f of the %s CPUs",
				      s->other_cpus, cpus);
	if (o < len && s->steal_pct > REPORT_BUSY_STEAL_PCT)
		o += (size_t)snprintf(why + o, len - o, "%sthe hypervisor took %.1f%% of the "
				      "CPUs' time (steal)", o ? "; " : "", s->steal_pct);
	if (o < len && s->loadavg > cores)
		o += (size_t)snprintf(why + o, len - o, "%sthe 1-minute load average was %.2f on "
				      "%s cores", o ? "; " : "", s->loadavg, cpus);
	return o > 0;
}
