/*
 * test_shm: the shm transport's ops (transports/shm.c) against the
 * contract of transport.h, a server and a client in one process (the
 * client a thread, or a child that dies): messages both ways through a
 * ring smaller than they are, the end of the stream before a message (1),
 * inside one (EPROTO) and for recv_some (0), a reader that left (EPIPE),
 * a peer that died without closing (ECONNRESET), and a client that would
 * wait another way than its server (refused).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "transport.h"
#include "unit.h"

struct fixture {
	char dir[256], path[300], addr[300];
	const struct transport *t;
	struct transport_opts o;
	int lfd;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char err[256];

	if (!f || unit_tmpdir(f->dir, sizeof(f->dir), "shm") < 0)
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/s.sock", f->dir);
	f->t = transport_find("shm");
	f->o = (struct transport_opts){ .size = 16, .response_size = 16, .pattern = PAT_ECHO,
					.inflight = 1, .connections = 1, .id = 1 };
	if (!f->t)
		return -1;
	f->lfd = f->t->listen(&f->o, f->path, f->addr, sizeof(f->addr), err, sizeof(err));
	if (f->lfd < 0) {
		fprintf(stderr, "listen: %s\n", err);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	f->t->unlisten(f->lfd, f->addr);
	unit_remove_tree(f->dir);
	free(f);
	return 0;
}

/* The client thread: connects, then runs its script. */
struct client {
	struct fixture *f;
	struct conn c;
	void (*script)(struct client *);
	int rc;
	pthread_t th;
};

static void *client_thread(void *arg)
{
	struct client *cl = arg;
	char err[256];

	cl->rc = transport_connect(cl->f->t, &cl->f->o, cl->f->addr, &cl->c, err, sizeof(err));
	if (cl->rc == 0)
		cl->script(cl);
	return NULL;
}

static void start_client(struct fixture *f, struct client *cl, void (*script)(struct client *),
			 struct conn *srv)
{
	char err[256];

	cl->f = f;
	cl->script = script;
	assert_int_equal(pthread_create(&cl->th, NULL, client_thread, cl), 0);
	assert_int_equal(transport_accept(f->t, f->lfd, &f->o, srv, err, sizeof(err)), 0);
	assert_int_equal(srv->fd, -1);	/* no descriptor: the worker windows, not polls */
}

#define BIG (1u << 22)	/* 16 times the 256 KiB ring */

static unsigned char byte_at(size_t i)
{
	return (unsigned char)(i * 7 + (i >> 12));
}

/* a MiB out, the same MiB back (checked), a short message, then close */
static void echo_script(struct client *cl)
{
	unsigned char *buf = malloc(BIG);
	const struct transport *t = cl->f->t;

	for (size_t i = 0; i < BIG; i++)
		buf[i] = byte_at(i);
	cl->rc = t->send(&cl->c, buf, BIG);
	memset(buf, 0, BIG);
	if (!cl->rc)
		cl->rc = t->recv(&cl->c, buf, BIG);
	for (size_t i = 0; !cl->rc && i < BIG; i++)
		if (buf[i] != byte_at(i))
			cl->rc = 2;
	if (!cl->rc)
		cl->rc = t->send(&cl->c, "abc", 3);
	t->close(&cl->c);
	free(buf);
}

static void big_messages_and_the_end(void **state)
{
	struct fixture *f = *state;
	struct client cl = { 0 };
	struct conn srv;
	unsigned char *buf = malloc(BIG), small[8];

	start_client(f, &cl, echo_script, &srv);
	assert_int_equal(f->t->recv(&srv, buf, BIG), 0);
	assert_int_equal(f->t->send(&srv, buf, BIG), 0);
	/* 3 bytes then the end: recv_some gets them, then sees the end */
	assert_int_equal(f->t->recv_some(&srv, small, sizeof(small)), 3);
	assert_memory_equal(small, "abc", 3);
	assert_int_equal(f->t->recv_some(&srv, small, sizeof(small)), 0);
	assert_int_equal(f->t->recv(&srv, small, sizeof(small)), 1);	/* between messages */
	pthread_join(cl.th, NULL);
	assert_int_equal(cl.rc, 0);
	f->t->close(&srv);
	free(buf);
}

