/* echo: as pingpong, but the server answers with the request itself (the
 * pattern table's reply, pattern.h), and the client checks every byte of
 * every answer (rr_echo_mismatch): one that differs fails the run
 * (client.c).  The loops are the round trips' (rr.h). */
#include "pattern_ops.h"
#include "rr.h"

const struct pattern_ops pattern_ops_echo = {
	.pattern = PAT_ECHO,
	.serve = rr_serve,
	.warmup = rr_warmup,
	.drive = rr_drive,
	.result = rr_result,
	.client_line = rr_client_line,
	.check_reply = rr_echo_mismatch,
};
