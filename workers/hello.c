/* A remote host's handshake, and a worker over ssh: see hello.h. */
#include "hello.h"
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

int hello_write(int fd)
{
	struct hostfacts h;
	char line[8192], esc[4][1600];
	size_t len;

	hostfacts_collect(&h);
	wire_escape(h.kernel, esc[0], sizeof(esc[0]));
	wire_escape(h.cpu_model, esc[1], sizeof(esc[1]));
	wire_escape(h.cores, esc[2], sizeof(esc[2]));
	wire_escape(h.governor, esc[3], sizeof(esc[3]));
	int n = snprintf(line, sizeof(line), "hello version=%d role=host kernel=%s cpu_model=%s "
			 "cores=%s governor=%s\n", WIRE_VERSION, esc[0], esc[1], esc[2], esc[3]);
	len = n > 0 && (size_t)n < sizeof(line) ? (size_t)n : 0;
	for (const char *p = line; len;) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int hello_parse(const char *line, int *version, struct hostfacts *h, char *why, size_t whylen)
{
	char buf[4096], *save = NULL, *w;
	int role = 0;

	*version = 0;
	memset(h, 0, sizeof(*h));
	snprintf(buf, sizeof(buf), "%s", line);
	w = strtok_r(buf, " ", &save);
	if (!w || strcmp(w, "hello")) {
		snprintf(why, whylen, "expected a hello line");
		return -1;
	}
	while ((w = strtok_r(NULL, " ", &save))) {
		char *eq = strchr(w, '=');
		if (!eq)
			continue;
		*eq++ = '\0';
		if (!strcmp(w, "version"))
			*version = atoi(eq);
		else if (!strcmp(w, "role"))
			role = !strcmp(eq, "host");
		else if (!strcmp(w, "kernel"))
			wire_unescape(eq, h->kernel, sizeof(h->kernel));
		else if (!strcmp(w, "cpu_model"))
			wire_unescape(eq, h->cpu_model, sizeof(h->cpu_model));
		else if (!strcmp(w, "cores"))
			wire_unescape(eq, h->cores, sizeof(h->cores));
		else if (!strcmp(w, "governor"))
			wire_unescape(eq, h->governor, sizeof(h->governor));
	}
	if (!role && *version == WIRE_VERSION) {
		snprintf(why, whylen, "a hello line without role=host");
		return -1;
	}
	return 0;
}

/* stdin as the runner's: start bytes through to the worker's control
 * pipe, and at its end of file the end of the worker. */
static void *watch_stdin(void *arg)
{
	int wr = *(int *)arg;
	char buf[64];
	ssize_t n;

	for (;;) {
		n = read(0, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (write(wr, buf, (size_t)n) < 0 && errno != EINTR)
			break;
	}
	/* the connection is gone (or the runner let go): nobody is left to
	 * read a result */
	kill(getpid(), SIGKILL);
	return NULL;
}

int hello_stdio(int *report_fd, int *control_fd, char *why, size_t whylen)
{
	static int relay_wr;
	int p[2], rep;
	pthread_t t;

	/* sshd's session process, our parent since the remote shell exec'd
	 * us: gone already (re-parented), or when it goes, so do we */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() == 1) {
		snprintf(why, whylen, "the ssh session ended before the worker started");
		return -1;
	}
	if (pipe2(p, O_CLOEXEC) < 0 || (rep = fcntl(1, F_DUPFD_CLOEXEC, 5)) < 0 ||
	    dup2(2, 1) < 0) {
		snprintf(why, whylen, "descriptors: %s", strerror(errno));
		return -1;
	}
	relay_wr = p[1];
	if (pthread_create(&t, NULL, watch_stdin, &relay_wr) != 0) {
		snprintf(why, whylen, "cannot start the stdin thread");
		return -1;
	}
	pthread_detach(t);
	*report_fd = rep;
	*control_fd = p[0];
	return 0;
}
