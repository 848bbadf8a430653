/* The values of the socket options of `matrix:` (knobs.h): see
 * matrix_schema.h's ml_parse_knob.  It calls nothing of matrix.c's, which
 * calls it. */
#include "matrix_schema.h"
#include "fnv.h"
#include "knobs.h"

#include <stdio.h>
#include <string.h>

#include "units.h"

int ml_parse_knob(enum value_kind kind, const char *text, uint64_t *num, char *why,
		  size_t whylen)
{
	char r[160];
	int n = 0;

	if (kind == VK_NAME) {
		if (strlen(text) > MATRIX_MAX_NAME || strspn(text, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(text))
			n = snprintf(why, whylen, "'%s' is not a name: at most %d letters, digits, "
				     "'_' and '-'", text, MATRIX_MAX_NAME);
		else	/* a name's own number: no other file's hash (the model's) */
			*num = fnv1a64_str(FNV1A64_VALUE_BASIS, text) | 1;
		return n ? -1 : 0;
	}
	if (!strcmp(text, "auto")) {	/* the kernel's own: nothing set */
		*num = 0;
		return 0;
	}
	if (units_parse_size(text, num, r, sizeof r) < 0)
		n = snprintf(why, whylen, "invalid size '%s': %s", text, r);
	else if (!*num)
		n = snprintf(why, whylen, "invalid size '%s': must be greater than zero (or "
			     "auto: the kernel's own)", text);
	return n ? -1 : 0;
}
