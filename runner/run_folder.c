/* The run folder made, taken and locked: see run_folder.h. */
#include "run_folder.h"
#include "stale.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

/* mkdir -p; *made becomes the length of the first folder of path it
 * made (0: it made none), for run_folder_unmake.  -1 with nothing left
 * made. */
static int mkdir_p(const char *path, size_t *made)
{
	char buf[PATH_MAX];

	*made = 0;
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = buf + 1;; p++)
		if (*p == '/' || !*p) {
			char c = *p;
			*p = '\0';
			if (mkdir(buf, 0755) == 0) {
				if (!*made)
					*made = strlen(buf);
			} else if (errno != EEXIST) {
				int e = errno;
				run_folder_unmake(path, *made);
				errno = e;
				return -1;
			}
			if (!c)
				return 0;
			*p = c;
		}
}

void run_folder_unmake(const char *path, size_t made)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	while (made && strlen(buf) >= made) {
		rmdir(buf);
		char *slash = strrchr(buf, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
}

/* 1 when path holds nothing but a lock file, 0 when it holds more, -1. */
static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, ".lock"))
			empty = 0;
	closedir(d);
	return empty;
}

int run_folder_take_outdir(struct run_state *s, const char *dir, char *err, size_t errlen)
{
	struct stat st;
	char why[512];
	pid_t holder;

	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	if (stat(dir, &st) == 0 && (!S_ISDIR(st.st_mode) || dir_is_empty(dir) != 1)) {
		if (S_ISDIR(st.st_mode) && (holder = lock_holder(dir)) >= 0)
			goto held;
		stale_check(dir, "run");	/* a killed run's folder is said */
		snprintf(err, errlen, "-o %s: exists and is not an empty directory", dir);
		return -1;
	}
	if (mkdir_p(dir, &s->made) < 0) {
		snprintf(err, errlen, "-o %s: %s", dir, strerror(errno));
		return -1;
	}
	if (lock_take(&s->lock, dir, &holder, why, sizeof(why)) < 0) {
		if (holder >= 0)
			goto held;	/* it is the holder's now, even what we made */
		snprintf(err, errlen, "-o %s: %s", dir, why);
		run_folder_unmake(dir, s->made);
		return -1;
	}
	if (dir_is_empty(dir) != 1) {	/* again, now that no other run can fill it */
		snprintf(err, errlen, "-o %s: exists and is not an empty directory", dir);
		lock_release(&s->lock);
		return -1;
	}
	if (lock_write_pid(&s->lock, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "-o %s: %s", dir, why);
		lock_release(&s->lock);
		run_folder_unmake(dir, s->made);
		return -1;
	}
	return 0;
held:
	lock_held_message(holder, why, sizeof(why));
	snprintf(err, errlen, "-o %s: %s: choose another folder", dir, why);
	return -1;
}

int run_folder_take_stamped(struct run_state *s, char *err, size_t errlen)
{
	const char *name = s->pl->m->name;
	char stamp[32], parent[PATH_MAX];
	time_t t = time(NULL);
	struct tm tm;
	pid_t holder;

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(parent, sizeof(parent), "results/%s", name);
	if (mkdir_p(parent, &s->made) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", parent, strerror(errno));
		return -1;
	}
	for (int n = 1; n < 100; n++) {
		if (n == 1)
			snprintf(s->dir, sizeof(s->dir), "results/%s/%s", name, stamp);
		else
			snprintf(s->dir, sizeof(s->dir), "results/%s/%s-%d", name, stamp, n);
		/* mkdir is the claim: two runs started in one second never share
		 * a folder, the second takes the next suffix */
		if (mkdir(s->dir, 0755) < 0) {
			if (errno == EEXIST)
				continue;
			snprintf(err, errlen, "cannot create %s: %s", s->dir, strerror(errno));
			run_folder_unmake(parent, s->made);
			return -1;
		}
		if (!s->made)
			s->made = strlen(s->dir);
		if (lock_take(&s->lock, s->dir, &holder, err, errlen) < 0 ||
		    lock_write_pid(&s->lock, err, errlen) < 0) {
			lock_release(&s->lock);
			run_folder_unmake(s->dir, s->made);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "cannot find a free run folder name under %s", parent);
	run_folder_unmake(parent, s->made);
	return -1;
}

/* Is latest, a symbolic link with target `to`, the tool's own: as
 * run_folder_link_latest writes it, the plain name of a run folder beside
 * it (one holding meta.csv), or of one that was there (a run folder's
 * name, YYYYMMDDTHHMMSSZ or -N after it, whose folder was removed)?  A
 * link of the user's (to /etc, to ../elsewhere) is not. */
static int our_link(const char *name, const char *to)
{
	char path[2 * PATH_MAX + 32];
	struct stat st;
	int n = 0;

	if (!*to || strchr(to, '/') || !strcmp(to, ".") || !strcmp(to, ".."))
		return 0;
	snprintf(path, sizeof(path), "results/%s/%s", name, to);
	if (lstat(path, &st) == 0) {
		snprintf(path, sizeof(path), "results/%s/%s/meta.csv", name, to);
		return S_ISDIR(st.st_mode) && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
	}
	/* gone: its name says whether we made it */
	for (; to[n] && n < 16; n++)
		if (n == 8 ? to[n] != 'T' : n == 15 ? to[n] != 'Z' : (to[n] < '0' || to[n] > '9'))
			return 0;
	if (n < 16)
		return 0;
	if (!to[16])
		return 1;
	if (to[16] != '-' || !to[17])
		return 0;
	for (n = 17; to[n]; n++)
		if (to[n] < '0' || to[n] > '9')
			return 0;
	return 1;
}

void run_folder_link_latest(const struct run_state *s)
{
	const char *name = s->pl->m->name;
	char link[PATH_MAX], tmp[PATH_MAX], to[PATH_MAX];
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "results/%s/latest", name);
	snprintf(tmp, sizeof(tmp), "results/%s/.latest.%ld", name, (long)getpid());
	if (lstat(link, &st) == 0 && !S_ISLNK(st.st_mode)) {
		fprintf(stderr, "matrix: %s is not a link of ours: left as it is\n", link);
		return;
	}
	if (lstat(link, &st) == 0) {	/* a link: ours only when it names a run folder */
		n = readlink(link, to, sizeof(to) - 1);
		to[n > 0 ? n : 0] = '\0';
		if (!our_link(name, to)) {
			fprintf(stderr, "matrix: %s is not a link of ours (it points to %s): left "
				"as it is\n", link, to);
			return;
		}
	}
	stale_check(link, "run");	/* the run before: killed? */
	unlink(tmp);
	if (symlink(strrchr(s->dir, '/') + 1, tmp) == 0 && rename(tmp, link) < 0)
		unlink(tmp);
}
