/*
 * payload: the bytes on the wire, what any program that pairs with our
 * server or client must write and may check.
 *
 * Every request starts with its sequence number, little-endian, in the
 * first min(8, size) bytes, then the bytes (i * 31 + 7) & 0xff, i being
 * the byte's offset in the message.  Sequence numbers count from 0 over the
 * whole connection, warmup included: the first timed request is `warmup`.
 * A pingpong reply carries its request's number in the same place (the
 * server copies min(8, size, response_size) bytes), then the pattern; an
 * echo reply is the request byte for byte.
 *
 * The caller owns every buffer; nothing here allocates or fails.
 */
#ifndef MATRIX_PAYLOAD_H
#define MATRIX_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

/* Writes the byte pattern over all of buf (offset 0 onwards). */
void fill_pattern(unsigned char *buf, size_t len);
/* Writes seq into the first min(8, len) bytes, little-endian. */
void stamp_seq(unsigned char *buf, size_t len, uint64_t seq);
/* The sequence number in the first min(8, len) bytes. */
uint64_t read_seq(const unsigned char *buf, size_t len);
/* 1 when an echoed message is not the request with sequence number seq:
 * its first min(8, len) bytes against seq, the rest against `pattern` (a
 * fill_pattern buffer of len bytes); 0 when it is. */
int echo_mismatch(const unsigned char *got, const unsigned char *pattern,
		  size_t len, uint64_t seq);

#endif
