/* pcie.c - the PCIe facts behind GPU peer-to-peer (pcie.h), read under a
 * sysfs root: devices from bus/pci/devices, the ports above each from the
 * device's real path (devices/pci0000:00/0000:00:03.0/0000:01:00.0), ACS and
 * the port type from the port's config file, BARs from resource. */
#include "machine/pcie.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/limits.h"
#include "machine/pcie_cfg.h"

#define MAX_GPUS  64
#define MAX_DEPTH 16

static unsigned rd16(const unsigned char *c, size_t o)
{
	return (unsigned)c[o] | (unsigned)c[o + 1] << 8;
}

static uint32_t rd32(const unsigned char *c, size_t o)
{
	return (uint32_t)rd16(c, o) | (uint32_t)rd16(c, o + 2) << 16;
}

int pcie_acs_find(const unsigned char *cfg, size_t len, struct pcie_acs *out)
{
	unsigned off = 0x100;

	if (!cfg || len < 4096)
		return -1;
	/* extended capabilities: id 15:0, version 19:16, next 31:20 (dword aligned) */
	for (int hops = 0; off >= 0x100 && off + 8 <= len && hops < 1024; hops++) {
		uint32_t h = rd32(cfg, off);
		if (h == 0 || h == 0xffffffffu)
			return 0;
		if ((h & 0xffff) == PCIE_EXT_CAP_ACS) {
			out->offset = off;
			out->cap = rd16(cfg, off + 4);
			out->ctl = rd16(cfg, off + 6);
			return 1;
		}
		off = (h >> 20) & 0xffc;
	}
	return 0;
}

void pcie_acs_flags(unsigned bits, char *buf, size_t len)
{
	static const char *const names[] = {"SrcValid",	   "TransBlk",	 "ReqRedir",   "CmpltRedir",
					    "UpstreamFwd", "EgressCtrl", "DirectTrans"};
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < ARRAY_SIZE(names) && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s%c", i ? " " : "", names[i],
					 bits & (1u << i) ? '+' : '-');
}

