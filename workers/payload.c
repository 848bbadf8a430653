/* The request bytes: sequence number, then the pattern (see payload.h). */
#include "payload.h"

#include <string.h>

void fill_pattern(unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)((i * 31 + 7) & 0xff);
}

void stamp_seq(unsigned char *buf, size_t len, uint64_t seq)
{
	for (size_t i = 0; i < len && i < 8; i++)
		buf[i] = (unsigned char)(seq >> (8 * i));
}

uint64_t read_seq(const unsigned char *buf, size_t len)
{
	uint64_t seq = 0;

	for (size_t i = 0; i < len && i < 8; i++)
		seq |= (uint64_t)buf[i] << (8 * i);
	return seq;
}

/* 1 when an echoed message is not the request with sequence number seq. */
int echo_mismatch(const unsigned char *got, const unsigned char *pattern,
		  size_t len, uint64_t seq)
{
	size_t head = len < 8 ? len : 8;

	for (size_t i = 0; i < head; i++)
		if (got[i] != (unsigned char)(seq >> (8 * i)))
			return 1;
	return memcmp(got + head, pattern + head, len - head) != 0;
}
