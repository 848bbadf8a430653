/*
 * worker: `matrix worker server|client [options]`, the program the runner
 * forks and execs for every server and client of a cell, and that a person
 * can run by hand like the source experiments' server and client.
 *
 * Patterns (the wire behaviour a compatible program must have):
 *   pingpong  the client writes `size` bytes; the server reads exactly `size`
 *             bytes and writes `response_size` bytes; with `inflight` N the
 *             client keeps N requests outstanding on its connection.
 *   echo      as pingpong, but the server writes back the `size` bytes it
 *             read, and the client checks every byte (a mismatch fails).
 *   stream    the client writes messages of `size` bytes back to back and
 *             closes; the server only reads, and counts whole messages.
 * Request bytes: the message sequence number, little-endian, in the first
 * min(8, size) bytes, then the byte pattern (i * 31 + 7) & 0xff.
 * Before the timed window each connection exchanges `warmup` messages.
 *
 * Returns the process exit status: 0 ok, 1 a failure reported on the wire
 * (and on stderr), 2 bad usage.
 */
#ifndef MATRIX_WORKER_H
#define MATRIX_WORKER_H

int worker_main(int argc, char **argv);

#endif
