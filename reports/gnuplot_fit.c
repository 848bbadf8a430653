/* The canvas of a chart of panels: see gnuplot_fit.h. */
#include "gnuplot_fit.h"
#include "gnuplot_style.h"

#include <math.h>
#include <stdlib.h>

/* The plot of a panel pw pixels wide, one of np (less its share of the
 * margins). */
static double plot_of(size_t pw, size_t np)
{
	return (double)pw - 80 + 85.0 / (double)np;
}

size_t gnuplot_panel_of(double px, size_t np)
{
	return (size_t)ceil(px + 80 - 85.0 / (double)np);
}

/* The x axis in slots, one a tick (a sweep's: as wide as its two nearest
 * ticks are apart), and its first tick, in slots from the left end. */
static double x_slots(const struct gnuplot_fit *n, double *first)
{
	double gap = INFINITY, lo, hi;

	*first = n->nbars ? 0.6 : 0.5;
	if (!n->sweep)
		return n->nbars ? (double)n->nbars + 0.2 : (double)n->nx;
	for (size_t i = 1; i < n->nx; i++)
		gap = fmin(gap, log2(strtod(n->xs[i], NULL) / strtod(n->xs[i - 1], NULL)));
	lo = strtod(n->xs[0], NULL) / 1.5, hi = strtod(n->xs[n->nx - 1], NULL) * 1.5;
	*first = log2(1.5) / gap;
	return log2(hi / lo) / gap;
}

void gnuplot_canvas_fit(struct gnuplot_canvas *cv, const struct gnuplot_fit *n,
			const char *title, char *q, size_t qlen)
{
	size_t np = n->npanels, xc = n->xchars;
	double first, slots = x_slots(n, &first);

	*cv = (struct gnuplot_canvas){ .lm = 75, .kw = n->keychars ? 58 + 8 * n->keychars : 30 };
	cv->kw = n->keychars && cv->kw < 170 ? 170 : cv->kw;
	cv->pw = np <= 4 ? 400 : (1600 / np < 260 ? 260 : 1600 / np);
	size_t least = gnuplot_chars(title) * GNUPLOT_CHAR_PX + 20;	/* the title's room */
	least = least < 640 ? 640 : least > 1000 ? 1000 : least;	/* wider: lines */
	if (80 + cv->pw * np + cv->kw < least)
		cv->pw += (least - 80 - cv->pw * np - cv->kw + np - 1) / np;
	cv->pw = n->text > cv->pw ? n->text : cv->pw;
	size_t flat = gnuplot_panel_of(gnuplot_xtics_slot(xc) * slots, np);
	if (flat <= cv->pw * 5 / 4) {
		cv->pw = flat > cv->pw ? flat : cv->pw;
	} else {
		size_t apart = gnuplot_panel_of(GNUPLOT_SLOT_MIN * slots, np);
		cv->pw = apart > cv->pw ? apart : cv->pw;
		/* the first tick */
		double at = (double)cv->lm + plot_of(cv->pw, np) * first / slots;
		if ((double)gnuplot_xtics_reach(xc) + 5 > at)
			cv->lm += (size_t)ceil((double)gnuplot_xtics_reach(xc) + 5 - at);
		cv->below = gnuplot_xtics_room(xc);
		cv->rotated = 1;
	}
	cv->w = cv->lm + 5 + cv->pw * np + cv->kw;
	cv->tlines = gnuplot_lines(title, cv->w - 20, q, qlen);
	cv->h = (330 + cv->below) * n->nrows + 50 + GNUPLOT_LINE_PX * (cv->tlines - 1);
}