size_t pcie_resource_parse(const char *text, struct pcie_bar *bars, size_t max)
{
	size_t n = 0;
	int index = 0;

	for (const char *p = text; p && *p && index < 6; index++) {
		unsigned long long start, end, flags;
		if (sscanf(p, "%llx %llx %llx", &start, &end, &flags) == 3 && end > start &&
		    n < max) {
			bars[n++] = (struct pcie_bar){.index = index,
						      .start = start,
						      .bytes = end - start + 1,
						      .prefetch = (flags & 0x2000) != 0,
						      .is64 = (flags & 0x100000) != 0,
						      .io = (flags & 0x100) != 0};
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return n;
}

/* "0000:00:03.0" (a domain of 4 or more hex digits). */
static int is_bdf(const char *s)
{
	size_t d = strspn(s, "0123456789abcdef");
	return d >= 4 && s[d] == ':' && isxdigit((unsigned char)s[d + 1]) &&
	       isxdigit((unsigned char)s[d + 2]) && s[d + 3] == ':' &&
	       isxdigit((unsigned char)s[d + 4]) && isxdigit((unsigned char)s[d + 5]) &&
	       s[d + 6] == '.' && s[d + 7] >= '0' && s[d + 7] <= '7' && s[d + 8] == '\0';
}

static long hex_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *s = read_line_str(path);
	long v = s ? strtol(s, NULL, 16) : -1;
	free(path);
	free(s);
	return v;
}

struct gpu {
	char bdf[32];
	char *dir; /* real path */
	long cls, vendor, device;
	int numa, group;
	char host[64];	       /* the host bridge: "pci0000:00" */
	char *path[MAX_DEPTH]; /* ports from the host bridge down (BDFs) */
	char *pdir[MAX_DEPTH]; /* their directories */
	size_t n_path;
};

/* The ports above g from its real path; 0, or -1 when it is not under a host bridge. */
static int walk_up(struct gpu *g)
{
	char *copy = xstrdup(g->dir), *parts[64];
	size_t n = 0, first;
	int rc = -1;

	for (char *save = NULL, *t = strtok_r(copy, "/", &save); t && n < ARRAY_SIZE(parts);
	     t = strtok_r(NULL, "/", &save))
		parts[n++] = t;
	/* the run of BDF components that ends with the device itself */
	for (first = n; first > 0 && is_bdf(parts[first - 1]); first--)
		;
	if (first > 0 && first < n && n - 1 - first <= MAX_DEPTH) {
		size_t off = 0;
		snprintf(g->host, sizeof(g->host), "%s", parts[first - 1]);
		for (size_t i = 0; i < first; i++)
			off += strlen(parts[i]) + 1;
		for (size_t i = first; i + 1 < n; i++) {
			off += strlen(parts[i]) + 1;
			g->path[g->n_path] = xstrdup(parts[i]);
			g->pdir[g->n_path++] = xasprintf("%.*s", (int)off, g->dir);
		}
		rc = 0;
	}
	free(copy);
	return rc;
}

static int read_gpu(const char *sysfs_root, const char *bdf, struct gpu *g)
{
	char *link = xasprintf("%s/bus/pci/devices/%s", sysfs_root, bdf), real[PATH_MAX],
	     grp[PATH_MAX];
	char *gl, *num;
	ssize_t k;

	memset(g, 0, sizeof(*g));
	g->numa = g->group = -1;
	snprintf(g->bdf, sizeof(g->bdf), "%s", bdf);
	if (!realpath(link, real)) {
		free(link);
		return -1;
	}
	free(link);
	/* an absolute path: walk_up counts one "/" per component */
	g->dir = xstrdup(real);
	g->cls = hex_file(real, "class");
	g->vendor = hex_file(real, "vendor");
	g->device = hex_file(real, "device");
	gl = xasprintf("%s/numa_node", real);
	if ((num = read_line_str(gl)) != NULL)
		g->numa = atoi(num);
	free(num);
	free(gl);
	gl = xasprintf("%s/iommu_group", real);
	k = readlink(gl, grp, sizeof(grp) - 1);
	if (k > 0) {
		grp[k] = '\0';
		g->group = atoi(strrchr(grp, '/') ? strrchr(grp, '/') + 1 : grp);
	}
	free(gl);
	return walk_up(g);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The display-class devices under sysfs_root, sorted by BDF; -1 without a PCI bus. */
static int find_gpus(const char *sysfs_root, struct gpu *gpus, size_t *n)
{
	char *dir = xasprintf("%s/bus/pci/devices", sysfs_root), *names[1024];
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t count = 0;

	*n = 0;
	if (!d) {
		free(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL && count < ARRAY_SIZE(names))
		if (is_bdf(e->d_name)) {
			char *p = xasprintf("%s/%s", dir, e->d_name);
			long cls = hex_file(p, "class");
			free(p);
			if (cls >= 0 && (cls >> 16) == 0x03)
				names[count++] = xstrdup(e->d_name);
		}
	closedir(d);
	free(dir);
	qsort(names, count, sizeof(*names), cmp_str);
	for (size_t i = 0; i < count; i++) {
		if (*n < MAX_GPUS && read_gpu(sysfs_root, names[i], &gpus[*n]) == 0)
			(*n)++;
		free(names[i]);
	}
	return 0;
}

static void gpu_free(struct gpu *g)
{
	free(g->dir);
	for (size_t i = 0; i < g->n_path; i++) {
		free(g->path[i]);
		free(g->pdir[i]);
	}
}

/* "0x030200"; a fact that could not be read reads 0x0. */
static json_t *hex_str(long long v, int digits)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%0*llx", digits, (unsigned long long)(v < 0 ? 0 : v));
	return json_string(buf);
}

static json_t *bars_json(const char *dir)
{
	char *path = xasprintf("%s/resource", dir), *text = read_file_str(path, NULL);
	struct pcie_bar bars[6];
	size_t n = pcie_resource_parse(text, bars, 6);
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		if (!bars[i].io)
			json_array_append_new(
				a, json_pack("{s:i, s:I, s:o, s:b, s:i}", "bar", bars[i].index,
					     "bytes", (json_int_t)bars[i].bytes, "start",
					     hex_str((long long)bars[i].start, 8), "prefetch",
					     bars[i].prefetch, "bits", bars[i].is64 ? 64 : 32));
	free(path);
	free(text);
	return a;
}

static const char *port_type_name(int t)
{
	static const char *const names[] = {
		[0] = "endpoint",	    [1] = "legacy_endpoint", [4] = "root_port",
		[5] = "upstream",	    [6] = "downstream",	     [7] = "pcie_to_pci_bridge",
		[8] = "pci_to_pcie_bridge", [9] = "rc_endpoint",     [10] = "rc_event_collector"};
	return t >= 0 && t < (int)ARRAY_SIZE(names) && names[t] ? names[t] : NULL;
}

/* One port's facts: class, PCIe type, and its ACS registers where readable. */
static json_t *port_json(const char *dir)
{
	char *path = xasprintf("%s/config", dir), flags[160];
	size_t len = 0;
	unsigned char *cfg = (unsigned char *)read_file_str(path, &len);
	json_t *o = json_object();
	struct pcie_acs acs;
	int found = cfg ? pcie_acs_find(cfg, len, &acs) : -1;
	const char *type = port_type_name(pcie_port_type(cfg, cfg ? len : 0));

	json_object_set_new(o, "class", hex_str(hex_file(dir, "class"), 6));
	if (type)
		json_object_set_new(o, "type", json_string(type));
	json_object_set_new(o, "config_bytes", json_integer((json_int_t)(cfg ? len : 0)));
	json_object_set_new(o, "acs",
			    json_string(found > 0    ? "present"
					: found == 0 ? "absent"
						     : "unreadable"));
	if (found > 0) {
		json_object_set_new(o, "acs_cap", json_integer(acs.cap));
		json_object_set_new(o, "acs_ctl", json_integer(acs.ctl));
		pcie_acs_flags(acs.cap, flags, sizeof(flags));
		json_object_set_new(o, "acs_cap_flags", json_string(flags));
		pcie_acs_flags(acs.ctl, flags, sizeof(flags));
		json_object_set_new(o, "acs_ctl_flags", json_string(flags));
		json_object_set_new(o, "redirect", json_integer(acs.ctl & PCIE_ACS_REDIR));
	}
	free(cfg);
	free(path);
	return o;
}

static json_t *str_list(char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/* The pair's kind, ancestor and the ports strictly below the ancestor. */
static json_t *pair_json(const struct gpu *a, const struct gpu *b)
{
	json_t *o = json_pack("{s:[s,s]}", "gpus", a->bdf, b->bdf), *ports = json_array();
	size_t k = 0;
	const char *kind;

	if (strcmp(a->host, b->host) != 0) {
		kind = a->numa >= 0 && b->numa >= 0 && a->numa != b->numa ? "sockets"
									  : "host_bridges";
		json_object_set_new(o, "ancestor", json_null());
	} else {
		while (k < a->n_path && k < b->n_path && strcmp(a->path[k], b->path[k]) == 0)
			k++;
		kind = k == 0 ? "root_complex" : k == 1 ? "root_port" : "switch";
		json_object_set_new(o, "ancestor", json_string(k ? a->path[k - 1] : a->host));
	}
	json_object_set_new(o, "kind", json_string(kind));
	for (size_t i = k; i < a->n_path; i++)
		json_array_append_new(ports, json_string(a->path[i]));
	for (size_t i = k; i < b->n_path; i++)
		json_array_append_new(ports, json_string(b->path[i]));
	json_object_set_new(o, "ports", ports);
	return o;
}

json_t *pcie_collect(const char *sysfs_root)
{
	struct gpu *g = xcalloc(MAX_GPUS, sizeof(*g));
	json_t *o, *gpus, *ports, *pairs, *link;
	size_t n;

	if (find_gpus(sysfs_root, g, &n) != 0) {
		free(g);
		return NULL;
	}
	o = json_object();
	gpus = json_array();
	ports = json_object();
	pairs = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *d =
			json_pack("{s:s, s:o, s:o, s:o, s:i, s:s, s:o}", "bdf", g[i].bdf, "class",
				  hex_str(g[i].cls, 6), "vendor", hex_str(g[i].vendor, 4), "device",
				  hex_str(g[i].device, 4), "numa_node", g[i].numa, "host_bridge",
				  g[i].host, "path", str_list(g[i].path, g[i].n_path));
		if (g[i].group >= 0) {
			char *t = xasprintf("%s/kernel/iommu_groups/%d/type", sysfs_root,
					    g[i].group),
			     *type = read_line_str(t);
			json_object_set_new(d, "iommu_group", json_integer(g[i].group));
			if (type)
				json_object_set_new(d, "iommu_type", json_string(str_trim(type)));
			free(type);
			free(t);
		}
		json_object_set_new(d, "bars", bars_json(g[i].dir));
		if ((link = limits_link_read(g[i].dir)) != NULL)
			json_object_set_new(d, "link", link);
		json_array_append_new(gpus, d);
		for (size_t p = 0; p < g[i].n_path; p++)
			if (!json_object_get(ports, g[i].path[p]))
				json_object_set_new(ports, g[i].path[p], port_json(g[i].pdir[p]));
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (g[i].vendor == g[j].vendor)
				json_array_append_new(pairs, pair_json(&g[i], &g[j]));
	json_object_set_new(o, "gpus", gpus);
	json_object_set_new(o, "ports", ports);
	json_object_set_new(o, "pairs", pairs);
	for (size_t i = 0; i < n; i++)
		gpu_free(&g[i]);
	free(g);
	return o;
}

json_t *pcie_iommu_collect(const char *sysfs_root)
{
	json_t *o = json_object(), *units = json_array(), *types = json_object();
	char *dir = xasprintf("%s/class/iommu", sysfs_root);
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d)) != NULL)
			if (e->d_name[0] != '.')
				json_array_append_new(units, json_string(e->d_name));
		closedir(d);
	}
	json_object_set_new(o, "units", units);
	free(dir);
	dir = xasprintf("%s/kernel/iommu_groups", sysfs_root);
	d = opendir(dir);
	if (d) {
		int groups = 0;
		while ((e = readdir(d)) != NULL) {
			char *path, *type;
			json_t *c;
			if (e->d_name[0] == '.')
				continue;
			groups++;
			path = xasprintf("%s/%s/type", dir, e->d_name);
			type = read_line_str(path);
			if (type) {
				str_trim(type);
				c = json_object_get(types, type);
				json_object_set_new(
					types, type,
					json_integer(c ? json_integer_value(c) + 1 : 1));
				if (strcmp(e->d_name, "0") == 0)
					json_object_set_new(o, "group0_type", json_string(type));
			}
			free(type);
			free(path);
		}
		closedir(d);
		json_object_set_new(o, "groups", json_integer(groups));
	}
	json_object_set_new(o, "group_types", types);
	free(dir);
	return o;
}

