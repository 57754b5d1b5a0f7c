/* counters_gpu.c - NVML's and CUPTI's counters for the counters layer
 * (counters_gpu.h). */
#include "machine/counters_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kv.h"
#include "base/util.h"
#include "gpu/backend.h"

/* a device's counters: PCIe bytes each way (NVML's byte counters, then the
 * link's bytes integrated from its throughput), then the throttle times */
#define PER_GPU (4 + GPU_THROTTLE_N)

static const char *const throttle_names[GPU_THROTTLE_N] = {
	"power", "thermal", "sync_boost", "board_limit", "low_util", "reliability"};

struct gpucount {
	struct kv_list names;		   /* value: the source */
	unsigned n_gpu;			   /* devices NVML read, PER_GPU counters each */
	size_t um_first;		   /* the first CUPTI counter */
	int um;				   /* CUPTI counting */
	unsigned um_total[GPU_UM_N], n_um; /* the totals counted, in order */
};

static void add(struct gpucount *g, int src, const char *a, const char *b)
{
	char name[96];
	snprintf(name, sizeof(name), "%s:%s", a, b);
	kv_add(&g->names, name, src);
}

static void open_nvml(struct gpucount *g, char **why)
{
	const struct gpu_backend *b = gpu_backend();
	char err[192] = "";
	int n = b->link_devices(err, sizeof(err));

	if (n <= 0) {
		*why = xstrdup(n == 0 ? "NVML sees no GPU" : err);
		return;
	}
	g->n_gpu = (unsigned)n;
	for (unsigned d = 0; d < g->n_gpu; d++) {
		char dev[16];
		snprintf(dev, sizeof(dev), "gpu%u", d);
		add(g, GPUCOUNT_NVML, dev, "pcie_tx_bytes");
		add(g, GPUCOUNT_NVML, dev, "pcie_rx_bytes");
		add(g, GPUCOUNT_NVML, dev, "pcie_tx_link_bytes");
		add(g, GPUCOUNT_NVML, dev, "pcie_rx_link_bytes");
		for (int k = 0; k < GPU_THROTTLE_N; k++) {
			char name[48];
			snprintf(name, sizeof(name), "throttle_%s_ns", throttle_names[k]);
			add(g, GPUCOUNT_NVML, dev, name);
		}
	}
}

static void open_cupti(struct gpucount *g, char **why, json_t **missing)
{
	const struct gpu_backend *b = gpu_backend();
	char err[384] = "";
	int counted = b->um_open(err, sizeof(err));

	if (counted < 0) {
		*why = xstrdup(*err ? err : "CUPTI could not be opened");
		return;
	}
	g->um = 1;
	g->um_first = g->names.n;
	for (unsigned k = 0; k < GPU_UM_N; k++)
		if (counted & (1 << k)) {
			g->um_total[g->n_um++] = k;
			add(g, GPUCOUNT_CUPTI, "cupti", gpu_um_name(k));
		} else { /* a kind CUPTI refused here: absent, and said so */
			if (!*missing)
				*missing = json_array();
			json_array_append_new(*missing, json_string(gpu_um_name(k)));
		}
}

struct gpucount *gpucount_open(int gpu_probe, int um, char *why[GPUCOUNT_N], json_t **missing)
{
	struct gpucount *g = xcalloc(1, sizeof(*g));
	const char *no = !gpu_probe	  ? "not a GPU probe"
			 : !gpu_backend() ? gpu_absent_reason()
					  : NULL;

	why[GPUCOUNT_NVML] = why[GPUCOUNT_CUPTI] = NULL;
	*missing = NULL;
	if (!no && gpu_backend()->unsupported_reason())
		no = gpu_backend()->unsupported_reason(); /* initialises the driver */
	if (no) {
		why[GPUCOUNT_NVML] = xstrdup(no);
		why[GPUCOUNT_CUPTI] = xstrdup(no);
		return g;
	}
	open_nvml(g, &why[GPUCOUNT_NVML]);
	if (um)
		open_cupti(g, &why[GPUCOUNT_CUPTI], missing);
	else
		why[GPUCOUNT_CUPTI] = xstrdup("not a unified-memory probe");
	return g;
}

size_t gpucount_n(const struct gpucount *g)
{
	return g->names.n;
}

const char *gpucount_name(const struct gpucount *g, size_t i)
{
	return g->names.items[i].name;
}

int gpucount_source(const struct gpucount *g, size_t i)
{
	return (int)g->names.items[i].value;
}

void gpucount_read(struct gpucount *g, int64_t *row)
{
	const struct gpu_backend *b = gpu_backend();
	struct gpu_um_totals t;

	for (size_t i = 0; i < g->names.n; i++)
		row[i] = -1;
	for (unsigned d = 0; b && d < g->n_gpu; d++) {
		struct gpu_link_counters lc;
		int64_t *r = row + d * PER_GPU;
		if (b->link_counters(d, &lc) != 0)
			continue;
		r[0] = lc.pcie_tx_bytes;
		r[1] = lc.pcie_rx_bytes;
		r[2] = lc.pcie_tx_link_bytes;
		r[3] = lc.pcie_rx_link_bytes;
		for (int k = 0; k < GPU_THROTTLE_N; k++)
			r[4 + k] = lc.throttle_ns[k];
	}
	if (g->um && b->um_read(&t) == 0)
		for (unsigned k = 0; k < g->n_um; k++)
			row[g->um_first + k] = t.v[g->um_total[k]];
}

void gpucount_close(struct gpucount *g)
{
	if (!g)
		return;
	if (g->um)
		gpu_backend()->um_close();
	kv_free(&g->names);
	free(g);
}
