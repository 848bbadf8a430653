/* The request bytes: sequence number, then the pattern (see payload.h). */
#include "payload.h"

void payload_fill(unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)((i * 31 + 7) & 0xff);
}
