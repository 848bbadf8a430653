/* gnuplot's rendering of the scripts in plots/: see gnuplot.h. */
#include "gnuplot.h"
#include "arrays.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
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

/* One chart in one image: plots/NAME.gp over data, drawn to tmp (its
 * temporary name, relative to the run folder) and renamed to
 * plots/NAME.EXT.  state: 0 not drawn yet, 1 drawn (gnuplot reported no
 * error), -1 gnuplot failed on it. */
struct gp_job {
	char name[32];
	const char *data;
	const char *ext;
	char tmp[256];
	int state;
	size_t cost;		/* its expected drawing time, in µs (job_cost) */
	size_t session;		/* the gnuplot that draws it (split_jobs) */
	/* once finished (job_done), as soon as gnuplot reported on it, so
	 * that its image is synced while the others are drawn: job_finish's
	 * result and message (NULL when 0, or when none could be kept) */
	int finished, rc;
	char *msg;
};

static void job_done(const char *dir, struct gp_job *j);

/* The lines that draw job j in a gnuplot session: its script called with
 * the two arguments `gnuplot -c` would pass, then "drawn ERRNO" on fd 3
 * (each job's line flushed as it ends, so a gnuplot that dies mid-way
 * still tells which jobs it drew), then the session reset, so that no
 * setting, variable or output of one chart reaches the next.  The svg
 * terminal keeps one thing past a reset: its colour mode at the end of a
 * page starts the next page (gnuplot 5.4 svg.trm opens its first group
 * before it resets it), so an svg job ends on a page cleared into
 * /dev/null, which leaves it as a new process has it. */
static void job_lines(FILE *f, const struct gp_job *j)
{
	fprintf(f, "call 'plots/%s.gp' '%s' '%s'\n"
		"set print '/dev/fd/3'\n"
		"print sprintf('drawn %%d', GPVAL_ERRNO)\n"
		"unset print\n"
		"unset multiplot\n", j->name, j->data, j->tmp);
	if (!strcmp(j->ext, "svg"))
		fputs("set output '/dev/null'\nclear\n", f);
	fputs("unset output\nreset errors\nreset session\n", f);
}

/* The driver for jobs [0, n) in a memory file, at its start; -1 when it
 * cannot be made. */
