/* doctor.c - the known-trap rules. Each rule reads the fingerprint and fills one
 * finding; the thresholds and the wording of each fix live next to the check
 * they belong to, with the measurement that motivated them. */
#include "machine/doctor.h"
#include "machine/cpulat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "machine/doctor_dram.h"
#include "machine/doctor_facts.h"
#include "machine/doctor_gpu.h"
#include "machine/doctor_p2p.h"
#include "machine/doctor_pages.h"
#include "machine/noise.h"
#include "machine/virt.h"
#include "results/results.h"

/* docs/design.md §10.1: with THP in madvise mode nothing on the box gets huge pages unless
 * it asks; first touch of 1 GiB ran 4.7x faster with THP on the dev VM
 * (docs/results/vm-2026-11-30.md) and random DRAM loads 39% cheaper. */
static void rule_thp_mode(const json_t *h, struct doctor_finding *f)
{
	const char *en = doctor_str_at(h, "knobs", "thp_enabled");
	long long anon = -1;
	char huge[48] = "";

	if (!en) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "no transparent_hugepage/enabled recorded (kernel without THP?)");
		return;
	}
	if (doctor_int_at(h, "memory", "AnonHugePages", &anon))
		snprintf(huge, sizeof(huge), "; AnonHugePages %.0f MiB system-wide",
			 (double)anon / MiB);
	if (strcmp(en, "always") == 0)
		doctor_set(f, DOCTOR_OK, NULL, "enabled=always%s", huge);
	else if (strcmp(en, "madvise") == 0)
		doctor_set(f, DOCTOR_WARN,
			   "ask for huge pages where memory is large and hot: "
			   "madvise(MADV_HUGEPAGE) on "
			   "anonymous buffers before they are first touched (weights copied into "
			   "anonymous memory, KV pools); or system-wide: echo always > "
			   "/sys/kernel/mm/transparent_hugepage/enabled "
			   "(transparent_hugepage=always on "
			   "the kernel command line keeps it)",
			   "enabled=madvise: memory that does not call madvise(MADV_HUGEPAGE) gets "
			   "4 KiB "
			   "pages%s",
			   huge);
	else if (strcmp(en, "never") == 0)
		doctor_set(
			f, DOCTOR_WARN,
			"echo madvise (or always) > /sys/kernel/mm/transparent_hugepage/enabled; "
			"check the kernel command line for transparent_hugepage=never",
			"enabled=%s: no anonymous memory gets huge pages, even when it asks%s", en,
			huge);
	else /* a file from elsewhere, or a kernel with modes this rule does not know */
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "enabled='%s' is not a THP mode this rule knows (always, madvise, "
			   "never)",
			   en);
}

/* What a THP fault does when no free 2 MiB block is at hand. */
static void rule_thp_defrag(const json_t *h, struct doctor_finding *f)
{
	const char *d = doctor_str_at(h, "knobs", "thp_defrag"),
		   *en = doctor_str_at(h, "knobs", "thp_enabled");

	if (!d) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no transparent_hugepage/defrag recorded");
	} else if (en && strcmp(en, "never") == 0) {
		doctor_set(f, DOCTOR_NA, NULL, "defrag=%s, but THP is off", d);
	} else if (strcmp(d, "never") == 0) {
		doctor_set(f, DOCTOR_INFO,
			   "echo madvise > /sys/kernel/mm/transparent_hugepage/defrag, so "
			   "MADV_HUGEPAGE "
			   "faults compact memory; and read the THP actually obtained "
			   "(cpu.first_touch "
			   "reports it from smaps)",
			   "defrag=never: even MADV_HUGEPAGE faults never compact, so once free "
			   "memory "
			   "is fragmented they silently get 4 KiB pages");
	} else if (strcmp(d, "always") == 0) {
		doctor_set(f, DOCTOR_INFO,
			   "echo defer+madvise > /sys/kernel/mm/transparent_hugepage/defrag leaves "
			   "compaction to kcompactd except where memory asked for huge pages",
			   "defrag=always: every THP fault may stall in direct compaction (fault "
			   "latency "
			   "spikes under fragmentation)");
	} else if (strcmp(d, "madvise") == 0 || strcmp(d, "defer") == 0 ||
		   strcmp(d, "defer+madvise") == 0) {
		doctor_set(f, DOCTOR_OK, NULL, "defrag=%s", d);
	} else {
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "defrag='%s' is not a mode this rule knows (always, defer, "
			   "defer+madvise, madvise, never)",
			   d);
	}
}

