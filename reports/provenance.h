/*
 * provenance: who measured a figure of a results.csv row, from its
 * measured_by and printed_metrics columns (runner/results.h), so that the
 * tables and charts can mark it.
 *
 *   worker   our own worker timed it from inside (its timed window)
 *   process  the runner timed a program's whole process from outside,
 *            spawn to exit (its CPU from wait4): an interpreter's or a
 *            JVM's start-up, loading and connection set-up are inside
 *   printed  the program printed it (a result: regex)
 *
 * measured_by is one of:
 *   ""        an older file without the column: worker
 *   worker    every figure: worker
 *   process   a program client's row: its rates and CPU are process; no
 *             round-trip time can be measured from outside, so those are
 *             worker (our builtin client's histogram, or none)
 *   printed   the same row where the metrics named in printed_metrics
 *             replaced the runner's: those printed, the rest as process
 *   receiver=X;senders=Y   a stream row with a program on either side,
 *             X and Y each worker, process or printed: msgs_per_s and
 *             mib_per_s are the receiver's (X), sent_msgs_per_s the
 *             senders' (Y), the CPU figures process when either side is a
 *             program (its whole process's CPU) and worker otherwise
 * A metric named in printed_metrics is printed, whatever measured_by says.
 * Anything else reads as worker: no mark is better than a wrong one.
 */
#ifndef MATRIX_PROVENANCE_H
#define MATRIX_PROVENANCE_H

enum provenance { PROV_WORKER, PROV_PROCESS, PROV_PRINTED };

/* Who measured metric m (an index into matrix_metrics) of a row whose
 * measured_by and printed_metrics (';'-separated) are given; either may
 * be NULL for a column the file lacks. */
enum provenance provenance_of(const char *measured_by, const char *printed_metrics, int m);

#endif
