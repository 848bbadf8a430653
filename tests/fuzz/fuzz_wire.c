/*
 * libFuzzer target: the runner's side of the worker protocol (workers/
 * wire.c) on any bytes, as the runner reads a worker's report pipe:
 * wire_reader_next() cuts lines, wire_apply() applies each to one
 * worker_result until the first error, and a record that ended is read
 * as aggregate.c reads it (its histogram's mean and percentiles).
 *
 * It must never crash, leak or read out of bounds, and a line refused
 * comes with a message.  Built and run by `make fuzz` (tests/fuzz/run.sh).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_reader rd;
	struct worker_result r;
	char *line, err[256];
	int rc = 0, got;

	wire_reader_init(&rd);
	worker_result_init(&r);
	rd.buf = malloc(size + 1);	/* as wire_reader_fill() leaves it */
	if (!rd.buf)
		return 0;
	memcpy(rd.buf, data, size);
	rd.len = size;
	rd.cap = size + 1;
	while (!rc && (got = wire_reader_next(&rd, &line)) == 1) {
		err[0] = '\0';
		rc = wire_apply(&r, line, err, sizeof(err));
		if (rc < 0 && !err[0]) {
			fprintf(stderr, "a line refused without a message: '%s'\n", line);
			abort();
		}
		free(line);
	}
	if (!rc && r.ended && r.hist) {
		(void)hist_mean(r.hist);
		(void)hist_percentile(r.hist, 0.5);
		(void)hist_percentile(r.hist, 0.99);
	}
	worker_result_release(&r);
	wire_reader_release(&rd);
	return 0;
}
