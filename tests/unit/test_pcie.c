/* test_pcie.c - the PCIe facts behind peer-to-peer and the doctor's rules on
 * them, on trees recorded from a q35 guest (tests/data/pcie-q35-redir: Debian
 * 6.1 under QEMU TCG with intel-iommu and intel_iommu=on; pcie-q35-pt: the
 * same machine with iommu=pt pci=disable_acs_redir=0000:00:03.0;0000:00:04.0;
 * pcie-q35-noiommu: without intel-iommu)
 * and on fingerprints changed one fact at a time. The guest has five display
 * devices: on root ports 00:03.0 and 00:04.0 (ACS), 00:05.0 (no ACS) and,
 * behind a switch (04:00.0 up, 05:00.0 and 05:01.0 down, no ACS) on 00:06.0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/doctor.h"
#include "machine/pcie.h"
#include "machine/pcie_cfg.h"
#include "machine/sysinfo.h"

#define REDIR "tests/data/pcie-q35-redir"
#define PT    "tests/data/pcie-q35-pt"
#define DEV   "/sys/devices/pci0000:00/"

static unsigned char *config(const char *path, size_t *len)
{
	unsigned char *c = (unsigned char *)read_file_str(path, len);
	assert_non_null(c);
	return c;
}

static void test_acs_from_config_bytes(void **state)
{
	struct pcie_acs acs;
	size_t len;
	unsigned char *c = config(REDIR DEV "0000:00:03.0/config", &len);

	assert_int_equal(len, 4096);
	assert_int_equal(pcie_acs_find(c, len, &acs), 1);
	assert_int_equal(acs.offset, 0x148);
	assert_int_equal(acs.cap, 0x005f);
	assert_int_equal(acs.ctl, 0x001d);
	assert_int_equal(pcie_port_type(c, len), 4); /* root port */
	/* what a non-root reader gets (64 bytes), and a device without extended space */
	assert_int_equal(pcie_acs_find(c, 64, &acs), -1);
	assert_int_equal(pcie_acs_find(c, 256, &acs), -1);
	assert_int_equal(pcie_port_type(c, 64), -1);
	free(c);
	/* the kernel parameter cleared both redirect bits on 00:03.0, not on 00:06.0 */
	c = config(PT DEV "0000:00:03.0/config", &len);
	assert_int_equal(pcie_acs_find(c, len, &acs), 1);
	assert_int_equal(acs.ctl, 0x0011);
	free(c);
	c = config(PT DEV "0000:00:06.0/config", &len);
	assert_int_equal(pcie_acs_find(c, len, &acs), 1);
	assert_int_equal(acs.ctl & PCIE_ACS_REDIR, PCIE_ACS_RR | PCIE_ACS_CR);
	free(c);
	/* a root port with ACS off, and the switch's ports */
	c = config(REDIR DEV "0000:00:05.0/config", &len);
	assert_int_equal(pcie_acs_find(c, len, &acs), 0);
	free(c);
	c = config(REDIR DEV "0000:00:06.0/0000:04:00.0/config", &len);
	assert_int_equal(pcie_port_type(c, len), 5);
	assert_int_equal(pcie_acs_find(c, len, &acs), 0);
	free(c);
	c = config(REDIR DEV "0000:00:06.0/0000:04:00.0/0000:05:01.0/config", &len);
	assert_int_equal(pcie_port_type(c, len), 6);
	free(c);
}

/* Max_Payload_Size from Device Control (the PCI Express capability at 0x54
 * of QEMU's root port: 0x000f, 128 bytes); bits 7:5 set to 1 read 256 */
static void test_max_payload(void **state)
{
	size_t len;
	unsigned char *c = config(REDIR DEV "0000:00:03.0/config", &len);

	(void)state;
	assert_int_equal(pcie_max_payload(c, len), 128);
	assert_int_equal(pcie_device_max_payload(REDIR "/sys", "0000:00:03.0"), 128);
	c[0x54 + 8] = (unsigned char)((c[0x54 + 8] & ~0xe0) | 1 << 5);
	assert_int_equal(pcie_max_payload(c, len), 256);
	assert_int_equal(pcie_max_payload(c, 0x5c), -1); /* Device Control cut off */
	assert_int_equal(pcie_max_payload(c, 32), -1);
	assert_int_equal(pcie_device_max_payload(REDIR "/sys", "0000:99:00.0"), -1);
	free(c);
}

