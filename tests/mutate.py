#!/usr/bin/env python3
"""make mutate: does `make test` notice when the code breaks?

Copies the working tree to a temporary folder, builds it, checks that the
tests named below pass there, then applies each one-line mutation of the
list in turn (exactly one occurrence of FROM replaced by TO), rebuilds, runs
the tests that should notice it (tests/run.sh --only REGEX) and puts the
file back.  Prints one line per mutation, caught or SURVIVED, and a score;
exits 0 only when every mutation was caught.  A mutation whose FROM text is
no longer in the code is reported as stale: the list must follow the code.

    make mutate                     every mutation
    tests/mutate.py NAME...         only these
    tests/mutate.py --check [DIR]   no build, no test run: that every FROM
                                    text is in its file (of DIR, the tree
                                    by default) exactly once, and that
                                    every test regex names a test there
                                    (make test runs it: test_mutate.sh)
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# name, file, from, to, tests that must fail (run.sh --only), build
MUTATIONS = [
    ("rtt-clock-after-send", "workers/rr.c",
     "\t\tt0 = clock_now_ns();\n\t\tif (fd_send_all_inline(c, cl->req, cl->reqlen) < 0)\n"
     "\t\t\treturn drive_error(cl, \"send\", \"send to\");\n",
     "\t\tif (fd_send_all_inline(c, cl->req, cl->reqlen) < 0)\n"
     "\t\t\treturn drive_error(cl, \"send\", \"send to\");\n\t\tt0 = clock_now_ns();\n",
     "e2e:test_timing.sh", "release"),
    ("msgs-per-s-from-sent-count", "cell/aggregate.c",
     "row->msgs_per_s = ratio((double)msgs, row->elapsed_s);",
     "row->msgs_per_s = ratio((double)sent, row->elapsed_s);",
     "unit:test_aggregate", "release"),
    ("stream-window-from-first-read", "cell/aggregate.c",
     "? (double)(o->server.end_ns - cstart) / 1e9 : NAN;",
     "? (double)(o->server.end_ns - o->server.start_ns) / 1e9 : NAN;",
     "unit:test_aggregate|e2e:test_figures.sh:t_stream", "release"),
    ("receiver-faster-than-senders-unchecked", "cell/aggregate.c",
     "o->server.end_ns + res >= last_send ||",
     "o->server.end_ns + res + 1000000000 >= last_send ||",
     "unit:test_aggregate", "release"),
    ("cpu-per-message-per-round-trip", "cell/aggregate.c",
     "row->cpu_us_per_msg = ratio(us, 2.0 * (double)msgs);",
     "row->cpu_us_per_msg = ratio(us, (double)msgs);",
     "unit:test_aggregate|e2e:test_figures.sh:t_cpu", "release"),
    ("printed-percentiles-averaged", "cell/aggregate.c",
     "*fig = o->nclients == 1 ? top : NAN;",
     "*fig = shares > 0 ? wsum / shares : NAN;",
     "unit:test_aggregate", "release"),
    ("histogram-sum-unchecked", "workers/wire.c",
     "if (!wrapped && all == h->count)",
     "if (!wrapped && all <= h->count)",
     "unit:test_wire", "release"),
    ("inflight-clock-restarts-on-retry", "workers/rr.c",
     "if (pl->started == pl->sent) {",
     "if (pl->woff == 0) {",
     "e2e:test_client_clock.sh:t_inflight", "release"),
    ("udp-receive-timeout-never-set-back", "workers/rr.c",
     "if (cut && t->set_recv_timeout(&cl->c, limit) < 0)",
     "if (0 && cut && t->set_recv_timeout(&cl->c, limit) < 0)",
     "e2e:test_client_clock.sh:t_udp_late", "release"),
    ("start-byte-read-without-poll", "workers/options.c",
     "\twhile (poll(&p, 1, -1) < 0 && errno == EINTR)\n",
     "\twhile (0 && poll(&p, 1, -1) < 0 && errno == EINTR)\n",
     "e2e:test_figures.sh:t_every", "release"),
    ("compare-direction-ignored", "gate/compare_figures.c",
     "\tint higher = metrics[row->metric].better == HIGHER_IS_BETTER;\n\tdouble t = c->threshold,",
     "\tint higher = 1;\n\tdouble t = c->threshold,",
     "unit:test_compare", "release"),
    ("compare-threshold-ignored", "gate/compare.c",
     "int worse_beyond = c->paired || (higher ? row->hi < -t : row->lo > t);",
     "int worse_beyond = c->paired || (higher ? row->hi < 0 : row->lo > 0);",
     "unit:test_compare|e2e:test_compare.sh:t_compare_verdicts", "release"),
    ("paired-threshold-ignored", "gate/compare_figures.c",
     "worse[i] = higher ? down - d[i] : d[i] - up;",
     "worse[i] = higher ? -d[i] : d[i];",
     "unit:test_compare", "release"),
    ("paired-by-position-not-round", "gate/compare_figures.c",
     "if (a->round[j] == b->round[i]) {",
     "if (j == i) {",
     "unit:test_compare", "release"),
    ("median-interval-lower-off-by-one", "gate/signtest.c",
     "*lo = s[k - 1];",
     "*lo = s[k];",
     "unit:test_signtest", "release"),
    ("median-interval-off-by-one", "gate/signtest.c",
     "*hi = s[m - k];",
     "*hi = s[m - k - 1];",
     "unit:test_signtest", "release"),
    ("sign-test-counts-zeros", "gate/signtest.c",
     "if (!isnan(d[i]) && d[i] != 0) {",
     "if (!isnan(d[i])) {",
     "unit:test_signtest", "release"),
    ("sign-test-tail-one-off", "gate/signtest.c",
     "return binom_half_cdf(m, m - k);",
     "return binom_half_cdf(m, m - k + 1);",
     "unit:test_signtest|unit:test_compare", "release"),
    ("one-alpha-per-look-of-five-percent", "gate/compare.h",
     "#define COMPARE_ALPHA 0.0304",
     "#define COMPARE_ALPHA 0.05",
     "unit:test_signtest", "release"),
    ("second-look-rejudges-decided-rows", "gate/compare.c",
     "if (was && !compare_row_looks_again(was)) {",
     "if (0 && was && !compare_row_looks_again(was)) {",
     "unit:test_compare", "release"),
    ("pairs-never-reversed", "plan/order.c",
     "while (j > start && (round % 2 ? side[idx[j - 1]] > side[v]",
     "while (j > start && (round % 1 ? side[idx[j - 1]] > side[v]",
     "unit:test_order", "release"),
    ("benjamini-hochberg-uncorrected", "gate/compare.c",
     "double v = s[j].p * (double)k / (double)(j + 1);",
     "double v = s[j].p;",
     "unit:test_compare", "release"),
    ("mann-whitney-tie-counts-whole", "gate/compare_figures.c",
     "u2 += x[i] < y[j] ? 2 : x[i] == y[j];",
     "u2 += x[i] <= y[j] ? 2 : 0;",
     "unit:test_compare", "release"),
    ("client-cpu-from-server-rusage", "cell/aggregate.c",
     "row->client_cpu_s = tv_s(o->clients_ru.ru_utime) + tv_s(o->clients_ru.ru_stime);",
     "row->client_cpu_s = tv_s(o->server_ru.ru_utime) + tv_s(o->server_ru.ru_stime);",
     "unit:test_aggregate", "release"),
    ("cpu-columns-swapped", "runner/results.c",
     '"client_cpu_s", "server_cpu_s", "cpu_us_per_msg", "ctx_switches",',
     '"server_cpu_s", "client_cpu_s", "cpu_us_per_msg", "ctx_switches",',
     "unit:test_results", "release"),
    ("buffer-columns-swapped", "runner/results.c",
     '"sndbuf", "rcvbuf", "nodelay", "max_rss_kib", "wall_s",',
     '"rcvbuf", "sndbuf", "nodelay", "max_rss_kib", "wall_s",',
     "unit:test_results", "release"),
    ("row-figure-from-the-next-field", "cell/aggregate.c",
     "return (double *)((char *)row + row_fields[i].off);",
     "return (double *)((char *)row + row_fields[(i + 1) % ARRAY_SIZE(row_fields)].off);",
     "unit:test_results|unit:test_aggregate", "release"),
    ("headline-phrase-ignored", "reports/headline.c",
     "if (metrics[m].phrase) {",
     "if (0 && metrics[m].phrase) {",
     "e2e:test_headline.sh", "release"),
    ("rtt-samples-column-renamed", "runner/results.c",
     "\"rtt_min_us\", \"rtt_samples\", \"sent_messages\",",
     "\"rtt_min_us\", \"rtt_count\", \"sent_messages\",",
     "e2e:test_run.sh", "release"),
    ("sent-messages-column-renamed", "runner/results.c",
     "\"rtt_min_us\", \"rtt_samples\", \"sent_messages\",",
     "\"rtt_min_us\", \"rtt_samples\", \"sent_msgs\",",
     "e2e:test_run.sh", "release"),
    ("timeline-starts-one-interval-late", "runner/results.c",
     "struct tl_row t = { (double)i * interval, interval, srv->tl_messages[i],",
     "struct tl_row t = { (double)(i + 1) * interval, interval, srv->tl_messages[i],",
     "unit:test_results|e2e:test_run.sh:t_stream_counts_at_receiver", "release"),
    ("timeline-bucket-off-by-one", "workers/timeline.c",
     "uint64_t i = (now_ns - t0_ns) / interval_ns;",
     "uint64_t i = (now_ns - t0_ns) / interval_ns + 1;",
     "unit:test_timeline|e2e:test_run.sh:t_stream_counts_at_receiver", "release"),
    ("lone-cr-not-quoted", "base/csvfile.c",
     "return strpbrk(s, \",\\\"\\r\\n\") != NULL;",
     "return strpbrk(s, \",\\\"\\n\") != NULL;",
     "unit:test_csv", "release"),
    ("workers-never-signalled", "cell/cell_stop.c",
     "\t\telse\n\t\t\tspawn_signal(&s->ch, sig);",
     "\t\telse\n\t\t\t(void)sig;",
     "e2e:test_failures.sh:t_(timeout_is_a_status|killed_worker)", "release"),
    ("wire-start-ns-not-read", "workers/wire.c",
     "{ \"start_ns\", &r->start_ns },",
     "{ \"start_ms\", &r->start_ns },",
     "unit:test_wire", "release"),
    ("summary-md-ratio-bounds-swapped", "reports/headline.c",
     "snprintf(buf, len, \"%.2f× (%.2f–%.2f)\", p->ratio, p->lo, p->hi);",
     "snprintf(buf, len, \"%.2f× (%.2f–%.2f)\", p->ratio, p->hi, p->lo);",
     "unit:test_report|e2e:test_golden.sh|e2e:test_headline.sh", "release"),
    ("median-is-the-mean", "reports/stats.c",
     "s->median = stats_median_sorted(x, m);",
     "s->median = s->mean;",
     "unit:test_stats|e2e:test_golden.sh", "release"),
    ("stdev-over-n", "reports/stats.c",
     "s->stdev = sqrt(ss / (double)(m - 1));",
     "s->stdev = sqrt(ss / (double)m);",
     "unit:test_stats|e2e:test_golden.sh", "release"),
    ("heap-overflow-in-summarize", "reports/stats.c",
     "double *x = malloc((n ? n : 1) * sizeof(*x)), sum = 0, ss = 0;",
     "double *x = malloc((n > 1 ? n - 1 : 1) * sizeof(*x)), sum = 0, ss = 0;",
     "unit:test_stats", "asan"),
    ("no-death-signal", "launch/spawn.c",
     "if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)",
     "if (getppid() != parent)",
     "e2e:test_killed.sh:t_(killed_runner|report_removes)", "release"),
    ("growing-csv-not-flushed-per-row", "base/csvfile.c",
     "if (putc('\\n', w->f) == EOF || (!w->whole && fflush(w->f) == EOF))",
     "if (putc('\\n', w->f) == EOF)",
     "unit:test_csv|e2e:test_disk.sh", "release"),
    ("report-file-renamed-despite-error", "base/outfile.c",
     "\tif (!e && rename(o->tmp, o->path) < 0)\n\t\te = errno;",
     "\tif (rename(o->tmp, o->path) < 0 && !e)\n\t\te = errno;",
     "unit:test_csv|e2e:test_disk.sh", "release"),
    ("nesting-unbounded", "base/matrix_file.c",
     "\t\t\tif (++depth > MATRIX_MAX_DEPTH)",
     "\t\t\tif (++depth > 100000000)",
     "e2e:test_bounds.sh|e2e:test_fuzz.sh:t_bad_matrices", "release"),
    ("lock-never-held", "runner/lock.c",
     "\tif (fcntl(l->fd, F_OFD_SETLK, &fl) < 0) {",
     "\tif (fcntl(l->fd, F_OFD_SETLK, &fl) < 0 && 0) {",
     "e2e:test_resume.sh:t_live_run", "release"),
    ("program-log-uncapped", "cell/outlog.c",
     "size_t room = o->written < OUTLOG_CAP ? OUTLOG_CAP - o->written : 0;",
     "size_t room = n;",
     "unit:test_outlog|e2e:test_killed.sh:t_program_logs", "release"),
    ("repeat-uncapped", "base/matrix_file.c",
     "\tif (n > MATRIX_MAX_REPEAT)\n\t\treturn error_node(L, val, \"repeat: at most %d\", MATRIX_MAX_REPEAT);",
     "\tif (n > UINT32_MAX)\n\t\treturn error_node(L, val, \"repeat: at most %d\", MATRIX_MAX_REPEAT);",
     "unit:test_matrix|e2e:test_fuzz.sh:t_bad_matrices", "release"),
    ("resume-through-link", "cli/cmd_common.c",
     "c->resume = resume_folder(arg);",
     "c->resume = arg;",
     "e2e:test_reliability.sh:t_resume_through_latest", "release"),
    ("html-lt-not-escaped", "reports/html.c",
     "case '<': fputs(\"&lt;\", f); break;",
     "case '<': fputc('<', f); break;",
     "unit:test_html|e2e:test_html.sh", "release"),
    ("hist-csv-bucket-dropped", "runner/results.c",
     "\t\tfor (; i <= last; i++)\n\t\t\tcount += h->buckets[i];",
     "\t\tfor (i++; i <= last; i++)\n\t\t\tcount += h->buckets[i];",
     "e2e:test_hist.sh|unit:test_hist_csv", "release"),
    ("leak-in-summarize", "reports/stats.c",
     "&s->ci_level);\n\tfree(x);",
     "&s->ci_level);",
     "unit:test_stats", "asan"),
    # issue 14: rate, record, poll: busy, cpu placement, seqwin
    ("pace-schedule-1000x-fast", "workers/pace.c",
     "(u128)i * 1000000000u / p->rate",
     "(u128)i * 1000000u / p->rate",
     "e2e:test_rate.sh:t_paced_cells_keep_their_schedule", "release"),
    ("paced-duration-sends-past-window", "workers/drive.h",
     "return pace_due(&cl->pace, n) - cl->start_ns >= o->duration_ns;",
     "return pace_due(&cl->pace, n) - cl->start_ns >= o->duration_ns + 100000000;",
     "e2e:test_rate.sh:t_paced_cells_keep_their_schedule", "release"),
    ("paced-rtt-from-send", "workers/rr.c",
     "*rtt = now - (due ? due : t0);",
     "*rtt = now - (due ? t0 : t0);",
     "e2e:test_rate.sh:t_latency_counts_from_the_schedule", "release"),
    ("paced-pipeline-clock-from-send", "workers/rr.c",
     "= o->rate ? due : now;",
     "= now;",
     "e2e:test_rate.sh:t_latency_counts_from_the_schedule", "release"),
    ("totals-rows-get-percentiles", "cell/aggregate.c",
     "if (h.totals)\t/* record: totals: no percentiles (NaN, empty) */",
     "if (0)\t/* record: totals: no percentiles (NaN, empty) */",
     "unit:test_aggregate|e2e:test_rate.sh:t_record_totals", "release"),
    ("totals-not-on-the-wire", "workers/wire.c",
     "h->totals ? \" totals=1\" : \"\"",
     "\"\"",
     "unit:test_wire|e2e:test_rate.sh:t_record_totals", "release"),
    ("seqwin-duplicate-unchecked", "workers/seqwin.c",
     "if (test_bit(w, n))",
     "if (0 && test_bit(w, n))",
     "unit:test_seqwin", "release"),
    ("seqwin-clears-one-behind", "workers/seqwin.c",
     "clear_bit(w, n - d + 1);",
     "clear_bit(w, n - d);",
     "unit:test_seqwin", "release"),
    ("split-clients-share-server-cpu", "base/placement.c",
     "CPU_XOR(&out->clients, allowed, &out->server);",
     "out->clients = *allowed;",
     "unit:test_placement|e2e:test_cpu.sh", "release"),
    ("affinity-never-set", "launch/spawn.c",
     "if (cpus && sched_setaffinity(0, sizeof(*cpus), cpus) < 0) {",
     "if (0 && sched_setaffinity(0, sizeof(*cpus), cpus) < 0) {",
     "e2e:test_cpu.sh:t_(workers|programs)_run_where_placed", "release"),
    ("exec-failure-not-read", "launch/spawn.c",
     "if (n == sizeof(e)) {\t/* exec failed",
     "if (0 && n == sizeof(e)) {\t/* exec failed",
     "e2e:test_spawn_fail.sh", "release"),
    ("exec-failure-errno-lost", "launch/spawn.c",
     "\te[1] = errno;",
     "\te[1] = 0;",
     "e2e:test_spawn_fail.sh", "release"),
    ("affinity-failure-named-as-exec", "launch/spawn.c",
     "if (e[0] == SPAWN_FAILED_AFFINITY)",
     "if (0 && e[0] == SPAWN_FAILED_AFFINITY)",
     "e2e:test_spawn_fail.sh:t_affinity", "release"),
    ("busy-eagain-not-retried", "transports/fdio.c",
     "errno != EINTR && (errno != EAGAIN || !c->busy)",
     "errno != EINTR",
     "e2e:test_poll.sh:t_busy_every_transport_and_pattern", "release"),
    ("busy-split-message-not-retried", "transports/fdio.c",
     "\t\tn = fd_sys_read(c->fd, p + got, len - got);",
     "\t\tif ((n = fd_sys_read(c->fd, p + got, len - got)) < 0)\n\t\t\treturn -1;",
     "e2e:test_busy_split.sh", "release"),
    ("busy-partial-write-not-retried", "transports/fdio.c",
     "\t\tn = fd_sys_write(c->wfd, p, len);",
     "\t\tif ((n = fd_sys_write(c->wfd, p, len)) < 0)\n\t\t\treturn -1;",
     "e2e:test_busy_split.sh", "release"),
    ("busy-lossy-deadline-ignored", "transports/fdio.c",
     "else if (now - since >= c->recv_timeout_ns) {",
     "else if (0) {",
     "e2e:test_poll.sh:t_busy_lossy", "release"),
    ("busy-pipeline-sleeps-in-poll", "workers/rr.c",
     "if (!wrote && !got && !cl->c.busy && pipeline_wait(cl, &pl) < 0)",
     "if (!wrote && !got && pipeline_wait(cl, &pl) < 0)",
     "e2e:test_poll.sh:t_busy_client_spins_while_it_waits", "release"),
    ("pipeline-echoes-unchecked", "workers/pipeline.c",
     "if (cl->ops->check_reply(cl, cl->o->warmup + cl->messages))",
     "if (0 && cl->ops->check_reply(cl, cl->o->warmup + cl->messages))",
     "e2e:test_pipeline.sh:t_pipeline_with_a_line_framed_server", "release"),
    ("pipeline-requests-without-newline", "workers/pipeline.c",
     "cl->req[cl->reqlen - 1] = '\\n';",
     "cl->req[cl->reqlen - 1] = 'x';",
     "e2e:test_pipeline.sh:t_pipeline_with_a_line_framed_server", "release"),
    ("svg-colour-mode-leaks-into-next-chart", "reports/gnuplot_render.c",
     "fputs(\"set output '/dev/null'\\nclear\\n\", f);",
     "fputs(\"\", f);",
     "unit:test_gnuplot_render", "release"),
    ("reference-beside-every-pair", "reports/report_query.c",
     "if (k == s->refs[i].nterms) {",
     "if (k + 1 >= s->refs[i].nterms) {",
     "e2e:test_report.sh:t_ratio_reference", "release"),
    ("median-ci-lower-index-one-up", "reports/stats.c",
     "*lo = sorted[best - 1];",
     "*lo = sorted[best];",
     "unit:test_stats", "release"),
    ("median-ci-upper-index-one-down", "reports/stats.c",
     "*hi = sorted[n - best];",
     "*hi = sorted[n - best - 1];",
     "unit:test_stats", "release"),
    ("median-ci-coverage-one-term-long", "reports/stats.c",
     "double cover = 1 - 2 * binom_cdf_half(n, k - 1);",
     "double cover = 1 - 2 * binom_cdf_half(n, k);",
     "unit:test_stats", "release"),
    ("ratio-ci-lower-corner-swapped", "reports/stats.c",
     "*lo = min2(nlo / dhi, nlo / dlo);",
     "*lo = min2(nlo / dlo, nlo / dlo);",
     "unit:test_stats", "release"),
    ("ratio-ci-from-one-repetition", "reports/stats.c",
     "if (m < 2 || n < 2)\t/* a side of one value",
     "if (0)\t/* a side of one value",
     "unit:test_stats|e2e:test_headline.sh:t_one_repetition", "release"),
    ("summary-csv-interval-of-one-value", "reports/summary.c",
     "v[0] = (double)s->n, v[1] = s->median, v[2] = iv ? s->ci_lo : NAN;",
     "v[0] = (double)s->n, v[1] = s->median, v[2] = s->ci_lo;",
     "e2e:test_headline.sh:t_one_repetition", "release"),
    ("upper-bound-on-one-host-too", "reports/report_query.c",
     "return *s && *c && !host_url_same(s, c);",
     "return *s && *c;",
     "e2e:test_marks.sh:t_marks_cross_host", "release"),
    ("upper-bound-on-round-trips-too", "reports/report_query.c",
     "return m >= 0 && c->st[m].n > 0 && pi && pi->receiver_times && report_cross_host(r);",
     "return m >= 0 && c->st[m].n > 0 && pi && report_cross_host(r);",
     "e2e:test_marks.sh:t_marks_cross_host", "release"),
    ("schedule-judged-by-the-receiver", "reports/report_query.c",
     "pi->receiver_times ? \"sent_msgs_per_s\" : \"msgs_per_s\"",
     "\"msgs_per_s\"",
     "e2e:test_rate.sh:t_schedule_not_kept", "release"),
    ("schedule-judged-by-the-median-only", "reports/report_query.c",
     "s->behind += c->vals[s->metric][i] / conc < MATRIX_RATE_KEPT * s->asked;",
     "s->behind += c->st[s->metric].median / conc < MATRIX_RATE_KEPT * s->asked;",
     "e2e:test_rate.sh:t_schedule_not_kept", "release"),
    ("paced-window-ends-by-the-clock", "workers/drive.h",
     "\tif (o->rate)\n\t\treturn pace_due(&cl->pace, n) - cl->start_ns >= o->duration_ns;\n",
     "",
     "e2e:test_rate.sh:t_paced_window", "release"),
    # issue 25: the machine's state, and the guard's bounds
    ("cpustat-softirq-not-busy", "base/cpustat.c",
     "s->busy = v[0] + v[1] + v[2] + v[5] + v[6];",
     "s->busy = v[0] + v[1] + v[2] + v[5];",
     "unit:test_cpustat", "release"),
    ("other-cpus-counts-our-own", "base/cpustat.c",
     "\t\t       (b->own_cpu_s - a->own_cpu_s);",
     "\t\t       0;",
     "unit:test_cpustat", "release"),
    ("guard-other-bound-ignores-cores", "gate/guard.c",
     "isnan(cores) ? 0 : GUARD_OTHER_SHARE * cores",
     "isnan(cores) ? 0 : 0 * cores",
     "unit:test_guard", "release"),
    ("guard-steal-bound-doubled", "gate/guard.c",
     "fabs(y->steal_pct - x->steal_pct) > GUARD_STEAL_POINTS",
     "fabs(y->steal_pct - x->steal_pct) > 2 * GUARD_STEAL_POINTS",
     "unit:test_guard", "release"),
    ("guard-load-asked-beside-other-cpus", "gate/guard.c",
     "if ((isnan(x->other_cpus) || isnan(y->other_cpus)) && !isnan(x->loadavg) &&",
     "if (!isnan(x->loadavg) &&",
     "unit:test_guard", "release"),
    ("busy-other-cpus-never-said", "reports/report_state.c",
     "count(&r->other, s.other_cpus, REPORT_BUSY_OTHER_SHARE * cores);",
     "count(&r->other, s.other_cpus, INFINITY);",
     "e2e:test_report.sh:t_busy_machine_is_said", "release"),
    ("history-noise-ignored", "gate/history_noise.c",
     "> HISTORY_NOISE_K * noise ? NOISE_BEYOND : NOISE_WITHIN;",
     "> 0 * noise ? NOISE_BEYOND : NOISE_WITHIN;",
     "unit:test_history|e2e:test_history_noise.sh:t_history_noise_tight", "release"),
    ("history-noise-known-at-once", "gate/history_noise.c",
     "if (nights < HISTORY_NOISE_MIN) {",
     "if (nights < 1) {",
     "unit:test_history|e2e:test_history_noise.sh:t_history_noise_tight", "release"),
    ("history-noise-looks-ahead", "gate/history_noise.c",
     "size_t n = cell_changes(h, p->group, p->cell, p->mi, p->run, chg);",
     "size_t n = cell_changes(h, p->group, p->cell, p->mi, h->nruns, chg);",
     "unit:test_history|e2e:test_history_noise.sh:t_history_noise_tight", "release"),
    ("history-noise-not-robust", "gate/history_noise.c",
     "return 1.4826 * (k % 2 ? a[k / 2] : (a[k / 2 - 1] + a[k / 2]) / 2);",
     "return 1.4826 * a[k - 1];",
     "unit:test_history|e2e:test_history_noise.sh:t_history_noise_tight", "release"),
    ("compare-history-not-applied", "cli/cmd_compare.c",
     "enum verdict v = history_calibrate(row->verdict, row->change, noise, nights, &call);",
     "enum verdict v = row->verdict;\n\t\t(void)history_calibrate(row->verdict, row->change, noise, nights, &call);",
     "e2e:test_history_noise.sh:t_compare_history", "release"),
    ("history-gate-first-look-only", "gate/history_gate.c",
     "{ COMPARE_LOOK2 \"/ab.csv\", \"ab.csv\" },",
     "{ \"ab.csv\", COMPARE_LOOK2 \"/ab.csv\" },",
     "e2e:test_history_noise.sh:t_history_night_gates", "release"),
    ("history-marks-its-own-step-over-the-gate", "gate/history.c",
     "p->night = p->gate_verdict != V__COUNT ? p->gate_verdict : p->verdict;",
     "p->night = p->verdict;",
     "e2e:test_history_noise.sh:t_history_night_gates", "release"),
    ("one-host-whatever-port-22", "base/matrix_hosts.c",
     "if (u->port && !(fold_22 && u->port == 22))",
     "if (u->port && !(fold_22 && u->port == 2222))",
     "unit:test_hosts", "release"),
    ("link-queue-kept-between-cells", "launch/link.c",
     "\treset(d);\n\tmemset(&d->w, 0, sizeof(d->w));",
     "\tmemset(&d->w, 0, sizeof(d->w));",
     "unit:test_link", "release"),
    ("link-rate-without-ethernet-header", "launch/link.c",
     "(len + LINK_RATE_OVERHEAD) * 8e9",
     "(len) * 8e9",
     "unit:test_link", "release"),
    ("plan-shard-lists-every-cell", "cli/main.c",
     "if (!c.shard.n || shard_has_any(&pl, &c.shard, i))",
     "if (1)",
     "e2e:test_shard.sh:t_plan_shard_shows_what_run_shard_runs", "release"),
]


def sh(cmd, cwd, log=None):
    """Runs cmd (a list); returns its exit status, output appended to log."""
    out = open(log, "ab") if log else subprocess.DEVNULL
    try:
        return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL).returncode
    finally:
        if log:
            out.close()


def build(tree, kind, log):
    args = ["make", "-j2", "matrix", "unit"] if kind == "release" else \
        ["make", "-j2", "SANITIZE=1", "all", "unit"]
    return sh(args, tree, log) == 0


def tests_fail(tree, kind, regex, log):
    """The first failure the tests report ("" when they all pass)."""
    r = subprocess.run(["bash", "tests/run.sh", "--only", regex, "build/" + kind], cwd=tree,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, text=True, errors="replace")
    with open(log, "a") as f:
        f.write(r.stdout)
    if r.returncode == 0:
        return ""
    first = [ln for ln in r.stdout.splitlines() if ln.startswith("FAILED: ")]
    return (first[0][len("FAILED: "):] if first else r.stdout.strip().splitlines()[-1])[:150]


def test_names(repo):
    """The names tests/run.sh --only matches: unit:test_NAME and
    e2e:FILE.sh:t_NAME."""
    names = ["unit:" + os.path.basename(p)[:-2]
             for p in glob.glob(os.path.join(repo, "tests/unit/test_*.c"))]
    for p in glob.glob(os.path.join(repo, "tests/e2e/test_*.sh")):
        for fn in re.findall(r"^(t_[A-Za-z0-9_]+)\(\)", open(p).read(), re.M):
            names.append("e2e:%s:%s" % (os.path.basename(p), fn))
    return names


def check(repo):
    """Every mutation real (its FROM text once in its file) and aimed (its
    regex names a test, its build is one make test runs): a list of what
    is wrong, empty when nothing is."""
    bad, names, seen = [], test_names(repo), set()
    for name, path, old, new, regex, kind in MUTATIONS:
        f = os.path.join(repo, path)
        n = open(f).read().count(old) if os.path.exists(f) else -1
        if name in seen:
            bad.append(f"{name}: listed twice")
        seen.add(name)
        if n < 0:
            bad.append(f"{name}: {path} is gone")
        elif n != 1:
            bad.append(f"{name}: its text is in {path} {n} times, not once")
        if old == new:
            bad.append(f"{name}: FROM and TO are the same")
        if not any(re.search(regex, t) for t in names):
            bad.append(f"{name}: {regex} names no test")
        if kind not in ("release", "asan"):
            bad.append(f"{name}: no build {kind}")
    return bad


def main(argv):
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if argv[:1] == ["--check"]:
        bad = check(argv[1] if len(argv) > 1 else repo)
        for b in bad:
            print("mutate: " + b)
        print(f"mutate: {len(MUTATIONS)} mutations, {len(bad)} problems")
        return 1 if bad else 0
    chosen = [m for m in MUTATIONS if not argv or m[0] in argv]
    unknown = set(argv) - {m[0] for m in MUTATIONS}
    if unknown:
        print("mutate: unknown mutation " + ", ".join(sorted(unknown)), file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="matrix-mutate.")
    tree, log = os.path.join(tmp, "tree"), os.path.join(tmp, "log")
    shutil.copytree(repo, tree, symlinks=True,
                    ignore=shutil.ignore_patterns("build", "results", ".git"))
    print(f"mutate: {len(chosen)} mutations in a copy at {tree} (log: {log})")
    kinds = sorted({m[5] for m in chosen})
    for kind in kinds:
        if not build(tree, kind, log):
            print(f"mutate: the unmutated {kind} build fails; see {log}")
            return 2
    # the tests must pass before anything is broken, or a failure says nothing
    for kind in kinds:
        regex = "|".join(sorted({m[4] for m in chosen if m[5] == kind}))
        if tests_fail(tree, kind, regex, log):
            print(f"mutate: the tests fail on the unmutated {kind} build; see {log}")
            return 2
    caught = 0
    for name, path, old, new, regex, kind in chosen:
        f = os.path.join(tree, path)
        text = open(f).read() if os.path.exists(f) else ""
        start = time.monotonic()
        if not os.path.exists(f):
            res = f"STALE ({path} is gone)"
        elif text.count(old) != 1:
            res = f"STALE (the text to mutate is in {path} {text.count(old)} times, not once)"
        else:
            open(f, "w").write(text.replace(old, new))
            if not build(tree, kind, log):
                res = "caught by the build"
                caught += 1
            elif (why := tests_fail(tree, kind, regex, log)):
                res = f"caught: {why}"
                caught += 1
            else:
                res = f"SURVIVED {regex}"
            open(f, "w").write(text)
        print(f"  {name:36} {res} ({time.monotonic() - start:.0f}s)", flush=True)
    print(f"{caught} of {len(chosen)} mutations caught")
    if caught == len(chosen):
        shutil.rmtree(tmp)
    return 0 if caught == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
