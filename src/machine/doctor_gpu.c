/* doctor_gpu.c - the doctor's GPU rules: persistence, the PCIe link, and
 * whether GPU kernels can reach system-allocated memory (HMM/ATS). */
#include "machine/doctor_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "gpu/backend.h"
#include "machine/doctor_facts.h"
#include "machine/limits.h"

/* The GPU part of the fingerprint: its device array, or NULL with the level
 * and evidence set (no GPU part recorded, or no usable GPU). */
static const json_t *gpu_devices(const json_t *h, struct doctor_finding *f)
{
	const json_t *gpu = doctor_at(h, "gpu", NULL), *devs = doctor_at(h, "gpu", "devices", NULL);
	const char *why = doctor_str_at(h, "gpu", "unsupported");

	if (json_is_array(devs) && json_array_size(devs) > 0)
		return devs;
	if (!gpu)
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no GPU part in the fingerprint");
	else
		doctor_set(f, DOCTOR_NA, NULL, "no usable GPU%s%s", why ? ": " : "",
			   why ? why : "");
	return NULL;
}

/* Appends "GPU i" to a list of device indices. */
static void add_index(char *buf, size_t len, const json_t *dev)
{
	size_t used = strlen(buf);
	json_t *i = json_object_get(dev, "index");
	if (used < len)
		snprintf(buf + used, len - used, "%s%lld", used ? ", " : "",
			 json_is_integer(i) ? json_integer_value(i) : -1LL);
}

/* Without persistence mode the driver tears a GPU's state down when its last
 * client exits, and the next process pays the initialisation again. */
void doctor_rule_gpu_persistence(const json_t *h, struct doctor_finding *f)
{
	const json_t *devs = gpu_devices(h, f), *d;
	char off[128] = "", unknown[128] = "";
	size_t i;

	if (!devs)
		return;
	json_array_foreach (devs, i, d) {
		const char *pm = json_string_value(json_object_get(d, "persistence_mode"));
		if (!pm)
			add_index(unknown, sizeof(unknown), d);
		else if (strcmp(pm, "enabled") != 0)
			add_index(off, sizeof(off), d);
	}
	if (off[0])
		doctor_set(
			f, DOCTOR_WARN,
			"run nvidia-persistenced (or nvidia-smi -pm 1) so the driver keeps the "
			"GPUs "
			"initialised between processes",
			"persistence mode off on GPU %s: each process that finds the GPU idle pays "
			"its initialisation (first context, first allocation)",
			off);
	else if (unknown[0])
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "persistence mode not readable on GPU %s (NVML?)", unknown);
	else
		doctor_set(f, DOCTOR_OK, NULL, "persistence mode on, %zu GPU(s)",
			   json_array_size(devs));
}

/* One GPU's link for the gpu_pcie rule: current and maximum width and
 * generation, each -1 where not recorded. */
struct link_fact {
	long long w, wm, g, gm;
};

/* From sysfs (the pcie part: any vendor's display device, also under
 * --root), else NVML's four numbers per device. The count. */
static size_t gpu_links(const json_t *h, struct link_fact *l, char names[][40], size_t max)
{
	const json_t *gpus = doctor_at(h, "pcie", "gpus", NULL), *d;
	const json_t *devs = doctor_at(h, "gpu", "devices", NULL);
	size_t i, n = 0;
	json_array_foreach (gpus, i, d) {
		const json_t *k = json_object_get(d, "link");
		if (!k || n >= max)
			continue;
		l[n].w = json_is_integer(json_object_get(k, "width"))
				 ? json_integer_value(json_object_get(k, "width"))
				 : -1;
		l[n].wm = json_is_integer(json_object_get(k, "max_width"))
				  ? json_integer_value(json_object_get(k, "max_width"))
				  : -1;
		l[n].g = limits_pcie_gen(json_number_value(json_object_get(k, "speed_gts")));
		l[n].gm = limits_pcie_gen(json_number_value(json_object_get(k, "max_speed_gts")));
		l[n].g = l[n].g ? l[n].g : -1;
		l[n].gm = l[n].gm ? l[n].gm : -1;
		snprintf(names[n++], 40, "%s", doctor_str_at(d, "bdf", NULL) ?: "?");
	}
	if (n)
		return n;
	json_array_foreach (devs, i, d) {
		if (n >= max)
			break;
		l[n] = (struct link_fact){-1, -1, -1, -1};
		doctor_int_at(d, "pcie_link_width", NULL, &l[n].w);
		doctor_int_at(d, "pcie_link_width_max", NULL, &l[n].wm);
		doctor_int_at(d, "pcie_link_gen", NULL, &l[n].g);
		doctor_int_at(d, "pcie_link_gen_max", NULL, &l[n].gm);
		snprintf(names[n++], 40, "%zu", i);
	}
	return n;
}

