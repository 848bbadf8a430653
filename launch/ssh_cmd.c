/* The ssh command line of a remote command, and the last line ssh said:
 * see ssh_cmd.h. */
#include "ssh_cmd.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* word single-quoted for a POSIX shell onto buf at *o: ' becomes '\''. */
static void quote(char *buf, size_t len, size_t *o, const char *word)
{
	size_t n = *o;

	if (n + 1 < len)
		buf[n++] = '\'';
	for (; *word && n + 5 < len; word++) {
		if (*word == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *word;
		}
	}
	if (n + 1 < len)
		buf[n++] = '\'';
	buf[n < len ? n : len - 1] = '\0';
	*o = n;
}

void ssh_cmd_argv(const struct matrix *m, const struct host_url *u, const char *control,
		     char *const words[], struct spawn_argv *out)
{
	static char cmd[32768];
	size_t o = 0;

	spawn_argv_add(out, "ssh");
	spawn_argv_add(out, "-o");
	spawn_argv_add(out, "BatchMode=yes");
	if (u->port) {
		spawn_argv_add(out, "-p");
		spawn_argv_add(out, "%u", u->port);
	}
	if (control) {	/* a session of the run's master connection; before
			 * ssh: words (ssh keeps an option's first value) */
		spawn_argv_add(out, "-o");
		spawn_argv_add(out, "ControlMaster=no");
		spawn_argv_add(out, "-o");
		spawn_argv_add(out, "ControlPath=%s", control);
	}
	for (size_t i = 0; i < m->hosts.nssh; i++)
		spawn_argv_add(out, "%s", m->hosts.ssh[i]);
	spawn_argv_add(out, "-o");
	spawn_argv_add(out, "ConnectTimeout=10");
	spawn_argv_add(out, "-o");
	spawn_argv_add(out, "ServerAliveInterval=5");
	spawn_argv_add(out, "-T");
	if (*u->user)
		spawn_argv_add(out, "%s@%s", u->user, u->host);
	else
		spawn_argv_add(out, "%s", u->host);
	spawn_argv_add(out, "--");
	snprintf(cmd, sizeof(cmd), "exec");
	o = strlen(cmd);
	for (size_t i = 0; words[i]; i++) {
		if (o + 2 < sizeof(cmd))
			cmd[o++] = ' ';
		quote(cmd, sizeof(cmd), &o, i ? words[i] : m->hosts.matrix ? m->hosts.matrix : "matrix");
	}
	if (o + 8 >= sizeof(cmd))
		out->overflow = 1;
	if (words[0])
		spawn_argv_add(out, "%s", cmd);
}

/* The last non-empty line of text (len bytes) into msg. */
void ssh_last_line(const char *text, size_t len, char *msg, size_t msglen)
{
	size_t end = len, start;

	while (end && (text[end - 1] == '\n' || text[end - 1] == '\r'))
		end--;
	for (start = end; start && text[start - 1] != '\n'; start--)
		;
	snprintf(msg, msglen, "%.*s", (int)(end - start), text + start);
}

/* The last line of the file at path into msg ("" when none). */
void ssh_log_last_line(const char *path, char *msg, size_t len)
{
	char buf[4096];
	ssize_t n = 0;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		off_t size = lseek(fd, 0, SEEK_END);
		off_t from = size > (off_t)sizeof(buf) ? size - (off_t)sizeof(buf) : 0;
		n = pread(fd, buf, sizeof(buf), from);
		close(fd);
	}
	ssh_last_line(buf, n > 0 ? (size_t)n : 0, msg, len);
}
