/* TCP_INFO of a tcp or tcp6 connection: see tcp_view in transport.h.
 * <linux/tcp.h>, not glibc's <netinet/tcp.h>: glibc's struct tcp_info
 * stops before tcpi_delivery_rate and tcpi_bytes_retrans.  The kernel
 * copies at most the size asked and says how much it gave: a field past
 * that length is unknown (-1), not 0. */
#include "tcp_view.h"

#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/tcp.h>

/* 1 when the first len bytes the kernel gave hold the field at off, size n */
static int given(socklen_t len, size_t off, size_t n)
{
	return (size_t)len >= off + n;
}

#define FIELD(tv, ti, len, idx, name) \
	((tv)->v[idx] = given(len, offsetof(struct tcp_info, name), sizeof((ti).name)) \
			? (int64_t)((ti).name) : -1)

int tcp_view_read(struct conn *c, struct tcp_view *tv)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	for (int i = 0; i < TCPV__COUNT; i++)
		tv->v[i] = -1;
	memset(&ti, 0, sizeof(ti));
	if (c->fd < 0 || getsockopt(c->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		return -1;
	FIELD(tv, ti, len, TCPV_RETRANS, tcpi_total_retrans);
	FIELD(tv, ti, len, TCPV_RTT_US, tcpi_rtt);
	FIELD(tv, ti, len, TCPV_RTTVAR_US, tcpi_rttvar);
	FIELD(tv, ti, len, TCPV_CWND, tcpi_snd_cwnd);
	FIELD(tv, ti, len, TCPV_DELIVERY_RATE, tcpi_delivery_rate);
	FIELD(tv, ti, len, TCPV_BYTES_RETRANS, tcpi_bytes_retrans);
	FIELD(tv, ti, len, TCPV_MSS, tcpi_snd_mss);
	return 0;
}