/* A link trained narrower than the slot halves host<->device copies for good;
 * a lower generation can be the GPU saving power while idle. */
void doctor_rule_gpu_pcie(const json_t *h, struct doctor_finding *f)
{
	struct link_fact l[32];
	char names[32][40], narrow[512] = "", slow[512] = "";
	size_t n = gpu_links(h, l, names, 32), u;
	int have = 0;

	if (n == 0) {
		(void)gpu_devices(h, f); /* says why: no GPU part, no usable GPU */
		if (f->level == DOCTOR_UNKNOWN &&
		    json_array_size(doctor_at(h, "pcie", "gpus", NULL)))
			doctor_set(f, DOCTOR_UNKNOWN, NULL,
				   "PCIe link width and generation not recorded (no "
				   "current_link_speed in sysfs)");
		else if (f->level == DOCTOR_UNKNOWN && doctor_at(h, "pcie", NULL))
			doctor_set(f, DOCTOR_NA, NULL, "no display-class PCI device");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		int hw = l[i].w > 0 && l[i].wm > 0, hg = l[i].g > 0 && l[i].gm > 0;
		have |= hw || hg;
		if (hw && l[i].w < l[i].wm && (u = strlen(narrow)) < sizeof(narrow))
			snprintf(narrow + u, sizeof(narrow) - u, "%sGPU %.39s x%lld of x%lld",
				 u ? ", " : "", names[i], l[i].w, l[i].wm);
		if (hg && l[i].g < l[i].gm && (u = strlen(slow)) < sizeof(slow))
			snprintf(slow + u, sizeof(slow) - u, "%sGPU %.39s gen %lld of %lld",
				 u ? ", " : "", names[i], l[i].g, l[i].gm);
	}
	if (!have)
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "PCIe link width and generation not recorded");
	else if (narrow[0])
		doctor_set(f, DOCTOR_WARN,
			   "reseat the card or check the riser, slot wiring and BIOS bifurcation; "
			   "gpu.copy shows the pinned H2D/D2H rate it costs",
			   "PCIe link narrower than the device supports: %s%s%s", narrow,
			   slow[0] ? "; " : "", slow);
	else if (slow[0])
		/* INFO, not WARN: an idle NVIDIA GPU drops its link to Gen1 by
		 * design, so a reading at rest says nothing of the link under load */
		doctor_set(f, DOCTOR_INFO,
			   "read it again under load (GPUs lower the link speed when idle): run "
			   "gpu.copy and compare pinned H2D/D2H with the generation's rate; a link "
			   "that stays below its generation under load needs the slot's BIOS "
			   "setting or a reseat",
			   "PCIe link below its top generation when read: %s", slow);
	else
		doctor_set(f, DOCTOR_OK, NULL,
			   "PCIe links at full width and generation on %zu GPU(s)", n);
}

/* Without HMM or ATS a kernel cannot dereference malloc'd or mmap'd memory:
 * such buffers reach the GPU only through copies (pageable copies are staged
 * through pinned buffers) or after registering them. */
void doctor_rule_gpu_system_memory(const json_t *h, struct doctor_finding *f)
{
	const json_t *devs = gpu_devices(h, f), *d;
	const char *mode, *hmm_off;
	long long pma = -1;

	if (!devs)
		return;
	d = json_array_get(devs, 0);
	mode = json_string_value(json_object_get(d, "addressing_mode"));
	hmm_off = doctor_str_at(json_object_get(d, "driver"), "uvm_params", "uvm_disable_hmm");
	if (!doctor_int_at(d, "pageable_memory_access", NULL, &pma) && !mode) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "addressing mode not recorded");
		return;
	}
	if (pma == 1)
		doctor_set(
			f, DOCTOR_OK, NULL,
			"pageable memory access on (addressing mode %s): kernels can use malloc'd "
			"memory; gpu.first_touch measures what it costs",
			mode ? mode : "?");
	else {
		char fix[512];

		snprintf(
			fix, sizeof(fix),
			"pass host buffers through %s or allocate them with %s / %s; HMM needs "
			"NVIDIA's open kernel modules with nvidia_uvm's HMM on (uvm_disable_hmm=N) "
			"and a kernel built with HMM (CONFIG_HMM_MIRROR, CONFIG_DEVICE_PRIVATE)",
			GPU_NAME(host_register), GPU_NAME(malloc_host), GPU_NAME(malloc_managed));
		doctor_set(
			f, DOCTOR_INFO, fix,
			"addressing mode %s, PageableMemoryAccess=0%s%s: GPU kernels cannot read "
			"malloc'd or mmap'd memory; it reaches the GPU only by copies",
			mode ? mode : "?", hmm_off ? ", uvm_disable_hmm=" : "",
			hmm_off ? hmm_off : "");
	}
}
