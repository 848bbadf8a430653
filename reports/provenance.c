/* Who measured a figure: see provenance.h. */
#include "provenance.h"
#include "vocab.h"

#include <string.h>

/* Is name one of the ';'-separated words of list? */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list && *list) {
		size_t len = strcspn(list, ";");
		if (len == n && !strncmp(list, name, n))
			return 1;
		list += len + (list[len] == ';');
	}
	return 0;
}

/* A side's word ("worker", "process", "printed") at s, ending at ';' or
 * the end; -1 for anything else. */
static int side_word(const char *s)
{
	static const char *const words[] = { "worker", "process", "printed" };
	size_t len = strcspn(s, ";");

	for (int i = 0; i < 3; i++)
		if (len == strlen(words[i]) && !strncmp(s, words[i], len))
			return i;
	return -1;
}

/* The stream form receiver=X;senders=Y into *rx and *tx (PROV_*); 0, or
 * -1 when by is not of that form. */
static int stream_sides(const char *by, int *rx, int *tx)
{
	static const char rp[] = "receiver=", sp[] = "senders=";
	const char *semi;

	if (strncmp(by, rp, sizeof(rp) - 1) || !(semi = strchr(by, ';')) ||
	    strncmp(semi + 1, sp, sizeof(sp) - 1))
		return -1;
	*rx = side_word(by + sizeof(rp) - 1);
	*tx = side_word(semi + 1 + sizeof(sp) - 1);
	if (*rx < 0 || *tx < 0 || strchr(semi + 1, ';'))
		return -1;
	return 0;
}

enum provenance provenance_of(const char *measured_by, const char *printed_metrics, int m)
{
	const char *name;
	int rx, tx;

	if (m < 0 || m >= MATRIX_NMETRICS)
		return PROV_WORKER;
	name = matrix_metrics[m];
	if (listed(printed_metrics, name))
		return PROV_PRINTED;
	if (!measured_by)
		return PROV_WORKER;
	if (!stream_sides(measured_by, &rx, &tx)) {
		if (!strcmp(name, "msgs_per_s") || !strcmp(name, "mib_per_s"))
			return (enum provenance)rx;
		if (!strcmp(name, "sent_msgs_per_s"))
			return (enum provenance)tx;
		return !strncmp(name, "cpu_", 4) && (rx != PROV_WORKER || tx != PROV_WORKER)
		       ? PROV_PROCESS : PROV_WORKER;
	}
	/* a program client's row: no round trip is timed from outside */
	if ((!strcmp(measured_by, "process") || !strcmp(measured_by, "printed")) &&
	    strncmp(name, "rtt_", 4))
		return PROV_PROCESS;
	return PROV_WORKER;
}
