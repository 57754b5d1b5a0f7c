/* limits.c - physical limits from the machine's facts (limits.h). */
#include "machine/limits.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "machine/limits_user.h"

int limits_pcie_gen(double gts)
{
	static const double rate[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
	for (size_t i = 0; i < ARRAY_SIZE(rate); i++)
		if (fabs(gts - rate[i]) < 0.01)
			return (int)i + 1;
	return 0;
}

double limits_pcie_gbps(double gts, unsigned width, const char **encoding)
{
	/* Gen1/2 send 10 bits per byte; Gen3 on 130 bits per 128 */
	int old = gts < 8.0 - 0.01;
	if (encoding)
		*encoding = old ? "8b/10b" : "128b/130b";
	return gts * width * (old ? 8.0 / 10.0 : 128.0 / 130.0) / 8.0;
}

json_t *limits_link_read(const char *dir)
{
	static const char *const files[][2] = {{"current_link_speed", "speed_gts"},
					       {"max_link_speed", "max_speed_gts"},
					       {"current_link_width", "width"},
					       {"max_link_width", "max_width"}};
	json_t *o = json_object();
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *path = xasprintf("%s/%s", dir, files[i][0]), *s = read_line_str(path);
		char *end = NULL;
		double v = s ? strtod(s, &end) : 0;
		if (s && end != s && v > 0)
			json_object_set_new(o, files[i][1],
					    i < 2 ? json_real(v) : json_integer((json_int_t)v));
		free(s);
		free(path);
	}
	if (json_object_size(o) == 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- SMBIOS type 17 (DMTF DSP0134: Memory Device) ---- */

static unsigned u16_at(const unsigned char *p, size_t len, size_t off)
{
	return off + 2 <= len ? (unsigned)(p[off] | p[off + 1] << 8) : 0;
}

static unsigned long u32_at(const unsigned char *p, size_t len, size_t off)
{
	return off + 4 <= len
		       ? (unsigned long)p[off] | (unsigned long)p[off + 1] << 8 |
				 (unsigned long)p[off + 2] << 16 | (unsigned long)p[off + 3] << 24
		       : 0;
}

/* String number n (1-based) of the structure's string set. */
static void dmi_string(const unsigned char *raw, size_t len, size_t hdr, unsigned n, char *out,
		       size_t out_len)
{
	size_t off = hdr;
	out[0] = '\0';
	for (unsigned i = 1; n && off < len && raw[off]; i++) {
		size_t l = strnlen((const char *)raw + off, len - off);
		if (i == n) {
			snprintf(out, out_len, "%.*s", (int)l, raw + off);
			return;
		}
		off += l + 1;
	}
}

int limits_dimm_parse(const unsigned char *raw, size_t len, struct limits_dimm *out)
{
	size_t hdr;
	unsigned size, speed, conf;
	memset(out, 0, sizeof(*out));
	if (len < 0x17 || raw[0] != 17 || raw[1] < 0x15 || raw[1] > len)
		return -1;
	hdr = raw[1];
	size = u16_at(raw, hdr, 0x0c);
	if (size == 0x7fff) /* the extended size field holds it, in MiB */
		out->size_mib = u32_at(raw, hdr, 0x1c) & 0x7fffffff;
	else if (size != 0xffff)
		out->size_mib = size & 0x8000 ? (size & 0x7fff) / 1024 : size;
	out->populated = size != 0;
	out->data_width = u16_at(raw, hdr, 0x0a);
	if (out->data_width == 0xffff)
		out->data_width = 0;
	speed = u16_at(raw, hdr, 0x15);
	conf = u16_at(raw, hdr, 0x20);
	/* 0xffff: the 32-bit extended speeds (SMBIOS 3.3) hold it */
	out->speed_mts = speed == 0xffff ? (unsigned)u32_at(raw, hdr, 0x54) : speed;
	out->configured_mts = conf == 0xffff ? (unsigned)u32_at(raw, hdr, 0x58) : conf;
	dmi_string(raw, len, hdr, raw[0x10], out->locator, sizeof(out->locator));
	return 0;
}

json_t *limits_dram_collect(const char *sysfs_root)
{
	char *dir = xasprintf("%s/firmware/dmi/entries", sysfs_root);
	DIR *d = opendir(dir);
	struct dirent *e;
	json_t *o = json_object(), *dimms = json_array();
	unsigned slots = 0;
	json_t *user = limits_user_dram();
	if (user) /* the user's limit, used where SMBIOS gives none */
		json_object_set_new(o, "user", user);
	if (!d) {
		json_object_set_new(
			o, "unknown",
			json_string("no SMBIOS tables (/sys/firmware/dmi/entries absent: a VM "
				    "or firmware that does not publish them)"));
		json_decref(dimms);
		free(dir);
		return o;
	}
	while ((e = readdir(d)) != NULL) {
		struct limits_dimm m;
		char *path;
		unsigned char *raw;
		size_t len = 0;
		if (strncmp(e->d_name, "17-", 3) != 0)
			continue;
		path = xasprintf("%s/%s/raw", dir, e->d_name);
		raw = (unsigned char *)read_file_str(path, &len);
		free(path);
		if (raw && limits_dimm_parse(raw, len, &m) == 0) {
			slots++;
			if (m.populated)
				json_array_append_new(
					dimms,
					json_pack("{s:s, s:I, s:i, s:i, s:i}", "locator", m.locator,
						  "size_mib", (json_int_t)m.size_mib, "speed_mts",
						  m.speed_mts, "configured_mts", m.configured_mts,
						  "data_width", m.data_width));
		}
		free(raw);
	}
	closedir(d);
	free(dir);
	json_object_set_new(o, "slots", json_integer(slots));
	if (slots == 0)
		json_object_set_new(o, "unknown",
				    json_string("SMBIOS has no memory device (type 17) entries"));
	json_object_set_new(o, "dimms", dimms);
	return o;
}

/* ---- the limits ---- */

/* The reason a DRAM limit is unknown, with the way to give one (static). */
static const char *xfmt_unknown(const char *why)
{
	static char buf[384];
	snprintf(buf, sizeof(buf),
		 "%s; give it as 'dram_gbps N' in %s or check --dram-gbps N (GB/s)", why,
		 limits_user_file());
	return buf;
}

static json_t *unknown(const char *why)
{
	return json_pack("{s:s}", "unknown", why);
}

static json_t *limit(double gbps, const char *formula, json_t *facts)
{
	return json_pack("{s:f, s:s, s:o}", "gbps", round(gbps * 10) / 10, "formula", formula,
			 "facts", facts);
}

static long long int_of(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* DIMMs on distinct channels, one DIMM per channel assumed (SMBIOS names the
 * slot, not the channel): configured speed x 8 bytes x DIMMs. */
static json_t *dram_limit(const json_t *host)
{
	const json_t *dram = json_object_get(host, "dram"), *dimms = json_object_get(dram, "dimms"),
		     *m;
	size_t i, n = json_array_size(dimms);
	long long mts = -1, width = 64;
	char f[256];
	const json_t *user = json_object_get(dram, "user");
	if (!dram)
		return unknown("no DRAM facts in the fingerprint");
	if ((json_is_string(json_object_get(dram, "unknown")) || n == 0) &&
	    json_is_number(json_object_get(user, "gbps"))) { /* the user's, SMBIOS silent */
		snprintf(f, sizeof(f), "the user's value (%s; SMBIOS gives none: %s)",
			 json_string_value(json_object_get(user, "from")) ?: "?",
			 json_string_value(json_object_get(dram, "unknown"))
				 ?: "no populated memory device");
		return limit(json_number_value(json_object_get(user, "gbps")), f,
			     json_pack("{s:O}", "user", user));
	}
	if (json_is_string(json_object_get(dram, "unknown")))
		return unknown(xfmt_unknown(json_string_value(json_object_get(dram, "unknown"))));
	if (n == 0)
		return unknown("SMBIOS lists no populated memory device");
	json_array_foreach (dimms, i, m) {
		long long c = int_of(m, "configured_mts"), s = int_of(m, "speed_mts");
		long long v = c > 0 ? c : s;
		if (v <= 0)
			return unknown("SMBIOS gives no speed for a populated DIMM");
		if (mts < 0 || v < mts)
			mts = v;
		if (int_of(m, "data_width") > 0)
			width = int_of(m, "data_width");
	}
	snprintf(f, sizeof(f),
		 "%lld MT/s x %lld bit / 8 x %zu DIMMs (one per channel assumed; the slowest "
		 "DIMM's configured speed)",
		 mts, width, n);
	return limit((double)mts * width / 8 * n / 1000.0, f,
		     json_pack("{s:I, s:I, s:I}", "mts", (json_int_t)mts, "data_width_bits",
			       (json_int_t)width, "dimms", (json_int_t)n));
}

static json_t *hbm_limit(const json_t *d)
{
	long long bits = int_of(d, "memory_bus_width"), mhz = int_of(d, "mem_clock_max_mhz");
	char f[192];
	if (bits <= 0 || mhz <= 0)
		return unknown("NVML gives no memory bus width or maximum memory clock");
	snprintf(f, sizeof(f), "%lld bit x %lld MHz x 2 (DDR) / 8", bits, mhz);
	return limit((double)bits * mhz * 2 / 8 / 1000.0, f,
		     json_pack("{s:I, s:I}", "memory_bus_width", (json_int_t)bits,
			       "mem_clock_max_mhz", (json_int_t)mhz));
}

/* The PCIe link of GPU bdf from the pcie part (sysfs), else NVML's. */
static json_t *pcie_limit(const json_t *host, const json_t *d)
{
	const json_t *gpus = json_object_get(json_object_get(host, "pcie"), "gpus"), *g,
		     *link = NULL;
	const char *bdf = json_string_value(json_object_get(d, "pci_bus_id")), *enc;
	size_t i;
	double gts = 0;
	long long w = -1;
	char f[192];
	json_array_foreach (gpus, i, g)
		if (bdf && json_is_string(json_object_get(g, "bdf")) &&
		    strcasecmp(json_string_value(json_object_get(g, "bdf")), bdf) == 0)
			link = json_object_get(g, "link");
	if (link && json_is_number(json_object_get(link, "speed_gts"))) {
		gts = json_number_value(json_object_get(link, "speed_gts"));
		w = int_of(link, "width");
	} else if (int_of(d, "pcie_link_gen") > 0) {
		static const double rate[] = {0, 2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
		long long gen = int_of(d, "pcie_link_gen");
		gts = gen < (long long)ARRAY_SIZE(rate) ? rate[gen] : 0;
		w = int_of(d, "pcie_link_width");
	}
	if (gts <= 0 || w <= 0)
		return unknown("the link's speed and width are not recorded (sysfs, NVML)");
	double gbps = limits_pcie_gbps(gts, (unsigned)w, &enc);
	snprintf(f, sizeof(f), "%g GT/s x%lld x %s / 8 (Gen%d, current link)", gts, w, enc,
		 limits_pcie_gen(gts));
	return limit(gbps, f,
		     json_pack("{s:f, s:I, s:s}", "speed_gts", gts, "width", (json_int_t)w,
			       "encoding", enc));
}

/* Per link and direction by NVLink version: 1: 20 GB/s (P100), 2-4: 25 GB/s
 * (V100, A100, H100: 6 x 25, 12 x 25, 18 x 25 one way), 5: 50 GB/s (B200). */
static json_t *nvlink_limit(const json_t *d)
{
	long long links = int_of(d, "nvlinks_active"), ver = int_of(d, "nvlink_version");
	double per = ver == 1 ? 20 : ver >= 2 && ver <= 4 ? 25 : ver == 5 ? 50 : 0;
	char f[160];
	if (links <= 0)
		return unknown("no active NVLink recorded");
	if (per == 0)
		return unknown("NVML gives no NVLink version this table knows");
	snprintf(f, sizeof(f), "%lld links x %g GB/s (NVLink %lld, one direction)", links, per,
		 ver);
	return limit(
		links * per, f,
		json_pack("{s:I, s:I}", "links", (json_int_t)links, "version", (json_int_t)ver));
}

json_t *limits_derive(const json_t *host)
{
	json_t *o = json_object(), *d;
	const json_t *devs = json_object_get(json_object_get(host, "gpu"), "devices");
	size_t i;
	char key[32];
	json_object_set_new(o, "dram", dram_limit(host));
	json_array_foreach (devs, i, d) {
		snprintf(key, sizeof(key), "gpu%zu.hbm", i);
		json_object_set_new(o, key, hbm_limit(d));
		snprintf(key, sizeof(key), "gpu%zu.pcie", i);
		json_object_set_new(o, key, pcie_limit(host, d));
		snprintf(key, sizeof(key), "gpu%zu.l2", i);
		json_object_set_new(o, key,
				    unknown("no L2 rate among the machine's facts (NVML and the "
					    "device properties give the L2's size only)"));
		/* a peer path only where there is a peer or a link up */
		if (json_array_size(devs) < 2 && int_of(d, "nvlinks_active") <= 0)
			continue;
		snprintf(key, sizeof(key), "gpu%zu.nvlink", i);
		json_object_set_new(o, key, nvlink_limit(d));
	}
	return o;
}

/* Every bandwidth metric of every probe (GB/s or GiB/s): the path whose
 * limit holds it, or why none does (tests/cli/t5241 fails on a probe's
 * bandwidth metric missing here). A row with a label holds only where the
 * metric has that label value; the first row that holds is the metric's. */
static const struct limits_row rows[] = {
	{"cpu.stream", "bandwidth", NULL, NULL, "dram", 1, 0, "STREAM's bytes over DRAM"},
	{"cpu.stream", "bandwidth_best", NULL, NULL, "dram", 1, 0, "STREAM's bytes over DRAM"},
	{"cpu.blocks", "gather_bw", NULL, NULL, "dram", 1, 0, "blocks gathered from DRAM"},
	{"cpu.loaded", "injected_bw", NULL, NULL, "dram", 1, 0, "the load's bytes over DRAM"},
	{"cpu.numa", "read_bw", NULL, NULL, "dram", 1, 0,
	 "a node's DRAM read (a remote node's over the socket link as well, which no fact gives)"},
	{"cpu.first_touch", "touch_rate", NULL, NULL, NULL, 0, 0,
	 "a page-fault rate: the kernel zeroing and mapping pages, not a memory link's bytes"},
	{"cpu.first_touch", "zero_map_rate", NULL, NULL, NULL, 0, 0,
	 "a page-fault rate: the kernel zeroing and mapping pages, not a memory link's bytes"},
	{"work.decode", "weights_bw", NULL, NULL, "dram", 1, 0, "the weights read from DRAM"},
	{"work.decode", "kv_bw", NULL, NULL, "dram", 1, 0, "the KV blocks gathered from DRAM"},
	{"gpu.stream", "bandwidth", NULL, NULL, "hbm", 1, 0, "bytes over HBM"},
	{"gpu.stream", "bandwidth_once", NULL, NULL, "hbm", 2, 0,
	 "a copy counted once: each byte is read and written, twice over HBM"},
	{"gpu.random", "sector_bw", "set", "l2", "l2", 1, 0, "sectors read from the L2"},
	{"gpu.random", "sector_bw", NULL, NULL, "hbm", 1, 0, "sectors read from HBM"},
	{"gpu.random", "block_bw", NULL, NULL, "hbm", 1, 0, "blocks read from HBM"},
	{"gpu.l2", "l2_read_bw", NULL, NULL, "l2", 1, 0, "bytes read from the L2"},
	{"gpu.loaded", "hbm_load_bw", NULL, NULL, "hbm", 1, 0, "the load's bytes over HBM"},
	{"gpu.loaded", "d2h_bw", NULL, NULL, "pcie", 1, 0, "copied over the PCIe link"},
	{"gpu.clocks", "load_bw", NULL, NULL, "hbm", 1, 0, "the load's bytes over HBM"},
	{"gpu.sync", "step_bandwidth", NULL, NULL, "hbm", 1, 0, "the step's bytes over HBM"},
	{"gpu.copy", "copy_bw", NULL, NULL, "pcie", 1, 0, "copied over the PCIe link"},
	{"gpu.copy", "sm_copy_bw", NULL, NULL, "pcie", 1, 0, "copied over the PCIe link"},
	{"gpu.first_touch", "gpu_read", NULL, NULL, "pcie", 1, 0,
	 "managed pages migrated to the GPU over the PCIe link as it reads them"},
	{"gpu.first_touch", "first_touch", NULL, NULL, NULL, 0, 0,
	 "the GPU's page faults filling new managed memory: the fault path's rate, no link's "
	 "bytes"},
	{"gpu.first_touch", "cpu_touch", NULL, NULL, NULL, 0, 0,
	 "the CPU's page faults on managed memory: the fault path's rate, no link's bytes"},
	{"gpu.first_touch", "register", NULL, NULL, NULL, 0, 0,
	 "host pages pinned for the device (registered): the driver's pinning rate, no bytes "
	 "move"},
	{"gpu.alloc", "alloc_write_rate", NULL, NULL, NULL, 0, 0,
	 "an allocation and its first write: the driver's mapping cost dominates, not HBM's rate"},
	{"gpu.p2p", "p2p_bw", NULL, NULL, "nvlink", 1, 0, "copied over NVLink"},
	{"gpu.p2p", "p2p_bidir_bw", "part", "sum", "nvlink", 1, 2,
	 "both directions at once over NVLink, each on its own lanes"},
	{"gpu.p2p", "p2p_bidir_bw", NULL, NULL, "nvlink", 1, 0,
	 "one direction of a pair over NVLink"},
};

size_t limits_rows(const struct limits_row **out)
{
	*out = rows;
	return ARRAY_SIZE(rows);
}

static const char *label_in(const struct label *l, size_t n, const char *key)
{
	for (size_t i = 0; l && i < n; i++)
		if (strcmp(l[i].key, key) == 0)
			return l[i].value;
	return NULL;
}

const struct limits_row *limits_row_of(const char *probe, const char *metric,
				       const struct label *labels, size_t n_labels)
{
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct limits_row *r = &rows[i];
		const char *v = r->label ? label_in(labels, n_labels, r->label) : NULL;
		if (strcmp(probe, r->probe) == 0 && strcmp(metric, r->metric) == 0 &&
		    (!r->label || (v && strcmp(v, r->value) == 0)))
			return r;
	}
	return NULL;
}

/* The path kind a probe's metric runs on (its first row with one), or NULL. */
static const char *kind_of(const char *probe, const char *metric)
{
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if (strcmp(probe, rows[i].probe) == 0 && strcmp(metric, rows[i].metric) == 0 &&
		    rows[i].kind && !rows[i].label)
			return rows[i].kind;
	return NULL;
}

int limits_applies(const char *probe, const char *metric)
{
	return kind_of(probe, metric) != NULL;
}

const json_t *limits_key_for(const json_t *host, const char *what, const char *device,
			     const char **key)
{
	static char buf[48];
	const json_t *l = json_object_get(host, "limits");
	if (!what || !l)
		return NULL;
	if (strcmp(what, "dram") == 0)
		snprintf(buf, sizeof(buf), "dram");
	else
		snprintf(buf, sizeof(buf), "gpu%s.%s", device ? device : "0", what);
	if (key)
		*key = buf;
	return json_object_get(l, buf);
}

const json_t *limits_for(const json_t *host, const char *probe, const char *metric,
			 const char *device, const char **key)
{
	return limits_key_for(host, kind_of(probe, metric), device, key);
}

double limits_path_gbps(const struct limits_row *r, const struct metric *m, double value,
			double *ways)
{
	double w = r && r->ways > 0 ? r->ways : limits_ways(metric_label(m, "dir"));
	double per = m->unit == UNIT_GIB_S ? 1.073741824 : m->unit == UNIT_GB_S ? 1 : NAN;
	if (ways)
		*ways = w;
	return r && r->kind ? value * per * r->bytes : NAN;
}

double limits_ways(const char *dir)
{
	return dir && strcmp(dir, "bidir") == 0 ? 2 : 1;
}
