/* doctor.c - the known-trap rules. Each rule reads the fingerprint and fills one
 * finding; the thresholds and the wording of each fix live next to the check
 * they belong to, with the measurement that motivated them. */
#include "machine/doctor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "results/results.h"

#define GiB	(1024.0 * 1024 * 1024)
#define STR_(x) #x
#define STR(x)	STR_(x)
#define MiB	(1024.0 * 1024)

/* o[a][b]... for a NULL-terminated path of keys; NULL when any step is absent. */
static json_t *at(const json_t *o, ...)
{
	va_list ap;
	const char *k;
	json_t *v = (json_t *)o;
	va_start(ap, o);
	while ((k = va_arg(ap, const char *)) != NULL && v)
		v = json_is_object(v) ? json_object_get(v, k) : NULL;
	va_end(ap);
	return v;
}

static const char *str_at(const json_t *o, const char *a, const char *b)
{
	return json_string_value(at(o, a, b, NULL));
}

/* An integer fact: 1 and *v set, or 0 when absent or not an integer. */
static int int_at(const json_t *o, const char *a, const char *b, long long *v)
{
	json_t *x = at(o, a, b, NULL);
	if (!json_is_integer(x))
		return 0;
	*v = json_integer_value(x);
	return 1;
}

static void set(struct doctor_finding *f, enum doctor_level l, const char *fix, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));
static void set(struct doctor_finding *f, enum doctor_level l, const char *fix, const char *fmt,
		...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	free(f->evidence);
	f->evidence = s ? s : xstrdup("");
	f->level = l;
	f->fix = l == DOCTOR_WARN || l == DOCTOR_INFO ? fix : NULL;
}

/* Seed 000: with THP in madvise mode nothing on the box gets huge pages unless
 * it asks; first touch of 1 GiB ran 4.7x faster with THP on the dev VM
 * (docs/results/vm-2026-11-30.md) and random DRAM loads 39% cheaper. */
static void rule_thp_mode(const json_t *h, struct doctor_finding *f)
{
	const char *en = str_at(h, "knobs", "thp_enabled");
	long long anon = -1;
	char huge[48] = "";

	if (!en) {
		set(f, DOCTOR_UNKNOWN, NULL,
		    "no transparent_hugepage/enabled recorded (kernel without THP?)");
		return;
	}
	if (int_at(h, "memory", "AnonHugePages", &anon))
		snprintf(huge, sizeof(huge), "; AnonHugePages %.0f MiB system-wide",
			 (double)anon / MiB);
	if (strcmp(en, "always") == 0)
		set(f, DOCTOR_OK, NULL, "enabled=always%s", huge);
	else if (strcmp(en, "madvise") == 0)
		set(f, DOCTOR_WARN,
		    "ask for huge pages where memory is large and hot: madvise(MADV_HUGEPAGE) on "
		    "anonymous buffers before they are first touched (weights copied into "
		    "anonymous memory, KV pools); or system-wide: echo always > "
		    "/sys/kernel/mm/transparent_hugepage/enabled (transparent_hugepage=always on "
		    "the kernel command line keeps it)",
		    "enabled=madvise: memory that does not call madvise(MADV_HUGEPAGE) gets 4 KiB "
		    "pages%s",
		    huge);
	else
		set(f, DOCTOR_WARN,
		    "echo madvise (or always) > /sys/kernel/mm/transparent_hugepage/enabled; "
		    "check the kernel command line for transparent_hugepage=never",
		    "enabled=%s: no anonymous memory gets huge pages, even when it asks%s", en,
		    huge);
}