/* A group type as a mode: identity is passthrough, DMA and DMA-FQ translate. */
static const char *type_mode(const char *type)
{
	if (strcmp(type, "identity") == 0)
		return "passthrough";
	if (strncmp(type, "DMA", 3) == 0)
		return "translated";
	return type;
}

const char *pcie_iommu_mode(const json_t *iommu, const json_t *pcie)
{
	const char *mode = NULL, *k;
	json_t *gpus = json_object_get(pcie, "gpus"), *g,
	       *groups = json_object_get(iommu, "groups"), *v;
	size_t i;

	json_array_foreach (gpus, i, g) {
		const char *t = json_string_value(json_object_get(g, "iommu_type"));
		if (!t)
			continue;
		if (mode && strcmp(mode, type_mode(t)) != 0)
			return "mixed";
		mode = type_mode(t);
	}
	if (mode)
		return mode;
	if (!json_is_integer(groups))
		return NULL;
	if (json_integer_value(groups) == 0)
		return "off";
	json_object_foreach ((json_t *)json_object_get(iommu, "group_types"), k, v) {
		if (mode && strcmp(mode, type_mode(k)) != 0)
			return "mixed";
		mode = type_mode(k);
	}
	/* a fingerprint from before group_types: group 0's type */
	if (!mode && json_string_value(json_object_get(iommu, "group0_type")))
		mode = type_mode(json_string_value(json_object_get(iommu, "group0_type")));
	return mode;
}

