/* nvml.c - the CUDA backend's NVML part, loaded with dlopen("libnvidia-ml.so.1")
 * and only read.
 *
 * No nvml.h here: the few types and prototypes are declared below as NVML's
 * stable C ABI has them (handles are pointers, results ints, enums ints).
 * Nothing here sets anything (docs/design.md §4.9): no clocks, limits or modes.
 * The sampler is a thread that reads clocks, power, temperature, utilisation
 * and clock-event (throttle) reasons every period_ms between start and stop.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "gpu/cuda/cuda_impl.h"
#include "results/results.h"

/* nvmlDevice_t is `struct nvmlDevice_st *`; named here as an opaque handle. */
struct nvml_device_st;
struct nvml_util {
	unsigned gpu, memory; /* nvmlUtilization_t */
};

enum { NVML_OK = 0 };

/* nvmlProcessInfo_t as the _v2 and _v3 running-process calls fill it. */
struct nvml_proc {
	unsigned pid;
	unsigned long long used_bytes;
	unsigned gpu_instance, compute_instance;
};
enum { CLK_GRAPHICS = 0, CLK_SM = 1, CLK_MEM = 2 }; /* nvmlClockType_t */
/* nvmlBAR1Memory_t */
struct nvml_bar1 {
	unsigned long long total, free, used;
};
#define NVML_NVLINK_MAX_LINKS 18

/* nvmlMemory_t (the unversioned nvmlDeviceGetMemoryInfo's). */
struct nvml_memory {
	unsigned long long total, free, used;
};
/* usedGpuMemory where the driver cannot say per process (MIG, Windows) */
#define NVML_VALUE_NOT_AVAILABLE (~0ull)

/* nvmlFieldValue_t (40 bytes) and the PCIe byte counters' field ids */
struct nvml_field {
	unsigned field_id, scope_id;
	long long timestamp, latency_us;
	int value_type, ret;
	union {
		double d;
		unsigned u;
		unsigned long ul;
		unsigned long long ull;
		long long ll;
	} value;
};
enum { FI_PCIE_TX_BYTES = 197, FI_PCIE_RX_BYTES = 198 };
/* nvmlViolationTime_t: the reference time and the time held down, ns */
struct nvml_violation {
	unsigned long long reference, violation;
};

static struct {
	int tried, ok, released;
	char why[160];
	int (*init)(void);
	int (*shutdown)(void);
	int (*by_bus)(const char *, struct nvml_device_st **);
	int (*clock)(struct nvml_device_st *, int, unsigned *);
	int (*max_clock)(struct nvml_device_st *, int, unsigned *);
	int (*power)(struct nvml_device_st *, unsigned *);
	int (*power_limit)(struct nvml_device_st *, unsigned *);
	int (*temp)(struct nvml_device_st *, int, unsigned *);
	int (*util)(struct nvml_device_st *, struct nvml_util *);
	int (*reasons)(struct nvml_device_st *, unsigned long long *);
	int (*persistence)(struct nvml_device_st *, int *);
	int (*pcie_gen)(struct nvml_device_st *, unsigned *);
	int (*pcie_width)(struct nvml_device_st *, unsigned *);
	int (*pcie_max_gen)(struct nvml_device_st *, unsigned *);
	int (*pcie_max_width)(struct nvml_device_st *, unsigned *);
	int (*driver)(char *, unsigned);
	int (*count)(unsigned *);
	int (*by_index)(unsigned, struct nvml_device_st **);
	int (*running)(struct nvml_device_st *, unsigned *, struct nvml_proc *);
	int (*fields)(struct nvml_device_st *, int, struct nvml_field *);
	int (*violation)(struct nvml_device_st *, int, struct nvml_violation *);
	int (*bar1)(struct nvml_device_st *, struct nvml_bar1 *);
	int (*nvlink_state)(struct nvml_device_st *, unsigned, int *);
	int (*nvlink_version)(struct nvml_device_st *, unsigned, unsigned *);
	int (*bus_width)(struct nvml_device_st *, unsigned *);
	int (*memory)(struct nvml_device_st *, struct nvml_memory *);
	int (*name)(struct nvml_device_st *, char *, unsigned);
	const char *(*err)(int);
} nv;

