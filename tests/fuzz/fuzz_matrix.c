/*
 * libFuzzer target: the matrix loader (base/matrix*.c) on any bytes.
 *
 * Whatever the input, matrix_load_buffer() must return 0 with a matrix
 * that formats and releases cleanly, or -1 with one line of error in
 * err, "fuzz.yaml:LINE:COL: message" -- never crash, leak, read out of
 * bounds or hang.  ASan and UBSan report the rest.  Built and run by
 * `make fuzz` (tests/fuzz/run.sh).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "fuzz.yaml:" then 1-based LINE:COL: and text, on one line. */
static int well_formed(const char *err)
{
	unsigned line = 0, col = 0;
	int n = 0;

	if (sscanf(err, "fuzz.yaml:%u:%u: %n", &line, &col, &n) != 2 || !n || !line || !col)
		return 0;
	return err[n] && !strchr(err, '\n');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct matrix m;
	char err[1024] = "", buf[256];

	if (matrix_load_buffer(&m, "fuzz.yaml", (const char *)data, size, err, sizeof(err)) < 0) {
		if (!well_formed(err)) {
			fprintf(stderr, "malformed error line: '%s'\n", err);
			abort();
		}
		return 0;
	}
	for (size_t d = 0; d < m.ndims; d++)
		for (size_t i = 0; i < m.dims[d].nvalues; i++)
			matrix_format_value(&m.dims[d], &m.dims[d].values[i], buf, sizeof(buf));
	for (size_t i = 0; i < m.nprograms; i++)
		(void)matrix_program(&m, m.programs[i].name);
	matrix_release(&m);
	return 0;
}
