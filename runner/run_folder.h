/*
 * run_folder: a new run's folder made and locked (lock.h): -o DIR, which
 * must not exist or be empty, and no other live run's; or
 * results/<name>/<UTC stamp>[-N], claimed by mkdir, so that two runs
 * started in one second never share one; and results/<name>/latest once
 * the folder is whole.  Each fills s->dir, s->made (the first folder it
 * made, for run_folder_unmake) and s->lock.
 */
#ifndef MATRIX_RUN_FOLDER_H
#define MATRIX_RUN_FOLDER_H

#include <stddef.h>

#include "run_state.h"

/* The run folder -o DIR: made (or an empty one taken), locked.  0, or -1
 * with err and nothing left made (a live holder's folder is untouched). */
int run_folder_take_outdir(struct run_state *s, const char *dir, char *err, size_t errlen);
/* The run folder results/<name>/<stamp>[-N], claimed by mkdir, locked.
 * 0, or -1 with err and nothing left made. */
int run_folder_take_stamped(struct run_state *s, char *err, size_t errlen);
/* results/<name>/latest -> <stamp>, replaced atomically, and only when it
 * is our link: the plain name of a run folder beside it (holding
 * meta.csv), or a run folder's name whose folder is gone.  A file of the
 * user's, or a link of theirs (to /etc, ../other), is left alone and said
 * once on stderr.  Once the run folder is whole: a start that fails
 * leaves latest as it was. */
void run_folder_link_latest(const struct run_state *s);
/* Removes the folders of path that the take made (from length made up),
 * each only when it is empty; nothing when made is 0. */
void run_folder_unmake(const char *path, size_t made);

#endif