static void test_acs_list_ends(void **state)
{
	unsigned char c[4096];
	struct pcie_acs acs;

	memset(c, 0, sizeof(c));
	assert_int_equal(pcie_acs_find(c, sizeof(c), &acs), 0); /* no extended caps */
	c[0x100] = 0x01;					/* AER, next = itself */
	c[0x102] = 0x01;
	c[0x103] = 0x10;
	assert_int_equal(pcie_acs_find(c, sizeof(c), &acs), 0); /* a cycle ends */
	memset(c + 0x100, 0xff, 4);
	assert_int_equal(pcie_acs_find(c, sizeof(c), &acs), 0); /* all ones: gone */
	assert_int_equal(pcie_acs_find(NULL, 0, &acs), -1);
}

static void test_acs_flags(void **state)
{
	char buf[160];

	pcie_acs_flags(0x001d, buf, sizeof(buf));
	assert_string_equal(buf, "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ "
				 "EgressCtrl- DirectTrans-");
	pcie_acs_flags(0x005f, buf, sizeof(buf));
	assert_string_equal(buf, "SrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ "
				 "EgressCtrl- DirectTrans+");
}

static void test_resource(void **state)
{
	char *t = read_file_str(REDIR DEV "0000:00:03.0/0000:01:00.0/resource", NULL);
	struct pcie_bar b[6];
	size_t n;
	/* an H100's BAR1 as the kernel writes it: 64-bit prefetchable, 128 GiB */
	const char *h100 = "0x00000000e2000000 0x00000000e2ffffff 0x0000000000040200\n"
			   "0x0000220000000000 0x0000221fffffffff 0x000000000014220c\n"
			   "0x0000000000000000 0x0000000000000000 0x0000000000000000\n";

	assert_non_null(t);
	n = pcie_resource_parse(t, b, 6);
	assert_int_equal(n, 2);
	assert_int_equal(b[0].index, 0);
	assert_int_equal(b[0].bytes, 16 << 20);
	assert_int_equal(b[0].start, 0xfd000000);
	assert_true(b[0].prefetch);
	assert_false(b[0].is64);
	assert_int_equal(b[1].index, 2);
	assert_int_equal(b[1].bytes, 4096);
	assert_false(b[1].prefetch);
	free(t);
	n = pcie_resource_parse(h100, b, 6);
	assert_int_equal(n, 2);
	assert_int_equal(b[1].index, 1);
	assert_int_equal(b[1].bytes, 128ull << 30);
	assert_true(b[1].is64 && b[1].prefetch);
	assert_int_equal(pcie_resource_parse("", b, 6), 0);
	assert_int_equal(pcie_resource_parse(NULL, b, 6), 0);
}

static json_t *pair_of(json_t *pcie, const char *a, const char *b)
{
	json_t *p;
	size_t i;

	json_array_foreach (json_object_get(pcie, "pairs"), i, p) {
		json_t *g = json_object_get(p, "gpus");
		if (!strcmp(json_string_value(json_array_get(g, 0)), a) &&
		    !strcmp(json_string_value(json_array_get(g, 1)), b))
			return p;
	}
	fail_msg("no pair %s-%s", a, b);
	return NULL;
}

