/*
 * test_hotpath.c: what a round trip's fast path does byte for byte: the
 * sequence number's bytes (payload.h: little-endian in the first min(8,
 * size) bytes, nothing after them touched), echo's check of a reply
 * (rr_echo_mismatch), and fdio's inline system calls (fdio.h): a whole
 * message, one split across writes, the end of the stream, and errno.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "drive.h"
#include "fdio.h"
#include "payload.h"
#include "rr.h"

#define SEQ 0x0807060504030201ull	/* byte i is i + 1, little-endian */

static void test_seq_bytes(void **state)
{
	unsigned char buf[16];

	(void)state;
	for (size_t len = 0; len <= sizeof(buf); len++) {
		memset(buf, 0xaa, sizeof(buf));
		stamp_seq(buf, len, SEQ);
		for (size_t i = 0; i < sizeof(buf); i++)
			assert_int_equal(buf[i], i < len && i < 8 ? i + 1 : 0xaa);
		uint64_t want = len >= 8 ? SEQ : SEQ & (((uint64_t)1 << (8 * len)) - 1);
		assert_true(read_seq(buf, len) == want);
	}
}

/* A reply of len bytes as an echo server sends it back: the request. */
static void echo_reply(struct client *cl, unsigned char *pattern, unsigned char *resp,
		       size_t len, uint64_t seq)
{
	payload_fill(pattern, len);
	memcpy(resp, pattern, len);
	stamp_seq(resp, len, seq);
	cl->pattern = pattern;
	cl->resp = resp;
	cl->resplen = len;
}

static void test_echo_check(void **state)
{
	unsigned char pattern[32], resp[32];
	struct client cl = { 0 };

	(void)state;
	for (size_t len = 1; len <= sizeof(resp); len += 3) {
		echo_reply(&cl, pattern, resp, len, SEQ);
		assert_int_equal(rr_echo_mismatch(&cl, SEQ), 0);
		/* the number's bytes only: a higher byte than the message has is
		 * not compared */
		assert_int_equal(rr_echo_mismatch(&cl, SEQ + 1), 1);
		for (size_t i = 0; i < len; i++) {
			resp[i] ^= 0x40;
			assert_int_equal(rr_echo_mismatch(&cl, SEQ), 1);
			resp[i] ^= 0x40;
		}
	}
	echo_reply(&cl, pattern, resp, 3, SEQ);
	assert_int_equal(rr_echo_mismatch(&cl, SEQ | 0xff00000000ull), 0);
}

static void test_fd_inline(void **state)
{
	int sv[2];
	struct conn a, b;
	unsigned char out[64], in[64];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	fd_conn_set(&a, sv[0], "a");
	fd_conn_set(&b, sv[1], "b");
	payload_fill(out, sizeof(out));
	/* a whole message */
	assert_int_equal(fd_send_all_inline(&a, out, sizeof(out)), 0);
	memset(in, 0, sizeof(in));
	assert_int_equal(fd_recv_all_inline(&b, in, sizeof(in)), 0);
	assert_memory_equal(in, out, sizeof(out));
	/* one that comes in two writes: the first read has part of it */
	assert_int_equal(fd_sys_write(sv[0], out, 10), 10);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		usleep(20000);
		_exit(fd_sys_write(sv[0], out + 10, sizeof(out) - 10) == (ssize_t)sizeof(out) - 10
		      ? 0 : 1);
	}
	memset(in, 0, sizeof(in));
	assert_int_equal(fd_recv_all_inline(&b, in, sizeof(in)), 0);
	assert_memory_equal(in, out, sizeof(out));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(st, 0);
	/* the end of the stream inside a message: EPROTO; between: 1 */
	assert_int_equal(fd_sys_write(sv[0], out, 8), 8);
	fd_close(&a);
	assert_int_equal(fd_recv_all_inline(&b, in, 5), 0);
	errno = 0;
	assert_int_equal(fd_recv_all_inline(&b, in, 8), -1);
	assert_int_equal(errno, EPROTO);
	assert_int_equal(fd_recv_all_inline(&b, in, sizeof(in)), 1);
	fd_close(&b);
	/* a failed call: -1 and errno, as read() and write() give */
	errno = 0;
	assert_int_equal(fd_sys_read(sv[1], in, 1), -1);
	assert_int_equal(errno, EBADF);
	errno = 0;
	assert_int_equal(fd_sys_write(sv[0], out, 1), -1);
	assert_int_equal(errno, EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq_bytes),
		cmocka_unit_test(test_echo_check),
		cmocka_unit_test(test_fd_inline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