/* What a THP fault does when no free 2 MiB block is at hand. */
static void rule_thp_defrag(const json_t *h, struct doctor_finding *f)
{
	const char *d = str_at(h, "knobs", "thp_defrag"), *en = str_at(h, "knobs", "thp_enabled");

	if (!d) {
		set(f, DOCTOR_UNKNOWN, NULL, "no transparent_hugepage/defrag recorded");
	} else if (en && strcmp(en, "never") == 0) {
		set(f, DOCTOR_NA, NULL, "defrag=%s, but THP is off", d);
	} else if (strcmp(d, "never") == 0) {
		set(f, DOCTOR_INFO,
		    "echo madvise > /sys/kernel/mm/transparent_hugepage/defrag, so MADV_HUGEPAGE "
		    "faults compact memory; and read the THP actually obtained (cpu.first_touch "
		    "reports it from smaps)",
		    "defrag=never: even MADV_HUGEPAGE faults never compact, so once free memory "
		    "is fragmented they silently get 4 KiB pages");
	} else if (strcmp(d, "always") == 0) {
		set(f, DOCTOR_INFO,
		    "echo defer+madvise > /sys/kernel/mm/transparent_hugepage/defrag leaves "
		    "compaction to kcompactd except where memory asked for huge pages",
		    "defrag=always: every THP fault may stall in direct compaction (fault latency "
		    "spikes under fragmentation)");
	} else {
		set(f, DOCTOR_OK, NULL, "defrag=%s", d);
	}
}

/* Seed 000: blocking GPU sync cost 7% per decode step with idle states of
 * 231/433 us exit latency enabled, 1% with them disabled. */
#define DEEP_IDLE_US 100

static void rule_deep_idle(const json_t *h, struct doctor_finding *f)
{
	const json_t *states = at(h, "cpu", "cpuidle_states_cpu0", NULL), *st;
	const char *drv = str_at(h, "cpu", "cpuidle_driver");
	char list[512] = "";
	size_t i, len = 0;
	long long worst = -1;

	if (!json_is_array(states)) {
		set(f, DOCTOR_UNKNOWN, NULL, "no cpuidle states recorded");
		return;
	}
	if (json_array_size(states) == 0) {
		set(f, DOCTOR_OK, NULL, "no cpuidle states exposed (driver %s): default idle only",
		    drv ? drv : "none");
		return;
	}
	json_array_foreach (states, i, st) {
		const char *name = json_string_value(json_object_get(st, "name"));
		json_t *lat = json_object_get(st, "exit_latency_us");
		json_t *dis = json_object_get(st, "disabled");
		int off = json_is_integer(dis) && json_integer_value(dis) != 0;
		if (!json_is_integer(lat))
			continue;
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s %lld us%s",
						len ? ", " : "", name ? name : "?",
						json_integer_value(lat), off ? " (disabled)" : "");
		if (!off && json_integer_value(lat) > worst)
			worst = json_integer_value(lat);
	}
	if (worst >= DEEP_IDLE_US)
		set(f, DOCTOR_WARN,
		    "where a thread sleeps and must wake fast (blocking GPU sync, futex hand-offs "
		    "in a serving loop): wait by spinning (cudaDeviceScheduleSpin), or keep CPUs "
		    "out of the deep states: cpupower idle-set -D " STR(
			    DEEP_IDLE_US) " (or 1 > "
					  "/sys/devices/system/cpu/cpu*/cpuidle/stateN/disable); "
					  "costs idle "
					  "power",
		    "cpu0 idle states enabled with exit latency up to %lld us (>= %d us): %s",
		    worst, DEEP_IDLE_US, list);
	else
		set(f, DOCTOR_OK, NULL, "deepest enabled state exits in %lld us (< %d us): %s",
		    worst, DEEP_IDLE_US, list);
}

/* acpi-cpufreq's powersave governor pins the lowest frequency; intel_pstate
 * and amd-pstate use the same name for their normal, demand-driven mode. */
static void rule_governor(const json_t *h, struct doctor_finding *f)
{
	const char *gov = str_at(h, "knobs", "governor");
	const char *drv = str_at(h, "cpu", "scaling_driver");
	long long no_turbo = 0, boost = 1;
	int have_nt = int_at(h, "knobs", "intel_no_turbo", &no_turbo);
	int have_b = int_at(h, "knobs", "cpufreq_boost", &boost);

	if (!gov) {
		set(f, DOCTOR_NA, NULL,
		    "no cpufreq governor: frequency is set by the firmware or hypervisor");
	} else if (strcmp(gov, "powersave") == 0 && drv && strcmp(drv, "acpi-cpufreq") == 0) {
		set(f, DOCTOR_WARN,
		    "cpupower frequency-set -g schedutil (or performance for measurements)",
		    "governor=powersave with acpi-cpufreq: every CPU runs at its lowest "
		    "frequency");
	} else if ((have_nt && no_turbo) || (have_b && !boost)) {
		set(f, DOCTOR_INFO,
		    "echo 0 > /sys/devices/system/cpu/intel_pstate/no_turbo (or 1 > "
		    "/sys/devices/system/cpu/cpufreq/boost); keep it equal across A/B legs",
		    "governor=%s (%s), turbo/boost off: single-thread latency and bandwidth read "
		    "lower than the part can give",
		    gov, drv ? drv : "?");
	} else {
		set(f, DOCTOR_OK, NULL, "governor=%s (%s)", gov, drv ? drv : "?");
	}
}

