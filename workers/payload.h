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
 * echo reply is the request byte for byte (echo.c checks it).
 *
 * The caller owns every buffer; nothing here allocates or fails.  What
 * runs once per message is inline: it sits on the timed path.
 */
#ifndef MATRIX_PAYLOAD_H
#define MATRIX_PAYLOAD_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Writes the byte pattern over all of buf (offset 0 onwards). */
void payload_fill(unsigned char *buf, size_t len);

/* Writes seq into the first min(8, len) bytes, little-endian: one 8-byte
 * store when the message has 8 bytes (every one but the tiniest). */
static inline void stamp_seq(unsigned char *buf, size_t len, uint64_t seq)
{
	if (len >= 8) {
		uint64_t le = htole64(seq);
		memcpy(buf, &le, 8);
		return;
	}
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(seq >> (8 * i));
}

/* The sequence number in the first min(8, len) bytes: one 8-byte load
 * when there are 8. */
static inline uint64_t read_seq(const unsigned char *buf, size_t len)
{
	uint64_t seq = 0;

	if (len >= 8) {
		memcpy(&seq, buf, 8);
		return le64toh(seq);
	}
	for (size_t i = 0; i < len; i++)
		seq |= (uint64_t)buf[i] << (8 * i);
	return seq;
}

#endif
