/* summary.md's TCP section: see markdown_tcp.h. */
#include "markdown_tcp.h"
#include "arrays.h"
#include "markdown_cell.h"
#include "report.h"
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The section's columns, in the metric table's order of the kernel's figures. */
static const struct {
	const char *metric, *head;
} cols[] = {
	{ "tcp_retrans", "retransmits" }, { "tcp_bytes_retrans", "bytes retransmitted" },
	{ "tcp_rtt_us", "RTT" }, { "tcp_rttvar_us", "RTT variation" },
	{ "tcp_cwnd", "cwnd (segments)" }, { "tcp_delivery_rate", "delivery rate" },
	{ "tcp_mss", "MSS" },
};

/* The median of cell c's figure of column k, NaN when it has none. */
static double figure(const struct rcell *c, size_t k)
{
	int m = matrix_metric_index(cols[k].metric);

	return m >= 0 && c->st[m].n ? c->st[m].median : NAN;
}

static int has_any(const struct rcell *c)
{
	for (size_t k = 0; k < ARRAY_SIZE(cols); k++)
		if (!isnan(figure(c, k)))
			return 1;
	return 0;
}

/* Does dimension d take more than one value among the cells with figures? */
static int varies(const struct report *r, size_t d)
{
	const char *first = NULL;

	for (size_t i = 0; i < r->ncells; i++) {
		if (!has_any(&r->cells[i]))
			continue;
		if (first && strcmp(first, r->cells[i].dims[d]))
			return 1;
		first = r->cells[i].dims[d];
	}
	return 0;
}

/* "stream, tcp, size 1KiB": the transport and the dimensions that vary,
 * transport and pattern by their value alone. */
static void label(const struct report *r, const struct rcell *c, char *buf, size_t len)
{
	char h[64];
	size_t o = 0;

	buf[0] = '\0';
	for (size_t d = 0; d < r->ndims && o < len; d++) {
		const char *name = r->dimnames[d];
		if (!varies(r, d) && strcmp(name, "transport"))	/* tcp or tcp6: always said */
			continue;
		const char *v = report_value_human(r, d, c->dims[d], h, sizeof(h));
		int bare = !strcmp(name, "transport") || !strcmp(name, "pattern");
		o += (size_t)snprintf(buf + o, len - o, "%s%s%s%s", o ? ", " : "", bare ? "" : name,
				      bare ? "" : " ", v);
	}
	if (!o)
		snprintf(buf, len, "cell %u", c->number);
}

static void value_text(size_t k, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (!strcmp(cols[k].metric, "tcp_rtt_us") || !strcmp(cols[k].metric, "tcp_rttvar_us"))
		units_format_metric(cols[k].metric, v, buf, len);
	else if (!strcmp(cols[k].metric, "tcp_delivery_rate"))
		units_format_bits(v * 8, buf, len);	/* bytes/s, as iperf3 says it */
	else if (!strcmp(cols[k].metric, "tcp_bytes_retrans") || !strcmp(cols[k].metric, "tcp_mss"))
		snprintf(buf, len, "%.0f B", v);
	else
		snprintf(buf, len, "%.0f", v);
}

void markdown_tcp(const struct report *r, FILE *f)
{
	int any = 0;
	char buf[256];

	for (size_t i = 0; i < r->ncells; i++)
		for (size_t k = 0; k < ARRAY_SIZE(cols); k++) {
			double v = figure(&r->cells[i], k);
			any |= !isnan(v) && v != 0;
		}
	if (!any)
		return;
	fputs("\n## TCP (kernel's view)\n\nTCP_INFO of every connection at the end of each "
	      "repetition: a stream's senders' ends, both ends of a round trip's connections. "
	      "Retransmits, bytes retransmitted and delivery rate are summed over them, the "
	      "others are their median; each figure the median over the repetitions.\n\n", f);
	markdown_cell(f, "");
	for (size_t k = 0; k < ARRAY_SIZE(cols); k++)
		markdown_cell_own(f, cols[k].head);
	fputs("|\n|---", f);
	for (size_t k = 0; k < ARRAY_SIZE(cols); k++)
		fputs("|---:", f);
	fputs("|\n", f);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct rcell *c = &r->cells[i];
		if (!has_any(c))
			continue;
		label(r, c, buf, sizeof(buf));
		markdown_cell(f, buf);
		for (size_t k = 0; k < ARRAY_SIZE(cols); k++) {
			value_text(k, figure(c, k), buf, sizeof(buf));
			markdown_cell_own(f, buf);
		}
		fputs("|\n", f);
	}
}
