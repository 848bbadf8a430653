/*
 * csvq: query a CSV file from shell tests, through csv_table_load.
 *
 *   csvq FILE COL [COL...]   each data row: the columns' values, tab-separated
 *   csvq FILE --header       the header names, one per line
 *   csvq FILE --rows         the number of data rows
 *
 * Exit status: 0; 1 when the file cannot be read; 2 on a usage error or an
 * unknown column; 3 when columns are asked of a file with no data rows (a
 * check over a column must never pass because there was nothing to check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"

static int usage(void)
{
	fprintf(stderr, "usage: csvq FILE COL [COL...]\n"
			"       csvq FILE --header\n"
			"       csvq FILE --rows\n");
	return 2;
}

static int print_columns(const struct csv_table *t, char **names, int n)
{
	int *cols = calloc((size_t)n, sizeof(*cols));
	size_t r;
	int i;

	if (!cols) {
		fprintf(stderr, "csvq: out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		cols[i] = csv_table_col(t, names[i]);
		if (cols[i] < 0) {
			fprintf(stderr, "csvq: no column '%s'\n", names[i]);
			free(cols);
			return 2;
		}
	}
	if (t->nrows == 0) {
		fprintf(stderr, "csvq: no data rows, only a header\n");
		free(cols);
		return 3;
	}
	for (r = 0; r < t->nrows; r++)
		for (i = 0; i < n; i++)
			printf("%s%c", t->rows[r][cols[i]], i + 1 < n ? '\t' : '\n');
	free(cols);
	return 0;
}

int main(int argc, char **argv)
{
	struct csv_table t;
	char err[512];
	size_t i;
	int ret = 0;

	if (argc < 3)
		return usage();
	if ((strcmp(argv[2], "--header") == 0 || strcmp(argv[2], "--rows") == 0)
	    && argc != 3)
		return usage();
	if (csv_table_load(&t, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "csvq: %s\n", err);
		return 1;
	}
	if (strcmp(argv[2], "--header") == 0) {
		for (i = 0; i < t.ncols; i++)
			printf("%s\n", t.header[i]);
	} else if (strcmp(argv[2], "--rows") == 0) {
		printf("%zu\n", t.nrows);
	} else {
		ret = print_columns(&t, argv + 2, argc - 2);
	}
	csv_table_release(&t);
	if (ret == 0 && (fflush(stdout) == EOF || ferror(stdout))) {
		perror("csvq: stdout");
		ret = 1;
	}
	return ret;
}
