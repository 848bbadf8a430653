/* mq: POSIX message queues (mq_overview(7)), a pair per client: one
 * client to server (c2s), one server to client (s2c).  Each message is one
 * queue message; a zero-length one ends a client's messages.
 *
 * Rendezvous.  The server listens on an AF_UNIX stream socket in the
 * private directory (the address is its path, as for unix).  accept()
 * takes one client, creates its two queues (O_CREAT | O_EXCL, mode 0600)
 * named /matrix-PID-N-c2s and /matrix-PID-N-s2c (PID the server's, N the
 * connection's number) and sends the names over the socket; the client
 * opens both and answers "ok"; then the server unlinks both names at
 * once.  So while a cell measures no queue has a name: the queues live
 * only as long as the two processes' descriptors, and a SIGKILL of the
 * runner (its workers die with it) leaves nothing in the queue file
 * system.  A name can outlive its server only when the server dies between
 * the mq_open and the client's answer; listen unlinks such names (a dead
 * PID's) where the file system is mounted on /dev/mqueue.
 *
 * Liveness.  The socket stays open beside the queues: a blocking send or
 * receive waits at most MQ_WAKE_NS at a time (mq_timedsend,
 * mq_timedreceive), then looks whether the peer closed its socket; a busy
 * one (poll: busy: O_NONBLOCK, retried at once) looks every MQ_SPINS
 * tries.  A receiver whose peer is gone takes what is still queued (the
 * peer sent it before it closed), then fails with ECONNRESET; a sender's
 * send fails with EPIPE.  Nothing waits forever.
 *
 * Limits (mq_limits_now below, asked by the plan): a message of at most
 * fs.mqueue.msgsize_max bytes, a queue of at most fs.mqueue.msg_max
 * messages (inflight deep for pingpong and echo, MQ_STREAM_DEPTH or
 * msg_max for a stream), and all of a cell's queues within the user's
 * RLIMIT_MSGQUEUE bytes (the server raises its soft limit to the hard
 * one).  Nothing is capped: a cell over them is refused. */
#include "transport.h"
#include "fdio.h"
#include "sockets.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/vfs.h>

#define MQ_STREAM_DEPTH 10	/* a stream's queue, messages (msg_max's default) */
#define MQ_MSG_OVERHEAD 96	/* the kernel's bytes per message against the
				 * rlimit: a struct msg_msg and a tree node */
#define MQ_WAKE_NS 100000000L	/* a blocked call looks at its peer this often */
#define MQ_SPINS 4096u		/* busy: tries between looks at the peer */
#define MQ_DIR "/dev/mqueue"
#define MQ_MAGIC 0x19800202	/* MQUEUE_MAGIC, linux/magic.h */
#define MQ_SYSCTL "/proc/sys/fs/mqueue/"

struct mqconn {
	mqd_t in, out;
	int sock;		/* the rendezvous connection: the peer's liveness */
	int busy;		/* both queues O_NONBLOCK: sends and receives spin */
	int gone;		/* the peer closed its socket */
	int client;		/* close() sends the end first */
	size_t in_cap;		/* mq_msgsize of in */
	unsigned char *scratch;	/* in_cap bytes: a receive into a smaller buffer */
};

static unsigned accepted;

/* ---- limits ---- */

struct mq_machine {
	long msg_max, msgsize_max;
	rlim_t bytes_max;	/* RLIMIT_MSGQUEUE's hard limit */
};

static int read_sysctl(const char *name, long *v, char *err, size_t errlen)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), MQ_SYSCTL "%s", name);
	if (!(f = fopen(path, "re"))) {
		snprintf(err, errlen, "POSIX message queues are not there: %s: %s", path,
			 strerror(errno));
		return -1;
	}
	ok = fscanf(f, "%ld", v) == 1 && *v > 0;
	fclose(f);
	if (!ok)
		snprintf(err, errlen, "%s: not a positive number", path);
	return ok ? 0 : -1;
}

static int read_machine(struct mq_machine *mm, char *err, size_t errlen)
{
	struct rlimit rl;

	if (read_sysctl("msg_max", &mm->msg_max, err, errlen) < 0 ||
	    read_sysctl("msgsize_max", &mm->msgsize_max, err, errlen) < 0)
		return -1;
	mm->bytes_max = getrlimit(RLIMIT_MSGQUEUE, &rl) == 0 ? rl.rlim_max : RLIM_INFINITY;
	return 0;
}

