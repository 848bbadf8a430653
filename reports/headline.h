/*
 * headline: the answer first, in sentences, from a loaded report (report.h).
 * summary.md prints it at its top and the console at the end of `matrix
 * run` and `matrix report`, both from headline_build, so they say the same.
 *
 * One sentence per ratio and scenario (a pair of cells that differ only in
 * the ratio's dimension), hyperfine-style: the better side first (by the
 * metric's direction) with the ratio of medians at least 1× and its
 * interval turned round with it, or "no clear difference" when the
 * interval spans 1× (then the ratio as the ratio tables write it):
 *
 *   unix delivered 1.45× (1.35–1.60) the messages per second of tcp: echo, 10B, 1 client
 *   unix's median round trip was 1.61× (1.43–1.82) faster than tcp's: pingpong, 64B, 1 client
 *   no clear difference between unix and tcp in messages per second: unix/tcp is
 *     1.58× (0.66–2.46), an interval across 1×: echo, 10B, 1 client
 *
 * The scenario names the pattern, the size and the concurrency, then every
 * other dimension that varies in the run (not the ratio's own).  Sentences
 * come per ratio, then per pattern (as the cells first have them), then by
 * size, then by concurrency.  An interval at less than 95% says the level
 * it is sure of ("1.11–2.40, ≥56%"); a side with one repetition has no
 * interval, and the sentence says so ("5.92× (1 repetition: no interval)").
 * A pair with no ratio (a side failed) has no sentence.  A pair with a
 * whole-process figure on either side (report_whole_process, marked ʷ in
 * the tables) ends "; whole-process figures (ʷ)"; one with an upper bound
 * on either side (report_upper_bound: a stream across hosts, ᵘ) ends
 * "; upper bounds across hosts (ᵘ)".
 *
 * When there are more than HEADLINE_MAX such sentences, the headline is one
 * sentence per ratio and pattern instead: the geometric mean of the
 * pattern's pairs with the least and greatest of their ratios; past
 * HEADLINE_MAX of those too, `more` counts what was left out ("and N more
 * in the ratio tables").
 *
 * The geometric means are per ratio and pattern (headline_means), never
 * across patterns: a stream and a pingpong ratio answer different
 * questions.  ratios.csv writes them as scope = pattern rows.
 */
#ifndef MATRIX_HEADLINE_H
#define MATRIX_HEADLINE_H

#include <stddef.h>

struct report;
struct rpair;

#define HEADLINE_MAX 12

/* A ratio's geometric mean over the cell pairs of one pattern. */
struct headline_mean {
	size_t def;		/* index into report.defs */
	const char *pattern;	/* as results.csv writes it (the report's) */
	double geomean;		/* over the pairs with a ratio; NaN when none */
	double min, max;	/* the least and greatest of those ratios */
	size_t npairs;		/* pairs with a ratio */
};

struct headline {
	char **lines;		/* the sentences, in reading order */
	size_t nlines;		/* at most HEADLINE_MAX */
	size_t more;		/* sentences left out for room */
	int grouped;		/* lines are per ratio and pattern, not per pair */
};

/* The geometric means of every ratio per pattern, in the order of the
 * ratios, then of the patterns as the cells first have them; a ratio over
 * the pattern dimension itself has none.  Into *out (malloc'd, the caller
 * frees it), their number in *n; -1 when memory runs out. */
int headline_means(const struct report *r, struct headline_mean **out, size_t *n);

/* Fills h (zeroed first) from r; 0, or -1 when memory runs out (h then
 * holds nothing).  The lines point into r for nothing: h outlives r. */
int headline_build(const struct report *r, struct headline *h);
void headline_release(struct headline *h);

/* A pair's ratio with its interval as the tables and the headline write it:
 * "1.45× (1.35–1.60)", "2.00× (1.11–2.40, ≥56%)", "5.92× (1 repetition: no
 * interval)", "3.10×" (a denominator's interval reaches 0), "-" (no ratio). */
void headline_ratio_text(const struct report *r, const struct rpair *p, char *buf, size_t len);

#endif