/* Appends the ports on any pair's path with a redirect bit set, each once,
 * in port order, joined by sep; *unreadable counts the ports not read. */
static char *redirect_ports(const json_t *pcie, const char *sep, int *unreadable)
{
	json_t *ports = json_object_get(pcie, "ports"), *pairs = json_object_get(pcie, "pairs"), *p,
	       *pair, *name;
	const char *bdf;
	char *out = NULL;
	size_t i, j;

	*unreadable = 0;
	json_object_foreach (ports, bdf, p) {
		int on_path = 0;
		json_array_foreach (pairs, i, pair)
			json_array_foreach (json_object_get(pair, "ports"), j, name)
				on_path |= strcmp(json_string_value(name) ?: "", bdf) == 0;
		if (!on_path)
			continue;
		if (strcmp(json_string_value(json_object_get(p, "acs")) ?: "", "unreadable") == 0)
			(*unreadable)++;
		if (json_integer_value(json_object_get(p, "redirect")) != 0) {
			char *t = xasprintf("%s%s%s", out ? out : "", out ? sep : "", bdf);
			free(out);
			out = t;
		}
	}
	return out;
}

char *pcie_acs_param(const json_t *pcie)
{
	int unreadable;
	char *ports = redirect_ports(pcie, ";", &unreadable), *line;

	if (!ports)
		return NULL;
	line = xasprintf("pci=disable_acs_redir=%s", ports);
	free(ports);
	return line;
}