/* The queues of a connection of o: c2s then s2c. */
static void queue_attrs(const struct transport_opts *o, long msg_max, struct mq_attr a[2])
{
	const struct pattern_info *pi = pattern_info(o->pattern);
	long depth = pi->one_way ? (msg_max < MQ_STREAM_DEPTH ? msg_max : MQ_STREAM_DEPTH)
		     : o->inflight > 1 ? (long)o->inflight : 1;

	memset(a, 0, 2 * sizeof(*a));
	a[0].mq_maxmsg = depth;
	a[0].mq_msgsize = (long)o->size;
	/* a stream's way back carries nothing: the smallest queue */
	a[1].mq_maxmsg = pi->one_way ? 1 : depth;
	a[1].mq_msgsize = pi->one_way ? 1 :
			  (long)pattern_reply_size(pi, o->size, o->response_size);
}

static unsigned long long queue_bytes(const struct mq_attr *a)
{
	return (unsigned long long)a->mq_maxmsg * ((unsigned long long)a->mq_msgsize +
						   MQ_MSG_OVERHEAD);
}

/* transport.h's limits_now */
static int mq_limits_now(const struct transport_opts *o, const char **key, char *msg,
			 size_t msglen)
{
	struct mq_machine mm;
	struct mq_attr a[2];

	if (read_machine(&mm, msg, msglen) < 0) {
		*key = "transport";
		return -1;
	}
	if (!o) {
		snprintf(msg, msglen, "size 1B to %ldB, inflight %ld", mm.msgsize_max, mm.msg_max);
		return 0;
	}
	const struct pattern_info *pi = pattern_info(o->pattern);
	uint64_t reply = pattern_reply_size(pi, o->size, o->response_size);
	if (o->size > (uint64_t)mm.msgsize_max || reply > (uint64_t)mm.msgsize_max) {
		*key = o->size > (uint64_t)mm.msgsize_max ? "size" : "response_size";
		snprintf(msg, msglen, "%s %llu is larger than a POSIX message queue takes here: "
			 "fs.mqueue.msgsize_max is %ld bytes (" MQ_SYSCTL "msgsize_max); nothing "
			 "is clamped: use a smaller size, or raise it (sysctl -w "
			 "fs.mqueue.msgsize_max=N)", *key, (unsigned long long)(o->size >
			 (uint64_t)mm.msgsize_max ? o->size : reply), mm.msgsize_max);
		return -1;
	}
	if (!pi->one_way && o->inflight > (unsigned long)mm.msg_max) {
		*key = "inflight";
		snprintf(msg, msglen, "inflight %u needs message queues %u messages deep, more "
			 "than fs.mqueue.msg_max (%ld, " MQ_SYSCTL "msg_max) allows; nothing is "
			 "clamped: use inflight %ld or less, or raise it (sysctl -w "
			 "fs.mqueue.msg_max=N)", o->inflight, o->inflight, mm.msg_max, mm.msg_max);
		return -1;
	}
	queue_attrs(o, mm.msg_max, a);
	unsigned long long need = (queue_bytes(&a[0]) + queue_bytes(&a[1])) * o->connections;
	if (mm.bytes_max != RLIM_INFINITY && need > (unsigned long long)mm.bytes_max) {
		*key = "concurrency";
		snprintf(msg, msglen, "concurrency %u: the cell's %u message queues (per client "
			 "%ld messages of %ld bytes to the server, %ld of %ld back, and the kernel's "
			 "%d bytes per message) need %llu bytes, more than RLIMIT_MSGQUEUE lets this "
			 "user have (%llu bytes, the hard limit: ulimit -Hq); use fewer clients, a "
			 "smaller size or a lower inflight, or raise the limit", o->connections,
			 2 * o->connections, a[0].mq_maxmsg, a[0].mq_msgsize, a[1].mq_maxmsg,
			 a[1].mq_msgsize, MQ_MSG_OVERHEAD, need, (unsigned long long)mm.bytes_max);
		return -1;
	}
	return 0;
}

/* ---- the rendezvous ---- */

/* Names of a dead server's queues, left by a server that died while a
 * client opened them: unlinked, where the queue file system is mounted. */
