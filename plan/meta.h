/*
 * meta: meta.csv, the facts a reader needs to trust or compare a run:
 * two columns, key and value, one row per fact:
 *   matrix_name matrix_file host kernel arch cpu_model cores governor
 *   tool_version git_revision command_line set start_utc end_utc
 *   cells repetitions order seed hist_rel_error status runner_pid
 *   runner_start boot_id socket_dir only matrix_hash resumed_utc
 *   timeline_interval runner_overhead_ms runner_overhead_ms_max
 *   runner_max_rss_kib shard merged_from paired_by
 * (set: the --set flags, "--set count=50 --set repeat=2", empty when none;
 * order: shuffled or sequential, seed: the shuffle's, empty when
 * sequential; see order.h; socket_dir: the run's private folder for
 * socket files, removed by a later run or report if its runner was killed;
 * only: the --only flags as set has them; matrix_hash: "fnv1a64:HEX" of
 * matrix.yaml; resumed_utc: when --resume carried the run on, one time
 * each, only in a resumed run's; see resume.h; timeline_interval: the
 * matrix's interval as written, or "auto: ..." when it sets none;
 * runner_overhead_ms, runner_overhead_ms_max, runner_max_rss_kib: see
 * meta_runner_costs; shard: K/N of a `matrix run --shard K/N`, only in a
 * shard's (shard.h); merged_from: the shards' folders `matrix merge`
 * joined, only in a merged folder's, which has no shard; paired_by: the
 * dimension of an in-run A/B whose pairs ran side by side in each round,
 * ABBA (order.h), only in such a run's)
 * It is written when the run starts (end_utc empty, status `running`) and again
 * when it ends, so an interrupted run still has one.
 */
#ifndef MATRIX_META_H
#define MATRIX_META_H

#include <stddef.h>

#define META_MAX 64
/* The longest value kept whole: a field of a run folder's file
 * (CSV_FIELD_MAX, csvfile.h), so that what is written reads back.  A
 * longer one (a command line of more than 64 KiB) keeps its first bytes
 * and ends in " [cut: N bytes more]", which says so. */
#define META_VALUE_MAX (64 * 1024)

struct meta {
	const char *key[META_MAX];
	char *value[META_MAX];	/* each whole (up to META_VALUE_MAX), malloc'd; NULL: "" */
	size_t n;
};

/* Host facts: host, kernel, arch, cpu_model, cores, governor, tool_version,
 * git_revision ("unknown" where not readable). */
void meta_collect_host(struct meta *m);
/* Who is running: runner_pid, runner_start (its start time, clock ticks
 * after boot, /proc/self/stat field 22) and boot_id, so that a later
 * `matrix run` or `matrix report` can tell a folder whose runner was
 * killed (status still `running`) from one still being written
 * (procinfo.h). */
void meta_collect_runner(struct meta *m);
struct matrix;
/* timeline_interval: the matrix's `interval` values as written, or how
 * the receivers pick one when it has none (workers/timeline.h). */
void meta_timeline_interval(struct meta *m, const struct matrix *mx);
/* What the runner itself cost, set when the run ends (and so absent from
 * older run folders, and empty while a run is going):
 *   runner_overhead_ms      the median over the repetitions this run ran
 *                           whole (status ok; not those a --resume kept) of
 *                           ms[]: each one's wall time from the runner
 *                           starting it (after its programs' setup: steps,
 *                           which run once) until its results.csv row is
 *                           written and its progress line printed, minus
 *                           the clients' timed window (the row's elapsed_s).
 *                           What is left: fork and exec of the server and
 *                           the clients, their start-up until listening and
 *                           connected, the warmup messages (not measured
 *                           apart: a matrix with `warmup: 0` has none), the
 *                           start signal, the workers' ends and reaping,
 *                           aggregating, and the row's CSV writes;
 *   runner_overhead_ms_max  the largest of ms[];
 *   runner_max_rss_kib      the runner's peak resident set (VmHWM of
 *                           /proc/self/status) when the run ends, before
 *                           its report is made.
 * ms (n figures, milliseconds) is sorted in place; n 0: both overheads
 * empty. */
void meta_runner_costs(struct meta *m, double *ms, size_t n);
/* Sets (or replaces) one fact, whole (above); out of memory, it is left
 * empty. */
void meta_set(struct meta *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A fact's value, "" when it has none. */
const char *meta_text(const struct meta *m, size_t i);
/* Frees the values (the keys are the callers' static strings). */
void meta_release(struct meta *m);
/* Writes DIR/meta.csv (replacing it atomically). */
int meta_write(const struct meta *m, const char *dir, char *err, size_t errlen);

/* The 1-minute load average, the first figure of /proc/loadavg; NaN when
 * it cannot be read. */
double meta_loadavg(void);

/* Now as "2026-11-30T07:15:02Z". */
void meta_utc_now(char *buf, size_t len);

#endif
