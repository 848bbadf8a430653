/*
 * Unit tests for base/vocab.c: the words are defined once and agree with
 * what uses them (the transport registry, the metric table).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "transport.h"
#include "vocab.h"

static void test_transport_names_are_the_registry(void **state)
{
	(void)state;
	assert_int_equal(transport_count(), VOCAB_NTRANSPORTS);
	for (size_t i = 0; i < VOCAB_NTRANSPORTS; i++) {
		assert_non_null(transport_at(i));
		assert_string_equal(transport_at(i)->name, transport_names[i]);
	}
}

static void test_metric_table(void **state)
{
	(void)state;
	for (int i = 0; i < MATRIX_NMETRICS; i++) {
		assert_string_equal(metrics[i].name, matrix_metrics[i]);
		assert_int_equal(matrix_metric_index(metrics[i].name), i);
		assert_true(metrics[i].title[0] && metrics[i].unit[0] && metrics[i].counts[0]);
		/* the kernel's figures of each connection: summed or the median
		 * (test_tcp_view.c checks each) */
		if (!strncmp(metrics[i].name, "tcp_", 4)) {
			assert_true(metrics[i].combine == COMBINE_SUM ||
				    metrics[i].combine == COMBINE_MEDIAN);
			continue;
		}
		/* times are lower-better and never added up as rates; rates are
		 * higher-better and combine as rates */
		int is_time = strstr(metrics[i].name, "_us") != NULL;
		assert_int_equal(metrics[i].better, is_time ? LOWER_IS_BETTER : HIGHER_IS_BETTER);
		assert_int_equal(metrics[i].combine == COMBINE_RATE, !is_time);
		/* a percentile cannot be made of several clients' percentiles */
		assert_int_equal(metrics[i].combine == COMBINE_ONE,
				 strncmp(metrics[i].name, "rtt_p", 5) == 0);
		assert_true(metrics[i].title[0] && metrics[i].unit[0] && metrics[i].counts[0]);
	}
	assert_string_equal(metrics[3].name, "rtt_p50_us");
	assert_string_equal(metrics[3].title, "round-trip time, median (p50)");
	assert_string_equal(metrics[3].unit, "µs");
	assert_int_equal(matrix_metric_index("msgs_per_sec"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transport_names_are_the_registry),
		cmocka_unit_test(test_metric_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
