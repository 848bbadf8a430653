/* echo: as pingpong, but the server answers with the request itself (the
 * pattern table's reply, pattern.h), and the client checks every byte of
 * every answer: one that differs fails the run (client.c).  The loops are
 * the round trips' (rr.h). */
#include "drive.h"
#include "pattern_ops.h"
#include "rr.h"

#include <string.h>

/* 1 when the reply is not request seq byte for byte: its first
 * min(8, len) bytes against seq, the rest against the byte pattern
 * (cl->pattern, a payload_fill buffer). */
static int echo_mismatch(const struct client *cl, uint64_t seq)
{
	const unsigned char *got = cl->resp;
	size_t len = cl->resplen, head = len < 8 ? len : 8;

	for (size_t i = 0; i < head; i++)
		if (got[i] != (unsigned char)(seq >> (8 * i)))
			return 1;
	return memcmp(got + head, cl->pattern + head, len - head) != 0;
}

const struct pattern_ops pattern_ops_echo = {
	.pattern = PAT_ECHO,
	.serve = rr_serve,
	.warmup = rr_warmup,
	.drive = rr_drive,
	.result = rr_result,
	.client_line = rr_client_line,
	.check_reply = echo_mismatch,
};
