/* What every chart of a run shares: the compared dimension and its
 * colours (see gnuplot.h). */
#include "gnuplot.h"
#include "report.h"

#include <string.h>

/* Okabe-Ito's colours, in their order, with the yellow darkened to show
 * on white. */
static const char *const palette[] = {
	"#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#000000", "#b59f00",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static int varies(const struct report *r, size_t d)
{
	for (size_t i = 1; i < r->ncells; i++)
		if (strcmp(r->cells[i].dims[d], r->cells[0].dims[d]))
			return 1;
	return 0;
}

int gnuplot_compared_dim(const struct report *r)
{
	int d = report_dim(r, "transport");

	if (d >= 0 && varies(r, (size_t)d))
		return d;
	if (r->ndefs)
		return (int)r->defs[0].dim;
	for (size_t k = 0; k < r->ndims; k++)
		if (strcmp(r->dimnames[k], "pattern") && strcmp(r->dimnames[k], "size") &&
		    strcmp(r->dimnames[k], "concurrency") && varies(r, k))
			return (int)k;
	return -1;
}

const char *gnuplot_colour(const struct report *r, int dim, const char *value)
{
	const struct dimension *md;
	const char *vals[256];
	char buf[64];
	size_t n;

	if (dim < 0 || (size_t)dim >= r->ndims || !value)
		return palette[0];
	if ((md = matrix_dim(&r->m, r->dimnames[dim])) != NULL) {
		for (size_t i = 0; i < md->nvalues; i++) {
			matrix_format_value(md, &md->values[i], buf, sizeof(buf));
			if (!strcmp(buf, value))
				return palette[i % NPALETTE];
		}
	}
	n = report_dim_values(r, (size_t)dim, vals, 256);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(vals[i], value))
			return palette[i % NPALETTE];
	return palette[0];
}