static long long numa_nodes(const json_t *h)
{
	long long n = 0;
	return int_at(h, "numa", "nodes", &n) ? n : 0;
}

/* A NUMA knob that matters on two or more nodes, and only when set. */
static void numa_knob(const json_t *h, struct doctor_finding *f, const char *knob,
		      const char *sysctl, enum doctor_level when_set, const char *fix,
		      const char *what)
{
	long long nodes = numa_nodes(h), mode = 0;

	if (!int_at(h, "knobs", knob, &mode))
		set(f, DOCTOR_UNKNOWN, NULL, "no %s recorded", sysctl);
	else if (nodes < 2)
		set(f, DOCTOR_NA, NULL, "one NUMA node (%s=%lld)", sysctl, mode);
	else if (mode != 0)
		set(f, when_set, fix, "%s=%lld on %lld nodes: %s", sysctl, mode, nodes, what);
	else
		set(f, DOCTOR_OK, NULL, "%s=0 on %lld nodes", sysctl, nodes);
}

/* With zone_reclaim_mode set the kernel reclaims a node's page cache before it
 * allocates from another node: a node that fills up thrashes its file pages. */
static void rule_zone_reclaim(const json_t *h, struct doctor_finding *f)
{
	numa_knob(h, f, "zone_reclaim_mode", "vm.zone_reclaim_mode", DOCTOR_WARN,
		  "sysctl vm.zone_reclaim_mode=0, and place memory explicitly (numactl "
		  "--membind/--preferred; cpu.stream policy=) where locality matters",
		  "a full node reclaims its own page cache before it allocates remotely");
}

/* Automatic NUMA balancing (or tiering, mode 2) unmaps pages to sample them
 * and migrates them: the pages under a measurement may move while it runs. */
static void rule_numa_balancing(const json_t *h, struct doctor_finding *f)
{
	numa_knob(h, f, "numa_balancing", "kernel.numa_balancing", DOCTOR_INFO,
		  "keep it equal across A/B legs (compare refuses legs whose knobs differ); "
		  "wrap records numa_hint_faults and pgmigrate_* per iteration, so a workload's "
		  "convergence can be read",
		  "hinting faults and migrations run while anything is measured");
}

long long doctor_unaccounted_bytes(const json_t *memory, int *have)
{
	/* every counter that owns RAM pages inside MemTotal; MemTotal and MemFree,
	 * Active, Inactive, Slab, KernelStack and PageTables must all be present */
	static const char *const needed[] = {"MemFree", "Active",      "Inactive",
					     "Slab",	"KernelStack", "PageTables"};
	static const char *const optional[] = {"Unevictable", "SecPageTables", "Percpu",
					       "VmallocUsed", "Zswap",	       "Balloon",
					       "Unaccepted",  "GPUActive",     "GPUReclaim"};
	long long total, v, sum = 0, hp = 0, hsz = 0, kr = 0, sr = 0;

	*have = 0;
	if (!int_at(memory, "MemTotal", NULL, &total))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(needed); i++) {
		if (!int_at(memory, needed[i], NULL, &v))
			return 0;
		sum += v;
	}
	for (size_t i = 0; i < ARRAY_SIZE(optional); i++)
		if (int_at(memory, optional[i], NULL, &v))
			sum += v;
	/* hugetlb pages of every size, else the default size's pool */
	if (int_at(memory, "Hugetlb", NULL, &v))
		sum += v;
	else if (int_at(memory, "HugePages_Total", NULL, &hp) &&
		 int_at(memory, "Hugepagesize", NULL, &hsz))
		sum += hp * hsz;
	/* free pages on per-CPU lists (zoneinfo): free, but not in MemFree; the
	 * ZFS ARC (arcstats size; a part of it may sit in Slab or VmallocUsed,
	 * so this errs towards less unaccounted, not more) */
	if (int_at(memory, "pcp_free_bytes", NULL, &v))
		sum += v;
	if (int_at(memory, "zfs_arc_bytes", NULL, &v))
		sum += v;
	/* reclaimable kernel memory other than slab: pools that report themselves */
	if (int_at(memory, "KReclaimable", NULL, &kr) &&
	    int_at(memory, "SReclaimable", NULL, &sr) && kr > sr)
		sum += kr - sr;
	*have = 1;
	return total - sum;
}