/* docs/design.md §10.5: blocking GPU sync cost 7% per decode step with idle states of
 * 231/433 us exit latency enabled, 1% with them disabled. */
#define DEEP_IDLE_US 100

static const char *qos_note(const json_t *h, long long worst)
{
	long long req;

	return doctor_int_at(h, "knobs", "cpu_dma_latency_us", &req) ? cpulat_note(req, worst) : "";
}

static void rule_deep_idle(const json_t *h, struct doctor_finding *f)
{
	const json_t *states = doctor_at(h, "cpu", "cpuidle_states_cpu0", NULL), *st;
	const char *drv = doctor_str_at(h, "cpu", "cpuidle_driver");
	char list[512] = "";
	size_t i, len = 0;
	long long worst = -1;

	if (!json_is_array(states)) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no cpuidle states recorded");
		return;
	}
	if (json_array_size(states) == 0) {
		doctor_set(f, DOCTOR_OK, NULL,
			   "no cpuidle states exposed (driver %s): default idle only; a "
			   "/dev/cpu_dma_latency request (MEMPATH_CPU_DMA_LATENCY=0) has no state "
			   "to keep CPUs out of here%s",
			   drv ? drv : "none", qos_note(h, -1));
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
	if (json_is_integer(doctor_at(h, "knobs", "cpu_dma_latency_us", NULL)) &&
	    len < sizeof(list))
		snprintf(list + len, sizeof(list) - len, "%s", qos_note(h, worst));
	if (worst >= DEEP_IDLE_US) {
		/* the wait's name in the backend's words (doctor runs in any build) */
		char fix[512];

		snprintf(fix, sizeof(fix),
			 "where a thread sleeps and must wake fast (blocking GPU sync, futex "
			 "hand-offs in a serving loop): wait by spinning (%s), or keep CPUs out of "
			 "the deep states: cpupower idle-set -D %d (or 1 > "
			 "/sys/devices/system/cpu/cpu*/cpuidle/stateN/disable); costs idle power",
			 GPU_NAME(sched_spin), DEEP_IDLE_US);
		doctor_set(
			f, DOCTOR_WARN, fix,
			"cpu0 idle states enabled with exit latency up to %lld us (>= %d us): %s",
			worst, DEEP_IDLE_US, list);
	} else
		doctor_set(f, DOCTOR_OK, NULL,
			   "deepest enabled state exits in %lld us (< %d us): %s", worst,
			   DEEP_IDLE_US, list);
}

/* acpi-cpufreq's powersave governor pins the lowest frequency; intel_pstate
 * and amd-pstate use the same name for their normal, demand-driven mode. */
static void rule_governor(const json_t *h, struct doctor_finding *f)
{
	const char *gov = doctor_str_at(h, "knobs", "governor");
	const char *drv = doctor_str_at(h, "cpu", "scaling_driver");
	long long no_turbo = 0, boost = 1;
	int have_nt = doctor_int_at(h, "knobs", "intel_no_turbo", &no_turbo);
	int have_b = doctor_int_at(h, "knobs", "cpufreq_boost", &boost);

	if (!gov) {
		doctor_set(f, DOCTOR_NA, NULL,
			   "no cpufreq governor: frequency is set by the firmware or hypervisor");
	} else if (strcmp(gov, "powersave") == 0 && drv && strcmp(drv, "acpi-cpufreq") == 0) {
		doctor_set(f, DOCTOR_WARN,
			   "cpupower frequency-set -g schedutil (or performance for measurements)",
			   "governor=powersave with acpi-cpufreq: every CPU runs at its lowest "
			   "frequency");
	} else if ((have_nt && no_turbo) || (have_b && !boost)) {
		doctor_set(f, DOCTOR_INFO,
			   "echo 0 > /sys/devices/system/cpu/intel_pstate/no_turbo (or 1 > "
			   "/sys/devices/system/cpu/cpufreq/boost); keep it equal across A/B legs",
			   "governor=%s (%s), turbo/boost off: single-thread latency and bandwidth "
			   "read "
			   "lower than the part can give",
			   gov, drv ? drv : "?");
	} else {
		doctor_set(f, DOCTOR_OK, NULL, "governor=%s (%s)", gov, drv ? drv : "?");
	}
}

