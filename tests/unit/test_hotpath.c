/*
 * test_hotpath.c: what a round trip's fast path does byte for byte: the
 * sequence number's bytes (payload.h: little-endian in the first min(8,
 * size) bytes, nothing after them touched), echo's check of a reply
 * (rr_echo_mismatch), and fdio's inline system calls (fdio.h): a whole
 * message, one split across writes, the end of the stream, and errno;
 * and the same through a connection's io_uring (poll: uring), on a
 * socket pair and on a pipe.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "drive.h"
#include "fdio.h"
#include <stdio.h>
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

/* a and b, the two ends of fds (a writes fds[1] and reads fds[0] of the
 * pair, b the other way; for a pipe a writes, b reads), each with a ring. */
static void ring_pair(struct conn *a, struct conn *b, int wa, int rb, int ra, int wb)
{
	struct transport_opts o = { .uring = 1 };
	char err[256];

	*a = (struct conn){ .fd = ra, .wfd = wa };
	*b = (struct conn){ .fd = rb, .wfd = wb };
	snprintf(a->peer, sizeof(a->peer), "a");
	snprintf(b->peer, sizeof(b->peer), "b");
	assert_int_equal(fd_conn_poll(a, &o, 0, err, sizeof(err)), 0);
	assert_int_equal(fd_conn_poll(b, &o, 0, err, sizeof(err)), 0);
	assert_non_null(a->ring);
	assert_non_null(b->ring);
}

/* fd_send_all, fd_recv_all and fd_recv_some through the rings: a whole
 * message, one split across writes, recv_some's one transfer, the end of
 * the stream (1 between messages, EPROTO inside one); fd_close ends the
 * ring. */
static void check_ring(struct conn *a, struct conn *b)
{
	unsigned char out[64], in[64];

	payload_fill(out, sizeof(out));
	assert_int_equal(fd_send_all(a, out, sizeof(out)), 0);
	memset(in, 0, sizeof(in));
	assert_int_equal(fd_recv_all(b, in, sizeof(in)), 0);
	assert_memory_equal(in, out, sizeof(out));
	assert_int_equal(fd_send_all(a, out, 10), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {	/* the child writes the rest on the descriptor itself */
		usleep(20000);
		_exit(write(a->wfd, out + 10, sizeof(out) - 10) == (ssize_t)sizeof(out) - 10 ? 0 : 1);
	}
	memset(in, 0, sizeof(in));
	assert_int_equal(fd_recv_all(b, in, sizeof(in)), 0);	/* two completions */
	assert_memory_equal(in, out, sizeof(out));
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(st, 0);
	assert_int_equal(fd_send_all(a, out, 5), 0);
	assert_int_equal(fd_recv_some(b, in, sizeof(in)), 5);
	assert_int_equal(fd_send_all(a, out, 8), 0);
	fd_close(a);
	assert_null(a->ring);
	assert_int_equal(fd_recv_all(b, in, 5), 0);
	errno = 0;
	assert_int_equal(fd_recv_all(b, in, 8), -1);
	assert_int_equal(errno, EPROTO);
	assert_int_equal(fd_recv_all(b, in, sizeof(in)), 1);
	assert_int_equal(fd_recv_some(b, in, sizeof(in)), 0);
	fd_close(b);
	assert_null(b->ring);
}

/* fd_recv_exact over a scripted recv_some: a script of read lengths
 * (0: the end, -1: an error), each cut to what is asked. */
static const ssize_t *script;

static ssize_t scripted_some(struct conn *c, void *buf, size_t cap)
{
	ssize_t n = *script++;

	(void)c;
	if (n > 0 && (size_t)n > cap)
		n = (ssize_t)cap;
	if (n > 0)
		memset(buf, 'x', (size_t)n);
	if (n < 0)
		errno = EIO;
	return n;
}

static void test_fd_recv_exact(void **state)
{
	static const ssize_t whole[] = { 3, 1, 4 }, first_end[] = { 0 }, one_then_end[] = { 1, 0 },
			     inside_end[] = { 7, 0 }, error[] = { 2, -1 };
	struct conn c = { .fd = -1 };
	char buf[8];

	(void)state;
	script = whole;
	assert_int_equal(fd_recv_exact(&c, buf, 8, scripted_some), 0);
	assert_memory_equal(buf, "xxxxxxxx", 8);
	script = first_end;
	assert_int_equal(fd_recv_exact(&c, buf, 8, scripted_some), 1);
	script = one_then_end;	/* the end after one byte is inside the message */
	errno = 0;
	assert_int_equal(fd_recv_exact(&c, buf, 8, scripted_some), -1);
	assert_int_equal(errno, EPROTO);
	script = inside_end;
	errno = 0;
	assert_int_equal(fd_recv_exact(&c, buf, 8, scripted_some), -1);
	assert_int_equal(errno, EPROTO);
	script = error;
	assert_int_equal(fd_recv_exact(&c, buf, 8, scripted_some), -1);
	assert_int_equal(errno, EIO);
}

static void test_fd_ring(void **state)
{
	struct conn a, b;
	char why[256];
	int sv[2], p[2], q[2];

	(void)state;
	if (fd_uring_probe(why, sizeof(why)) < 0) {
		print_message("no io_uring here: %s\n", why);
		skip();
	}
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	ring_pair(&a, &b, sv[0], sv[1], sv[0], sv[1]);
	check_ring(&a, &b);
	/* FIFOs' halves as pipe's transport has them: READ and WRITE, not RECV
	 * and SEND (a's read side q[0], b's write side q[1], unused here) */
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(pipe2(q, O_CLOEXEC), 0);
	ring_pair(&a, &b, p[1], p[0], q[0], q[1]);
	check_ring(&a, &b);
	/* a transport's ops: tcp, unix and pipe take a ring; udp, zmq do not */
	assert_true(fd_takes_uring(transport_find("unix")));
	assert_true(fd_takes_uring(transport_find("pipe")));
	assert_false(fd_takes_uring(transport_find("udp")));
	assert_false(fd_takes_uring(transport_find("zmq")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq_bytes),
		cmocka_unit_test(test_echo_check),
		cmocka_unit_test(test_fd_inline),
		cmocka_unit_test(test_fd_ring),
		cmocka_unit_test(test_fd_recv_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