/* Seed 000 finding B: a driver kept 55 GiB of freed pages in its pools after a
 * 64 GiB process exited, in no /proc/meminfo counter. Measured 2026-11-30:
 * 0.01 GiB on the dev VM and 0.09 GiB on the H200 host at rest; 2.5 GiB held in
 * pipe buffers read as 2.52; 16 GiB from cudaMallocHost (driver 580) sat on
 * the LRU (Inactive) and read as nothing. Beyond both limits below it is
 * memory somebody holds without saying so. */
#define UNACCOUNTED_WARN_BYTES	  (1.0 * GiB)
#define UNACCOUNTED_WARN_FRACTION 0.04

static void rule_unaccounted(const json_t *h, struct doctor_finding *f)
{
	const json_t *mem = at(h, "memory", NULL);
	long long total = 0, un, gpu = 0, arc = 0;
	char also[96] = "";
	int have;

	un = doctor_unaccounted_bytes(mem, &have);
	if (!have || !int_at(mem, "MemTotal", NULL, &total) || total <= 0) {
		set(f, DOCTOR_UNKNOWN, NULL,
		    "the fingerprint lacks the /proc/meminfo counters (recorded by an older "
		    "mempath?)");
		return;
	}
	gpu = int_at(mem, "GPUActive", NULL, &gpu) || int_at(mem, "GPUReclaim", NULL, &gpu);
	if (int_at(mem, "zfs_arc_bytes", NULL, &arc) && arc > 0)
		snprintf(also, sizeof(also), " (ZFS ARC %.2f GiB%s counted as owned)", arc / GiB,
			 gpu ? ", GPUActive/GPUReclaim" : "");
	else if (gpu)
		snprintf(also, sizeof(also), " (GPUActive/GPUReclaim counted as owned)");
	if (un > UNACCOUNTED_WARN_BYTES && un > UNACCOUNTED_WARN_FRACTION * (double)total)
		set(f, DOCTOR_WARN,
		    "stop the GPU/accelerator processes and look again: what stays missing is "
		    "held by a driver after its owner exited (mempath phantom -- CMD finds the "
		    "command that leaves it; phantom --gpu SIZE checks the GPU driver); kernel "
		    "buffers that running processes hold (pipe buffers, for one) also count here",
		    "%.2f GiB of %.1f GiB RAM (%.1f%%) is in no /proc/meminfo counter%s", un / GiB,
		    total / GiB, 100.0 * (double)un / (double)total, also);
	else
		set(f, DOCTOR_OK, NULL,
		    "%.2f GiB of %.1f GiB RAM (%.1f%%) in no /proc/meminfo counter (limit: %.0f "
		    "GiB and %.0f%%)%s",
		    un / GiB, total / GiB, 100.0 * (double)un / (double)total,
		    UNACCOUNTED_WARN_BYTES / GiB, 100 * UNACCOUNTED_WARN_FRACTION, also);
}

/* Pages freed to a per-CPU list are free and handed out first, but MemFree and
 * MemAvailable count them only once the list drains; since 6.7 a list's high
 * mark is auto-tuned to hundreds of MiB per CPU (the dev VM parked 1.6 GiB on
 * two CPUs after a 2.5 GiB pipe-buffer holder exited). Not a leak; a trap for
 * anything that reads MemAvailable to find one, or to size a run. */
