/*
 * bidir: the second direction of a `direction: bidir` stream cell (iperf3
 * --bidir): while the server receives a client's stream it sends a stream
 * of messages of the same size back on the same connection, and the client
 * receives it beside its sender.  Each direction is counted at its
 * receiver: the forward one at the server as in a one-way cell, the
 * reverse one at the client.
 *
 * Server, per connection (stream.c's reliable receiver):
 *   bidir_tx_start(&tx, j)   before its receive loop: a sender thread that
 *                            waits for the start of the timed window
 *                            (serve_t0 known), then sends back to back what
 *                            a client sends: the server's --duration from
 *                            the start, or by count the share of the
 *                            connection's place in the accept order (the
 *                            server's --count over --connections, as the
 *                            runner shares it among the clients), then
 *                            shuts the connection's write side (the
 *                            client's end of stream)
 *   bidir_tx_stop(&tx, j)    after the receive loop (the client's stream has
 *                            ended): joins the sender (told to stop after
 *                            the message it is in when the loop failed);
 *                            its count goes into j->rev_sent, a failure
 *                            into j->err if none yet.
 * Client (stream.c's sender):
 *   bidir_rx_start(&rx, cl)  at the window's start: a receiver thread that
 *                            reads until the server's end of stream
 *   bidir_rx_finish(&rx, cl) after the last send: shuts the client's write
 *                            side (the server's end of stream), joins, and
 *                            puts the messages received and the time of the
 *                            last read into cl (rev_messages, rev_end_ns).
 *                            0, or -1 with cl->err set.
 * No warmup goes back: every message the server sends is a timed one, so
 * the clients' count must equal the server's (the runner checks it), and
 * by count the cell's count, as forward.
 * Reliable stream sockets only (the plan refuses the rest): a half-close
 * (shutdown SHUT_WR) ends each direction on its own.
 */
#ifndef MATRIX_BIDIR_H
#define MATRIX_BIDIR_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct client;
struct conn_job;

struct bidir_tx {
	struct conn_job *j;
	pthread_t thread;
	int started;
	_Atomic int stop;
	uint64_t share;		/* by count: messages to send back */
	uint64_t sent;
	int err;		/* errno of a failed send, else 0 */
};

struct bidir_rx {
	struct client *cl;
	pthread_t thread;
	int started;
	uint64_t bytes, end_ns;
	int err;		/* errno of a failed read, else 0 */
};

/* 0, or -1 with j->err set (no thread). */
int bidir_tx_start(struct bidir_tx *tx, struct conn_job *j);
void bidir_tx_stop(struct bidir_tx *tx, struct conn_job *j);

/* 0, or -1 with cl->err set (no thread). */
int bidir_rx_start(struct bidir_rx *rx, struct client *cl);
int bidir_rx_finish(struct bidir_rx *rx, struct client *cl);

#endif
