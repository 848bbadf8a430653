/* The one list of the patterns' worker sides: see pattern_ops.h.  A new
 * pattern is its own file and one line here. */
#include "pattern_ops.h"
#include "arrays.h"

extern const struct pattern_ops pattern_ops_pingpong, pattern_ops_echo, pattern_ops_stream,
	pattern_ops_pipeline;

static const struct pattern_ops *const registry[] = {
	&pattern_ops_pingpong,
	&pattern_ops_echo,
	&pattern_ops_stream,
	&pattern_ops_pipeline,
};

const struct pattern_ops *pattern_ops_of(enum pattern p)
{
	for (size_t i = 0; i < ARRAY_SIZE(registry); i++)
		if (registry[i]->pattern == p)
			return registry[i];
	return NULL;
}