static void test_collect_tree(void **state)
{
	json_t *pcie = pcie_collect(REDIR "/sys"), *iommu = pcie_iommu_collect(REDIR "/sys"), *p,
	       *g, *port;

	assert_non_null(pcie);
	assert_int_equal(json_array_size(json_object_get(pcie, "gpus")), 5);
	assert_int_equal(json_array_size(json_object_get(pcie, "pairs")), 10);
	g = json_array_get(json_object_get(pcie, "gpus"), 3);
	assert_string_equal(json_string_value(json_object_get(g, "bdf")), "0000:06:00.0");
	assert_string_equal(json_string_value(json_object_get(g, "class")), "0x038000");
	assert_string_equal(json_string_value(json_object_get(g, "host_bridge")), "pci0000:00");
	assert_int_equal(json_array_size(json_object_get(g, "path")), 3);
	assert_string_equal(json_string_value(json_object_get(g, "iommu_type")), "DMA-FQ");
	/* behind one switch: the upstream port is the ancestor, the two downstream
	 * ports are the path */
	p = pair_of(pcie, "0000:06:00.0", "0000:07:00.0");
	assert_string_equal(json_string_value(json_object_get(p, "kind")), "switch");
	assert_string_equal(json_string_value(json_object_get(p, "ancestor")), "0000:04:00.0");
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "ports"), 1)),
			    "0000:05:01.0");
	p = pair_of(pcie, "0000:01:00.0", "0000:02:00.0");
	assert_string_equal(json_string_value(json_object_get(p, "kind")), "root_complex");
	assert_string_equal(json_string_value(json_object_get(p, "ancestor")), "pci0000:00");
	assert_int_equal(json_array_size(json_object_get(p, "ports")), 2);
	port = json_object_get(json_object_get(pcie, "ports"), "0000:00:04.0");
	assert_string_equal(json_string_value(json_object_get(port, "acs")), "present");
	assert_int_equal(json_integer_value(json_object_get(port, "acs_ctl")), 0x1d);
	assert_int_equal(json_integer_value(json_object_get(port, "redirect")), 0x0c);
	port = json_object_get(json_object_get(pcie, "ports"), "0000:00:05.0");
	assert_string_equal(json_string_value(json_object_get(port, "acs")), "absent");
	assert_int_equal(json_integer_value(json_object_get(iommu, "groups")), 11);
	assert_int_equal(json_integer_value(
				 json_object_get(json_object_get(iommu, "group_types"), "DMA-FQ")),
			 11);
	assert_string_equal(pcie_iommu_mode(iommu, pcie), "translated");
	json_decref(pcie);
	json_decref(iommu);
	assert_null(pcie_collect("tests/data/no-such-root"));
}

static void test_param_and_knobs(void **state)
{
	const char *trees[] = {REDIR, PT};
	const char *param[] = {"pci=disable_acs_redir=0000:00:03.0;0000:00:04.0;0000:00:06.0",
			       "pci=disable_acs_redir=0000:00:06.0"};
	const char *knob[] = {"0000:00:03.0,0000:00:04.0,0000:00:06.0", "0000:00:06.0"};
	const char *mode[] = {"translated", "passthrough"};

	for (int i = 0; i < 2; i++) {
		json_t *h = sysinfo_collect_tree(trees[i]), *k = json_object_get(h, "knobs");
		char *line = pcie_acs_param(json_object_get(h, "pcie"));
		assert_string_equal(line, param[i]);
		assert_string_equal(json_string_value(json_object_get(k, "acs_redirect")), knob[i]);
		assert_string_equal(json_string_value(json_object_get(k, "iommu_mode")), mode[i]);
		assert_non_null(strstr(json_string_value(json_object_get(k, "p2p_path")),
				       "0000:06:00.0-0000:07:00.0=switch"));
		assert_non_null(strstr(json_string_value(json_object_get(k, "gpu_bar1")),
				       "0000:01:00.0=16M"));
		assert_string_equal(json_string_value(json_object_get(h, "kernel")),
				    "6.1.0-57-amd64");
		free(line);
		json_decref(h);
	}
	/* no IOMMU: no groups, and the kernel left ACS off: nothing to clear */
	{
		json_t *h = sysinfo_collect_tree("tests/data/pcie-q35-noiommu"),
		       *k = json_object_get(h, "knobs");
		assert_null(pcie_acs_param(json_object_get(h, "pcie")));
		assert_string_equal(json_string_value(json_object_get(k, "acs_redirect")), "none");
		assert_string_equal(json_string_value(json_object_get(k, "iommu_mode")), "off");
		json_decref(h);
	}
}

