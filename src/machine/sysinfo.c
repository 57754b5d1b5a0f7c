/* sysinfo.c - fingerprint, knobs and noise context, read from /proc and /sys.
 * An unreadable file leaves its key out: absent is absent, never invented. */
#include "machine/sysinfo.h"

#include <numa.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/kv.h"
#include "base/proc.h"
#include "base/util.h"
#include "gpu/backend.h"
#include "machine/cpulat.h"
#include "machine/levels.h"
#include "machine/limits.h"
#include "machine/noise.h"
#include "machine/pagesize.h"
#include "machine/pcie.h"
#include "machine/virt.h"

char *sysinfo_bracketed(const char *text)
{
	const char *a = text ? strchr(text, '[') : NULL, *b;
	if (!a)
		return text ? str_trim(xstrdup(text)) : NULL;
	b = strchr(a, ']');
	if (!b)
		return NULL;
	return xasprintf("%.*s", (int)(b - a - 1), a + 1);
}

long long sysinfo_arc_size(const char *t)
{
	/* "name type data" rows: "size                            4    8589934592" */
	for (const char *p = t; p && *p;) {
		long long v;
		int type;
		if (strncmp(p, "size ", 5) == 0 && sscanf(p + 5, "%d %lld", &type, &v) == 2)
			return v;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

/* Sets key to the file's first line (trimmed) if readable. */
static void set_file(json_t *o, const char *key, const char *path)
{
	char *s = read_line_str(path);
	if (s) {
		json_object_set_new(o, key, json_string(str_trim(s)));
		free(s);
	}
}

static void set_choice(json_t *o, const char *key, const char *path)
{
	char *s = read_line_str(path), *c;
	if (!s)
		return;
	c = sysinfo_bracketed(s);
	if (c)
		json_object_set_new(o, key, json_string(c));
	free(c);
	free(s);
}

static void set_int_file(json_t *o, const char *key, const char *path)
{
	char *s = read_line_str(path);
	char *end;
	long long v;
	if (!s)
		return;
	v = strtoll(s, &end, 10);
	if (end != s)
		json_object_set_new(o, key, json_integer(v));
	free(s);
}

static json_t *cpuidle_states(int cpu)
{
	json_t *a = json_array();
	for (int i = 0; i < 16; i++) {
		char base[128], path[192];
		json_t *st;
		snprintf(base, sizeof(base), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d", cpu,
			 i);
		snprintf(path, sizeof(path), "%s/name", base);
		if (access(path, R_OK) != 0)
			break;
		st = json_object();
		set_file(st, "name", path);
		snprintf(path, sizeof(path), "%s/latency", base);
		set_int_file(st, "exit_latency_us", path);
		snprintf(path, sizeof(path), "%s/residency", base);
		set_int_file(st, "target_residency_us", path);
		snprintf(path, sizeof(path), "%s/disable", base);
		set_int_file(st, "disabled", path);
		json_array_append_new(a, st);
	}
	return a;
}

static json_t *cpu_caches(void)
{
	json_t *a = json_array();
	for (int i = 0; i < 8; i++) {
		char base[96], path[160];
		json_t *c;
		snprintf(base, sizeof(base), "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		snprintf(path, sizeof(path), "%s/level", base);
		if (access(path, R_OK) != 0)
			break;
		c = json_object();
		set_int_file(c, "level", path);
		snprintf(path, sizeof(path), "%s/type", base);
		set_file(c, "type", path);
		snprintf(path, sizeof(path), "%s/size", base);
		set_file(c, "size_advertised", path);
		snprintf(path, sizeof(path), "%s/shared_cpu_list", base);
		set_file(c, "shared_cpu_list", path);
		json_array_append_new(a, c);
	}
	return a;
}

static char *cpuinfo_field(const char *cpuinfo, const char *name)
{
	const char *m = cpuinfo ? strstr(cpuinfo, name) : NULL, *colon, *eol;
	if (!m)
		return NULL;
	colon = strchr(m, ':');
	eol = strchr(m, '\n');
	if (!colon || (eol && colon > eol))
		return NULL;
	return str_trim(xasprintf("%.*s", (int)(eol ? eol - colon - 1 : (long)strlen(colon + 1)),
				  colon + 1));
}

static json_t *cpu_info(void)
{
	json_t *o = json_object();
	char *ci = read_file_str("/proc/cpuinfo", NULL), *s;
	if ((s = cpuinfo_field(ci, "model name")) != NULL) {
		json_object_set_new(o, "model", json_string(s));
		free(s);
	}
	if ((s = cpuinfo_field(ci, "flags")) != NULL) {
		json_object_set_new(o, "avx2", json_boolean(strstr(s, " avx2") != NULL));
		json_object_set_new(o, "avx512f", json_boolean(strstr(s, " avx512f") != NULL));
		json_object_set_new(o, "hypervisor",
				    json_boolean(strstr(s, " hypervisor") != NULL));
		free(s);
	}
	free(ci);
	json_object_set_new(o, "logical_cpus", json_integer(sysconf(_SC_NPROCESSORS_CONF)));
	json_object_set_new(o, "online_cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	set_file(o, "online", "/sys/devices/system/cpu/online");
	set_int_file(o, "smt_active", "/sys/devices/system/cpu/smt/active");
	set_file(o, "smt_control", "/sys/devices/system/cpu/smt/control");
	set_file(o, "scaling_driver", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver");
	set_file(o, "cpuidle_driver", "/sys/devices/system/cpu/cpuidle/current_driver");
	json_object_set_new(o, "caches", cpu_caches());
	json_object_set_new(o, "cpuidle_states_cpu0", cpuidle_states(0));
	return o;
}

static json_t *numa_info(void)
{
	json_t *o = json_object(), *nodes = json_array();
	int max;
	if (numa_available() < 0) {
		json_object_set_new(o, "available", json_false());
		json_object_set_new(o, "nodes", json_integer(1));
		json_decref(nodes);
		return o;
	}
	max = numa_max_node();
	json_object_set_new(o, "available", json_true());
	json_object_set_new(o, "nodes", json_integer(numa_num_configured_nodes()));
	for (int i = 0; i <= max; i++) {
		json_t *n = json_object(), *dist = json_array();
		long long free_b = 0, size = numa_node_size64(i, &free_b);
		struct bitmask *cpus = numa_allocate_cpumask();
		int ncpus = 0;
		if (size < 0) {
			json_decref(n);
			json_decref(dist);
			numa_free_cpumask(cpus);
			continue;
		}
		if (numa_node_to_cpus(i, cpus) == 0)
			ncpus = (int)numa_bitmask_weight(cpus);
		numa_free_cpumask(cpus);
		json_object_set_new(n, "node", json_integer(i));
		json_object_set_new(n, "mem_bytes", json_integer(size));
		json_object_set_new(n, "cpus", json_integer(ncpus));
		for (int j = 0; j <= max; j++)
			json_array_append_new(dist, json_integer(numa_distance(i, j)));
		json_object_set_new(n, "distances", dist);
		json_array_append_new(nodes, n);
	}
	json_object_set_new(o, "node_list", nodes);
	return o;
}

static json_t *kdamonds(void)
{
	json_t *a = json_array();
	char *n = read_line_str("/sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds");
	int count = n ? atoi(n) : 0;
	free(n);
	for (int i = 0; i < count && i < 64; i++) {
		char path[128];
		json_t *k = json_object();
		snprintf(path, sizeof(path), "/sys/kernel/mm/damon/admin/kdamonds/%d/state", i);
		set_file(k, "state", path);
		json_array_append_new(a, k);
	}
	return a;
}

/* The peer-to-peer knobs (IOMMU mode, ACS redirect on the GPUs' paths, BAR
 * sizes, pair kinds: pcie.h), read again, as every knob, at both ends. */
static void p2p_knobs(json_t *knobs, const char *sysfs_root)
{
	json_t *iommu = pcie_iommu_collect(sysfs_root), *pcie = pcie_collect(sysfs_root);

	pcie_knobs(knobs, iommu, pcie);
	json_decref(iommu);
	json_decref(pcie);
}

json_t *sysinfo_knobs(void)
{
	json_t *o = json_object();
	const char *thp = "/sys/kernel/mm/transparent_hugepage";
	char path[160];
	json_t *disabled = json_array();
	snprintf(path, sizeof(path), "%s/enabled", thp);
	set_choice(o, "thp_enabled", path);
	snprintf(path, sizeof(path), "%s/defrag", thp);
	set_choice(o, "thp_defrag", path);
	snprintf(path, sizeof(path), "%s/shmem_enabled", thp);
	set_choice(o, "thp_shmem_enabled", path);
	snprintf(path, sizeof(path), "%s/khugepaged/defrag", thp);
	set_int_file(o, "khugepaged_defrag", path);
	snprintf(path, sizeof(path), "%s/khugepaged/max_ptes_none", thp);
	set_int_file(o, "khugepaged_max_ptes_none", path);
	set_int_file(o, "numa_balancing", "/proc/sys/kernel/numa_balancing");
	set_int_file(o, "swappiness", "/proc/sys/vm/swappiness");
	set_int_file(o, "zone_reclaim_mode", "/proc/sys/vm/zone_reclaim_mode");
	set_int_file(o, "overcommit_memory", "/proc/sys/vm/overcommit_memory");
	set_int_file(o, "watermark_scale_factor", "/proc/sys/vm/watermark_scale_factor");
	set_file(o, "governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	set_file(o, "energy_perf_preference",
		 "/sys/devices/system/cpu/cpu0/cpufreq/energy_performance_preference");
	set_int_file(o, "intel_no_turbo", "/sys/devices/system/cpu/intel_pstate/no_turbo");
	set_int_file(o, "cpufreq_boost", "/sys/devices/system/cpu/cpufreq/boost");
	for (int i = 0; i < 16; i++) {
		char *name, *dis;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/name",
			 i);
		name = read_line_str(path);
		if (!name)
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/disable",
			 i);
		dis = read_line_str(path);
		if (dis && atoi(dis))
			json_array_append_new(disabled, json_string(str_trim(name)));
		free(name);
		free(dis);
	}
	json_object_set_new(o, "cpuidle_disabled_cpu0", disabled);
	p2p_knobs(o, "/sys");
	pagesize_knobs(o, "/sys");
	cpulat_knobs(o);
	return o;
}

json_t *sysinfo_noise(void)
{
	json_t *o = json_object();
	char *la = read_line_str("/proc/loadavg");
	if (la) {
		double l1, l5, l15;
		int running, total;
		if (sscanf(la, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) == 5) {
			json_object_set_new(o, "loadavg_1m", json_real(l1));
			json_object_set_new(o, "loadavg_5m", json_real(l5));
			json_object_set_new(o, "runnable", json_integer(running));
			json_object_set_new(o, "threads", json_integer(total));
		}
		free(la);
	}
	return o;
}

/* The driver's peer-to-peer answers per ordered pair (what gpu.p2p's access
 * test records, and nvidia-smi topo -p2p shows), for doctor's peer_access. */
static json_t *peer_access(const struct gpu_backend *gpu)
{
	static const struct {
		const char *key;
		enum gpu_p2p_attr attr;
	} attrs[] = {{"access_supported", GPU_P2P_ACCESS},
		     {"native_atomics", GPU_P2P_NATIVE_ATOMICS},
		     {"perf_rank", GPU_P2P_PERF_RANK}};
	json_t *a = json_array();
	int n = gpu->count();

	for (int i = 0; i < n && n <= 64; i++)
		for (int j = 0; j < n; j++) {
			json_t *e;
			int v = 0;
			if (i == j)
				continue;
			e = json_pack("{s:i, s:i}", "src", i, "dst", j);
			if (gpu->can_access_peer(i, j, &v) == 0)
				json_object_set_new(e, "can_access_peer", json_integer(v));
			for (size_t k = 0; k < ARRAY_SIZE(attrs); k++)
				if (gpu->p2p_attr(attrs[k].attr, i, j, &v) == 0)
					json_object_set_new(e, attrs[k].key, json_integer(v));
			gpu->clear_error();
			json_array_append_new(a, e);
		}
	return a;
}

static json_t *gpu_part(void)
{
	const char *why = gpu_absent_reason();
	json_t *o = json_object();
	if (why) {
		json_object_set_new(o, "unsupported", json_string(why));
		return o;
	}
	json_object_set_new(o, "devices", gpu_backend()->sysinfo() ?: json_array());
	if (gpu_backend()->count() > 1)
		json_object_set_new(o, "peer_access", peer_access(gpu_backend()));
	return o;
}

/* GPU contexts (CUDA's) do not survive fork, so GPU facts come from a child. */
static json_t *gpu_child(void *arg)
{
	return gpu_part();
}

json_t *sysinfo_collect(void)
{
	json_t *o = json_object(), *mem = json_object(), *gpu, *busy, *pcie;
	struct utsname u;
	struct kv_list mi;
	struct levels lv;
	char host[256] = "", *arc;
	gethostname(host, sizeof(host) - 1);
	json_object_set_new(o, "hostname", json_string(host));
	if (uname(&u) == 0) {
		json_object_set_new(o, "kernel", json_string(u.release));
		json_object_set_new(o, "kernel_version", json_string(u.version));
		json_object_set_new(o, "arch", json_string(u.machine));
	}
	set_file(o, "cmdline", "/proc/cmdline");
	json_object_set_new(o, "cpu", cpu_info());
	json_object_set_new(o, "virt", virt_detect());
	if (meminfo_read(&mi) == 0) {
		int found;
		int64_t v;
		/* the sizes, then every counter that owns pages, so a reader can
		 * tell how much RAM no counter explains (doctor) */
		static const char *const keys[] = {
			"MemTotal",	   "MemAvailable",   "SwapTotal",     "Hugepagesize",
			"HugePages_Total", "HugePages_Free", "AnonHugePages", "MemFree",
			"Active",	   "Inactive",	     "Unevictable",   "Slab",
			"SReclaimable",	   "KReclaimable",   "KernelStack",   "PageTables",
			"SecPageTables",   "Percpu",	     "VmallocUsed",   "Hugetlb",
			"Zswap",	   "Balloon",	     "Unaccepted",    "GPUActive",
			"GPUReclaim"};
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
			v = kv_get(&mi, keys[i], &found);
			if (found)
				json_object_set_new(mem, keys[i], json_integer(v));
		}
	}
	kv_free(&mi);
	json_object_set_new(mem, "page_size", json_integer(sysconf(_SC_PAGESIZE)));
	/* free pages parked on per-CPU lists: in no meminfo counter */
	if (levels_read(&lv, 1) == 0 && lv.pcp_bytes >= 0)
		json_object_set_new(mem, "pcp_free_bytes", json_integer(lv.pcp_bytes));
	/* the ZFS ARC lives outside the page cache and most meminfo counters */
	if ((arc = read_file_str("/proc/spl/kstat/zfs/arcstats", NULL)) != NULL) {
		long long size = sysinfo_arc_size(arc);
		if (size >= 0)
			json_object_set_new(mem, "zfs_arc_bytes", json_integer(size));
		free(arc);
	}
	json_object_set_new(o, "memory", mem);
	json_object_set_new(o, "numa", numa_info());
	json_object_set_new(o, "iommu", pcie_iommu_collect("/sys"));
	if ((pcie = pcie_collect("/sys")) != NULL)
		json_object_set_new(o, "pcie", pcie);
	json_object_set_new(o, "kdamonds", kdamonds());
	json_object_set_new(o, "knobs", sysinfo_knobs());
	json_object_set_new(o, "noise", sysinfo_noise());
	/* who else is busy, for the doctor and the warning at a run's start */
	busy = noise_look(noise_look_window_s());
	if (busy)
		json_object_set_new(json_object_get(o, "noise"), "busy", busy);
	gpu = proc_json(gpu_child, NULL, 60, NULL);
	if (gpu)
		json_object_set_new(o, "gpu", gpu);
	json_object_set_new(o, "dram", limits_dram_collect("/sys"));
	json_object_set_new(o, "limits", limits_derive(o));
	return o;
}

json_t *sysinfo_collect_tree(const char *root)
{
	char *sys = xasprintf("%s/sys", root), *path, *s;
	json_t *o = json_object(), *knobs = json_object(), *iommu, *pcie;
	static const char *const facts[][2] = {{"hostname", "proc/sys/kernel/hostname"},
					       {"kernel", "proc/sys/kernel/osrelease"},
					       {"cmdline", "proc/cmdline"}};

	for (size_t i = 0; i < ARRAY_SIZE(facts); i++) {
		path = xasprintf("%s/%s", root, facts[i][1]);
		if ((s = read_line_str(path)) != NULL)
			json_object_set_new(o, facts[i][0], json_string(str_trim(s)));
		free(s);
		free(path);
	}
	iommu = pcie_iommu_collect(sys);
	pcie = pcie_collect(sys);
	pcie_knobs(knobs, iommu, pcie);
	pagesize_knobs(knobs, sys);
	json_object_set_new(o, "iommu", iommu);
	if (pcie)
		json_object_set_new(o, "pcie", pcie);
	json_object_set_new(o, "knobs", knobs);
	json_object_set_new(o, "dram", limits_dram_collect(sys));
	json_object_set_new(o, "limits", limits_derive(o));
	free(sys);
	return o;
}

static void print_value(json_t *v, int indent, FILE *f);

static void print_obj(json_t *o, int indent, FILE *f)
{
	const char *k;
	json_t *v;
	json_object_foreach (o, k, v) {
		char *e = util_escape_controls(k);

		fprintf(f, "%*s%s:", indent, "", e);
		free(e);
		if (json_is_object(v) || (json_is_array(v) && json_array_size(v) > 0 &&
					  !json_is_string(json_array_get(v, 0)) &&
					  !json_is_number(json_array_get(v, 0)))) {
			fputc('\n', f);
			print_value(v, indent + 2, f);
		} else {
			fputc(' ', f);
			print_value(v, 0, f);
			fputc('\n', f);
		}
	}
}

static void print_value(json_t *v, int indent, FILE *f)
{
	size_t i;
	json_t *x;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		print_obj(v, indent, f);
		break;
	case JSON_ARRAY:
		if (json_array_size(v) &&
		    (json_is_object(json_array_get(v, 0)) || json_is_array(json_array_get(v, 0)))) {
			json_array_foreach (v, i, x) {
				fprintf(f, "%*s- [%zu]\n", indent, "", i);
				print_value(x, indent + 2, f);
			}
		} else {
			char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY),
			     *e = util_escape_controls(s ? s : "[]");
			fputs(e, f);
			free(e);
			free(s);
		}
		break;
	case JSON_STRING: {
		/* /proc and sysfs text (a CPU model string) is text from
		 * outside: shown by the one rule (§9.3) */
		char *e = util_escape_controls(json_string_value(v));
		fputs(e, f);
		free(e);
		break;
	}
	default: {
		char *s = json_dumps(v, JSON_ENCODE_ANY);
		fputs(s ? s : "", f);
		free(s);
	}
	}
}

void sysinfo_print(json_t *host, FILE *f)
{
	print_obj(host, 0, f);
}