static int driver_file(struct gp_job *const *jobs, size_t n)
{
	int fd = memfd_create("matrix-gnuplot", MFD_CLOEXEC);
	FILE *f;

	if (fd < 0)
		return -1;
	if (!(f = fdopen(dup(fd), "w"))) {
		close(fd);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		job_lines(f, jobs[i]);
	if (fclose(f) != 0 || lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A gnuplot drawing its share of the jobs, in the folder's order. */
struct gp_session {
	struct gp_job **jobs;
	size_t n, next;		/* its jobs; the first not reported on yet */
	int logfd;		/* where its messages go */
	pid_t pid;		/* while it runs, else -1 */
	int ack;		/* its "drawn" lines while it runs */
	char line[64];		/* the start of a line not read whole yet */
	size_t len;
};

/* Starts a gnuplot in dir on s's jobs from s->next on; -1 when it cannot
 * be started (s->pid is then -1). */
static int session_start(const char *gp, const char *dir, struct gp_session *s)
{
	char *argv[] = { (char *)gp, NULL };
	posix_spawn_file_actions_t fa;
	int drv = driver_file(s->jobs + s->next, s->n - s->next), ack[2];

	s->pid = -1;
	s->len = 0;
	if (drv < 0)
		return -1;
	if (pipe2(ack, O_CLOEXEC) < 0) {
		close(drv);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, dir);
	posix_spawn_file_actions_adddup2(&fa, drv, 0);
	posix_spawn_file_actions_adddup2(&fa, s->logfd, 1);
	posix_spawn_file_actions_adddup2(&fa, s->logfd, 2);
	posix_spawn_file_actions_adddup2(&fa, ack[1], 3);
	int rc = posix_spawn(&s->pid, gp, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(drv);
	close(ack[1]);
	if (rc) {
		close(ack[0]);
		s->pid = -1;
		return -1;
	}
	s->ack = ack[0];
	return 0;
}

/* s's gnuplot has ended (or never started): reaped.  The jobs it did not
 * report on were not drawn: the first of them, the one it died on (or
 * the first when it could not start), failed; the rest go to the next
 * session. */
static void session_end(const char *dir, struct gp_session *s)
{
	int st;

	if (s->pid > 0) {
		close(s->ack);
		while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	s->pid = -1;
	if (s->next < s->n) {
		s->jobs[s->next]->state = -1;
		job_done(dir, s->jobs[s->next++]);
	}
}

/* Reads what s's gnuplot wrote on its "drawn ERRNO" lines: each whole
 * line sets the state of its next job, which is finished there and then;
 * at the end of the lines, the session ends. */
static void session_read(const char *dir, struct gp_session *s)
{
	ssize_t r = read(s->ack, s->line + s->len, sizeof(s->line) - 1 - s->len);
	char *nl;
	int e;

	if (r < 0 && errno == EINTR)
		return;
	if (r <= 0) {
		session_end(dir, s);
		return;
	}
	s->len += (size_t)r;
	s->line[s->len] = '\0';
	while ((nl = strchr(s->line, '\n')) || s->len == sizeof(s->line) - 1) {
		if (nl)
			*nl = '\0';
		if (sscanf(s->line, "drawn %d", &e) == 1 && s->next < s->n) {
			s->jobs[s->next]->state = e == 0 ? 1 : -1;
			job_done(dir, s->jobs[s->next++]);
		}
		size_t used = nl ? (size_t)(nl + 1 - s->line) : s->len;	/* a line too long: dropped */
		memmove(s->line, s->line + used, s->len - used + 1);
		s->len -= used;
	}
}

/* How many gnuplots draw n jobs at once: one a processor this process
 * may run on, GP_SESSIONS at most, and one for a chart alone. */
#define GP_SESSIONS 4
static size_t sessions_for(size_t n)
{
	cpu_set_t set;
	long cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
								  : sysconf(_SC_NPROCESSORS_ONLN);
	size_t k = cpus > 1 ? (size_t)cpus : 1;

	k = k < GP_SESSIONS ? k : GP_SESSIONS;
	return n < 4 ? 1 : k < n / 2 ? k : n / 2;
}

static int by_cost(const void *a, const void *b)
{
	const struct gp_job *x = *(struct gp_job *const *)a, *y = *(struct gp_job *const *)b;

	return x->cost != y->cost ? (x->cost < y->cost ? 1 : -1) : (x < y ? -1 : x > y);
}

/* Shares jobs [0, n) among ns sessions, the costliest first to the least
 * loaded (so that they end together), each session's in the folder's
 * order, their lists in order (n slots). */
static void split_jobs(struct gp_job *jobs, size_t n, struct gp_job **order,
		       struct gp_session *ss, size_t ns)
{
	size_t load[GP_SESSIONS] = { 0 }, o = 0;

	for (size_t i = 0; i < n; i++)
		order[i] = &jobs[i];
	qsort(order, n, sizeof(*order), by_cost);
	for (size_t i = 0; i < n; i++) {
		size_t least = 0;
		for (size_t k = 1; k < ns; k++)
			least = load[k] < load[least] ? k : least;
		order[i]->session = least;
		load[least] += order[i]->cost;
	}
	for (size_t k = 0; k < ns; k++) {
		ss[k].jobs = order + o;
		ss[k].next = ss[k].n = 0;
		for (size_t i = 0; i < n; i++)
			if (jobs[i].session == k)
				order[o++] = &jobs[i];
		ss[k].n = (size_t)(order + o - ss[k].jobs);
	}
}

/* A memory file for a session's messages, -1 when none can be made. */
static int memlog(void)
{
	return memfd_create("matrix-gnuplot-log", MFD_CLOEXEC);
}

/* fd's messages (a memory file) after logfd's, fd closed. */
static void log_append(int logfd, int fd)
{
	char buf[8192];
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET) == 0)
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			if (write(logfd, buf, (size_t)r) != r)
				break;
	close(fd);
}

/* Draws every job, in sessions_for(n) gnuplots at once, each job's state
 * set and the job finished (job_done: its image checked, synced and
 * renamed) as soon as its gnuplot reports on it, while the rest are
 * drawn: a gnuplot that dies on a job is followed by a new one for the
 * rest of its share.  The messages go to logfd, each session's together, in
 * the order of the sessions.  -1 out of memory (no job drawn). */
static int run_jobs(const char *gp, const char *dir, struct gp_job *jobs, size_t n, int logfd)
{
	struct gp_session ss[GP_SESSIONS];
	struct gp_job **order = malloc((n ? n : 1) * sizeof(*order));
	size_t ns = sessions_for(n);

	if (!order)
		return -1;
	split_jobs(jobs, n, order, ss, ns);
	for (size_t k = 0; k < ns; k++)	/* a session's own log, when it can have one */
		ss[k].logfd = k ? memlog() : logfd;
	for (size_t k = 1; k < ns; k++)
		ss[k].logfd = ss[k].logfd < 0 ? logfd : ss[k].logfd;
	for (size_t k = 0; k < ns; k++)
		ss[k].pid = -1;
	for (;;) {
		struct pollfd pfd[GP_SESSIONS];
		size_t np = 0, at[GP_SESSIONS];
		for (size_t k = 0; k < ns; k++) {	/* a share left and no gnuplot on it */
			while (ss[k].pid < 0 && ss[k].next < ss[k].n &&
			       session_start(gp, dir, &ss[k]) < 0)
				session_end(dir, &ss[k]);
			if (ss[k].pid > 0) {
				pfd[np] = (struct pollfd){ .fd = ss[k].ack, .events = POLLIN };
				at[np++] = k;
			}
		}
		if (!np)
			break;
		int ready = poll(pfd, np, -1), failed = ready < 0 && errno != EINTR;
		for (size_t i = 0; i < np && failed; i++)	/* each read to its end */
			while (ss[at[i]].pid > 0)
				session_read(dir, &ss[at[i]]);
		for (size_t i = 0; i < np && ready > 0; i++)
			if (pfd[i].revents)
				session_read(dir, &ss[at[i]]);
	}
	for (size_t k = 1; k < ns; k++)
		if (ss[k].logfd != logfd)
			log_append(logfd, ss[k].logfd);
	free(order);
	return 0;
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

/* MATRIX_CHARTS: 1 when the PNGs are drawn (unset, or "svg,png"). */
static int draw_png(void)
{
	const char *v = getenv("MATRIX_CHARTS");

	return !v || strcmp(v, "svg");
}

int gnuplot_formats_check(char *err, size_t errlen)
{
	const char *v = getenv("MATRIX_CHARTS");

	if (!v || !strcmp(v, "svg") || !strcmp(v, "svg,png"))
		return 0;
	snprintf(err, errlen, "MATRIX_CHARTS=%.100s: expected svg (SVG images only) or svg,png "
		 "(both, the default)", v);
	return -1;
}

/* A job for plots/NAME.gp over data, as ext. */
static void job_set(struct gp_job *j, const char *name, const char *data, const char *ext)
{
	char rel[128];

	snprintf(j->name, sizeof(j->name), "%s", name);
	j->data = data;
	j->ext = ext;
	j->state = 0;
	j->cost = 1;
	j->finished = j->rc = 0;
	j->msg = NULL;
	/* .NAME.PID.tmp.EXT: the script picks its terminal by the first
	 * ".png" in the name */
	snprintf(rel, sizeof(rel), "plots/%s", name);
	outfile_tmp_name(rel, ext, j->tmp, sizeof(j->tmp));
}

/* A drawn job's image checked whole, synced and renamed into place, so
 * that a cut image is never left as the chart; a failed one's removed.
 * 0, -1 when gnuplot failed, -2 when the image could not be written. */
static int job_finish(const char *dir, const struct gp_job *j, char *err, size_t errlen)
{
	char out[4300], tmp[4400];

	snprintf(tmp, sizeof(tmp), "%s/%s", dir, j->tmp);
	snprintf(out, sizeof(out), "%s/plots/%s.%s", dir, j->name, j->ext);
	if (j->state != 1) {
		unlink(tmp);
		snprintf(err, errlen, "gnuplot failed on %s/plots/%s.gp (%s)", dir, j->name,
			 j->ext);
		return -1;
	}
	if (!whole_image(tmp, j->ext)) {
		unlink(tmp);
		snprintf(err, errlen, "%s: gnuplot could not write the whole image (is the disk "
			 "full?)", out);
		return -2;
	}
	return outfile_sync_rename(tmp, out, err, errlen) < 0 ? -2 : 0;
}

/* Finishes job j once (job_finish), keeping its result and message. */
static void job_done(const char *dir, struct gp_job *j)
{
	char e1[8192];

	if (j->finished)
		return;
	j->finished = 1;
	if ((j->rc = job_finish(dir, j, e1, sizeof(e1))) != 0)
		j->msg = strdup(e1);
}

/* Draws the jobs, each finished as soon as it is drawn (job_done); the
 * worse result returned (-2 over -1) and the first message of the worst,
 * in the folder's order, in err. */
static int render_jobs(const char *gp, const char *dir, struct gp_job *jobs, size_t n, int logfd,
		       const char *log, char *err, size_t errlen)
{
	int rc = 0;

	/* gnuplot opens its output itself, following a link: each image's
	 * temporary name is made here first, a new regular file, never
	 * through a link (outfile_tmp_create) */
	for (size_t i = 0; i < n; i++) {
		char tmp[4400];
		snprintf(tmp, sizeof(tmp), "%s/%s", dir, jobs[i].tmp);
		if (outfile_tmp_create(tmp, err, errlen) < 0) {
			while (i--) {
				snprintf(tmp, sizeof(tmp), "%s/%s", dir, jobs[i].tmp);
				unlink(tmp);
			}
			return -2;
		}
	}
	if (run_jobs(gp, dir, jobs, n, logfd) < 0) {
		for (size_t i = 0; i < n; i++) {
			char tmp[4400];
			snprintf(tmp, sizeof(tmp), "%s/%s", dir, jobs[i].tmp);
			unlink(tmp);
		}
		snprintf(err, errlen, "%s/plots: out of memory", dir);
		return -2;
	}
	for (size_t i = 0; i < n; i++) {
		job_done(dir, &jobs[i]);	/* every one was, but for a failed poll */
		int r = jobs[i].rc;
		const char *e1 = jobs[i].msg ? jobs[i].msg : "out of memory";
		if (r < rc || (r && !rc)) {
			if (r == -1)
				snprintf(err, errlen, "%s; see %s", e1, log);
			else
				snprintf(err, errlen, "%s", e1);
		}
		if (r < rc)
			rc = r;
	}
	for (size_t i = 0; i < n; i++)
		free(jobs[i].msg);
	return rc;
}

/* plots/NAME.log or plots/gnuplot.log, for gnuplot's messages: written
 * under a temporary name made here (never through a link: a log linked
 * elsewhere would be truncated there), renamed into place when gnuplot
 * said something.  The descriptor, or -1 with err. */
static int open_log(const char *log, char *tmp, size_t len, char *err, size_t errlen)
{
	int fd = -1;

	outfile_tmp_name(log, NULL, tmp, len);
	if (outfile_tmp_create(tmp, err, errlen) == 0 &&
	    (fd = open(tmp, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		unlink(tmp);
	}
	return fd;
}

/* An empty log goes, and the one of an earlier rendering with it (it no
 * longer says anything true); else it replaces that one. */
static void close_log(int fd, const char *tmp, const char *log)
{
	struct stat st;
	int empty = fstat(fd, &st) == 0 && st.st_size == 0;

	close(fd);
	if (empty || rename(tmp, log) < 0)
		unlink(tmp);
	if (empty)
		outfile_remove(log);
}

/* dir/plots, a folder of the run's own (outfile_own_dir): -2 with err
 * when it is a link or no folder. */
static int check_plots(const char *dir, char *err, size_t errlen)
{
	char plots[4200];

	snprintf(plots, sizeof(plots), "%s/plots", dir);
	return outfile_own_dir(plots, 0, err, errlen) < 0 ? -2 : 0;
}

int gnuplot_render_chart(const char *dir, const char *name, const char *data, char *err,
			 size_t errlen)
{
	char gp[4200], log[4200], tmp[4300];
	struct gp_job jobs[2];
	int logfd, rc;

	if (find_gnuplot(gp, sizeof(gp)) < 0) {
		snprintf(err, errlen, "gnuplot is not installed: render the chart with: cd %s && "
			 "gnuplot -c plots/%s.gp %s plots/%s.svg", dir, name, data, name);
		return 1;
	}
	snprintf(log, sizeof(log), "%s/plots/%s.log", dir, name);
	if (check_plots(dir, err, errlen) < 0 ||
	    (logfd = open_log(log, tmp, sizeof(tmp), err, errlen)) < 0)
		return -2;
	job_set(&jobs[0], name, data, "svg");
	job_set(&jobs[1], name, data, "png");
	rc = render_jobs(gp, dir, jobs, draw_png() ? 2 : 1, logfd, log, err, errlen);
	close_log(logfd, tmp, log);
	return rc;
}

/* The pixels of the PNG the script at path draws: its "pngcairo ... size
 * W,H" (gnuplot_preamble's), or a million when it says none. */
static double png_pixels(const char *path)
{
	char head[4096];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, head, sizeof(head) - 1);
	unsigned w, h;
	const char *p;

	if (fd >= 0)
		close(fd);
	head[n > 0 ? n : 0] = '\0';
	if ((p = strstr(head, "pngcairo")) && (p = strstr(p, " size ")) &&
	    sscanf(p, " size %u,%u", &w, &h) == 2)
		return (double)w * h;
	return 1e6;
}

/* What drawing a script costs, roughly, in µs, to share the jobs among
 * the sessions (measured on a 100-cell report's charts): an SVG 5 ms, a
 * PNG 10 ms and its pixels' encoding, most of a PNG's time, 0.04 µs a
 * pixel (a latency chart's 960 x 826, 42 ms). */
static size_t job_cost(const char *path, int png)
{
	return png ? 10000 + (size_t)(png_pixels(path) * 0.04) : 5000;
}

/* Adds plots/NAME.gp's jobs (.svg, and .png unless MATRIX_CHARTS=svg) to
 * *jobs when the script is there.  1 added, 0 no such script, -1 out of
 * memory. */
static int jobs_add(const char *dir, const char *name, const char *data, struct gp_job **jobs,
		    size_t *n, size_t *cap)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/plots/%s.gp", dir, name);
	/* a script the tool wrote, a regular file: gnuplot runs what it is
	 * given, so never one a link names */
	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	if (*n + 2 > *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct gp_job *p = realloc(*jobs, c * sizeof(*p));
		if (!p)
			return -1;
		*jobs = p;
		*cap = c;
	}
	job_set(&(*jobs)[*n], name, data, "svg");
	(*jobs)[(*n)++].cost = job_cost(path, 0);
	if (draw_png()) {
		job_set(&(*jobs)[*n], name, data, "png");
		(*jobs)[(*n)++].cost = job_cost(path, 1);
	}
	return 1;
}

/* The jobs for every chart script in DIR/plots, in the order charts are
 * listed in gnuplot.h; -1 out of memory. */
static int jobs_of_folder(const char *dir, struct gp_job **jobs, size_t *n)
{
	static const char *const charts[][2] = {
		{ "throughput", "summary.csv" }, { "rtt", "summary.csv" }, { "cpu", "summary.csv" },
		{ "ratios", "ratios.csv" }, { "timeline", "timeline.csv" },
	};
	size_t cap = 0;
	int r = 0;

	*jobs = NULL;
	*n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(charts); i++)
		if (jobs_add(dir, charts[i][0], charts[i][1], jobs, n, &cap) < 0)
			return -1;
	for (size_t k = 1;; k++) {	/* plots/latency-1.gp, -2, ...: gnuplot_hist.h */
		char name[32];
		snprintf(name, sizeof(name), "latency-%zu", k);
		if ((r = jobs_add(dir, name, "hist.csv", jobs, n, &cap)) <= 0)
			break;
	}
	return r < 0 ? -1 : 0;
}

int gnuplot_render(const char *dir, char *err, size_t errlen)
{
	char gp[4200], log[4200], tmp[4300];
	struct gp_job *jobs;
	size_t n;
	int logfd, rc = 0;

	if (find_gnuplot(gp, sizeof(gp)) < 0) {
		snprintf(err, errlen, "gnuplot is not installed: the chart scripts are in %s/plots; "
			 "render one with: cd %s && gnuplot -c plots/throughput.gp summary.csv "
			 "plots/throughput.svg", dir, dir);
		return 1;
	}
	if (check_plots(dir, err, errlen) < 0)
		return -2;
	if (jobs_of_folder(dir, &jobs, &n) < 0) {
		free(jobs);
		snprintf(err, errlen, "%s/plots: out of memory", dir);
		return -2;
	}
	snprintf(log, sizeof(log), "%s/plots/gnuplot.log", dir);
	if ((logfd = open_log(log, tmp, sizeof(tmp), err, errlen)) < 0) {
		free(jobs);
		return -2;
	}
	rc = render_jobs(gp, dir, jobs, n, logfd, log, err, errlen);
	close_log(logfd, tmp, log);
	free(jobs);
	return rc;
}
