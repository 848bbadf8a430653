/*
 * matrix_messages: the messages every file of the matrix model writes
 * (matrix_schema.h): formatted errors, lists of known names with a
 * suggestion, and the hash a value's number is made of.
 */
#include "matrix_schema.h"
#include "fnv.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"

__attribute__((format(printf, 3, 4)))
int ml_failf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Appends "a, b, c" to buf (which holds a string already). */
void ml_join_names(char *buf, size_t len, const char *const *names,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t used = strlen(buf);

		if (used + 1 >= len)
			return;
		snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
	}
}

/* "unknown WHAT 'word'; did you mean 'x'?" or "... (known: a, b)". */
int ml_unknown_name(const char *what, const char *word,
			const char *const *names, size_t n,
			char *why, size_t whylen)
{
	const char *s = suggest_closest(word, names, n);

	if (s)
		return ml_failf(why, whylen, "unknown %s '%s'; did you mean '%s'?",
			     what, word, s);
	ml_failf(why, whylen, "unknown %s '%s' (known: ", what, word);
	ml_join_names(why, whylen, names, n);
	if (strlen(why) + 1 < whylen)
		strcat(why, ")");
	return -1;
}

uint64_t ml_hash(const char *str, uint64_t num)
{
	uint64_t h;

	if (str) {
		h = fnv1a64_str(FNV1A64_VALUE_BASIS, str);
	} else {
		unsigned char le[8];	/* num's bytes, low first */
		for (int i = 0; i < 8; i++, num >>= 8)
			le[i] = (unsigned char)(num & 0xff);
		h = fnv1a64(FNV1A64_VALUE_BASIS, le, sizeof(le));
	}
	return h ^ (h >> 29);
}
