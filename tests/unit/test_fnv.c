/*
 * test_fnv.c: the one FNV-1a (base/fnv.h) gives every number it gave
 * before it was one: the published test vectors, a stored run folder's
 * matrix_hash (resume_hash_file), and a matrix value's hash (ml_hash),
 * whose numbers were taken from the two copies this replaced.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fnv.h"
#include "matrix_schema.h"
#include "resume.h"

static void test_vectors(void **state)
{
	(void)state;
	assert_int_equal(fnv1a64(FNV1A64_INIT, "", 0), 0xcbf29ce484222325ull);
	assert_int_equal(fnv1a64(FNV1A64_INIT, "a", 1), 0xaf63dc4c8601ec8cull);
	assert_int_equal(fnv1a64_str(FNV1A64_INIT, "foobar"), 0x85944171f73967e8ull);
	/* in pieces as in one */
	assert_int_equal(fnv1a64(fnv1a64(FNV1A64_INIT, "foo", 3), "bar", 3),
			 0x85944171f73967e8ull);
}

/* tests/data/tiny-run was written by a matrix before base/fnv.c: its
 * meta.csv's matrix_hash is what resume compares with. */
static void test_old_run_folder(void **state)
{
	char got[64];

	(void)state;
	assert_int_equal(resume_hash_file("tests/data/tiny-run/matrix.yaml", got, sizeof(got)), 0);
	assert_string_equal(got, "fnv1a64:1194401c08b61a37");
}

static void test_value_hash(void **state)
{
	(void)state;
	assert_int_equal(ml_hash("unix", 0), 0xa6816a647e0ffeb7ull);
	assert_int_equal(ml_hash(NULL, 12345), 0xef55fa581a011af1ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_old_run_folder),
		cmocka_unit_test(test_value_hash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
