/* pingpong: the client sends `size` bytes, the server answers each request
 * with `response_size` bytes of its own that carry the request's number
 * (payload.h), and the client times every round trip.  The loops are the
 * round trips' (rr.h); what makes them pingpong's is its entry in the
 * pattern table (pattern.h: a reply of response_size bytes). */
#include "pattern_ops.h"
#include "rr.h"

const struct pattern_ops pattern_ops_pingpong = {
	.pattern = PAT_PINGPONG,
	.serve = rr_serve,
	.warmup = rr_warmup,
	.drive = rr_drive,
	.result = rr_result,
	.client_line = rr_client_line,
};
