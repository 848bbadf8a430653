/* The ssh command line of a remote command: see ssh_cmd.h. */
#include "ssh_cmd.h"

#include <stdio.h>
#include <string.h>

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

