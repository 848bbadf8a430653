/* ip and tc, run to their end.  See iproute.h. */
#include "iproute.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int iproute_run(const char *prog, const char *const *args, char *err, size_t errlen)
{
	const char *argv[32] = { prog };
	char msg[512] = "";
	posix_spawn_file_actions_t fa;
	int pipefd[2], status = 0, rc;
	size_t n = 1, used = 0;
	pid_t pid;
	ssize_t r;

	for (; args[n - 1] && n < 31; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, prog, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	while (!rc && (r = read(pipefd[0], msg + used, sizeof(msg) - 1 - used)) != 0)
		if (r > 0)
			used += (size_t)r;
		else if (errno != EINTR)
			break;
	close(pipefd[0]);
	msg[used] = '\0';
	while (used && (msg[used - 1] == '\n' || msg[used - 1] == ' '))
		msg[--used] = '\0';
	for (char *c = msg; *c; c++)
		if (*c == '\n')
			*c = ' ';
	while (!rc && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!rc && WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	int o = snprintf(err, errlen, "%s", prog);
	for (size_t i = 1; argv[i] && o > 0 && (size_t)o < errlen; i++)
		o += snprintf(err + o, errlen - (size_t)o, " %s", argv[i]);
	if (o > 0 && (size_t)o < errlen && rc == ENOENT)
		snprintf(err + o, errlen - (size_t)o, ": %s not found: topology: netns needs "
			 "iproute2 (apt-get install iproute2)", prog);
	else if (o > 0 && (size_t)o < errlen)
		snprintf(err + o, errlen - (size_t)o, ": %s", rc ? strerror(rc) : msg[0] ? msg :
			 "failed");
	return -1;
}