/* The level and the evidence of rule id on host (evidence copied into ev). */
static enum doctor_level rule(json_t *host, const char *id, char **ev, char **fix)
{
	struct doctor_report r;
	enum doctor_level l = DOCTOR_UNKNOWN;

	assert_int_equal(doctor_check(host, &r), 0);
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(r.items[i].id, id) == 0) {
			l = r.items[i].level;
			if (ev)
				*ev = xstrdup(r.items[i].evidence);
			if (fix)
				*fix = r.items[i].fix ? xstrdup(r.items[i].fix) : NULL;
			/* what a rule judged, it keeps as facts */
			if (l == DOCTOR_WARN || l == DOCTOR_INFO || l == DOCTOR_OK)
				assert_non_null(r.items[i].facts);
		}
	doctor_report_free(&r);
	return l;
}

static void test_rules_on_trees(void **state)
{
	json_t *h = sysinfo_collect_tree(REDIR);
	char *ev, *fix;

	assert_int_equal(rule(h, "acs_redirect", &ev, &fix), DOCTOR_WARN);
	assert_non_null(strstr(ev, "ACS redirect on 3 of 7 port(s)"));
	assert_non_null(
		strstr(fix, "add pci=disable_acs_redir=0000:00:03.0;0000:00:04.0;0000:00:06.0 to"));
	free(ev);
	free(fix);
	assert_int_equal(rule(h, "iommu_mode", &ev, NULL), DOCTOR_WARN);
	assert_non_null(strstr(ev, "IOMMU translated; groups: 11 DMA-FQ"));
	free(ev);
	assert_int_equal(rule(h, "p2p_path", NULL, NULL), DOCTOR_OK);
	/* no memory size for the emulated displays: the BAR is reported, not judged */
	assert_int_equal(rule(h, "bar1", &ev, NULL), DOCTOR_UNKNOWN);
	assert_non_null(strstr(ev, "0000:01:00.0 BAR0 16 MiB below 4 GiB at 0xfd000000"));
	free(ev);
	json_decref(h);
	h = sysinfo_collect_tree(PT);
	assert_int_equal(rule(h, "iommu_mode", &ev, NULL), DOCTOR_OK);
	assert_non_null(strstr(ev, "passthrough; groups: 9 identity"));
	assert_non_null(strstr(ev, "/proc/cmdline: intel_iommu=on iommu=pt"));
	free(ev);
	assert_int_equal(rule(h, "acs_redirect", &ev, NULL), DOCTOR_WARN);
	assert_non_null(strstr(ev, "ACS redirect on 1 of 7 port(s)"));
	assert_non_null(strstr(ev, "already has pci=disable_acs_redir=0000:00:03.0;0000:00:04.0"));
	free(ev);
	json_decref(h);
}

