/*
 * Unit tests for who measured a figure (reports/provenance.c) and the
 * marks summary.md gives it: `ʷ` whole-process, `ᵖ` printed, nothing for
 * our workers (tests/e2e/test_marks.sh has the tables and charts of whole
 * run folders).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "markdown.h"
#include "provenance.h"
#include "report.h"
#include "vocab.h"
#include "unit.h"

static int M(const char *name)
{
	int m = matrix_metric_index(name);

	assert_true(m >= 0);
	return m;
}

/* provenance_of over every metric named, one expectation each */
static void expect(const char *by, const char *printed, const char *metric, enum provenance want)
{
	enum provenance got = provenance_of(by, printed, M(metric));

	if (got != want)
		fail_msg("measured_by '%s', printed_metrics '%s', %s: %d, expected %d",
			 by ? by : "(none)", printed ? printed : "(none)", metric, got, want);
}

/* Older files, our workers, a program client's whole process: rates and
 * CPU from outside, never a round trip. */
static void test_pingpong_rows(void **state)
{
	(void)state;
	expect(NULL, NULL, "msgs_per_s", PROV_WORKER);	/* before measured_by */
	expect("", "", "msgs_per_s", PROV_WORKER);
	expect("worker", "", "cpu_us_per_rtt", PROV_WORKER);
	expect("process", "", "msgs_per_s", PROV_PROCESS);
	expect("process", "", "mib_per_s", PROV_PROCESS);
	expect("process", "", "sent_msgs_per_s", PROV_PROCESS);
	expect("process", "", "cpu_us_per_msg", PROV_PROCESS);
	expect("process", "", "cpu_us_per_rtt", PROV_PROCESS);
	expect("process", "", "rtt_mean_us", PROV_WORKER);
	expect("process", NULL, "rtt_p99_us", PROV_WORKER);
	/* a file from before printed_metrics: a printed rate cannot be told apart */
	expect("process", NULL, "msgs_per_s", PROV_PROCESS);
	/* printed: the metrics it names, and the rest as process */
	expect("printed", "rtt_mean_us", "rtt_mean_us", PROV_PRINTED);
	expect("printed", "rtt_mean_us", "msgs_per_s", PROV_PROCESS);
	expect("printed", "msgs_per_s;rtt_mean_us", "msgs_per_s", PROV_PRINTED);
	expect("printed", "rtt_mean_us;msgs_per_s", "msgs_per_s", PROV_PRINTED);
	expect("printed", "msgs_per_s;rtt_mean_us", "mib_per_s", PROV_PROCESS);
	expect("printed", "msgs_per_s", "cpu_us_per_rtt", PROV_PROCESS);
	/* whole names only: msgs_per_s is not sent_msgs_per_s */
	expect("printed", "sent_msgs_per_s", "msgs_per_s", PROV_PROCESS);
	expect("printed", "msgs_per_s", "sent_msgs_per_s", PROV_PROCESS);
	expect("printed", "msgs_per_", "msgs_per_s", PROV_PROCESS);
	/* unknown words mark nothing */
	expect("bogus", "", "msgs_per_s", PROV_WORKER);
	expect("mixed", "", "msgs_per_s", PROV_WORKER);
	assert_int_equal(provenance_of("process", "", -1), PROV_WORKER);
	assert_int_equal(provenance_of("process", "", MATRIX_NMETRICS), PROV_WORKER);
}

/* receiver=X;senders=Y: the receiver's figures by X, the senders' by Y,
 * the CPU from outside when either side is a program. */
static void test_stream_rows(void **state)
{
	static const char *const sides[] = { "worker", "process", "printed" };
	char by[64];

	(void)state;
	for (int x = 0; x < 3; x++)
		for (int y = 0; y < 3; y++) {
			snprintf(by, sizeof(by), "receiver=%s;senders=%s", sides[x], sides[y]);
			/* our receiver with program senders: its window opens at
			 * the first sender's spawn, their start-up inside */
			enum provenance rx = x == 0 && y ? PROV_PROCESS : (enum provenance)x;
			expect(by, "", "msgs_per_s", rx);
			expect(by, "", "mib_per_s", rx);
			expect(by, "", "sent_msgs_per_s", (enum provenance)y);
			expect(by, "", "cpu_us_per_msg", x || y ? PROV_PROCESS : PROV_WORKER);
			/* a metric printed_metrics names is printed, whatever the side */
			expect(by, "cpu_us_per_msg", "cpu_us_per_msg", PROV_PRINTED);
			expect(by, "sent_msgs_per_s", "sent_msgs_per_s", PROV_PRINTED);
		}
	/* not that form: no mark */
	expect("receiver=process", "", "msgs_per_s", PROV_WORKER);
	expect("receiver=process;", "", "msgs_per_s", PROV_WORKER);
	expect("receiver=process;senders=", "", "sent_msgs_per_s", PROV_WORKER);
	expect("receiver=proc;senders=process", "", "msgs_per_s", PROV_WORKER);
	expect("receiver=processes;senders=process", "", "msgs_per_s", PROV_WORKER);
	expect("receiver=process;senders=process;x", "", "msgs_per_s", PROV_WORKER);
	expect("senders=process;receiver=process", "", "msgs_per_s", PROV_WORKER);
	expect("receiver=process;sender=process", "", "msgs_per_s", PROV_WORKER);
}

