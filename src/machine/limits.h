/* limits.h - each memory path's physical limit from the machine's own facts
 * (docs/design.md §5.14): HBM/GDDR from NVML's memory bus width and maximum
 * memory clock, PCIe from a link's speed and width with its encoding, NVLink
 * from the active links and their version, DRAM from the SMBIOS memory
 * devices (type 17: configured speed x populated channels). The fingerprint
 * records each limit with its formula and facts, or "unknown" with the
 * reason; reports show a bandwidth figure's share of it and `check` judges a
 * kind without reference values against it (data/bands.json).
 *
 * Every figure is one direction, bytes = 1e9 per GB.
 */
#ifndef MEMPATH_MACHINE_LIMITS_H
#define MEMPATH_MACHINE_LIMITS_H

#include <jansson.h>
#include <stddef.h>

#include "results/results.h"

/* The PCIe generation of a link speed in GT/s (2.5 -> 1 ... 64 -> 6), 0 if none. */
int limits_pcie_gen(double gts);
/* One direction of a link in GB/s: GT/s x lanes x encoding / 8; *encoding
 * "8b/10b" (Gen1/2) or "128b/130b" (Gen3 on). Pure. */
double limits_pcie_gbps(double gts, unsigned width, const char **encoding);

/* A PCI device's link from its sysfs directory (current_link_speed "16.0
 * GT/s PCIe", current_link_width "16", max_link_speed, max_link_width):
 * speed_gts, width, max_speed_gts, max_width; NULL where it has none. */
json_t *limits_link_read(const char *dir);

/* One SMBIOS memory device (type 17). */
struct limits_dimm {
	int populated;		 /* size not 0 */
	unsigned long size_mib;	 /* 0: empty slot */
	unsigned speed_mts;	 /* rated (Speed), 0 unknown */
	unsigned configured_mts; /* Configured Memory Speed, 0 unknown */
	unsigned data_width;	 /* bits, 0 unknown */
	char locator[64];
};
/* Parses one raw type 17 structure (/sys/firmware/dmi/entries/17-N/raw:
 * formatted area then its strings). 0, or -1 when it is not one. Pure. */
int limits_dimm_parse(const unsigned char *raw, size_t len, struct limits_dimm *out);
/* The fingerprint's "dram" object from sysfs_root/firmware/dmi/entries:
 * dimms (populated ones), slots, or "unknown" with the reason. Never NULL. */
json_t *limits_dram_collect(const char *sysfs_root);

/* The fingerprint's "limits" object from the rest of it: key ("dram",
 * "gpu0.hbm", "gpu0.pcie", "gpu0.nvlink") -> {gbps, formula, facts} or
 * {unknown: reason}. Never NULL. */
json_t *limits_derive(const json_t *host);
/* A bandwidth metric of a probe and the path that limits it. */
struct limits_row {
	const char *probe, *metric;
	const char *label, *value; /* only where the metric has this label value */
	const char *kind;	   /* "dram", "hbm", "pcie", "nvlink", "l2"; NULL: none applies */
	double bytes;		   /* the path's bytes per byte the figure counts */
	double ways;	 /* times one direction's limit it may reach; 0: by its "dir" label */
	const char *why; /* with kind: what crosses the path; without: why no limit holds */
};
/* The table (every bandwidth metric of every probe); its length. */
size_t limits_rows(const struct limits_row **out);
/* The row of a metric with these labels, or NULL: a bandwidth metric the
 * table lacks. */
const struct limits_row *limits_row_of(const char *probe, const char *metric,
				       const struct label *labels, size_t n_labels);
/* The limit of path kind `what` ("dram", "hbm", ...) on host's GPU device
 * (NULL: 0), its key in *key (a static buffer), or NULL. */
const json_t *limits_key_for(const json_t *host, const char *what, const char *device,
			     const char **key);
/* The limit a metric of a probe is measured against (its key in *key), or
 * NULL: cpu.stream bandwidth -> dram; gpu.stream bandwidth -> gpuN.hbm;
 * gpu.copy bandwidth -> gpuN.pcie; gpu.p2p bandwidth -> gpuN.nvlink. */
/* Does a limit apply to the metric of the probe (the four above)? */
int limits_applies(const char *probe, const char *metric);
const json_t *limits_for(const json_t *host, const char *probe, const char *metric,
			 const char *device, const char **key);
/* A figure of m (value in m's unit, GB/s or GiB/s) as the bytes its
 * path carried, GB/s (x the row's bytes); NAN where no limit holds. *ways:
 * how many times one direction's limit it may reach (the row's, else by
 * m's "dir" label). */
double limits_path_gbps(const struct limits_row *r, const struct metric *m, double value,
			double *ways);
/* How many times the one-direction limit a figure may reach, by its "dir"
 * label: 2 for "bidir" (both directions at once over a full-duplex link:
 * PCIe's lanes carry each direction on their own pairs), else 1. */
double limits_ways(const char *dir);

#endif
