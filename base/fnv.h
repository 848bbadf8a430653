/*
 * fnv: FNV-1a, 64 bits (Fowler, Noll, Vo), the one hash of matrix: meta.csv's
 * matrix_hash of matrix.yaml's bytes (resume_hash_file) and the number a
 * matrix value's text is kept as (ml_hash, a program's name).  Old run
 * folders carry these numbers: the function never changes.
 *
 *	uint64_t h = FNV1A64_INIT;
 *	h = fnv1a64(h, buf, n);		as often as there are bytes
 *
 * The hash of a matrix value (base/matrix.c) starts from
 * FNV1A64_VALUE_BASIS, the offset basis with its last digit lost
 * (1469598103934665603 for 14695981039346656037) when it was written: it
 * is kept so that every value keeps its number.
 */
#ifndef MATRIX_FNV_H
#define MATRIX_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A64_INIT 0xcbf29ce484222325ull	/* the offset basis */
#define FNV1A64_VALUE_BASIS 1469598103934665603ull

/* h continued over the n bytes at buf. */
uint64_t fnv1a64(uint64_t h, const void *buf, size_t n);

/* h continued over the bytes of str up to its NUL. */
uint64_t fnv1a64_str(uint64_t h, const char *str);

#endif
