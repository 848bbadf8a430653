/* fnv: see fnv.h. */
#include "fnv.h"

#define FNV1A64_PRIME 0x100000001b3ull

uint64_t fnv1a64(uint64_t h, const void *buf, size_t n)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * FNV1A64_PRIME;
	return h;
}

uint64_t fnv1a64_str(uint64_t h, const char *str)
{
	for (; *str; str++)
		h = (h ^ (unsigned char)*str) * FNV1A64_PRIME;
	return h;
}