static void *sym(void *h, const char *a, const char *b)
{
	void *f = dlsym(h, a);

	return f || !b ? f : dlsym(h, b);
}

/* Loads and initialises NVML once per process, and again after nvml_release(). */
static int nvml_load(void)
{
	void *h;
	int rc;

	if (nv.tried && !nv.released)
		return nv.ok ? 0 : -1;
	if (nv.released) { /* shut down by nvml_release(): initialised again */
		nv.released = 0;
		goto init;
	}
	nv.tried = 1;
	h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(nv.why, sizeof(nv.why), "NVML not loadable: %s", dlerror());
		return -1;
	}
	nv.init = sym(h, "nvmlInit_v2", "nvmlInit");
	nv.shutdown = sym(h, "nvmlShutdown", NULL);
	nv.by_bus = sym(h, "nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId");
	nv.clock = sym(h, "nvmlDeviceGetClockInfo", NULL);
	nv.max_clock = sym(h, "nvmlDeviceGetMaxClockInfo", NULL);
	nv.power = sym(h, "nvmlDeviceGetPowerUsage", NULL);
	nv.power_limit = sym(h, "nvmlDeviceGetEnforcedPowerLimit", NULL);
	nv.temp = sym(h, "nvmlDeviceGetTemperature", NULL);
	nv.util = sym(h, "nvmlDeviceGetUtilizationRates", NULL);
	nv.reasons = sym(h, "nvmlDeviceGetCurrentClocksEventReasons",
			 "nvmlDeviceGetCurrentClocksThrottleReasons");
	nv.persistence = sym(h, "nvmlDeviceGetPersistenceMode", NULL);
	nv.pcie_gen = sym(h, "nvmlDeviceGetCurrPcieLinkGeneration", NULL);
	nv.pcie_width = sym(h, "nvmlDeviceGetCurrPcieLinkWidth", NULL);
	nv.pcie_max_gen = sym(h, "nvmlDeviceGetMaxPcieLinkGeneration", NULL);
	nv.pcie_max_width = sym(h, "nvmlDeviceGetMaxPcieLinkWidth", NULL);
	nv.driver = sym(h, "nvmlSystemGetDriverVersion", NULL);
	nv.count = sym(h, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
	nv.by_index = sym(h, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
	/* not the unversioned call: its records are smaller */
	nv.running = sym(h, "nvmlDeviceGetComputeRunningProcesses_v3",
			 "nvmlDeviceGetComputeRunningProcesses_v2");
	nv.bar1 = sym(h, "nvmlDeviceGetBAR1MemoryInfo", NULL);
	nv.nvlink_state = sym(h, "nvmlDeviceGetNvLinkState", NULL);
	nv.nvlink_version = sym(h, "nvmlDeviceGetNvLinkVersion", NULL);
	nv.bus_width = sym(h, "nvmlDeviceGetMemoryBusWidth", NULL);
	nv.memory = sym(h, "nvmlDeviceGetMemoryInfo", NULL);
	nv.name = sym(h, "nvmlDeviceGetName", NULL);
	nv.err = sym(h, "nvmlErrorString", NULL);
	nv.fields = sym(h, "nvmlDeviceGetFieldValues", NULL);
	nv.violation = sym(h, "nvmlDeviceGetViolationStatus", NULL);
	if (!nv.init || !nv.by_bus) {
		snprintf(nv.why, sizeof(nv.why), "NVML lacks nvmlInit_v2 or a PCI-bus lookup");
		return -1;
	}
init:
	rc = nv.init();
	if (rc != NVML_OK) {
		snprintf(nv.why, sizeof(nv.why), "nvmlInit: %s", nv.err ? nv.err(rc) : "failed");
		return -1;
	}
	nv.ok = 1;
	return 0;
}

/* NVML spells bus ids with an 8-digit domain in upper case; CUDA's (as kept
 * in gpu_props) have 4 and lower case. Try the spellings. */
static int nvml_device_of(const char *bus, struct nvml_device_st **d)
{
	char alt[2][40];

	if (nvml_load())
		return -1;
	snprintf(alt[0], sizeof(alt[0]), "%s", bus);
	snprintf(alt[1], sizeof(alt[1]), "0000%s", bus);
	for (int upper = 0; upper < 2; upper++)
		for (int i = 0; i < 2; i++) {
			if (upper)
				for (char *c = alt[i]; *c; c++)
					*c = (char)toupper((unsigned char)*c);
			if (nv.by_bus(alt[i], d) == NVML_OK)
				return 0;
		}
	snprintf(nv.why, sizeof(nv.why), "NVML does not know the device at %s", bus);
	return -1;
}

static int device0(struct nvml_device_st **d)
{
	struct gpu_props p;

	if (cuda_get_props(0, &p))
		return -1;
	return nvml_device_of(p.pci_bus_id, d);
}

int nvml_other_procs(const int *ours, size_t n_ours)
{
	struct nvml_proc procs[64];
	struct nvml_device_st *d;
	unsigned count, n;
	int others = 0;

	if (nvml_load() || !nv.count || !nv.by_index || !nv.running || nv.count(&count) != NVML_OK)
		return -1;
	for (unsigned i = 0; i < count; i++) {
		n = ARRAY_SIZE(procs);
		if (nv.by_index(i, &d) != NVML_OK)
			return -1;
		if (nv.running(d, &n, procs) != NVML_OK) {
			/* more than fit (NVML says how many in n): all others */
			if (n > ARRAY_SIZE(procs)) {
				others += (int)n;
				continue;
			}
			return -1;
		}
		for (unsigned k = 0; k < n; k++) {
			int mine = 0;
			for (size_t o = 0; o < n_ours && !mine; o++)
				mine = (int)procs[k].pid == ours[o];
			others += !mine;
		}
	}
	return others;
}

/* One device's memory and the part of it the pids given hold. */
static json_t *mem_of(unsigned i, const int *pids, size_t n_pids)
{
	struct nvml_proc procs[64];
	struct nvml_device_st *d;
	struct nvml_memory m;
	unsigned n = ARRAY_SIZE(procs);
	unsigned long long ours = 0;
	int known = 1, found = 0;
	char name[96];
	json_t *o;
	if (nv.by_index(i, &d) != NVML_OK || nv.memory(d, &m) != NVML_OK)
		return NULL;
	o = json_pack("{s:I, s:I}", "used_bytes", (json_int_t)m.used, "total_bytes",
		      (json_int_t)m.total);
	if (nv.name && nv.name(d, name, sizeof(name)) == NVML_OK)
		json_object_set_new(o, "name", json_string(name));
	if (!nv.running || nv.running(d, &n, procs) != NVML_OK)
		return o; /* per process unknown: absent */
	for (unsigned k = 0; k < n; k++)
		for (size_t j = 0; j < n_pids; j++)
			if ((int)procs[k].pid == pids[j]) {
				found = 1;
				if (procs[k].used_bytes == NVML_VALUE_NOT_AVAILABLE)
					known = 0;
				else
					ours += procs[k].used_bytes;
			}
	if (known)
		json_object_set_new(o, "procs_bytes", json_integer((json_int_t)ours));
	json_object_set_new(o, "procs_seen", json_boolean(found));
	return o;
}

json_t *nvml_mem(const int *pids, size_t n_pids, const char **why)
{
	unsigned count;
	json_t *all;
	*why = NULL;
	if (nvml_load()) {
		*why = nv.why;
		return NULL;
	}
	if (!nv.count || !nv.by_index || !nv.memory || nv.count(&count) != NVML_OK) {
		snprintf(nv.why, sizeof(nv.why), "NVML lacks the device count or memory calls");
		*why = nv.why;
		return NULL;
	}
	all = json_object();
	for (unsigned i = 0; i < count; i++) {
		json_t *d = mem_of(i, pids, n_pids);
		char key[16];
		snprintf(key, sizeof(key), "%u", i);
		if (d)
			json_object_set_new(all, key, d);
	}
	return all;
}

void nvml_release(void)
{
	if (nv.ok && nv.shutdown && nv.shutdown() == NVML_OK) {
		nv.ok = 0;
		nv.released = 1;
	}
}

const char *nvml_unavailable(void)
{
	struct nvml_device_st *d;

	if (cuda_unsupported_reason())
		return cuda_unsupported_reason();
	return device0(&d) ? nv.why : NULL;
}

static void set_uint(json_t *o, const char *key, int (*fn)(struct nvml_device_st *, unsigned *),
		     struct nvml_device_st *d)
{
	unsigned v;

	if (fn && fn(d, &v) == NVML_OK)
		json_object_set_new(o, key, json_integer(v));
}

int nvml_sysinfo(const char *pci_bus_id, json_t *o)
{
	struct nvml_device_st *d;
	struct nvml_bar1 bar1;
	unsigned v;
	int mode, links_read = 0, links_up = 0;
	char buf[96];

	if (nvml_device_of(pci_bus_id, &d))
		return -1;
	if (nv.driver && nv.driver(buf, sizeof(buf)) == NVML_OK)
		json_object_set_new(o, "driver_version", json_string(buf));
	if (nv.persistence && nv.persistence(d, &mode) == NVML_OK)
		json_object_set_new(o, "persistence_mode",
				    json_string(mode ? "enabled" : "disabled"));
	set_uint(o, "pcie_link_gen", nv.pcie_gen, d);
	set_uint(o, "pcie_link_width", nv.pcie_width, d);
	set_uint(o, "pcie_link_gen_max", nv.pcie_max_gen, d);
	set_uint(o, "pcie_link_width_max", nv.pcie_max_width, d);
	if (nv.power_limit && nv.power_limit(d, &v) == NVML_OK)
		json_object_set_new(o, "power_limit_w", json_real(v / 1000.0));
	if (nv.max_clock && nv.max_clock(d, CLK_SM, &v) == NVML_OK)
		json_object_set_new(o, "sm_clock_max_mhz", json_integer(v));
	if (nv.max_clock && nv.max_clock(d, CLK_MEM, &v) == NVML_OK)
		json_object_set_new(o, "mem_clock_max_mhz", json_integer(v));
	/* the HBM/GDDR limit's facts (machine/limits.h): bus width in bits */
	set_uint(o, "memory_bus_width", nv.bus_width, d);
	/* the BAR peers and the host map device memory through (doctor's bar1) */
	if (nv.bar1 && nv.bar1(d, &bar1) == NVML_OK)
		json_object_set_new(o, "bar1_total_bytes", json_integer((json_int_t)bar1.total));
	/* NVLinks up (doctor's peer_access names the link); a GPU without
	 * NVLink answers "not supported" for link 0 */
	for (unsigned l = 0; nv.nvlink_state && l < NVML_NVLINK_MAX_LINKS; l++) {
		int on = 0;
		if (nv.nvlink_state(d, l, &on) != NVML_OK)
			break;
		links_read++;
		links_up += on != 0;
		if (on && nv.nvlink_version && !json_object_get(o, "nvlink_version") &&
		    nv.nvlink_version(d, l, &v) == NVML_OK)
			json_object_set_new(o, "nvlink_version", json_integer(v));
	}
	if (links_read)
		json_object_set_new(o, "nvlinks_active", json_integer(links_up));
	return 0;
}

/* ---- sampler ------------------------------------------------------------ */

enum { S_SM, S_MEM, S_POWER, S_TEMP, S_GPU_UTIL, S_MEM_UTIL, S_N };

static const struct {
	const char *name;
	enum unit unit;
	const char *desc;
} series[S_N] = {
	[S_SM] = {"sm_clock", UNIT_MHZ, "NVML SM clock, sampled every ~100 ms"},
	[S_MEM] = {"mem_clock", UNIT_MHZ, "NVML memory clock, sampled every ~100 ms"},
	[S_POWER] = {"power", UNIT_W, "NVML board power draw, sampled every ~100 ms"},
	[S_TEMP] = {"temperature", UNIT_C, "NVML GPU temperature, sampled every ~100 ms"},
	[S_GPU_UTIL] = {"gpu_util", UNIT_PCT, "NVML utilisation (a kernel running), ~100 ms"},
	[S_MEM_UTIL] = {"mem_util", UNIT_PCT, "NVML memory-controller utilisation, ~100 ms"},
};

/* Clock-event reason bits (nvmlClocksEventReason*). */
static const struct {
	unsigned long long bit;
	const char *name;
} reasons[] = {
	{0x1ull, "gpu_idle"},	 {0x2ull, "applications_clocks"}, {0x4ull, "sw_power_cap"},
	{0x8ull, "hw_slowdown"}, {0x10ull, "sync_boost"},	  {0x20ull, "sw_thermal"},
	{0x40ull, "hw_thermal"}, {0x80ull, "hw_power_brake"},	  {0x100ull, "display_clocks"},
};

struct gpu_sampler {
	struct nvml_device_st *dev;
	unsigned period_ms;
	pthread_t thread;
	pthread_mutex_t lock;
	int stop;
	double *v[S_N];
	size_t n[S_N], cap[S_N];
	size_t n_reason_samples;
	size_t reason_count[sizeof(reasons) / sizeof(reasons[0])];
};

static void push(struct gpu_sampler *s, int k, double x)
{
	if (s->n[k] == s->cap[k]) {
		s->cap[k] = s->cap[k] ? 2 * s->cap[k] : 64;
		s->v[k] = xrealloc(s->v[k], s->cap[k] * sizeof(double));
	}
	s->v[k][s->n[k]++] = x;
}

static void sample_once(struct gpu_sampler *s)
{
	unsigned v;
	unsigned long long r;
	struct nvml_util u;

	if (nv.clock && nv.clock(s->dev, CLK_SM, &v) == NVML_OK)
		push(s, S_SM, v);
	if (nv.clock && nv.clock(s->dev, CLK_MEM, &v) == NVML_OK)
		push(s, S_MEM, v);
	if (nv.power && nv.power(s->dev, &v) == NVML_OK)
		push(s, S_POWER, v / 1000.0);
	if (nv.temp && nv.temp(s->dev, 0, &v) == NVML_OK)
		push(s, S_TEMP, v);
	if (nv.util && nv.util(s->dev, &u) == NVML_OK) {
		push(s, S_GPU_UTIL, u.gpu);
		push(s, S_MEM_UTIL, u.memory);
	}
	if (nv.reasons && nv.reasons(s->dev, &r) == NVML_OK) {
		s->n_reason_samples++;
		for (size_t i = 0; i < ARRAY_SIZE(reasons); i++)
			s->reason_count[i] += (r & reasons[i].bit) != 0;
	}
}

static void *sampler_main(void *arg)
{
	struct gpu_sampler *s = arg;

	for (;;) {
		struct timespec ts = {s->period_ms / 1000, (long)(s->period_ms % 1000) * 1000000L};
		int stop;

		pthread_mutex_lock(&s->lock);
		sample_once(s);
		stop = s->stop;
		pthread_mutex_unlock(&s->lock);
		if (stop)
			break;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

struct gpu_sampler *nvml_sampler_start(unsigned period_ms)
{
	struct gpu_sampler *s;
	struct nvml_device_st *d;

	if (device0(&d))
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->dev = d;
	s->period_ms = period_ms ? period_ms : 100;
	pthread_mutex_init(&s->lock, NULL);
	if (pthread_create(&s->thread, NULL, sampler_main, s) != 0) {
		pthread_mutex_destroy(&s->lock);
		free(s);
		return NULL;
	}
	return s;
}

void nvml_sampler_stop(struct gpu_sampler *s, struct probe_result *res, const char *during)
{
	json_t *nvml, *o, *r;
	double now;

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL); /* takes one last sample on its way out */
	/* One window clock reading for all the series (docs/design.md §4.17):
	 * their samples were taken over the whole probe, not in windows of
	 * their own, and a reading each (a thousand and more per GPU probe, each
	 * reading NVML's and CUPTI's counters) was seconds of nothing. */
	now = metric_clock();
	for (int k = 0; k < S_N; k++) {
		struct metric *m;

		if (s->n[k] == 0)
			continue;
		m = probe_add_metric(res, series[k].name, series[k].unit, BETTER_NONE,
				     series[k].desc, "during", during, NULL);
		for (size_t i = 0; i < s->n[k]; i++)
			metric_add_sample_at(m, s->v[k][i], now, now);
		free(s->v[k]);
	}
	if (s->n_reason_samples) {
		if (!res->extra) /* the probe's extra object, created on first use */
			res->extra = json_object();
		nvml = json_object_get(res->extra, "nvml");
		if (!nvml) {
			nvml = json_object();
			json_object_set_new(res->extra, "nvml", nvml);
		}
		o = json_object();
		r = json_object();
		for (size_t i = 0; i < ARRAY_SIZE(reasons); i++)
			if (s->reason_count[i])
				json_object_set_new(r, reasons[i].name,
						    json_real((double)s->reason_count[i] /
							      (double)s->n_reason_samples));
		json_object_set_new(o, "samples", json_integer((json_int_t)s->n_reason_samples));
		json_object_set_new(o, "throttle_fraction", r);
		json_object_set_new(nvml, during, o);
	}
	pthread_mutex_destroy(&s->lock);
	free(s);
}

int nvml_link_devices(char *why, size_t len)
{
	unsigned n = 0;

	if (nvml_load() != 0 || !nv.count || !nv.by_index || nv.count(&n) != NVML_OK) {
		snprintf(why, len, "%s", nv.why[0] ? nv.why : "NVML cannot count the devices");
		return -1;
	}
	return (int)n;
}

int nvml_link_counters(unsigned dev, struct gpu_link_counters *out)
{
	struct nvml_device_st *d;
	struct nvml_field f[2] = {{.field_id = FI_PCIE_TX_BYTES}, {.field_id = FI_PCIE_RX_BYTES}};

	out->pcie_tx_bytes = out->pcie_rx_bytes = -1;
	out->pcie_tx_link_bytes = out->pcie_rx_link_bytes = -1;
	for (int k = 0; k < GPU_THROTTLE_N; k++)
		out->throttle_ns[k] = -1;
	if (nvml_load() != 0 || !nv.by_index || nv.by_index(dev, &d) != NVML_OK)
		return -1;
	nvml_link_bytes(dev, &out->pcie_tx_link_bytes, &out->pcie_rx_link_bytes);
	if (nv.fields && nv.fields(d, 2, f) == NVML_OK) {
		if (f[0].ret == NVML_OK)
			out->pcie_tx_bytes = (int64_t)f[0].value.ull;
		if (f[1].ret == NVML_OK)
			out->pcie_rx_bytes = (int64_t)f[1].value.ull;
	}
	for (int k = 0; nv.violation && k < GPU_THROTTLE_N; k++) {
		struct nvml_violation v;
		if (nv.violation(d, k, &v) == NVML_OK)
			out->throttle_ns[k] = (int64_t)v.violation;
	}
	return 0;
}
