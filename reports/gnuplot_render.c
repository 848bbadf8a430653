/* gnuplot's rendering of the scripts in plots/: see gnuplot.h. */
#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

extern char **environ;

static int find_gnuplot(char *path, size_t len)
{
	const char *p = getenv("PATH");
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", p && *p ? p : "/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(path, len, "%s/gnuplot", d);
		if (access(path, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* gnuplot -c plots/NAME.gp DATA plots/NAME.EXT, in dir, output to log. */
static int run_gnuplot(const char *gp, const char *dir, const char *name, const char *data,
		       const char *ext, int logfd)
{
	char script[64], out[64];
	char *argv[] = { (char *)gp, "-c", script, (char *)data, out, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	snprintf(script, sizeof(script), "plots/%s.gp", name);
	snprintf(out, sizeof(out), "plots/%s.%s", name, ext);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, dir);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, logfd, 1);
	posix_spawn_file_actions_adddup2(&fa, logfd, 2);
	rc = posix_spawn(&pid, gp, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int gnuplot_render_chart(const char *dir, const char *name, const char *data, char *err,
			 size_t errlen)
{
	static const char *const exts[] = { "svg", "png" };
	char gp[4200], log[4200];
	struct stat st;
	int logfd, rc = 0;

	if (find_gnuplot(gp, sizeof(gp)) < 0) {
		snprintf(err, errlen, "gnuplot is not installed: render the chart with: cd %s && "
			 "gnuplot -c plots/%s.gp %s plots/%s.svg", dir, name, data, name);
		return 1;
	}
	snprintf(log, sizeof(log), "%s/plots/%s.log", dir, name);
	logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (logfd < 0) {
		snprintf(err, errlen, "%s: %s", log, strerror(errno));
		return -1;
	}
	for (size_t e = 0; e < 2; e++)
		if (run_gnuplot(gp, dir, name, data, exts[e], logfd) < 0 && !rc) {
			snprintf(err, errlen, "gnuplot failed on %s/plots/%s.gp (%s); see %s", dir,
				 name, exts[e], log);
			rc = -1;
		}
	close(logfd);
	if (stat(log, &st) == 0 && st.st_size == 0)
		unlink(log);
	return rc;
}

int gnuplot_render(const char *dir, char *err, size_t errlen)
{
	static const char *const charts[][2] = {
		{ "throughput", "summary.csv" }, { "rtt", "summary.csv" }, { "cpu", "summary.csv" },
		{ "ratios", "ratios.csv" }, { "timeline", "timeline.csv" },
	};
	static const char *const exts[] = { "svg", "png" };
	char gp[4200], path[4200], log[4200];
	struct stat st;
	int logfd, rc = 0;

	if (find_gnuplot(gp, sizeof(gp)) < 0) {
		snprintf(err, errlen, "gnuplot is not installed: the chart scripts are in %s/plots; "
			 "render one with: cd %s && gnuplot -c plots/throughput.gp summary.csv "
			 "plots/throughput.svg", dir, dir);
		return 1;
	}
	snprintf(log, sizeof(log), "%s/plots/gnuplot.log", dir);
	logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (logfd < 0) {
		snprintf(err, errlen, "%s: %s", log, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++) {
		snprintf(path, sizeof(path), "%s/plots/%s.gp", dir, charts[i][0]);
		if (stat(path, &st) < 0)
			continue;
		for (size_t e = 0; e < 2; e++)
			if (run_gnuplot(gp, dir, charts[i][0], charts[i][1], exts[e], logfd) < 0 && !rc) {
				snprintf(err, errlen, "gnuplot failed on %s (%s); see %s", path,
					 exts[e], log);
				rc = -1;
			}
	}
	close(logfd);
	if (stat(log, &st) == 0 && st.st_size == 0)
		unlink(log);
	return rc;
}
