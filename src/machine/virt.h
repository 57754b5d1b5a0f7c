/* virt.h - does mempath run under an emulator or a hypervisor?
 *
 * From the CPUID hypervisor bit (leaf 1, ECX bit 31) and the vendor signature
 * of leaf 0x40000000 ("TCGTCGTCGTCG": QEMU's TCG, an emulator; "KVMKVMKVM",
 * "Microsoft Hv", "VMwareVMware", "XenVMMXenVMM", ...: a hypervisor), DMI's
 * sys_vendor and product_name, and the CPU's model name. Under an emulator
 * the timings are the emulator's, not the memory's (every node is the host's
 * DRAM, each load is translated code); under a hypervisor they pass through
 * the host's page tables too. The kernel's behaviour (placement, migration,
 * counters) is real in both (docs/design.md §4.19, docs/topology.md).
 */
#ifndef MEMPATH_MACHINE_VIRT_H
#define MEMPATH_MACHINE_VIRT_H

#include <jansson.h>

#include "machine/finding.h"

struct virt_facts {
	int hypervisor_bit;	 /* CPUID.1:ECX[31] (x86), else 0 */
	char cpuid_vendor[13];	 /* leaf 0x40000000 signature, "" when none */
	const char *dmi_vendor;	 /* /sys/class/dmi/id/sys_vendor, or NULL */
	const char *dmi_product; /* /sys/class/dmi/id/product_name, or NULL */
	const char *cpu_model;	 /* /proc/cpuinfo model name, or NULL */
};

/* Pure: {"kind": "emulator"|"hypervisor"|"none", "name": "QEMU TCG"|"KVM"|...,
 * "evidence": "CPUID 0x40000000 'TCGTCGTCGTCG'; DMI QEMU ..."}. */
json_t *virt_classify(const struct virt_facts *f);
/* The facts of this machine, classified. */
json_t *virt_detect(void);
/* 1 when a fingerprint's "virt" says emulator (its timings are not memory
 * figures), else 0; *why (may be NULL) its name and evidence. */
int virt_is_emulated(const json_t *host, const char **why);
/* The doctor's rule "virt": WARN under an emulator, INFO under a hypervisor. */
void doctor_rule_virt(const json_t *host, struct doctor_finding *f);

#endif
