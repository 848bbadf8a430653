/* gnuplot's rendering of the scripts in plots/: see gnuplot.h. */
#include "gnuplot.h"
#include "arrays.h"
#include "outfile.h"

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

/* gnuplot -c plots/NAME.gp DATA OUT, in dir, output to log. */
static int run_gnuplot(const char *gp, const char *dir, const char *name, const char *data,
		       const char *out, int logfd)
{
	char script[64];
	char *argv[] = { (char *)gp, "-c", script, (char *)data, (char *)out, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;

	snprintf(script, sizeof(script), "plots/%s.gp", name);
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

/* Is path a whole image: an SVG that ends with </svg>, a PNG that ends
 * with its IEND chunk?  gnuplot exits 0 when it could not write all of
 * it (a full disk), so its exit status does not say. */
static int whole_image(const char *path, const char *ext)
{
	static const char png_end[] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', (char)0xae, 0x42, 0x60,
					(char)0x82 };
	char tail[64];
	FILE *f = fopen(path, "re");
	long n;
	int ok = 0;

	if (!f)
		return 0;
	if (fseek(f, -(long)sizeof(tail), SEEK_END) < 0)
		rewind(f);
	n = (long)fread(tail, 1, sizeof(tail), f);
	if (!strcmp(ext, "png"))
		ok = n >= (long)sizeof(png_end) &&
		     !memcmp(tail + n - sizeof(png_end), png_end, sizeof(png_end));
	else
		ok = memmem(tail, (size_t)n, "</svg>", 6) != NULL;
	fclose(f);
	return ok;
}

/* plots/NAME.EXT drawn under a temporary name, checked whole, synced and
 * renamed into place, so that a cut image is never left as the chart.
 * 0, -1 when gnuplot failed, -2 when the image could not be written. */
static int render_one(const char *gp, const char *dir, const char *name, const char *data,
		      const char *ext, int logfd, char *err, size_t errlen)
{
	char rel[128], out[4300], tmprel[256], tmp[4400];

	/* .NAME.PID.tmp.EXT: the script picks its terminal by the first
	 * ".png" in the name */
	snprintf(rel, sizeof(rel), "plots/%s", name);
	outfile_tmp_name(rel, ext, tmprel, sizeof(tmprel));
	snprintf(rel, sizeof(rel), "plots/%s.%s", name, ext);
	snprintf(tmp, sizeof(tmp), "%s/%s", dir, tmprel);
	snprintf(out, sizeof(out), "%s/%s", dir, rel);
	if (run_gnuplot(gp, dir, name, data, tmprel, logfd) < 0) {
		unlink(tmp);
		snprintf(err, errlen, "gnuplot failed on %s/plots/%s.gp (%s)", dir, name, ext);
		return -1;
	}
	if (!whole_image(tmp, ext)) {
		unlink(tmp);
		snprintf(err, errlen, "%s: gnuplot could not write the whole image (is the disk "
			 "full?)", out);
		return -2;
	}
	return outfile_sync_rename(tmp, out, err, errlen) < 0 ? -2 : 0;
}

/* Renders plots/NAME.gp to .svg and .png; the first failure in err, and
 * the worse one returned (-2 over -1). */
static int render_both(const char *gp, const char *dir, const char *name, const char *data,
		       int logfd, const char *log, char *err, size_t errlen)
{
	static const char *const exts[] = { "svg", "png" };
	char e1[8192];
	int rc = 0;

	for (size_t e = 0; e < 2; e++) {
		int r = render_one(gp, dir, name, data, exts[e], logfd, e1, sizeof(e1));
		if (r < rc || (r && !rc)) {
			if (r == -1)
				snprintf(err, errlen, "%s; see %s", e1, log);
			else
				snprintf(err, errlen, "%s", e1);
		}
		if (r < rc)
			rc = r;
	}
	return rc;
}

/* plots/NAME.log or plots/gnuplot.log, for gnuplot's messages */
static int open_log(const char *log, char *err, size_t errlen)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		snprintf(err, errlen, "%s: %s", log, strerror(errno));
	return fd;
}

static void close_log(int fd, const char *log)
{
	struct stat st;

	close(fd);
	if (stat(log, &st) == 0 && st.st_size == 0)
		unlink(log);
}

int gnuplot_render_chart(const char *dir, const char *name, const char *data, char *err,
			 size_t errlen)
{
	char gp[4200], log[4200];
	int logfd, rc;

	if (find_gnuplot(gp, sizeof(gp)) < 0) {
		snprintf(err, errlen, "gnuplot is not installed: render the chart with: cd %s && "
			 "gnuplot -c plots/%s.gp %s plots/%s.svg", dir, name, data, name);
		return 1;
	}
	snprintf(log, sizeof(log), "%s/plots/%s.log", dir, name);
	if ((logfd = open_log(log, err, errlen)) < 0)
		return -2;
	rc = render_both(gp, dir, name, data, logfd, log, err, errlen);
	close_log(logfd, log);
	return rc;
}

/* plots/NAME.gp, if there is one (-1 when not), rendered by render_both;
 * its result into *rc and err as gnuplot_render says (-2 over -1, the
 * first message of the worst). */
static int render_listed(const char *gp, const char *dir, const char *name, const char *data,
			 int logfd, const char *log, int *rc, char *err, size_t errlen)
{
	char path[4200], e1[8192];
	struct stat st;

	snprintf(path, sizeof(path), "%s/plots/%s.gp", dir, name);
	if (stat(path, &st) < 0)
		return -1;
	int r = render_both(gp, dir, name, data, logfd, log, e1, sizeof(e1));
	if (r < *rc || (r && !*rc))
		snprintf(err, errlen, "%s", e1);
	if (r < *rc)
		*rc = r;
	return 0;
}

int gnuplot_render(const char *dir, char *err, size_t errlen)
{
	static const char *const charts[][2] = {
		{ "throughput", "summary.csv" }, { "rtt", "summary.csv" }, { "cpu", "summary.csv" },
		{ "ratios", "ratios.csv" }, { "timeline", "timeline.csv" },
	};
	char gp[4200], log[4200];
	int logfd, rc = 0;

	if (find_gnuplot(gp, sizeof(gp)) < 0) {
		snprintf(err, errlen, "gnuplot is not installed: the chart scripts are in %s/plots; "
			 "render one with: cd %s && gnuplot -c plots/throughput.gp summary.csv "
			 "plots/throughput.svg", dir, dir);
		return 1;
	}
	snprintf(log, sizeof(log), "%s/plots/gnuplot.log", dir);
	if ((logfd = open_log(log, err, errlen)) < 0)
		return -2;
	for (size_t i = 0; i < ARRAY_SIZE(charts); i++)
		render_listed(gp, dir, charts[i][0], charts[i][1], logfd, log, &rc, err, errlen);
	for (size_t n = 1;; n++) {	/* plots/latency-1.gp, -2, ...: gnuplot_hist.h */
		char name[32];
		snprintf(name, sizeof(name), "latency-%zu", n);
		if (render_listed(gp, dir, name, "hist.csv", logfd, log, &rc, err, errlen) < 0)
			break;
	}
	close_log(logfd, log);
	return rc;
}