static void test_rules_on_facts(void **state)
{
	json_error_t err;
	json_t *h = json_load_file("tests/data/doctor-clean.json", 0, &err), *pa, *dev;
	char *ev;

	assert_non_null(h);
	/* redirect on a downstream port and a translating IOMMU: with NVLink up on
	 * both GPUs only notes, since their peer traffic crosses neither */
	json_t *pcie = json_object_get(h, "pcie"), *gpus = json_object_get(pcie, "gpus");
	json_t *dsp = json_object_get(json_object_get(pcie, "ports"), "0000:02:00.0");
	json_object_set_new(dsp, "acs_ctl", json_integer(0x1d));
	json_object_set_new(dsp, "redirect", json_integer(PCIE_ACS_RR | PCIE_ACS_CR));
	for (size_t i = 0; i < 2; i++)
		json_object_set_new(json_array_get(gpus, i), "iommu_type", json_string("DMA"));
	assert_int_equal(rule(h, "acs_redirect", &ev, NULL), DOCTOR_INFO);
	assert_non_null(strstr(ev, "NVLink joins every pair"));
	free(ev);
	assert_int_equal(rule(h, "iommu_mode", NULL, NULL), DOCTOR_INFO);
	json_object_del(json_array_get(json_object_get(json_object_get(h, "gpu"), "devices"), 1),
			"nvlinks_active");
	assert_int_equal(rule(h, "acs_redirect", &ev, NULL), DOCTOR_WARN);
	assert_null(strstr(ev, "NVLink"));
	free(ev);
	assert_int_equal(rule(h, "iommu_mode", NULL, NULL), DOCTOR_WARN);
	json_decref(h);
	h = json_load_file("tests/data/doctor-clean.json", 0, &err);
	assert_int_equal(rule(h, "peer_access", &ev, NULL), DOCTOR_OK);
	assert_non_null(strstr(ev, "0->1 yes (NVLink, 18/18 links up)"));
	free(ev);
	/* the driver refuses one direction */
	pa = json_array_get(json_object_get(json_object_get(h, "gpu"), "peer_access"), 1);
	json_object_set_new(pa, "can_access_peer", json_integer(0));
	assert_int_equal(rule(h, "peer_access", &ev, NULL), DOCTOR_WARN);
	assert_non_null(strstr(ev, "refuses peer access on 1 of 2 ordered pair(s)"));
	assert_non_null(strstr(ev, "1->0 no"));
	free(ev);
	/* without NVLink the PCIe path names the link */
	dev = json_array_get(json_object_get(json_object_get(h, "gpu"), "devices"), 0);
	json_object_del(dev, "nvlinks_active");
	assert_int_equal(rule(h, "peer_access", &ev, NULL), DOCTOR_WARN);
	assert_non_null(strstr(ev, "0->1 yes (PCIe switch)"));
	free(ev);
	/* a BAR smaller than the memory */
	json_object_set_new(dev, "bar1_total_bytes", json_integer(256 << 20));
	assert_int_equal(rule(h, "bar1", &ev, NULL), DOCTOR_WARN);
	assert_non_null(strstr(ev, "(NVML BAR1 256 MiB) for 140.4 GiB of memory"));
	free(ev);
	/* one GPU: no pair, the rules that need one do not apply */
	json_array_remove(json_object_get(json_object_get(h, "pcie"), "gpus"), 1);
	json_array_clear(json_object_get(json_object_get(h, "pcie"), "pairs"));
	json_array_remove(json_object_get(json_object_get(h, "gpu"), "devices"), 1);
	assert_int_equal(rule(h, "acs_redirect", NULL, NULL), DOCTOR_NA);
	assert_int_equal(rule(h, "p2p_path", NULL, NULL), DOCTOR_NA);
	assert_int_equal(rule(h, "peer_access", NULL, NULL), DOCTOR_NA);
	assert_int_equal(rule(h, "bar1", NULL, NULL), DOCTOR_INFO);
	json_decref(h);
	/* an older fingerprint: unknown */
	h = json_pack("{s:s}", "kernel", "6.1");
	assert_int_equal(rule(h, "iommu_mode", NULL, NULL), DOCTOR_UNKNOWN);
	assert_int_equal(rule(h, "acs_redirect", NULL, NULL), DOCTOR_UNKNOWN);
	assert_int_equal(rule(h, "peer_access", NULL, NULL), DOCTOR_UNKNOWN);
	json_decref(h);
}

static void test_iommu_mode(void **state)
{
	json_t *off = json_pack("{s:i, s:{}}", "groups", 0, "group_types");
	json_t *mixed = json_pack("{s:i, s:{s:i, s:i}}", "groups", 3, "group_types", "identity", 1,
				  "DMA", 2);

	assert_string_equal(pcie_iommu_mode(off, NULL), "off");
	assert_string_equal(pcie_iommu_mode(mixed, NULL), "mixed");
	assert_null(pcie_iommu_mode(NULL, NULL));
	json_decref(off);
	json_decref(mixed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acs_from_config_bytes),
		cmocka_unit_test(test_max_payload),
		cmocka_unit_test(test_acs_list_ends),
		cmocka_unit_test(test_acs_flags),
		cmocka_unit_test(test_resource),
		cmocka_unit_test(test_collect_tree),
		cmocka_unit_test(test_param_and_knobs),
		cmocka_unit_test(test_rules_on_trees),
		cmocka_unit_test(test_rules_on_facts),
		cmocka_unit_test(test_iommu_mode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