static long long numa_nodes(const json_t *h)
{
	long long n = 0;
	return doctor_int_at(h, "numa", "nodes", &n) ? n : 0;
}

/* A NUMA knob that matters on two or more nodes, and only when set. */
static void numa_knob(const json_t *h, struct doctor_finding *f, const char *knob,
		      const char *sysctl, enum doctor_level when_set, const char *fix,
		      const char *what)
{
	long long nodes = numa_nodes(h), mode = 0;

	if (!doctor_int_at(h, "knobs", knob, &mode))
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no %s recorded", sysctl);
	else if (nodes < 2)
		doctor_set(f, DOCTOR_NA, NULL, "one NUMA node (%s=%lld)", sysctl, mode);
	else if (mode != 0)
		doctor_set(f, when_set, fix, "%s=%lld on %lld nodes: %s", sysctl, mode, nodes,
			   what);
	else
		doctor_set(f, DOCTOR_OK, NULL, "%s=0 on %lld nodes", sysctl, nodes);
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
	if (!doctor_int_at(memory, "MemTotal", NULL, &total))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(needed); i++) {
		if (!doctor_int_at(memory, needed[i], NULL, &v))
			return 0;
		sum += v;
	}
	for (size_t i = 0; i < ARRAY_SIZE(optional); i++)
		if (doctor_int_at(memory, optional[i], NULL, &v))
			sum += v;
	/* hugetlb pages of every size, else the default size's pool */
	if (doctor_int_at(memory, "Hugetlb", NULL, &v))
		sum += v;
	else if (doctor_int_at(memory, "HugePages_Total", NULL, &hp) &&
		 doctor_int_at(memory, "Hugepagesize", NULL, &hsz))
		sum += hp * hsz;
	/* free pages on per-CPU lists (zoneinfo): free, but not in MemFree; the
	 * ZFS ARC (arcstats size; a part of it may sit in Slab or VmallocUsed,
	 * so this errs towards less unaccounted, not more) */
	if (doctor_int_at(memory, "pcp_free_bytes", NULL, &v))
		sum += v;
	if (doctor_int_at(memory, "zfs_arc_bytes", NULL, &v))
		sum += v;
	/* reclaimable kernel memory other than slab: pools that report themselves */
	if (doctor_int_at(memory, "KReclaimable", NULL, &kr) &&
	    doctor_int_at(memory, "SReclaimable", NULL, &sr) && kr > sr)
		sum += kr - sr;
	*have = 1;
	return total - sum;
}

/* docs/design.md §10.2: a driver kept 55 GiB of freed pages in its pools after a
 * 64 GiB process exited, in no /proc/meminfo counter. Measured 2026-11-30:
 * 0.01 GiB on the dev VM and 0.09 GiB on the H200 host at rest; 2.5 GiB held in
 * pipe buffers read as 2.52; 16 GiB from cudaMallocHost (driver 580) sat on
 * the LRU (Inactive) and read as nothing. Beyond both limits below it is
 * memory somebody holds without saying so. */
#define UNACCOUNTED_WARN_BYTES	  (1.0 * GiB)
#define UNACCOUNTED_WARN_FRACTION 0.04

