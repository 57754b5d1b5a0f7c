/* test_backend_table.c - the GPU backend table completed from GPU_ENTRIES
 * (gpu/backend.h, backends.c), on tables of the tests' own: a table of the
 * three MUST entries and a name is complete (every entry a function), its
 * refusals record "<api> backend: no <entry>" and return -1, NULL or
 * GPU_REFUSED, the void ones do nothing, the OWN defaults answer "not here"
 * with a why and list the devices from get_props; it discovers devices only,
 * naming the CORE entries it lacks, until it writes them; a table without a
 * MUST entry or its api name is refused (the reason names what it lacks and
 * it sees no device); entries and names a backend wrote are kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "gpu/backend.h"

static const char *none(void)
{
	return NULL;
}

static int two(void)
{
	return 2;
}

static int props(int dev, struct gpu_props *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "dev%d", dev);
	p->sm_count = dev + 1;
	p->host_numa_node = -1;
	return 0;
}

static int my_malloc(void **p, size_t bytes)
{
	*p = NULL;
	return 0;
}

static const struct gpu_backend minimal = {
	.names = {.api = "T"},
	.unsupported_reason = none,
	.count = two,
	.get_props = props,
};

static void test_complete(void **state)
{
	struct gpu_backend t;
	char why[640];
	void *p = &t;

	assert_int_equal(gpu_backend_complete(&minimal, &t, why, sizeof(why)), 1);
	/* every entry points at a function, every name is set */
#define ENTRY_SET(ret, name, need, dflt, params) assert_non_null(t.name);
	GPU_ENTRIES(ENTRY_SET)
#undef ENTRY_SET
#define NAME_SET(field) assert_non_null(t.names.field);
	GPU_NAMES(NAME_SET)
#undef NAME_SET
	assert_string_equal(t.names.api, "T");
	assert_string_equal(t.names.malloc_async, "malloc_async");
	/* what it wrote is kept */
	assert_ptr_equal(t.count, two);
	assert_null(t.unsupported_reason());
	/* refusals: recorded, and the entry's kind of failure */
	assert_int_equal(t.malloc(&p, 64), -1);
	assert_string_equal(t.last_error(), "T backend: no malloc (the backend leaves it out)");
	assert_null(t.scratch());
	assert_string_equal(t.last_error(), "T backend: no scratch (the backend leaves it out)");
	assert_int_equal(t.launch_sleep(1000, NULL), GPU_REFUSED);
	assert_string_equal(t.last_error(),
			    "T backend: no launch_sleep (the backend leaves it out)");
	t.set_error("kept");
	t.um_close();
	t.sampler_stop(NULL, NULL, "x");
	assert_string_equal(t.last_error(), "kept");
	/* OWN: "not here" with a why */
	assert_non_null(strstr(t.telemetry_unavailable(), "T backend has no telemetry"));
	assert_int_equal(t.link_devices(why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no link counters"));
	assert_int_equal(t.um_open(why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no unified-memory counters"));
	{
		const char *w = NULL;
		assert_null(t.mem(NULL, 0, &w));
		assert_non_null(w);
	}
}

static void test_sysinfo(void **state)
{
	struct gpu_backend t;
	char why[640];
	json_t *devs;

	gpu_backend_complete(&minimal, &t, why, sizeof(why));
	devs = t.sysinfo();
	assert_int_equal(json_array_size(devs), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(devs, 1), "name")),
			    "dev1");
	assert_string_equal(json_string_value(json_object_get(json_array_get(devs, 0), "backend")),
			    "T");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(devs, 1), "sm_count")),
			 2);
	/* an unknown fact (0) is left out, not written as 0 */
	assert_null(json_object_get(json_array_get(devs, 0), "mem_bytes"));
	json_decref(devs);
}

static void test_discovery_only(void **state)
{
	struct gpu_backend in = minimal, t;
	char why[640];

	assert_int_equal(gpu_backend_complete(&in, &t, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "the T backend discovers devices only: it has no malloc, "
				    "free, memcpy"));
	/* a CORE entry written is no longer named */
	in.malloc = my_malloc;
	assert_int_equal(gpu_backend_complete(&in, &t, why, sizeof(why)), 1);
	assert_null(strstr(why, "malloc,"));
	assert_non_null(strstr(why, "no free, memcpy"));
	assert_ptr_equal(t.malloc, my_malloc);
}

static void test_refused(void **state)
{
	struct gpu_backend in = minimal, t;
	struct gpu_props p;
	char why[640];

	in.get_props = NULL;
	in.names.api = NULL;
	assert_int_equal(gpu_backend_complete(&in, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "is refused: it leaves out names.api, get_props"));
	assert_string_equal(t.unsupported_reason(), why);
	assert_int_equal(t.count(), 0);
	assert_int_equal(t.get_props(0, &p), -1);
	/* some of the error record's entries but not all */
	in = minimal;
	in.set_error = (void (*)(const char *))NULL;
	in.last_error = none;
	assert_int_equal(gpu_backend_complete(&in, &t, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "some of set_error, last_error and clear_error"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complete),
		cmocka_unit_test(test_sysinfo),
		cmocka_unit_test(test_discovery_only),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
