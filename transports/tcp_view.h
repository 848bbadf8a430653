/*
 * tcp_view: the tcp_view op of tcp and tcp6 (transport.h): getsockopt
 * TCP_INFO on c->fd into tv, one field per enum tcp_view_field, -1 for
 * what the kernel did not give.  0, or -1 with errno (every field -1).
 * Kept apart from tcp.c: it needs <linux/tcp.h>, which clashes with the
 * <netinet/tcp.h> tcp.c uses.
 */
#ifndef MATRIX_TCP_VIEW_H
#define MATRIX_TCP_VIEW_H

#include "transport.h"

int tcp_view_read(struct conn *c, struct tcp_view *tv);

#endif
