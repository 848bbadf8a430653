/* The options and loading that run and plan share: see cmd_common.h. */
#include "cmd_common.h"
#include "plan_sockopt.h"
#include "resume.h"
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --set KEY=VALUE, run --seed N, --order ORDER; -1 after printing a message. */
static int parse_noise_flag(int ch, const char *arg, struct common *c)
{
	char *end, why[1024];

	if (ch == 'E' && matrix_sets_add(&c->sets, arg, why, sizeof(why)) < 0) {
		fprintf(stderr, "matrix: %s\n", why);
		return -1;
	}
	if (ch == 'R' && order_parse(arg, &c->order) < 0) {
		fprintf(stderr, "matrix: --order %s: expected shuffled or sequential\n", arg);
		return -1;
	}
	if (ch != 'S')
		return 0;
	errno = 0;
	c->seed = strtoull(arg, &end, 10);
	if (!isdigit((unsigned char)*arg) || *end || errno) {
		fprintf(stderr, "matrix: --seed %s: expected a whole number from 0 to %llu\n", arg,
			(unsigned long long)UINT64_MAX);
		return -1;
	}
	c->has_seed = 1;
	return 0;
}

/* The options of `run` alone (cmd_parse_common): 1 when ch is one and it was
 * taken, 0 when it is none of them, -1 after a message. */
