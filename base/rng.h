/*
 * rng: the one pseudo-random generator, splitmix64 (Steele, Lea and Flood
 * 2014; Vigna's reference code): small, fast, and the same sequence from
 * the same seed on every machine, so that a shuffled run order (--seed) and
 * a bootstrap interval (a fixed seed) can be replayed exactly.
 */
#ifndef MATRIX_RNG_H
#define MATRIX_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
