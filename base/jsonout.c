/* jsonout: see jsonout.h. */
#include "jsonout.h"
#include "outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define JSONOUT_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(JSONOUT_DIGITS))

json_t *jsonout_number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *jsonout_rounded(double v, int digits)
{
	char buf[64];

	if (!isfinite(v))
		return json_null();
	snprintf(buf, sizeof(buf), "%.*g", digits, v);
	return json_real(strtod(buf, NULL));
}

json_t *jsonout_string(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	/* not UTF-8 (or out of memory): keep what is plain ASCII */
	char *copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p > 0x7f)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

json_t *jsonout_dim_value(enum value_kind kind, const char *text)
{
	char *end;

	errno = 0;
	switch (kind) {
	case VK_SIZE:
	case VK_AUTOSIZE:	/* "auto" stays a string */
	case VK_COUNT:
	case VK_BITRATE:
	case VK_RATE: {
		uintmax_t n = strtoumax(text, &end, 10);
		if (*text >= '0' && *text <= '9' && !*end && !errno && n <= INT64_MAX)
			return json_integer((json_int_t)n);
		break;
	}
	case VK_PERCENT:
	case VK_DURATION: {
		double s = strtod(text, &end);
		if (end != text && !*end && isfinite(s))
			return json_real(s);
		break;
	}
	case VK_BOOL:
		if (!strcmp(text, "true") || !strcmp(text, "false"))
			return json_boolean(!strcmp(text, "true"));
		break;
	default:
		break;
	}
	return jsonout_string(text);
}

void jsonout_set(json_t *obj, const char *key, json_t *v, int *bad)
{
	if (json_object_set_new(obj, key, v) < 0)
		(*bad)++;
}

void jsonout_append(json_t *arr, json_t *v, int *bad)
{
	if (json_array_append_new(arr, v) < 0)
		(*bad)++;
}

int jsonout_write(const json_t *doc, const char *path, char *err, size_t errlen)
{
	struct outfile o;
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (the JSON is written under a "
			 "temporary name and renamed over it)", path);
		return -1;
	}
	if (outfile_open(&o, path, err, errlen) < 0)
		return -1;
	if (json_dumpf(doc, o.f, JSONOUT_FLAGS) < 0 || fputc('\n', o.f) == EOF) {
		int e = errno ? errno : EIO;
		outfile_abort(&o);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -1;
	}
	return outfile_commit(&o, err, errlen);
}

int jsonout_print(const json_t *doc, FILE *f)
{
	if (json_dumpf(doc, f, JSONOUT_FLAGS) < 0 || fputc('\n', f) == EOF)
		return -1;
	return fflush(f) == EOF ? -1 : 0;
}
