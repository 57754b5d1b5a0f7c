/* doctor_gpu.c - the doctor's GPU rules: persistence, the PCIe link, and
 * whether GPU kernels can reach system-allocated memory (HMM/ATS). */
#include "machine/doctor_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/doctor_facts.h"

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

/* A link trained narrower than the slot halves host<->device copies for good;
 * a lower generation can be the GPU saving power while idle. */
void doctor_rule_gpu_pcie(const json_t *h, struct doctor_finding *f)
{
	const json_t *devs = gpu_devices(h, f), *d;
	char narrow[256] = "", slow[256] = "";
	size_t i;
	int have = 0;

	if (!devs)
		return;
	json_array_foreach (devs, i, d) {
		long long w = 0, wm = 0, g = 0, gm = 0;
		int hw = doctor_int_at(d, "pcie_link_width", NULL, &w) &&
			 doctor_int_at(d, "pcie_link_width_max", NULL, &wm);
		int hg = doctor_int_at(d, "pcie_link_gen", NULL, &g) &&
			 doctor_int_at(d, "pcie_link_gen_max", NULL, &gm);
		size_t u;
		have |= hw || hg;
		if (hw && w < wm && (u = strlen(narrow)) < sizeof(narrow))
			snprintf(narrow + u, sizeof(narrow) - u, "%sGPU %zu x%lld of x%lld",
				 u ? ", " : "", i, w, wm);
		if (hg && g < gm && (u = strlen(slow)) < sizeof(slow))
			snprintf(slow + u, sizeof(slow) - u, "%sGPU %zu gen %lld of %lld",
				 u ? ", " : "", i, g, gm);
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
		doctor_set(f, DOCTOR_INFO,
			   "read it again under load (GPUs lower the link speed when idle): run "
			   "gpu.copy and compare pinned H2D/D2H with the generation's rate",
			   "PCIe link below its top generation when read: %s", slow);
	else
		doctor_set(f, DOCTOR_OK, NULL,
			   "PCIe links at full width and generation on %zu GPU(s)",
			   json_array_size(devs));
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
	else
		doctor_set(
			f, DOCTOR_INFO,
			"pass host buffers through cudaHostRegister or allocate them with "
			"cudaMallocHost / cudaMallocManaged; HMM needs NVIDIA's open kernel "
			"modules "
			"with nvidia_uvm's HMM on (uvm_disable_hmm=N) and a kernel built with HMM "
			"(CONFIG_HMM_MIRROR, CONFIG_DEVICE_PRIVATE)",
			"addressing mode %s, PageableMemoryAccess=0%s%s: GPU kernels cannot read "
			"malloc'd or mmap'd memory; it reaches the GPU only by copies",
			mode ? mode : "?", hmm_off ? ", uvm_disable_hmm=" : "",
			hmm_off ? hmm_off : "");
}