/* A folder of three echo cells: a program client timed whole (cell 1), a
 * stream cell naming both sides (2), our workers (3), and a pair unix/tcp
 * to make a ratio of whole-process figures. */
static void test_marks_in_summary(void **state)
{
	char dir[] = "/tmp/matrix-marks.XXXXXX", err[512], path[600], *page;
	struct report r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	unit_write_file(dir, "matrix.yaml", "name: marks\nrepeat: 2\nmatrix:\n"
		   "  pattern: [echo, stream]\n  transport: [unix, tcp]\n  client: [py, builtin]\n"
		   "programs:\n  py:\n    client: [py, '{endpoint}']\n"
		   "report:\n  noisy_cv: 50%\n  ratios:\n    - {name: U/T, dimension: transport, numerator: unix, "
		   "denominator: tcp}\n");
	unit_write_file(dir, "results.csv",
		   "cell,pattern,transport,client,rep,status,msgs_per_s,rtt_mean_us,cpu_us_per_rtt,"
		   "sent_msgs_per_s,measured_by,printed_metrics\n"
		   "1,echo,unix,py,1,ok,100,,50,100,process,\n"
		   "1,echo,unix,py,2,ok,120,,60,120,process,\n"
		   "2,echo,tcp,py,1,ok,50,,70,50,process,\n"
		   "2,echo,tcp,py,2,ok,60,,80,60,process,\n"
		   "3,echo,unix,builtin,1,ok,1000,10,5,1000,worker,\n"
		   "3,echo,unix,builtin,2,ok,1200,12,6,1200,worker,\n"
		   "4,echo,tcp,builtin,1,ok,500,20,7,500,worker,\n"
		   "4,echo,tcp,builtin,2,ok,600,22,8,600,worker,\n"
		   "5,stream,unix,py,1,ok,3000,,,2000,receiver=printed;senders=process,\n"
		   "5,stream,unix,py,2,ok,3200,,,2200,receiver=printed;senders=process,\n");
	if (report_load(&r, dir, NULL, err, sizeof(err)) < 0 || markdown_write(&r, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(r.cells[0].outside[M("msgs_per_s")], 2);
	assert_int_equal(r.cells[0].outside[M("cpu_us_per_rtt")], 2);
	assert_int_equal(r.cells[2].outside[M("msgs_per_s")], 0);
	assert_int_equal(r.cells[4].printed[M("msgs_per_s")], 2);
	assert_int_equal(r.cells[4].outside[M("msgs_per_s")], 0);
	assert_int_equal(r.cells[4].outside[M("sent_msgs_per_s")], 2);
	/* the stream form whole, for the JSON export */
	assert_string_equal(r.cells[4].measured_by, "receiver=printed;senders=process");
	report_release(&r);
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	page = unit_slurp(path);
	if (!strstr(page, "| py | 110 (100–120) msg/s ʷ | 55.0 (50.0–60.0) msg/s ʷ | 2.00× (1.67–2.40, ≥25%) ʷ |\n") ||
	    !strstr(page, "| builtin | 1.10k (1.00k–1.20k) msg/s | 550 (500–600) msg/s | 2.00× (1.67–2.40, ≥25%) |\n") ||
	    !strstr(page, "| py | 55.0 (50.0–60.0) µs/rtt ʷ | 75.0 (70.0–80.0) µs/rtt ʷ |\n") ||
	    !strstr(page, "| builtin | 11.0 (10.0–12.0) µs | 21.0 (20.0–22.0) µs |\n") ||
	    !strstr(page, "| stream | 3.10k (3.00k–3.20k) msg/s ᵖ |\n") ||
	    !strstr(page, "| stream | 2.10k (2.00k–2.20k) msg/s ʷ |\n"))
	{
		fputs(page, stderr);
		fail_msg("marks wrong in summary.md (above)");
	}
	assert_non_null(strstr(page, "\n`ʷ`: whole-process figures, in some or all of the cell's "
			       "successful repetitions: the runner timed a program from outside"));
	assert_non_null(strstr(page, "\n`ᵖ`: figures the programs printed themselves"));
	free(page);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pingpong_rows),
		cmocka_unit_test(test_stream_rows),
		cmocka_unit_test(test_marks_in_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
