/* test_openmetrics.c - OpenMetrics names, units and the family set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/openmetrics.h"

static void test_names(void **state)
{
	char buf[64];

	om_name("cpu.first_touch", buf, sizeof(buf));
	assert_string_equal(buf, "cpu_first_touch");
	om_name("=SUM(A1)", buf, sizeof(buf));
	assert_string_equal(buf, "_SUM_A1_");
	om_name("4k", buf, sizeof(buf));
	assert_string_equal(buf, "_4k"); /* a name cannot start with a digit */
	om_name("", buf, sizeof(buf));
	assert_string_equal(buf, "_");
}

static void test_units(void **state)
{
	double k;

	assert_string_equal(om_unit(UNIT_NS, &k), "seconds");
	assert_true(k == 1e-9);
	assert_string_equal(om_unit(UNIT_GIB_S, &k), "bytes_per_second");
	assert_true(k == 1073741824.0);
	assert_string_equal(om_unit(UNIT_GB_S, &k), "bytes_per_second");
	assert_true(k == 1e9);
	assert_string_equal(om_unit(UNIT_PCT, &k), "ratio");
	assert_true(k == 0.01);
	assert_string_equal(om_unit(UNIT_COUNT, &k), "");
	assert_true(k == 1);
	/* a unit added to the model without a base unit here fails this */
	for (int u = 0; u < UNIT__COUNT; u++)
		if (u != UNIT_NONE && u != UNIT_COUNT)
			assert_true(strlen(om_unit((enum unit)u, &k)) > 0 && k > 0);
}

static char *render(struct om_set *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(om_write(s, f), 0);
	fclose(f);
	return text;
}

static void test_set(void **state)
{
	struct om_set *s = om_set_new();
	const char *a[] = {"size", "4K", "host", "h"};
	const char *b[] = {"size", "8K", "host", "h"};
	const char *q[] = {"__x", "a\"b\\c\nd"};
	char *text;

	om_add(s, "mempath_cpu.latency_load", "seconds", "help \"x\"", a, 2, 1e-9);
	om_add(s, "mempath_other", "", "", NULL, 0, 3);
	om_add(s, "mempath_cpu.latency_load", "seconds", "ignored", b, 2, 2e-9);
	om_add(s, "mempath_cpu.latency_load", "seconds", "ignored", a, 2, 5); /* same labels */
	om_add(s, "mempath_nan", "", "", NULL, 0, NAN);			      /* absent */
	om_add(s, "mempath_faults_total", "", "", q, 1, 1);
	text = render(s);
	/* the family's samples together, first added first; the duplicate dropped */
	assert_non_null(strstr(text,
			       "# TYPE mempath_cpu_latency_load_seconds gauge\n"
			       "# UNIT mempath_cpu_latency_load_seconds seconds\n"
			       "# HELP mempath_cpu_latency_load_seconds help \\\"x\\\"\n"
			       "mempath_cpu_latency_load_seconds{size=\"4K\",host=\"h\"} 1e-09\n"
			       "mempath_cpu_latency_load_seconds{size=\"8K\",host=\"h\"} 2e-09\n"
			       "# TYPE mempath_other gauge\nmempath_other 3\n"));
	assert_null(strstr(text, "} 5\n"));
	assert_null(strstr(text, "mempath_nan"));
	/* a reserved suffix gets _value; a reserved label name and escapes */
	assert_non_null(strstr(text, "mempath_faults_total_value{l__x=\"a\\\"b\\\\c\\nd\"} 1\n"));
	assert_int_equal(strcmp(text + strlen(text) - 6, "# EOF\n"), 0);
	free(text);
	om_set_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
