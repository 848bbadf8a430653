/* The reverse direction of a bidir stream: see bidir.h. */
#include "bidir.h"
#include "clock.h"
#include "drive.h"
#include "serve.h"
#include "transport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#define BIDIR_READ_MIN (64u * 1024)
#define BIDIR_WAIT_NS 50000L	/* the sender's look at the start, before it */

/* The end of one direction: the write side shut, the read side open. */
static void shut_write(struct conn *c)
{
	(void)shutdown(c->wfd >= 0 ? c->wfd : c->fd, SHUT_WR);
}

/* ---- the server's sender ---- */

static void *tx_main(void *arg)
{
	struct bidir_tx *tx = arg;
	struct conn_job *j = tx->j;
	const struct wopts *o = j->srv->o;
	size_t size = o->topts.size;
	unsigned char *buf = malloc(size);
	struct timespec nap = { 0, BIDIR_WAIT_NS };

	if (!buf) {
		tx->err = ENOMEM;
		return NULL;
	}
	memset(buf, 'r', size);
	/* the timed window first: no message goes back before it */
	while (!atomic_load(&j->srv->t0) && !atomic_load(&tx->stop))
		nanosleep(&nap, NULL);
	uint64_t t0 = atomic_load(&j->srv->t0);
	while (!atomic_load(&tx->stop)) {
		if (o->duration_ns ? clock_now_ns() - t0 >= o->duration_ns : tx->sent >= tx->share)
			break;
		if (o->t->send(&j->c, buf, size) < 0) {
			tx->err = errno ? errno : EPIPE;
			break;
		}
		tx->sent++;
	}
	shut_write(&j->c);
	free(buf);
	return NULL;
}

int bidir_tx_start(struct bidir_tx *tx, struct conn_job *j)
{
	const struct wopts *o = j->srv->o;
	uint64_t i = (uint64_t)(j - j->srv->jobs);

	memset(tx, 0, sizeof(*tx));
	tx->j = j;
	/* the i-th accepted connection's share, as the i-th client's (by count) */
	tx->share = o->count / o->connections + (i < o->count % o->connections);
	if (pthread_create(&tx->thread, NULL, tx_main, tx) != 0) {
		snprintf(j->err, sizeof(j->err), "cannot start the reverse sender to %s", j->c.peer);
		j->stage = "thread";
		return -1;
	}
	tx->started = 1;
	return 0;
}

void bidir_tx_stop(struct bidir_tx *tx, struct conn_job *j)
{
	if (!tx->started)
		return;
	if (j->err[0])	/* the forward stream failed: no use sending on */
		atomic_store(&tx->stop, 1);
	pthread_join(tx->thread, NULL);
	tx->started = 0;
	j->rev_sent = tx->sent;
	if (tx->err && !j->err[0]) {
		snprintf(j->err, sizeof(j->err), "reverse send to %s: %s", j->c.peer,
			 strerror(tx->err));
		j->stage = "send";
	}
}

/* ---- the client's receiver ---- */

static void *rx_main(void *arg)
{
	struct bidir_rx *rx = arg;
	struct client *cl = rx->cl;
	size_t size = cl->o->topts.size, cap = size > BIDIR_READ_MIN ? size : BIDIR_READ_MIN;
	unsigned char *buf = malloc(cap);

	if (!buf) {
		rx->err = ENOMEM;
		return NULL;
	}
	for (;;) {
		ssize_t n = cl->o->t->recv_some(&cl->c, buf, cap);
		if (n == 0)
			break;
		if (n < 0) {
			rx->err = errno ? errno : EIO;
			break;
		}
		rx->bytes += (uint64_t)n;
		rx->end_ns = clock_now_ns();
	}
	free(buf);
	return NULL;
}

int bidir_rx_start(struct bidir_rx *rx, struct client *cl)
{
	memset(rx, 0, sizeof(*rx));
	rx->cl = cl;
	if (pthread_create(&rx->thread, NULL, rx_main, rx) != 0) {
		snprintf(cl->err, sizeof(cl->err), "cannot start the reverse receiver");
		cl->stage = "thread";
		return -1;
	}
	rx->started = 1;
	return 0;
}

int bidir_rx_finish(struct bidir_rx *rx, struct client *cl)
{
	size_t size = cl->o->topts.size;

	if (!rx->started)
		return 0;
	shut_write(&cl->c);
	pthread_join(rx->thread, NULL);
	rx->started = 0;
	cl->rev_messages = rx->bytes / size;
	cl->rev_end_ns = rx->end_ns;
	if (rx->err) {
		snprintf(cl->err, sizeof(cl->err), "reverse receive from %s: %s", cl->c.peer,
			 strerror(rx->err));
		cl->stage = "receive";
		return -1;
	}
	if (rx->bytes % size) {
		snprintf(cl->err, sizeof(cl->err), "reverse stream from %s ended inside a message "
			 "(%llu bytes is not a whole number of %zu-byte messages)", cl->c.peer,
			 (unsigned long long)rx->bytes, size);
		cl->stage = "receive";
		return -1;
	}
	return 0;
}