static void rule_pcp_free(const json_t *h, struct doctor_finding *f)
{
	long long pcp = 0, total = 0;

	if (!int_at(h, "memory", "pcp_free_bytes", &pcp) ||
	    !int_at(h, "memory", "MemTotal", &total) || total <= 0) {
		set(f, DOCTOR_UNKNOWN, NULL, "per-CPU list counts (/proc/zoneinfo) not recorded");
		return;
	}
	if (pcp > UNACCOUNTED_WARN_BYTES && pcp > UNACCOUNTED_WARN_FRACTION * (double)total)
		set(f, DOCTOR_INFO,
		    "nothing to fix; what reads MemAvailable for leaks or sizes must add them "
		    "(mempath phantom does) or wait: the lists drain over tens of seconds or "
		    "under pressure",
		    "%.2f GiB of free pages on per-CPU lists (%.1f%% of RAM): free, but in "
		    "neither MemFree nor MemAvailable",
		    pcp / GiB, 100.0 * (double)pcp / (double)total);
	else
		set(f, DOCTOR_OK, NULL, "%.2f GiB of free pages on per-CPU lists", pcp / GiB);
}

/* Pages reserved for hugetlbfs are gone from MemAvailable whether used or not. */
static void rule_hugetlb_reserved(const json_t *h, struct doctor_finding *f)
{
	long long total = 0, free_p = 0, size = 0;
	char free_s[32] = "?";

	if (!int_at(h, "memory", "HugePages_Total", &total) ||
	    !int_at(h, "memory", "Hugepagesize", &size)) {
		set(f, DOCTOR_UNKNOWN, NULL, "no HugePages_Total recorded");
		return;
	}
	if (total == 0) {
		set(f, DOCTOR_OK, NULL, "no hugetlbfs pages reserved");
		return;
	}
	if (int_at(h, "memory", "HugePages_Free", &free_p))
		snprintf(free_s, sizeof(free_s), "%lld", free_p);
	set(f, DOCTOR_INFO,
	    "if nothing maps hugetlbfs here, echo 0 > /proc/sys/vm/nr_hugepages returns it; "
	    "THP gives huge pages without a reservation",
	    "%lld hugetlbfs pages of %.0f MiB reserved (%.2f GiB; %s free): out of "
	    "MemAvailable whether used or not",
	    total, size / MiB, (double)total * (double)size / GiB, free_s);
}

/* The GPU part of the fingerprint: its device array, or NULL with the level
 * and evidence set (no GPU part recorded, or no usable GPU). */
static const json_t *gpu_devices(const json_t *h, struct doctor_finding *f)
{
	const json_t *gpu = at(h, "gpu", NULL), *devs = at(h, "gpu", "devices", NULL);
	const char *why = str_at(h, "gpu", "unsupported");

	if (json_is_array(devs) && json_array_size(devs) > 0)
		return devs;
	if (!gpu)
		set(f, DOCTOR_UNKNOWN, NULL, "no GPU part in the fingerprint");
	else
		set(f, DOCTOR_NA, NULL, "no usable GPU%s%s", why ? ": " : "", why ? why : "");
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
static void rule_gpu_persistence(const json_t *h, struct doctor_finding *f)
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
		set(f, DOCTOR_WARN,
		    "run nvidia-persistenced (or nvidia-smi -pm 1) so the driver keeps the GPUs "
		    "initialised between processes",
		    "persistence mode off on GPU %s: each process that finds the GPU idle pays "
		    "its initialisation (first context, first allocation)",
		    off);
	else if (unknown[0])
		set(f, DOCTOR_UNKNOWN, NULL, "persistence mode not readable on GPU %s (NVML?)",
		    unknown);
	else
		set(f, DOCTOR_OK, NULL, "persistence mode on, %zu GPU(s)", json_array_size(devs));
}

/* A link trained narrower than the slot halves host<->device copies for good;
 * a lower generation can be the GPU saving power while idle. */
