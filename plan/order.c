/* The order of cell repetitions: see order.h. */
#include "order.h"
#include "rng.h"

#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const order_names[2] = {
	[ORDER_SHUFFLED] = "shuffled",
	[ORDER_SEQUENTIAL] = "sequential",
};

int order_parse(const char *text, enum run_order *out)
{
	for (int i = 0; i < 2; i++)
		if (!strcmp(text, order_names[i])) {
			*out = (enum run_order)i;
			return 0;
		}
	return -1;
}


/* Uniform in [0, bound), bound > 0: draws below 2^64 mod bound are
 * redrawn, so every value is equally likely. */
static uint64_t below(uint64_t *state, uint64_t bound)
{
	uint64_t skip = -bound % bound, r;

	do
		r = rng_next(state);
	while (r < skip);
	return r % bound;
}

uint64_t order_random_seed(void)
{
	uint64_t seed = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t n = read(fd, &seed, sizeof(seed));
		close(fd);
		if (n == (ssize_t)sizeof(seed))
			return seed;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	seed = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	seed ^= (uint64_t)getpid() << 32;
	return rng_next(&seed);
}

void order_init(struct order *o, enum run_order kind, uint64_t seed)
{
	o->kind = kind;
	o->state = seed;
}

void order_next_round(struct order *o, size_t *idx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	if (o->kind != ORDER_SHUFFLED)
		return;
	for (size_t i = n; i > 1; i--) {	/* Fisher-Yates */
		size_t j = (size_t)below(&o->state, i), t = idx[i - 1];
		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

void order_next_round_paired(struct order *o, size_t *idx, size_t n, const size_t *group,
			     const size_t *side, size_t ngroups, unsigned round)
{
	size_t k = 0;

	/* the groups' order, drawn as order_next_round draws cells' */
	order_next_round(o, idx, ngroups);
	/* the groups' order moves to the tail of idx while the cells fill it
	 * from the front: before group g, the cells of groups 0..g-1 fill at
	 * most n - (ngroups - g) places (every group has a cell), so they
	 * never reach gorder[g], and group g's end never reaches gorder[g + 1] */
	size_t *gorder = idx + n - ngroups;
	memmove(gorder, idx, ngroups * sizeof(*idx));
	for (size_t g = 0; g < ngroups; g++) {
		size_t start = k, want = gorder[g];
		/* a group's cells, in plan order */
		for (size_t i = 0; i < n; i++)
			if (group[i] == want)
				idx[k++] = i;
		/* by value, forward in odd rounds, backward in even ones
		 * (insertion sort: a group is a few cells) */
		for (size_t i = start + 1; i < k; i++) {
			size_t v = idx[i], j = i;
			while (j > start && (round % 2 ? side[idx[j - 1]] > side[v]
						      : side[idx[j - 1]] < side[v])) {
				idx[j] = idx[j - 1];
				j--;
			}
			idx[j] = v;
		}
	}
}