static void half_message_script(struct client *cl)
{
	cl->rc = cl->f->t->send(&cl->c, "abc", 3);
	cl->f->t->close(&cl->c);
}

static void end_inside_a_message(void **state)
{
	struct fixture *f = *state;
	struct client cl = { 0 };
	struct conn srv;
	unsigned char buf[8];

	start_client(f, &cl, half_message_script, &srv);
	errno = 0;
	assert_int_equal(f->t->recv(&srv, buf, sizeof(buf)), -1);
	assert_int_equal(errno, EPROTO);
	pthread_join(cl.th, NULL);
	assert_int_equal(cl.rc, 0);
	f->t->close(&srv);
}

static void close_script(struct client *cl)
{
	cl->f->t->close(&cl->c);
}

/* The reader closed: a sender that fills the ring gets EPIPE. */
static void reader_gone(void **state)
{
	struct fixture *f = *state;
	struct client cl = { 0 };
	struct conn srv;
	unsigned char *buf = calloc(1, BIG);

	start_client(f, &cl, close_script, &srv);
	pthread_join(cl.th, NULL);
	errno = 0;
	assert_int_equal(f->t->send(&srv, buf, BIG), -1);
	assert_int_equal(errno, EPIPE);
	f->t->close(&srv);
	free(buf);
}

/* A child connects and dies without closing anything: the server's wait
 * sees its socket end (within the 100 ms liveness check). */
static void dead_peer(void **state)
{
	struct fixture *f = *state;
	struct conn srv, c;
	char err[256];
	unsigned char buf[16];
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (f->t->connect(&f->o, f->addr, &c, err, sizeof(err)) == 0)
			kill(getpid(), SIGKILL);
		_exit(1);
	}
	assert_int_equal(transport_accept(f->t, f->lfd, &f->o, &srv, err, sizeof(err)), 0);
	errno = 0;
	assert_int_equal(f->t->recv(&srv, buf, sizeof(buf)), -1);
	assert_int_equal(errno, ECONNRESET);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	f->t->close(&srv);
}

/* A client that would wait another way than its server is refused. */
struct mismatch {
	struct fixture *f;
	struct transport_opts o;
	char err[256];
	int rc;
};

static void *mismatch_client(void *arg)
{
	struct mismatch *m = arg;
	struct conn c;

	m->rc = m->f->t->connect(&m->o, m->f->addr, &c, m->err, sizeof(m->err));
	if (m->rc == 0)
		m->f->t->close(&c);
	return NULL;
}

static void mismatched_waits_are_refused(void **state)
{
	struct fixture *f = *state;
	struct mismatch m = { .f = f };
	struct conn srv;
	char err[256];
	pthread_t th;

	for (int round = 0; round < 2; round++) {
		m.o = f->o;
		if (round == 0)
			m.o.busy = 1;		/* the server sleeps */
		else
			m.o.wake_eventfd = 1;	/* the server wakes with a futex */
		assert_int_equal(pthread_create(&th, NULL, mismatch_client, &m), 0);
		assert_int_equal(transport_accept(f->t, f->lfd, &f->o, &srv, err, sizeof(err)), 0);
		pthread_join(th, NULL);
		assert_int_equal(m.rc, -1);
		assert_non_null(strstr(m.err, round == 0 ? "both take the same poll"
						  : "both take the same wake"));
		f->t->close(&srv);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(big_messages_and_the_end, setup, teardown),
		cmocka_unit_test_setup_teardown(end_inside_a_message, setup, teardown),
		cmocka_unit_test_setup_teardown(reader_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(dead_peer, setup, teardown),
		cmocka_unit_test_setup_teardown(mismatched_waits_are_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