static int run_option(int ch, const char *arg, struct common *c)
{
	char why[256];

	switch (ch) {
	case 'o':
		c->outdir = arg;
		return 1;
	case 'U':
		c->resume = resume_folder(arg);
		return 1;
	case 'q':
		c->quiet = c->ca.quiet = 1;
		return 1;
	case 'c':
		c->ab = arg;
		return 1;
	case 'J':
		if (!strcmp(arg, "-")) {
			fprintf(stderr, "matrix run: --export-json -: run's stdout is its folder's "
				"path alone; give a FILE, or write the JSON to stdout after the run "
				"with `matrix report DIR --export-json -`\n");
			return -1;
		}
		c->export_json = arg;
		return 1;
	case 'b':
		c->baseline = arg;
		return 1;
	case 't':
		return cmd_compare_parse_threshold("run", arg, &c->ca.threshold) < 0 ? -1 : 1;
	case 'm':
		return cmd_compare_parse_metric("run", arg, &c->ca) < 0 ? -1 : 1;
	case 'R':
	case 'S':
		return parse_noise_flag(ch, arg, c) < 0 ? -1 : 1;
	case 'K':
		if (shard_parse(arg, &c->shard, why, sizeof(why)) < 0) {
			fprintf(stderr, "matrix: --shard %s: %s\n", arg, why);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* --seed with --order sequential: -1 after printing a message. */
static int check_seed(const struct common *c)
{
	if (c->has_seed && c->order == ORDER_SEQUENTIAL) {
		fprintf(stderr, "matrix: --seed orders a shuffled run; --order sequential has none\n");
		return -1;
	}
	return 0;
}

int cmd_parse_common(int argc, char **argv, struct common *c, int is_run, const char *usage)
{
	static const struct option longopts[] = {
		{ "output", 1, 0, 'o' }, { "repeat", 1, 0, 'r' }, { "only", 1, 0, 'O' },
		{ "quiet", 0, 0, 'q' }, { "compare", 1, 0, 'c' }, { "baseline", 1, 0, 'b' },
		{ "threshold", 1, 0, 't' }, { "metric", 1, 0, 'm' }, { "help", 0, 0, 'h' },
		{ "order", 1, 0, 'R' }, { "seed", 1, 0, 'S' }, { "set", 1, 0, 'E' },
		{ "resume", 1, 0, 'U' }, { "export-json", 1, 0, 'J' }, { "json", 0, 0, 'j' },
		{ "shard", 1, 0, 'K' },
		{ 0, 0, 0, 0 }
	};
	char why[256];
	uint64_t v;
	int ch, rc = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, is_run ? "o:r:qh" : "r:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case 'E':	/* --set: run and plan */
			if (parse_noise_flag(ch, optarg, c) < 0)
				return -1;
			break;
		case 'r':
			if (units_parse_count(optarg, &v, why, sizeof(why)) < 0) {
				fprintf(stderr, "matrix: --repeat %s: %s\n", optarg, why);
				return -1;
			}
			if (!v || v > MATRIX_MAX_REPEAT) {
				fprintf(stderr, "matrix: --repeat %s: must be between 1 and %d\n", optarg,
					MATRIX_MAX_REPEAT);
				return -1;
			}
			c->repeat = (unsigned)v;
			break;
		case 'O':
			if (c->nonly == sizeof(c->only) / sizeof(c->only[0])) {
				fprintf(stderr, "matrix: too many --only filters\n");
				return -1;
			}
			c->only[c->nonly++] = optarg;
			break;
		default:
			if (is_run && (rc = run_option(ch, optarg, c)) > 0)
				break;
			if (!is_run && ch == 'j') {	/* plan --json */
				c->json = 1;
				break;
			}
			if (!is_run && ch == 'K' && (rc = run_option(ch, optarg, c)) > 0)
				break;	/* plan --shard, as run's */
			if (rc < 0)
				return -1;
			fprintf(stderr, "%s", usage);
			return -1;
		}
	}
	if (optind != argc - 1 && !(c->resume && optind == argc)) {
		fprintf(stderr, optind >= argc ? "matrix: missing matrix FILE\n%s"
			: "matrix: expected one matrix FILE\n%s", usage);
		return -1;
	}
	c->file = argv[optind];
	return check_seed(c);
}

void cmd_print_matrix_error(const char *err)
{
	fprintf(stderr, "%s%s\n", strncmp(err, "--set ", 6) ? "" : "matrix: ", err);
}

/* poll: busy spins only where every spinner has a CPU of its own: a cell
 * with more spinners than CPUs gets a warning (the first few cells, then
 * how many more). */
static void warn_busy(const struct plan *pl)
{
	size_t shown = 0, more = 0;
	char label[512];

	for (size_t i = 0; i < pl->ncells; i++) {
		const struct cell *cl = &pl->cells[i];
		unsigned n, cpus;
		plan_cell_spin(pl, &cl->p, &n, &cpus);
		if (n <= cpus)
			continue;
		if (shown++ >= 3) {
			more++;
			continue;
		}
		plan_cell_label(pl, cl, label, sizeof(label));
		fprintf(stderr, "matrix: warning: cell %u (%s): poll: busy: %u spinning processes on "
			"%u CPU%s: they will take turns, not spin\n", cl->number, label, n, cpus,
			cpus == 1 ? "" : "s");
	}
	if (more)
		fprintf(stderr, "matrix: warning: and %zu more poll: busy cell%s like it\n", more,
			more == 1 ? "" : "s");
}

/* sndbuf and rcvbuf above the sysctl's cap: the kernel grants less than
 * asked, and says nothing; so the plan does, once per value (even under
 * --quiet: a figure other than the one asked for is not noise). */
static void warn_sockbuf(const struct matrix *m)
{
	static const char *const keys[] = { "sndbuf", "rcvbuf" };
	char msg[512];

	for (size_t k = 0; k < 2; k++) {
		const struct dimension *d = matrix_dim(m, keys[k]);
		for (size_t i = 0; d && i < d->nvalues; i++)
			if (d->values[i].num && plan_sockbuf_cap(keys[k], d->values[i].num, msg,
								 sizeof(msg)))
				fprintf(stderr, "matrix: warning: %s:%d:%d: %s\n", m->path,
					d->values[i].pos.line, d->values[i].pos.col, msg);
	}
}

int cmd_load_plan(struct common *c, struct matrix *m, struct plan *pl)
{
	struct only_filter only[256];
	char err[1024];

	if (matrix_load_sets(m, c->file, &c->sets, err, sizeof(err)) < 0) {
		cmd_print_matrix_error(err);
		return -1;
	}
	if (c->repeat) {	/* a fixed number, also over repeat: auto */
		m->repeat = c->repeat;
		m->repeat_min = 0;
	}
	for (size_t i = 0; i < c->nonly; i++)
		if (plan_parse_only(m, c->only[i], &only[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "matrix: %s\n", err);
			matrix_release(m);
			matrix_sets_release(&c->sets);
			return -1;
		}
	if ((c->elsewhere ? plan_build_elsewhere : plan_build)(pl, m, only, c->nonly, err,
							      sizeof(err)) < 0) {
		matrix_sets_explain(&c->sets, c->file, err, sizeof(err));
		cmd_print_matrix_error(err);
		matrix_release(m);
		matrix_sets_release(&c->sets);
		return -1;
	}
	if (!c->quiet)
		warn_busy(pl);
	if (!c->elsewhere)
		warn_sockbuf(m);
	return 0;
}

char *cmd_join_argv(int argc, char **argv)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++)
		p += sprintf(p, "%s%s", i ? " " : "", argv[i]);
	*p = '\0';
	return s;
}