static void rule_gpu_pcie(const json_t *h, struct doctor_finding *f)
{
	const json_t *devs = gpu_devices(h, f), *d;
	char narrow[256] = "", slow[256] = "";
	size_t i;
	int have = 0;

	if (!devs)
		return;
	json_array_foreach (devs, i, d) {
		long long w = 0, wm = 0, g = 0, gm = 0;
		int hw = int_at(d, "pcie_link_width", NULL, &w) &&
			 int_at(d, "pcie_link_width_max", NULL, &wm);
		int hg = int_at(d, "pcie_link_gen", NULL, &g) &&
			 int_at(d, "pcie_link_gen_max", NULL, &gm);
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
		set(f, DOCTOR_UNKNOWN, NULL, "PCIe link width and generation not recorded");
	else if (narrow[0])
		set(f, DOCTOR_WARN,
		    "reseat the card or check the riser, slot wiring and BIOS bifurcation; "
		    "gpu.copy shows the pinned H2D/D2H rate it costs",
		    "PCIe link narrower than the device supports: %s%s%s", narrow,
		    slow[0] ? "; " : "", slow);
	else if (slow[0])
		set(f, DOCTOR_INFO,
		    "read it again under load (GPUs lower the link speed when idle): run "
		    "gpu.copy and compare pinned H2D/D2H with the generation's rate",
		    "PCIe link below its top generation when read: %s", slow);
	else
		set(f, DOCTOR_OK, NULL, "PCIe links at full width and generation on %zu GPU(s)",
		    json_array_size(devs));
}

/* Without HMM or ATS a kernel cannot dereference malloc'd or mmap'd memory:
 * such buffers reach the GPU only through copies (pageable copies are staged
 * through pinned buffers) or after registering them. */
static void rule_gpu_system_memory(const json_t *h, struct doctor_finding *f)
{
	const json_t *devs = gpu_devices(h, f), *d;
	const char *mode, *hmm_off;
	long long pma = -1;

	if (!devs)
		return;
	d = json_array_get(devs, 0);
	mode = json_string_value(json_object_get(d, "addressing_mode"));
	hmm_off = str_at(json_object_get(d, "driver"), "uvm_params", "uvm_disable_hmm");
	if (!int_at(d, "pageable_memory_access", NULL, &pma) && !mode) {
		set(f, DOCTOR_UNKNOWN, NULL, "addressing mode not recorded");
		return;
	}
	if (pma == 1)
		set(f, DOCTOR_OK, NULL,
		    "pageable memory access on (addressing mode %s): kernels can use malloc'd "
		    "memory; gpu.first_touch measures what it costs",
		    mode ? mode : "?");
	else
		set(f, DOCTOR_INFO,
		    "pass host buffers through cudaHostRegister or allocate them with "
		    "cudaMallocHost / cudaMallocManaged; HMM needs NVIDIA's open kernel modules "
		    "with nvidia_uvm's HMM on (uvm_disable_hmm=N) and a kernel built with HMM "
		    "(CONFIG_HMM_MIRROR, CONFIG_DEVICE_PRIVATE)",
		    "addressing mode %s, PageableMemoryAccess=0%s%s: GPU kernels cannot read "
		    "malloc'd or mmap'd memory; it reaches the GPU only by copies",
		    mode ? mode : "?", hmm_off ? ", uvm_disable_hmm=" : "", hmm_off ? hmm_off : "");
}

/* The price of the THP trap: first touch of memory that does not ask (what
 * THP madvise gives most programs) against MADV_HUGEPAGE memory. */
static const struct doctor_cost cost_thp = {
	.probe = "cpu.first_touch",
	.opts = "pages=default,thp touch=write",
	.metric = "touch_rate",
	.key = "pages",
	.a = "default",
	.b = "thp",
	.fixed_key = "touch",
	.fixed_val = "write",
	.what = "first touch of memory that does not ask vs MADV_HUGEPAGE memory"};
/* The price of sleeping, of which the idle states' exit latency is a part. */
static const struct doctor_cost cost_idle = {
	.probe = "cpu.wake",
	.opts = "mode=spin,futex",
	.metric = "wake_latency",
	.key = "mode",
	.a = "futex",
	.b = "spin",
	.what = "wake-up of a thread sleeping in futex vs a spinning one"};

static const struct rule {
	const char *id, *title, *measure;
	void (*check)(const json_t *host, struct doctor_finding *f);
	const struct doctor_cost *cost;
} rules[] = {
	{"thp_mode", "transparent huge pages for memory that does not ask",
	 "mempath probe cpu.first_touch pages=default,4k,thp", rule_thp_mode, &cost_thp},
	{"thp_defrag", "what a huge-page fault does without a free 2 MiB block",
	 "mempath probe cpu.first_touch pages=thp", rule_thp_defrag, NULL},
	{"deep_idle", "CPU idle states slow to wake from",
	 "mempath probe cpu.wake; mempath probe gpu.sync", rule_deep_idle, &cost_idle},
	{"cpufreq", "CPU frequency policy", "mempath probe cpu.latency", rule_governor, NULL},
	{"zone_reclaim", "node-local reclaim before remote allocation", "mempath probe cpu.numa",
	 rule_zone_reclaim, NULL},
	{"numa_balancing", "pages moved by automatic NUMA balancing while measured",
	 "mempath wrap -n 5 -- CMD", rule_numa_balancing, NULL},
	{"unaccounted_memory", "RAM in no /proc/meminfo counter (driver pools)",
	 "mempath phantom -- CMD", rule_unaccounted, NULL},
	{"pcp_free", "free pages parked on per-CPU lists, missing from MemFree",
	 "mempath phantom --cpu 1G", rule_pcp_free, NULL},
	{"hugetlb_reserved", "memory reserved for hugetlbfs", NULL, rule_hugetlb_reserved, NULL},
	{"gpu_persistence", "GPU driver state kept between processes", NULL, rule_gpu_persistence,
	 NULL},
	{"gpu_pcie", "GPU PCIe link width and generation", "mempath probe gpu.copy", rule_gpu_pcie,
	 NULL},
	{"gpu_system_memory", "system-allocated memory reachable by GPU kernels (HMM/ATS)",
	 "mempath probe gpu.first_touch", rule_gpu_system_memory, NULL},
};

const struct doctor_cost *doctor_cost_of(const char *id)
{
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (strcmp(rules[i].id, id) == 0)
			return rules[i].cost;
	return NULL;
}

static double cell_median(const struct doctor_cost *c, struct probe_result *res, const char *v,
			  const char **unit, int *better)
{
	struct metric *m = c->fixed_key ? probe_find_metric(res, c->metric, c->key, v, c->fixed_key,
							    c->fixed_val, NULL)
					: probe_find_metric(res, c->metric, c->key, v, NULL);
	struct summary sum;

	if (!m || m->n_samples == 0)
		return -1;
	stats_summarize(m->samples, m->n_samples, &sum);
	*unit = unit_name(m->unit);
	*better = m->better;
	return sum.median;
}

int doctor_cost_read(const struct doctor_cost *c, struct probe_result *res,
		     struct doctor_finding *f)
{
	const char *unit = "";
	int better = BETTER_NONE;
	double a, b, factor;

	free(f->measured);
	if (res->status != STATUS_OK) {
		f->measured = xasprintf("%s %s: %s", c->probe, status_name(res->status),
					res->reason ? res->reason : "no reason given");
		return -1;
	}
	/* two cells of one metric: one unit, one direction */
	a = cell_median(c, res, c->a, &unit, &better);
	b = cell_median(c, res, c->b, &unit, &better);
	if (!(a > 0) || !(b > 0)) {
		f->measured = xasprintf("%s gave no %s for %s=%s and %s=%s", c->probe, c->metric,
					c->key, c->a, c->key, c->b);
		return -1;
	}
	/* how many times worse the trap's path is, whichever way is better */
	factor = better == BETTER_LOWER ? a / b : b / a;
	f->measured = xasprintf("%s: %.3g vs %.3g %s, %.1fx (%s, medians)", c->what, a, b, unit,
				factor, c->probe);
	return 0;
}

static const char *const level_names[DOCTOR_LEVELS] = {"warn", "info", "ok", "n/a", "unknown"};

const char *doctor_level_name(enum doctor_level l)
{
	return (unsigned)l < DOCTOR_LEVELS ? level_names[l] : "?";
}

int doctor_level_parse(const char *s, enum doctor_level *out)
{
	for (int i = 0; i < DOCTOR_LEVELS; i++)
		if (s && strcmp(s, level_names[i]) == 0) {
			*out = (enum doctor_level)i;
			return 0;
		}
	return -1;
}

int doctor_check(const json_t *host, struct doctor_report *out)
{
	memset(out, 0, sizeof(*out));
	if (!json_is_object(host))
		return error("the fingerprint is not a JSON object");
	out->items = xcalloc(ARRAY_SIZE(rules), sizeof(*out->items));
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		struct doctor_finding *f = &out->items[out->n++];
		f->id = rules[i].id;
		f->title = rules[i].title;
		f->measure = rules[i].measure;
		rules[i].check(host, f);
		out->count[f->level]++;
	}
	return 0;
}

void doctor_report_free(struct doctor_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->items[i].evidence);
		free(r->items[i].measured);
	}
	free(r->items);
	memset(r, 0, sizeof(*r));
}