static void rule_unaccounted(const json_t *h, struct doctor_finding *f)
{
	const json_t *mem = doctor_at(h, "memory", NULL);
	long long total = 0, un, gpu = 0, arc = 0;
	char also[96] = "";
	int have;

	un = doctor_unaccounted_bytes(mem, &have);
	if (!have || !doctor_int_at(mem, "MemTotal", NULL, &total) || total <= 0) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "the fingerprint lacks the /proc/meminfo counters (recorded by an older "
			   "mempath?)");
		return;
	}
	gpu = doctor_int_at(mem, "GPUActive", NULL, &gpu) ||
	      doctor_int_at(mem, "GPUReclaim", NULL, &gpu);
	if (doctor_int_at(mem, "zfs_arc_bytes", NULL, &arc) && arc > 0)
		snprintf(also, sizeof(also), " (ZFS ARC %.2f GiB%s counted as owned)", arc / GiB,
			 gpu ? ", GPUActive/GPUReclaim" : "");
	else if (gpu)
		snprintf(also, sizeof(also), " (GPUActive/GPUReclaim counted as owned)");
	if (un > UNACCOUNTED_WARN_BYTES && un > UNACCOUNTED_WARN_FRACTION * (double)total)
		doctor_set(
			f, DOCTOR_WARN,
			"stop the GPU/accelerator processes and look again: what stays missing is "
			"held by a driver after its owner exited (mempath phantom -- CMD finds the "
			"command that leaves it; phantom --gpu SIZE checks the GPU driver); kernel "
			"buffers that running processes hold (pipe buffers, for one) also count "
			"here",
			"%.2f GiB of %.1f GiB RAM (%.1f%%) is in no /proc/meminfo counter%s",
			un / GiB, total / GiB, 100.0 * (double)un / (double)total, also);
	else
		doctor_set(f, DOCTOR_OK, NULL,
			   "%.2f GiB of %.1f GiB RAM (%.1f%%) in no /proc/meminfo counter (limit: "
			   "%.0f "
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

	if (!doctor_int_at(h, "memory", "pcp_free_bytes", &pcp) ||
	    !doctor_int_at(h, "memory", "MemTotal", &total) || total <= 0) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "per-CPU list counts (/proc/zoneinfo) not recorded");
		return;
	}
	if (pcp > UNACCOUNTED_WARN_BYTES && pcp > UNACCOUNTED_WARN_FRACTION * (double)total)
		doctor_set(
			f, DOCTOR_INFO,
			"nothing to fix; what reads MemAvailable for leaks or sizes must add them "
			"(mempath phantom does) or wait: the lists drain over tens of seconds or "
			"under pressure",
			"%.2f GiB of free pages on per-CPU lists (%.1f%% of RAM): free, but in "
			"neither MemFree nor MemAvailable",
			pcp / GiB, 100.0 * (double)pcp / (double)total);
	else
		doctor_set(f, DOCTOR_OK, NULL, "%.2f GiB of free pages on per-CPU lists",
			   pcp / GiB);
}

/* Pages reserved for hugetlbfs are gone from MemAvailable whether used or not. */
static void rule_hugetlb_reserved(const json_t *h, struct doctor_finding *f)
{
	long long total = 0, free_p = 0, size = 0;
	char free_s[32] = "?";

	if (!doctor_int_at(h, "memory", "HugePages_Total", &total) ||
	    !doctor_int_at(h, "memory", "Hugepagesize", &size)) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no HugePages_Total recorded");
		return;
	}
	if (total == 0) {
		doctor_set(f, DOCTOR_OK, NULL, "no hugetlbfs pages reserved");
		return;
	}
	if (doctor_int_at(h, "memory", "HugePages_Free", &free_p))
		snprintf(free_s, sizeof(free_s), "%lld", free_p);
	doctor_set(f, DOCTOR_INFO,
		   "if nothing maps hugetlbfs here, echo 0 > /proc/sys/vm/nr_hugepages returns it; "
		   "THP gives huge pages without a reservation",
		   "%lld hugetlbfs pages of %.0f MiB reserved (%.2f GiB; %s free): out of "
		   "MemAvailable whether used or not",
		   total, size / MiB, (double)total * (double)size / GiB, free_s);
}

/* The price of the THP trap: first touch of memory that does not ask (what
 * THP madvise gives most programs) against MADV_HUGEPAGE memory. */
static const struct doctor_cost cost_thp = {
	.probe = "cpu.first_touch",
	.opts = "pages=default,thp touch=write size=64M",
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

/* docs/design.md §4.14: other work on the machine when its fingerprint was
 * taken (a look of a quarter second); legs measured under loads that
 * differ by NOISE_BUSY_CPUS get no verdict. */
static void rule_busy(const json_t *h, struct doctor_finding *f)
{
	json_t *look = doctor_at(h, "noise", "busy", NULL);
	json_t *cpus = look ? json_object_get(look, "cpus") : NULL;
	char *line;
	double other;
	if (!look || !json_is_number(json_object_get(look, "other_cpus"))) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no look at the machine's load recorded");
		return;
	}
	other = json_number_value(json_object_get(look, "other_cpus")) +
		json_number_value(json_object_get(look, "steal_cpus"));
	line = noise_busy_line(look);
	if (line)
		doctor_set(f, DOCTOR_WARN,
			   "measure when the machine is quiet, or compare in rounds (mempath ab "
			   "--rounds auto: a load that comes and goes between rounds cancels); "
			   "compare withholds the verdict of legs measured under different load",
			   "%s over %.2f s, of %lld CPUs", line,
			   json_number_value(json_object_get(look, "interval_s")),
			   json_is_integer(cpus) ? (long long)json_integer_value(cpus) : -1LL);
	else
		doctor_set(f, DOCTOR_OK, NULL, "%.2f other CPUs busy over %.2f s (busy from %.2f)",
			   other, json_number_value(json_object_get(look, "interval_s")),
			   NOISE_BUSY_CPUS);
	free(line);
}

