/* test_virt.c - emulator and hypervisor from CPUID, DMI and the CPU model;
 * the doctor's rule; check and fleet keep an emulator's runs apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "machine/doctor.h"
#include "machine/virt.h"
#include "verdict/fleet_judge.h"

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static void test_classify(void **state)
{
	struct virt_facts tcg = {1, "TCGTCGTCGTCG", "QEMU", "Standard PC (i440FX + PIIX, 1996)",
				 "QEMU Virtual CPU version 2.5+"};
	struct virt_facts kvm = {1, "KVMKVMKVM", "QEMU", "Standard PC (Q35 + ICH9, 2009)",
				 "AMD EPYC 7B13"};
	struct virt_facts firecracker = {1, "KVMKVMKVM", NULL, NULL, "AMD EPYC"};
	struct virt_facts odd = {1, "", NULL, NULL, "x"};
	struct virt_facts hidden = {0, "", "QEMU", "Standard PC", "QEMU TCG CPU version 2.5+"};
	struct virt_facts metal = {0, "", "Dell Inc.", "PowerEdge R750", "Intel Xeon"};
	json_t *o;

	o = virt_classify(&tcg);
	assert_string_equal(str(o, "kind"), "emulator");
	assert_string_equal(str(o, "name"), "QEMU TCG");
	assert_non_null(strstr(str(o, "evidence"), "CPUID 0x40000000 'TCGTCGTCGTCG'"));
	assert_non_null(strstr(str(o, "evidence"), "DMI 'QEMU'"));
	json_decref(o);
	o = virt_classify(&kvm);
	assert_string_equal(str(o, "kind"), "hypervisor");
	assert_string_equal(str(o, "name"), "KVM");
	json_decref(o);
	o = virt_classify(&firecracker);
	assert_string_equal(str(o, "name"), "KVM");
	assert_string_equal(str(o, "evidence"), "CPUID 0x40000000 'KVMKVMKVM'");
	json_decref(o);
	o = virt_classify(&odd);
	assert_string_equal(str(o, "kind"), "hypervisor");
	assert_string_equal(str(o, "name"), "unknown");
	json_decref(o);
	o = virt_classify(&hidden);
	assert_string_equal(str(o, "kind"), "emulator");
	assert_string_equal(str(o, "name"), "QEMU");
	json_decref(o);
	o = virt_classify(&metal);
	assert_string_equal(str(o, "kind"), "none");
	assert_null(json_object_get(o, "name"));
	json_decref(o);
	/* this machine: some answer, never a crash */
	o = virt_detect();
	assert_non_null(str(o, "kind"));
	json_decref(o);
}

static enum doctor_level virt_level(json_t *host)
{
	struct doctor_report r;
	enum doctor_level l = DOCTOR_LEVELS;
	assert_int_equal(doctor_check(host, &r), 0);
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(r.items[i].id, "virt") == 0)
			l = r.items[i].level;
	doctor_report_free(&r);
	return l;
}

static void test_rule_and_kind(void **state)
{
	json_t *h = json_pack("{s:s, s:{s:s, s:i}, s:{s:i}}", "hostname", "g", "cpu", "model",
			      "QEMU Virtual CPU version 2.5+", "logical_cpus", 2, "memory",
			      "MemTotal", 1 << 30);
	const char *why = NULL;
	char *key;

	assert_int_equal(virt_level(h), DOCTOR_UNKNOWN);
	assert_int_equal(virt_is_emulated(h, NULL), 0);
	json_object_set_new(h, "virt", json_pack("{s:s}", "kind", "none"));
	assert_int_equal(virt_level(h), DOCTOR_OK);
	key = fleet_kind_key(h);
	assert_string_equal(key, "QEMU Virtual CPU version 2.5+ x2, 1 GiB, no GPU");
	free(key);
	json_object_set_new(h, "virt",
			    json_pack("{s:s, s:s, s:s}", "kind", "hypervisor", "name", "KVM",
				      "evidence", "CPUID"));
	assert_int_equal(virt_level(h), DOCTOR_INFO);
	key = fleet_kind_key(h);
	assert_string_equal(key, "QEMU Virtual CPU version 2.5+ x2, 1 GiB, no GPU, KVM guest");
	free(key);
	json_object_set_new(h, "virt",
			    json_pack("{s:s, s:s, s:s}", "kind", "emulator", "name", "QEMU TCG",
				      "evidence", "CPUID"));
	assert_int_equal(virt_level(h), DOCTOR_WARN);
	assert_int_equal(virt_is_emulated(h, &why), 1);
	assert_string_equal(why, "QEMU TCG");
	/* an emulated machine is a kind of its own in a fleet */
	key = fleet_kind_key(h);
	assert_string_equal(key,
			    "QEMU Virtual CPU version 2.5+ x2, 1 GiB, no GPU, QEMU TCG emulated");
	free(key);
	json_decref(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_rule_and_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