static void sweep_stale(void)
{
	struct statfs sf;
	struct dirent *e;
	DIR *d;

	if (statfs(MQ_DIR, &sf) < 0 || sf.f_type != MQ_MAGIC || !(d = opendir(MQ_DIR)))
		return;
	while ((e = readdir(d))) {
		char name[300];
		long pid;
		unsigned n;
		if (sscanf(e->d_name, "matrix-%ld-%u-", &pid, &n) != 2 || pid <= 0 ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(name, sizeof(name), "/%s", e->d_name);
		mq_unlink(name);
	}
	closedir(d);
}

/* The user's queue bytes (RLIMIT_MSGQUEUE): its soft limit raised to the
 * hard one, which the plan counted the cell's queues against. */
static void raise_bytes_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MSGQUEUE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_MSGQUEUE, &rl);
	}
}

static int mq_listen_(const struct transport_opts *o, const char *path, char *addr,
		      size_t addrlen, char *err, size_t errlen)
{
	const char *key;

	if (mq_limits_now(o, &key, err, errlen) < 0) {
		errno = EINVAL;
		return -1;
	}
	raise_bytes_limit();
	sweep_stale();
	return sock_unix_listen(SOCK_STREAM, NULL, path, addr, addrlen, err, errlen);
}

/* A line of at most len - 1 bytes, up to its '\n' (dropped), from fd:
 * 0, or -1 (errno EPROTO: the peer closed first or sent too much). */
static int read_line(int fd, char *buf, size_t len)
{
	size_t have = 0;

	while (have + 1 < len) {
		ssize_t n = read(fd, buf + have, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EPROTO;
			return -1;
		}
		if (buf[have] == '\n') {
			buf[have] = '\0';
			return 0;
		}
		have++;
	}
	errno = EPROTO;
	return -1;
}

