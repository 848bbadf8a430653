/*
 * arrays: the one ARRAY_SIZE, the number of elements of an array (never of
 * a pointer: sizeof would give the pointer's size).
 */
#ifndef MATRIX_ARRAYS_H
#define MATRIX_ARRAYS_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