static const struct rule {
	const char *id, *title, *measure;
	void (*check)(const json_t *host, struct doctor_finding *f);
	const struct doctor_cost *cost;
} rules[] = {
	{"thp_mode", "transparent huge pages for memory that does not ask",
	 "mempath probe cpu.first_touch pages=default,4k,thp", rule_thp_mode, &cost_thp},
	{"mthp_sizes", "multi-size THP sizes that are off",
	 "mempath probe cpu.first_touch pages=all", doctor_rule_mthp, &doctor_cost_mthp},
	{"thp_defrag", "what a huge-page fault does without a free 2 MiB block",
	 "mempath probe cpu.first_touch pages=thp", rule_thp_defrag, NULL},
	{"deep_idle", "CPU idle states slow to wake from",
	 "mempath probe cpu.wake; mempath probe gpu.sync", rule_deep_idle, &cost_idle},
	{"cpufreq", "CPU frequency policy", "mempath probe cpu.latency", rule_governor, NULL},
	{"busy", "other work on the machine while it measures", NULL, rule_busy, NULL},
	{"virt", "an emulator or a hypervisor under the measurements", NULL, doctor_rule_virt,
	 NULL},
	{"zone_reclaim", "node-local reclaim before remote allocation", "mempath probe cpu.numa",
	 rule_zone_reclaim, NULL},
	{"numa_balancing", "pages moved by automatic NUMA balancing while measured",
	 "mempath wrap -n 5 -- CMD", rule_numa_balancing, NULL},
	{"unaccounted_memory", "RAM in no /proc/meminfo counter (driver pools)",
	 "mempath phantom -- CMD", rule_unaccounted, NULL},
	{"pcp_free", "free pages parked on per-CPU lists, missing from MemFree",
	 "mempath phantom --cpu 1G", rule_pcp_free, NULL},
	{"hugetlb_reserved", "memory reserved for hugetlbfs", NULL, rule_hugetlb_reserved, NULL},
	{"dimm_speed", "DIMMs at their rated speed (SMBIOS)", "mempath probe cpu.stream",
	 doctor_rule_dimm_speed, NULL},
	{"gpu_persistence", "GPU driver state kept between processes", NULL,
	 doctor_rule_gpu_persistence, NULL},
	{"gpu_pcie", "GPU PCIe link width and generation", "mempath probe gpu.copy",
	 doctor_rule_gpu_pcie, NULL},
	{"gpu_system_memory", "system-allocated memory reachable by GPU kernels (HMM/ATS)",
	 "mempath probe gpu.first_touch", doctor_rule_gpu_system_memory, NULL},
	/* docs/design.md §8.17: can the GPUs talk to each other directly */
	{"iommu_mode", "IOMMU translation of the GPUs' DMA", "mempath probe gpu.p2p",
	 doctor_rule_iommu_mode, NULL},
	{"acs_redirect", "ACS redirect on the PCIe ports between GPUs", "mempath probe gpu.p2p",
	 doctor_rule_acs_redirect, NULL},
	{"bar1", "GPU BAR size against its memory (Resizable BAR, Above 4G)",
	 "mempath probe gpu.p2p", doctor_rule_bar1, NULL},
	{"p2p_path", "the PCIe path between each pair of GPUs", "mempath probe gpu.p2p",
	 doctor_rule_p2p_path, NULL},
	{"peer_access", "the driver's peer-access answer for each ordered GPU pair",
	 "mempath probe gpu.p2p tests=access,ce,staged", doctor_rule_peer_access, NULL},
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
		free(r->items[i].fix);
		free(r->items[i].measured);
		json_decref(r->items[i].facts);
	}
	free(r->items);
	memset(r, 0, sizeof(*r));
}