static int write_line(int fd, const char *line)
{
	size_t len = strlen(line), off = 0;

	while (off < len) {
		ssize_t n = send(fd, line + off, len - off, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

static void mq_close_(struct conn *c);

/* A new connection's handle around the socket sock (closed on failure). */
static struct mqconn *new_handle(struct conn *c, int sock, int busy, int client)
{
	struct mqconn *q = calloc(1, sizeof(*q));

	c->fd = c->wfd = -1;	/* no descriptor read() and write() work on */
	c->streams = 1;
	c->handle = q;
	if (!q) {
		close(sock);
		return NULL;
	}
	q->in = q->out = (mqd_t)-1;
	q->sock = sock;
	q->busy = busy;
	q->client = client;
	return q;
}

/* in_cap and its scratch buffer, from the receiving queue's attributes. */
static int take_capacity(struct mqconn *q)
{
	struct mq_attr a;

	if (mq_getattr(q->in, &a) < 0)
		return -1;
	q->in_cap = (size_t)a.mq_msgsize;
	if (!(q->scratch = malloc(q->in_cap))) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* The server's two queues for connection n (names[0] c2s, names[1] s2c),
 * opened into q.  A stale name of this PID (a dead process's that had it)
 * is unlinked and made again.  0, or -1 with err and no name left. */
static int make_queues(const struct transport_opts *o, struct mqconn *q, char names[2][64],
		       char *err, size_t errlen)
{
	struct mq_machine mm;
	struct mq_attr a[2];
	int flags = O_CREAT | O_EXCL | O_CLOEXEC | (o->busy ? O_NONBLOCK : 0);

	if (read_machine(&mm, err, errlen) < 0)
		return -1;
	queue_attrs(o, mm.msg_max, a);
	for (int d = 0; d < 2; d++) {
		snprintf(names[d], 64, "/matrix-%ld-%u-%s", (long)getpid(), accepted,
			 d ? "s2c" : "c2s");
		mqd_t *m = d ? &q->out : &q->in;
		for (int again = 0; again < 2; again++) {
			*m = mq_open(names[d], flags | (d ? O_WRONLY : O_RDONLY), 0600, &a[d]);
			if (*m != (mqd_t)-1 || errno != EEXIST)
				break;
			mq_unlink(names[d]);
		}
		if (*m == (mqd_t)-1) {
			int e = errno;
			snprintf(err, errlen, "mq_open %s (%ld messages of %ld bytes): %s%s",
				 names[d], a[d].mq_maxmsg, a[d].mq_msgsize, strerror(e),
				 e == EMFILE ? " (the user's queues, other runs' too, over "
				 "RLIMIT_MSGQUEUE, ulimit -q; or the open-file limit)" :
				 e == ENOSPC ? " (fs.mqueue.queues_max queues on this machine)" : "");
			if (d)
				mq_unlink(names[0]);
			return -1;
		}
	}
	return 0;
}

static int mq_accept_(int lfd, const struct transport_opts *o, struct conn *c, char *err,
		      size_t errlen)
{
	struct conn s = { .fd = -1, .wfd = -1 };
	char names[2][64], line[256], answer[300];
	struct mqconn *q;

	if (sock_accept(lfd, &s, err, errlen) < 0)
		return -1;
	accepted++;
	snprintf(c->peer, sizeof(c->peer), "mq client %u", accepted);
	if (!(q = new_handle(c, s.fd, o->busy, 0))) {
		snprintf(err, errlen, "accept: out of memory");
		return -1;
	}
	if (make_queues(o, q, names, err, errlen) < 0) {
		mq_close_(c);
		return -1;
	}
	snprintf(line, sizeof(line), "%s %s\n", names[0], names[1]);
	int rc = write_line(q->sock, line) < 0 || read_line(q->sock, answer, sizeof(answer)) < 0;
	if (rc)
		snprintf(err, errlen, "%s: handshake: %s", c->peer, strerror(errno));
	else if (strcmp(answer, "ok")) {	/* "client: why it could not open them" */
		snprintf(err, errlen, "%s: %.200s", c->peer, answer);
		rc = 1;
	}
	/* the client has both open, or never will: no name is needed any more */
	mq_unlink(names[0]);
	mq_unlink(names[1]);
	if (rc || take_capacity(q) < 0) {
		if (!rc)
			snprintf(err, errlen, "%s: mq_getattr: %s", c->peer, strerror(errno));
		mq_close_(c);
		return -1;
	}
	return 0;
}

/* The client's side: both queues by the names the server sent. */
static int open_queues(const struct transport_opts *o, struct mqconn *q, char *err,
		       size_t errlen)
{
	char line[256], names[2][128];
	int nb = o->busy ? O_NONBLOCK : 0;

	if (read_line(q->sock, line, sizeof(line)) < 0) {
		snprintf(err, errlen, "handshake: %s", strerror(errno));
		return -1;
	}
	if (sscanf(line, "%127s %127s", names[0], names[1]) != 2) {
		snprintf(err, errlen, "handshake: not two queue names: '%.60s'", line);
		return -1;
	}
	for (int d = 0; d < 2; d++) {
		mqd_t m = mq_open(names[d], (d ? O_RDONLY : O_WRONLY) | O_CLOEXEC | nb);
		if (m == (mqd_t)-1) {
			snprintf(err, errlen, "mq_open %s: %s", names[d], strerror(errno));
			char why[300];
			snprintf(why, sizeof(why), "client: %.250s\n", err);
			write_line(q->sock, why);	/* the server says it too */
			return -1;
		}
		*(d ? &q->in : &q->out) = m;
	}
	if (take_capacity(q) < 0) {
		snprintf(err, errlen, "mq_getattr: %s", strerror(errno));
		return -1;
	}
	if (write_line(q->sock, "ok\n") < 0) {
		snprintf(err, errlen, "handshake: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int mq_connect_(const struct transport_opts *o, const char *path, struct conn *c,
		       char *err, size_t errlen)
{
	struct conn s = { .fd = -1, .wfd = -1 };
	char why[400];
	struct mqconn *q;

	if (sock_unix_connect(SOCK_STREAM, NULL, path, &s, err, errlen) < 0)
		return -1;
	snprintf(c->peer, sizeof(c->peer), "%.100s server", path);
	if (!(q = new_handle(c, s.fd, o->busy, 1))) {
		snprintf(err, errlen, "connect %.200s: out of memory", path);
		return -1;
	}
	if (open_queues(o, q, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "connect %.200s: %s", path, why);
		q->gone = 1;	/* nothing to end */
		mq_close_(c);
		return -1;
	}
	return 0;
}

/* ---- messages ---- */

/* 1 when the peer closed its socket (or it failed). */
static int peer_gone(struct mqconn *q)
{
	char b;
	ssize_t n = recv(q->sock, &b, 1, MSG_PEEK | MSG_DONTWAIT);

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		q->gone = 1;
	return q->gone;
}

/* now + ns on CLOCK_REALTIME, the clock mq_timed* take */
static struct timespec wake_at(long ns)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += ns;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

static int send_message(struct mqconn *q, const void *buf, size_t len)
{
	unsigned tries = 0;

	for (;;) {
		struct timespec ts;	/* a spin never reads the clock */
		int rc = q->busy ? mq_send(q->out, buf, len, 0)
			 : mq_timedsend(q->out, buf, len, 0, (ts = wake_at(MQ_WAKE_NS), &ts));
		if (rc == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != ETIMEDOUT)
			return -1;
		if (q->busy && ++tries % MQ_SPINS)
			continue;
		if (peer_gone(q)) {
			errno = EPIPE;
			return -1;
		}
	}
}

static int mq_send_(struct conn *c, const void *buf, size_t len)
{
	return send_message(c->handle, buf, len);
}

/* One message of at most cap bytes: its length, 0 for the end, -1. */
static ssize_t take_message(struct conn *c, void *buf, size_t cap)
{
	struct mqconn *q = c->handle;
	unsigned char *into = cap < q->in_cap ? q->scratch : buf;
	size_t room = cap < q->in_cap ? q->in_cap : cap;
	unsigned tries = 0;

	for (;;) {
		/* the peer gone: only what is queued, at once; a spin never
		 * reads the clock */
		struct timespec ts;
		ssize_t n = q->busy ? mq_receive(q->in, (char *)into, room, NULL)
			    : mq_timedreceive(q->in, (char *)into, room, NULL,
					      (ts = wake_at(q->gone ? 0 : MQ_WAKE_NS), &ts));
		if (n >= 0) {
			if (into != buf && (size_t)n > cap) {
				errno = EMSGSIZE;
				return -1;
			}
			if (into != buf)
				memcpy(buf, into, (size_t)n);
			return n;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != ETIMEDOUT)
			return -1;
		if (q->gone) {
			errno = ECONNRESET;
			return -1;
		}
		if (q->busy && ++tries % MQ_SPINS)
			continue;
		peer_gone(q);	/* gone: one more look, at what it sent before */
	}
}

static int mq_recv_(struct conn *c, void *buf, size_t len)
{
	return fd_msg_result(take_message(c, buf, len), len);
}

static ssize_t mq_recv_some_(struct conn *c, void *buf, size_t cap)
{
	return take_message(c, buf, cap);
}

static void mq_info_(struct conn *c, struct conn_info *ci)
{
	struct mqconn *q = c->handle;
	struct mq_attr a;

	ci->sndbuf = ci->rcvbuf = ci->nodelay = -1;
	if (q && mq_getattr(q->out, &a) == 0)
		ci->sndbuf = (int)(a.mq_maxmsg * a.mq_msgsize);
	if (q && mq_getattr(q->in, &a) == 0)
		ci->rcvbuf = (int)(a.mq_maxmsg * a.mq_msgsize);
}

/* A client ends its messages with a zero-length one, waiting for room like
 * any message (unless the server is gone); then everything closes.  What
 * is queued stays for the server: its descriptor keeps the queue. */
static void mq_close_(struct conn *c)
{
	struct mqconn *q = c->handle;

	if (!q)
		return;
	if (q->client && !q->gone && q->out != (mqd_t)-1)
		send_message(q, "", 0);
	if (q->in != (mqd_t)-1)
		mq_close(q->in);
	if (q->out != (mqd_t)-1)
		mq_close(q->out);
	close(q->sock);
	free(q->scratch);
	free(q);
	c->handle = NULL;
}

const struct transport transport_mq = {
	.name = "mq",
	.summary = "POSIX message queues, a pair per client; within fs.mqueue.msgsize_max and "
		   "msg_max",
	.max_size = UINT64_MAX,	/* this machine's: limits_now */
	.min_size = 1,		/* a zero-length message ends a client's messages */
	.default_bind = NULL,	/* the rendezvous socket, in the private directory */
	.family = 0,		/* the socket is only the rendezvous: no program speaks it */
	.socktype = 0,
	.cannot = PATTERN_NEEDS_DUPLEX,	/* no descriptor read() and write() take */
	.limits_now = mq_limits_now,
	.listen = mq_listen_,
	.accept = mq_accept_,
	.connect = mq_connect_,
	.send = mq_send_,
	.recv = mq_recv_,
	.recv_some = mq_recv_some_,
	.info = mq_info_,
	.close = mq_close_,
	.unlisten = sock_unlisten_path,
};