static char *size_str(uint64_t b)
{
	if (b >= (1ull << 30) && b % (1ull << 30) == 0)
		return xasprintf("%lluG", (unsigned long long)(b >> 30));
	if (b >= (1ull << 20) && b % (1ull << 20) == 0)
		return xasprintf("%lluM", (unsigned long long)(b >> 20));
	return xasprintf("%lluK", (unsigned long long)(b >> 10));
}

/* "a=x,b=y": appends one item to a knob's list. */
static void list_add(char **s, const char *item)
{
	char *t = xasprintf("%s%s%s", *s ? *s : "", *s ? "," : "", item);
	free(*s);
	*s = t;
}

void pcie_knobs(json_t *knobs, const json_t *iommu, const json_t *pcie)
{
	const char *mode = pcie_iommu_mode(iommu, pcie);
	json_t *gpus = json_object_get(pcie, "gpus"), *pairs = json_object_get(pcie, "pairs"), *g,
	       *b;
	char *bars = NULL, *paths = NULL, *redir;
	size_t i, j;
	int unreadable;

	if (mode)
		json_object_set_new(knobs, "iommu_mode", json_string(mode));
	json_array_foreach (gpus, i, g) {
		json_int_t big = 0;
		json_array_foreach (json_object_get(g, "bars"), j, b)
			if (json_integer_value(json_object_get(b, "bytes")) > big)
				big = json_integer_value(json_object_get(b, "bytes"));
		if (big > 0) {
			char *sz = size_str((uint64_t)big),
			     *item = xasprintf("%s=%s",
					       json_string_value(json_object_get(g, "bdf")), sz);
			list_add(&bars, item);
			free(item);
			free(sz);
		}
	}
	json_array_foreach (pairs, i, g) {
		json_t *two = json_object_get(g, "gpus");
		char *item = xasprintf("%s-%s=%s", json_string_value(json_array_get(two, 0)),
				       json_string_value(json_array_get(two, 1)),
				       json_string_value(json_object_get(g, "kind")));
		list_add(&paths, item);
		free(item);
	}
	if (bars)
		json_object_set_new(knobs, "gpu_bar1", json_string(bars));
	if (paths)
		json_object_set_new(knobs, "p2p_path", json_string(paths));
	redir = redirect_ports(pcie, ",", &unreadable);
	if (json_array_size(pairs) > 0 && !unreadable)
		json_object_set_new(knobs, "acs_redirect", json_string(redir ? redir : "none"));
	free(redir);
	free(bars);
	free(paths);
}
