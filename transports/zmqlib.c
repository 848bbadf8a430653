/* libzmq loaded at first use: see zmqlib.h. */
#include "zmqlib.h"
#include "arrays.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

/* The functions of libzmq's that we forward to. */
static struct {
	void *(*ctx_new)(void);
	int (*ctx_term)(void *);
	void *(*socket)(void *, int);
	int (*close)(void *);
	int (*bind)(void *, const char *);
	int (*connect)(void *, const char *);
	int (*setsockopt)(void *, int, const void *, size_t);
	int (*getsockopt)(void *, int, void *, size_t *);
	int (*send)(void *, const void *, size_t, int);
	int (*recv)(void *, void *, size_t, int);
	int (*errno_)(void);
	const char *(*strerror)(int);
	int (*socket_monitor)(void *, const char *, int);
	int (*poll)(zmq_pollitem_t *, int, long);
} api;

/* Where each function goes: the dlopen(3) page's idiom, a function
 * pointer's storage written through a void **. */
static const struct {
	const char *name;
	void **slot;
} syms[] = {
	{ "zmq_ctx_new", (void **)&api.ctx_new },
	{ "zmq_ctx_term", (void **)&api.ctx_term },
	{ "zmq_socket", (void **)&api.socket },
	{ "zmq_close", (void **)&api.close },
	{ "zmq_bind", (void **)&api.bind },
	{ "zmq_connect", (void **)&api.connect },
	{ "zmq_setsockopt", (void **)&api.setsockopt },
	{ "zmq_getsockopt", (void **)&api.getsockopt },
	{ "zmq_send", (void **)&api.send },
	{ "zmq_recv", (void **)&api.recv },
	{ "zmq_errno", (void **)&api.errno_ },
	{ "zmq_strerror", (void **)&api.strerror },
	{ "zmq_socket_monitor", (void **)&api.socket_monitor },
	{ "zmq_poll", (void **)&api.poll },
};

static int loaded;		/* 1 loaded, -1 failed, 0 not tried */
static char why[512];		/* the failure, said again by every later call */

int zmqlib_load(char *err, size_t errlen)
{
	const char *name = getenv("MATRIX_LIBZMQ");
	void *lib = NULL;

	if (!name || !*name)
		name = ZMQLIB_SONAME;
	if (!loaded && !(lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
		/* the reason last, as a row's status shows it ("bind: cannot
		 * load libzmq": the text after the last colon); dlerror's own
		 * colons, in the parentheses before it, kept as they are */
		snprintf(why, sizeof(why), "dlopen %s (%s): cannot load libzmq", name, dlerror());
		loaded = -1;
	}
	for (size_t i = 0; !loaded && i < ARRAY_SIZE(syms); i++)
		if (!(*syms[i].slot = dlsym(lib, syms[i].name))) {
			snprintf(why, sizeof(why), "dlopen %s (no %s in it): cannot load libzmq",
				 name, syms[i].name);
			loaded = -1;
		}
	if (!loaded)
		loaded = 1;
	else if (lib)	/* loaded, but not libzmq enough: nothing of it is called */
		dlclose(lib);
	if (loaded < 0)
		snprintf(err, errlen, "%s", why);
	return loaded > 0 ? 0 : -1;
}

/* Not loaded: the call fails as libzmq's would, with ELIBACC. */
#define NEED(fail)                       \
	do {                             \
		if (loaded <= 0) {       \
			errno = ELIBACC; \
			return fail;     \
		}                        \
	} while (0)

void *zmq_ctx_new(void)
{
	NEED(NULL);
	return api.ctx_new();
}

int zmq_ctx_term(void *c)
{
	NEED(-1);
	return api.ctx_term(c);
}

void *zmq_socket(void *c, int type)
{
	NEED(NULL);
	return api.socket(c, type);
}

int zmq_close(void *s)
{
	NEED(-1);
	return api.close(s);
}

int zmq_bind(void *s, const char *addr)
{
	NEED(-1);
	return api.bind(s, addr);
}

int zmq_connect(void *s, const char *addr)
{
	NEED(-1);
	return api.connect(s, addr);
}

int zmq_send(void *s, const void *buf, size_t len, int flags)
{
	NEED(-1);
	return api.send(s, buf, len, flags);
}

int zmq_recv(void *s, void *buf, size_t len, int flags)
{
	NEED(-1);
	return api.recv(s, buf, len, flags);
}

int zmq_setsockopt(void *s, int opt, const void *val, size_t len)
{
	NEED(-1);
	return api.setsockopt(s, opt, val, len);
}

int zmq_getsockopt(void *s, int opt, void *val, size_t *len)
{
	NEED(-1);
	return api.getsockopt(s, opt, val, len);
}

int zmq_socket_monitor(void *s, const char *addr, int events)
{
	NEED(-1);
	return api.socket_monitor(s, addr, events);
}

int zmq_poll(zmq_pollitem_t *items, int n, long timeout)
{
	NEED(-1);
	return api.poll(items, n, timeout);
}

int zmq_errno(void)
{
	return loaded > 0 ? api.errno_() : errno;
}

const char *zmq_strerror(int e)
{
	return loaded > 0 ? api.strerror(e) : strerror(e);
}
