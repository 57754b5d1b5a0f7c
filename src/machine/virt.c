/* virt.c - emulator or hypervisor, from CPUID, DMI and the CPU model (virt.h). */
#include "machine/virt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "base/util.h"
#include "machine/doctor_facts.h"

static const struct {
	const char *sig, *name;
} hypervisors[] = {
	{"KVMKVMKVM", "KVM"},		{"Linux KVM Hv", "KVM"},
	{"Microsoft Hv", "Hyper-V"},	{"VMwareVMware", "VMware"},
	{"XenVMMXenVMM", "Xen"},	{"VBoxVBoxVBox", "VirtualBox"},
	{" lrpepyh  vr", "Parallels"},	{"bhyve bhyve ", "bhyve"},
	{"ACRNACRNACRN", "ACRN"},	{"QNXQVMBSQG", "QNX"},
	{"EVMMEVMMEVMM", "Intel EVMM"},
};

static int starts(const char *s, const char *prefix)
{
	return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

json_t *virt_classify(const struct virt_facts *f)
{
	const char *kind = "none", *name = NULL;
	char ev[256] = "";
	size_t n = 0;
	int qemu_dmi = starts(f->dmi_vendor, "QEMU") || starts(f->dmi_product, "Bochs");
	int qemu_cpu = starts(f->cpu_model, "QEMU Virtual CPU") || starts(f->cpu_model, "QEMU TCG");

	if (f->cpuid_vendor[0]) {
		n += (size_t)snprintf(ev + n, sizeof(ev) - n, "CPUID 0x40000000 '%s'",
				      f->cpuid_vendor);
		if (strcmp(f->cpuid_vendor, "TCGTCGTCGTCG") == 0) {
			kind = "emulator";
			name = "QEMU TCG";
		}
		for (size_t i = 0; !name && i < ARRAY_SIZE(hypervisors); i++)
			if (strcmp(f->cpuid_vendor, hypervisors[i].sig) == 0) {
				kind = "hypervisor";
				name = hypervisors[i].name;
			}
	} else if (f->hypervisor_bit) {
		n += (size_t)snprintf(ev + n, sizeof(ev) - n, "CPUID hypervisor bit");
	}
	if (qemu_dmi && n < sizeof(ev))
		n += (size_t)snprintf(ev + n, sizeof(ev) - n, "%sDMI '%s' '%s'", n ? "; " : "",
				      f->dmi_vendor ? f->dmi_vendor : "",
				      f->dmi_product ? f->dmi_product : "");
	if (qemu_cpu && n < sizeof(ev))
		n += (size_t)snprintf(ev + n, sizeof(ev) - n, "%sCPU '%s'", n ? "; " : "",
				      f->cpu_model);
	if (!name && f->hypervisor_bit) {
		kind = "hypervisor";
		name = f->cpuid_vendor[0] ? f->cpuid_vendor : "unknown";
	}
	/* QEMU's machine without a hypervisor leaf of its own: TCG with a CPU
	 * model that hides the leaf (KVM always sets its own) */
	if (!name && (qemu_dmi || qemu_cpu)) {
		kind = "emulator";
		name = "QEMU";
	}
	if (!name)
		return json_pack("{s:s}", "kind", kind);
	return json_pack("{s:s, s:s, s:s}", "kind", kind, "name", name, "evidence", ev);
}

json_t *virt_detect(void)
{
	struct virt_facts f = {0};
	char *vendor = read_line_str("/sys/class/dmi/id/sys_vendor");
	char *product = read_line_str("/sys/class/dmi/id/product_name");
	char *ci = read_file_str("/proc/cpuinfo", NULL), *model = NULL, *m;
	json_t *o;

#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (__get_cpuid(1, &a, &b, &c, &d))
		f.hypervisor_bit = (c >> 31) & 1;
	if (f.hypervisor_bit) {
		__cpuid(0x40000000, a, b, c, d);
		memcpy(f.cpuid_vendor, &b, 4);
		memcpy(f.cpuid_vendor + 4, &c, 4);
		memcpy(f.cpuid_vendor + 8, &d, 4);
		f.cpuid_vendor[12] = '\0';
		for (int i = 0; i < 12; i++) /* a signature is printable or absent */
			if (f.cpuid_vendor[i] &&
			    (f.cpuid_vendor[i] < ' ' || f.cpuid_vendor[i] > '~'))
				f.cpuid_vendor[0] = '\0';
	}
#endif
	if (ci && (m = strstr(ci, "model name")) != NULL && (m = strchr(m, ':')) != NULL) {
		size_t len = strcspn(m + 2, "\n");
		model = xasprintf("%.*s", (int)len, m + 2);
	}
	f.dmi_vendor = vendor;
	f.dmi_product = product;
	f.cpu_model = model;
	o = virt_classify(&f);
	free(vendor);
	free(product);
	free(model);
	free(ci);
	return o;
}

int virt_is_emulated(const json_t *host, const char **why)
{
	json_t *v = json_object_get(host, "virt");
	const char *kind = json_string_value(json_object_get(v, "kind"));

	if (!kind || strcmp(kind, "emulator") != 0)
		return 0;
	if (why)
		*why = json_string_value(json_object_get(v, "name"));
	return 1;
}

void doctor_rule_virt(const json_t *h, struct doctor_finding *f)
{
	json_t *v = json_object_get(h, "virt");
	const char *kind = json_string_value(json_object_get(v, "kind"));
	const char *name = json_string_value(json_object_get(v, "name"));
	const char *ev = json_string_value(json_object_get(v, "evidence"));

	if (!kind)
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no emulator or hypervisor facts recorded");
	else if (strcmp(kind, "emulator") == 0)
		doctor_set(f, DOCTOR_WARN,
			   "measure speed on the machine itself; in an emulator trust placement, "
			   "migration and the kernel's counters, not timings (docs/topology.md)",
			   "under an emulator (%s: %s): timings are the emulator's, not memory "
			   "figures; placement, migration and counters are the kernel's own",
			   name ? name : "?", ev ? ev : "?");
	else if (strcmp(kind, "hypervisor") == 0)
		doctor_set(f, DOCTOR_INFO,
			   "compare with runs under the same hypervisor, not with bare machines",
			   "under a hypervisor (%s: %s): loads walk the host's page tables too; "
			   "memory figures of this guest, not of the machine under it",
			   name ? name : "?", ev ? ev : "?");
	else
		doctor_set(f, DOCTOR_OK, NULL, "no emulator or hypervisor (CPUID, DMI)");
}
