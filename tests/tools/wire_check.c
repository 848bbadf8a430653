/*
 * wire_check: a worker's report, read from a file the way the runner reads
 * a report pipe (wire_reader_next, then wire_apply per line, stopping at
 * the first line refused), for the .wire files of tests/bad.
 *
 *   wire_check FILE     prints "FILE:LINE: message" for the first line
 *                       refused and exits 1; exits 0 when every line
 *                       applies (and says whether the record ended)
 *
 * Exit status 2: the file cannot be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire.h"

int main(int argc, char **argv)
{
	struct wire_reader rd;
	struct worker_result r;
	char *line, err[512];
	size_t lineno = 0;
	long n;
	int fd, rc = 0, got = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: wire_check FILE\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	wire_reader_init(&rd);
	worker_result_init(&r);
	while (!rc && (n = wire_reader_fill(&rd, fd)) > 0)
		while (!rc && (got = wire_reader_next(&rd, &line)) == 1) {
			lineno++;
			if (wire_apply(&r, line, err, sizeof(err)) < 0) {
				printf("%s:%zu: %s\n", argv[1], lineno, err);
				rc = 1;
			}
			free(line);
		}
	if (!rc && got < 0) {
		printf("%s:%zu: line longer than the protocol allows\n", argv[1], lineno + 1);
		rc = 1;
	}
	if (!rc)
		printf("%s: %zu lines, %s\n", argv[1], lineno, r.ended ? "ended" : "no end line");
	close(fd);
	worker_result_release(&r);
	wire_reader_release(&rd);
	return rc;
}
