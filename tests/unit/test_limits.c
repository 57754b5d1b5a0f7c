/* test_limits.c - physical limits from facts: the PCIe encodings, SMBIOS
 * type 17 parsing on tests/data/dmi-ddr5 (made to DSP0134's layout), and the
 * limits derived from fingerprints with an H200's NVML facts (6144 bit at
 * 3201 MHz, its nvidia-smi -q reading), a PCIe link and NVLinks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/limits.h"

static double gbps(const json_t *l, const char *key)
{
	json_t *o = json_object_get(l, key);
	assert_non_null(o);
	assert_non_null(json_object_get(o, "gbps"));
	return json_number_value(json_object_get(o, "gbps"));
}

static void test_pcie(void **state)
{
	const char *enc;
	(void)state;
	assert_int_equal(limits_pcie_gen(2.5), 1);
	assert_int_equal(limits_pcie_gen(16.0), 4);
	assert_int_equal(limits_pcie_gen(32.0), 5);
	assert_int_equal(limits_pcie_gen(3.0), 0);
	/* Gen5 x16: 32 x 16 x 128/130 / 8 = 63.0 GB/s one way */
	assert_true(fabs(limits_pcie_gbps(32.0, 16, &enc) - 63.015) < 0.01);
	assert_string_equal(enc, "128b/130b");
	/* Gen2 x8: 5 x 8 x 8/10 / 8 = 4.0 */
	assert_true(fabs(limits_pcie_gbps(5.0, 8, &enc) - 4.0) < 1e-9);
	assert_string_equal(enc, "8b/10b");
}

static void test_dimm_parse(void **state)
{
	struct limits_dimm d;
	size_t len;
	unsigned char *raw = (unsigned char *)read_file_str("tests/data/dmi-ddr5/17-3/raw", &len);
	(void)state;
	assert_non_null(raw);
	assert_int_equal(limits_dimm_parse(raw, len, &d), 0);
	assert_true(d.populated);
	assert_int_equal(d.size_mib, 32768); /* through the extended size */
	assert_int_equal(d.speed_mts, 4800);
	assert_int_equal(d.configured_mts, 4400);
	assert_int_equal(d.data_width, 64);
	assert_string_equal(d.locator, "DIMM_D1");
	/* not type 17, or cut inside the formatted area */
	raw[0] = 16;
	assert_int_equal(limits_dimm_parse(raw, len, &d), -1);
	raw[0] = 17;
	assert_int_equal(limits_dimm_parse(raw, 0x10, &d), -1);
	free(raw);
}

static void test_dram_tree(void **state)
{
	json_t *h = json_object(), *l;
	char root[] = "/tmp/limits.XXXXXX", *cmd;
	(void)state;
	/* limits_dram_collect reads <root>/firmware/dmi/entries */
	assert_non_null(mkdtemp(root));
	cmd = xasprintf("mkdir -p %s/firmware/dmi && cp -R tests/data/dmi-ddr5 "
			"%s/firmware/dmi/entries",
			root, root);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	json_object_set_new(h, "dram", limits_dram_collect(root));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(h, "dram"), "slots")),
			 5);
	assert_int_equal(json_array_size(json_object_get(json_object_get(h, "dram"), "dimms")), 4);
	l = limits_derive(h);
	/* the slowest DIMM's 4400 MT/s x 8 bytes x 4 DIMMs */
	assert_true(fabs(gbps(l, "dram") - 140.8) < 1e-9);
	json_decref(l);
	json_decref(h);
	cmd = xasprintf("rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	/* no SMBIOS (this VM, most clouds): unknown with the reason */
	h = json_pack("{s:o}", "dram", limits_dram_collect("tests/data/no-such-root"));
	l = limits_derive(h);
	assert_non_null(
		strstr(json_string_value(json_object_get(json_object_get(l, "dram"), "unknown")),
		       "no SMBIOS"));
	json_decref(l);
	json_decref(h);
}

static void test_gpu_limits(void **state)
{
	json_t *h = json_loads(
		"{\"pcie\": {\"gpus\": [{\"bdf\": \"0000:17:00.0\", \"link\": {\"speed_gts\": 32.0,"
		" \"width\": 16, \"max_speed_gts\": 32.0, \"max_width\": 16}}]},"
		" \"gpu\": {\"devices\": ["
		"{\"pci_bus_id\": \"0000:17:00.0\", \"memory_bus_width\": 6144,"
		" \"mem_clock_max_mhz\": 3201, \"nvlinks_active\": 18, \"nvlink_version\": 4},"
		"{\"pci_bus_id\": \"0000:18:00.0\", \"pcie_link_gen\": 4, \"pcie_link_width\": "
		"8}]}}",
		0, NULL);
	json_t *l;
	const json_t *v;
	const char *key = NULL;
	(void)state;
	assert_non_null(h);
	l = limits_derive(h);
	/* 6144 bit x 3201 MHz x 2 / 8 = 4916.7 GB/s (4.92 TB/s) */
	assert_true(fabs(gbps(l, "gpu0.hbm") - 4916.7) < 0.05);
	assert_true(fabs(gbps(l, "gpu0.pcie") - 63.0) < 0.05);
	assert_true(fabs(gbps(l, "gpu0.nvlink") - 450.0) < 1e-9);
	/* NVML's generation where sysfs has no link: Gen4 x8 = 15.8 */
	assert_true(fabs(gbps(l, "gpu1.pcie") - 15.8) < 0.05);
	assert_non_null(json_object_get(json_object_get(l, "gpu1.hbm"), "unknown"));
	assert_non_null(json_object_get(json_object_get(l, "gpu1.nvlink"), "unknown"));
	/* no fact gives an L2 rate: unknown, with the reason */
	assert_non_null(
		strstr(json_string_value(json_object_get(json_object_get(l, "gpu0.l2"), "unknown")),
		       "L2"));
	assert_non_null(strstr(
		json_string_value(json_object_get(json_object_get(l, "gpu0.hbm"), "formula")),
		"6144 bit x 3201 MHz"));
	json_object_set_new(h, "limits", l);
	v = limits_for(h, "gpu.stream", "bandwidth", NULL, &key);
	assert_non_null(v);
	assert_string_equal(key, "gpu0.hbm");
	assert_non_null(limits_for(h, "gpu.copy", "copy_bw", "1", &key));
	assert_string_equal(key, "gpu1.pcie");
	assert_non_null(limits_for(h, "gpu.copy", "sm_copy_bw", NULL, &key));
	assert_string_equal(key, "gpu0.pcie");
	assert_non_null(limits_for(h, "gpu.l2", "l2_read_bw", NULL, &key));
	assert_string_equal(key, "gpu0.l2");
	assert_null(limits_for(h, "cpu.latency", "load_latency", NULL, &key));
	json_decref(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_dimm_parse),
		cmocka_unit_test(test_dram_tree),
		cmocka_unit_test(test_gpu_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
