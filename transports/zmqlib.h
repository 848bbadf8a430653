/*
 * zmqlib: libzmq, loaded with dlopen() when a zmq connection is first
 * made, never at exec.
 *
 * Why: every cell repetition execs two or more workers, and the binary
 * linked against libzmq paid for it at every exec: libzmq brings
 * libstdc++, libsodium, libpgm, libnorm and Kerberos, 23 shared
 * libraries in all, some 1.4 ms in the dynamic loader per exec here,
 * about 3 ms per repetition of a tiny cell (README "Runner overhead").
 * Now only a worker of a zmq cell loads them, before its timed window.
 *
 * zmqlib.c defines the libzmq functions transports/zmq.c calls, with
 * <zmq.h>'s own prototypes, each forwarding to the loaded library: zmq.c
 * is written against the plain libzmq API.  Call zmqlib_load() before the
 * first of them (zmq.c's listen and connect do); a function called before
 * a load that worked fails as libzmq would (NULL or -1, errno ELIBACC).
 * The header <zmq.h> is still needed to build (libzmq3-dev); the library
 * at run time only by zmq cells (libzmq5).
 *
 * MATRIX_LIBZMQ in the environment names the library to load instead of
 * ZMQLIB_SONAME (a path, or a name the loader searches for).
 */
#ifndef MATRIX_ZMQLIB_H
#define MATRIX_ZMQLIB_H

#include <stddef.h>

#define ZMQLIB_SONAME "libzmq.so.5"

/* Loads libzmq (once; later calls say what the first one did).  0, or -1
 * with err: "dlopen LIB (reason): cannot load libzmq".  Not thread-safe:
 * called before any thread that uses libzmq starts (zmq.c's listen and
 * connect run on a worker's main thread, before the server's connection
 * threads), so those threads' calls only read what it wrote, after
 * pthread_create. */
int zmqlib_load(char *err, size_t errlen);

#endif
