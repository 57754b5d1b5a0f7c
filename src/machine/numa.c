/* numa.c - topology from a sysfs root, numa_maps and move_pages truth, mbind. */
#include "machine/numa.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <numaif.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

#ifndef MPOL_PREFERRED_MANY
#define MPOL_PREFERRED_MANY 5 /* linux/mempolicy.h since 5.15; older headers lack it */
#endif
#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6 /* since 6.9 */
#endif

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int numa_cpulist_parse(const char *s, int **out, size_t *n)
{
	size_t cap = 16, len = 0;
	int *v = xmalloc(cap * sizeof(*v));
	const char *p = s;
	*out = NULL;
	*n = 0;
	while (*p && isspace((unsigned char)*p))
		p++;
	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi;
		if (end == p || lo < 0)
			goto bad;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi - lo > 1 << 20)
				goto bad;
			p = end;
		}
		for (long i = lo; i <= hi; i++) {
			if (len == cap) {
				cap *= 2;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[len++] = (int)i;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n' && !isspace((unsigned char)*p))
			goto bad;
		while (*p == ' ')
			p++;
	}
	qsort(v, len, sizeof(*v), cmp_int);
	*out = v;
	*n = len;
	return 0;
bad:
	free(v);
	return -1;
}

static char *node_path(const char *root, int id, const char *file)
{
	return xasprintf("%s/devices/system/node/node%d/%s", root, id, file);
}

/* nodeN/meminfo: "Node 0 MemTotal:       18180312 kB". */
static uint64_t node_meminfo(const char *text, const char *key)
{
	const char *p = text;
	size_t klen = strlen(key);
	while (p && *p) {
		const char *q = p;
		if (strncmp(q, "Node ", 5) == 0) {
			q += 5;
			while (isdigit((unsigned char)*q))
				q++;
			while (*q == ' ')
				q++;
			if (strncmp(q, key, klen) == 0 && q[klen] == ':')
				return strtoull(q + klen + 1, NULL, 10) * 1024;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int numa_topology_read(const char *sysfs_root, struct numa_topology *out)
{
	char *dir = xasprintf("%s/devices/system/node", sysfs_root);
	DIR *d = opendir(dir);
	struct dirent *e;
	int ids[NUMA_MAX_NODES];
	size_t n = 0;
	memset(out, 0, sizeof(*out));
	free(dir);
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char *end;
		long id;
		if (strncmp(e->d_name, "node", 4) != 0 || !isdigit((unsigned char)e->d_name[4]))
			continue;
		id = strtol(e->d_name + 4, &end, 10);
		if (*end || id < 0 || id >= NUMA_MAX_NODES || n == NUMA_MAX_NODES)
			continue;
		ids[n++] = (int)id;
	}
	closedir(d);
	if (n == 0)
		return -1;
	qsort(ids, n, sizeof(ids[0]), cmp_int);
	out->nodes = xcalloc(n, sizeof(*out->nodes));
	out->n = n;
	for (size_t i = 0; i < n; i++) {
		struct numa_node *nd = &out->nodes[i];
		char *path, *text;
		nd->id = ids[i];
		path = node_path(sysfs_root, ids[i], "cpulist");
		text = read_file_str(path, NULL);
		free(path);
		if (text && numa_cpulist_parse(text, &nd->cpus, &nd->n_cpus) != 0) {
			nd->cpus = NULL;
			nd->n_cpus = 0;
		}
		free(text);
		path = node_path(sysfs_root, ids[i], "meminfo");
		text = read_file_str(path, NULL);
		free(path);
		if (text) {
			nd->mem_total_bytes = node_meminfo(text, "MemTotal");
			nd->mem_free_bytes = node_meminfo(text, "MemFree");
		}
		free(text);
		/* distance lists one entry per online node, in node order: it lines
		 * up with nodes[] only when it has exactly n entries. */
		path = node_path(sysfs_root, ids[i], "distance");
		text = read_file_str(path, NULL);
		free(path);
		if (text) {
			int *dist = xcalloc(n, sizeof(*dist));
			char *p = text, *end;
			size_t k = 0;
			for (;;) {
				long v = strtol(p, &end, 10);
				if (end == p)
					break;
				if (k < n)
					dist[k] = (int)v;
				k++;
				p = end;
			}
			if (k == n)
				nd->distance = dist;
			else
				free(dist);
		}
		free(text);
	}
	return 0;
}

void numa_topology_free(struct numa_topology *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->nodes[i].cpus);
		free(t->nodes[i].distance);
	}
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

const struct numa_node *numa_topology_node(const struct numa_topology *t, int id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].id == id)
			return &t->nodes[i];
	return NULL;
}

const char *numa_node_kind(const struct numa_node *n)
{
	if (n->n_cpus && n->mem_total_bytes)
		return "cpu+memory";
	if (n->mem_total_bytes)
		return "memory-only";
	if (n->n_cpus)
		return "cpu-only";
	return "empty";
}

size_t numa_topology_cpu_nodes(const struct numa_topology *t)
{
	size_t c = 0;
	for (size_t i = 0; i < t->n; i++)
		c += t->nodes[i].n_cpus > 0;
	return c;
}

size_t numa_topology_mem_nodes(const struct numa_topology *t)
{
	size_t c = 0;
	for (size_t i = 0; i < t->n; i++)
		c += t->nodes[i].mem_total_bytes > 0;
	return c;
}

int numa_numastat_read(const char *sysfs_root, int node, struct kv_list *out)
{
	char *path = node_path(sysfs_root, node, "numastat");
	char *text = read_file_str(path, NULL);
	int rc;
	free(path);
	if (!text) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	rc = kv_parse_vmstat(text, out);
	free(text);
	return rc;
}

/* numa_maps keys that end the policy words ("prefer (many):0-1" and
 * "weighted interleave:0-1" contain spaces). */
static int is_maps_key(const char *tok, size_t len)
{
	static const char *const keys[] = {"anon=",	 "dirty=",     "mapped=",
					   "mapmax=",	 "swapcache=", "active=",
					   "writeback=", "file=",      "kernelpagesize_kB=",
					   "heap",	 "stack",      "huge"};
	if (len > 1 && tok[0] == 'N' && isdigit((unsigned char)tok[1]))
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (strncmp(tok, keys[i], strlen(keys[i])) == 0)
			return 1;
	return 0;
}

int numa_maps_parse(const char *text, uintptr_t start, uintptr_t end, struct numa_maps_info *out)
{
	const char *p = text;
	memset(out, 0, sizeof(*out));
	while (p && *p) {
		const char *eol = strchr(p, '\n'), *q;
		char *e;
		uintptr_t addr;
		if (!eol)
			eol = p + strlen(p);
		addr = (uintptr_t)strtoull(p, &e, 16);
		if (e != p && *e == ' ' && addr >= start && addr < end) {
			int in_policy = 1;
			size_t plen = 0, ntok = 0;
			out->n_entries++;
			q = e + 1;
			while (q < eol) {
				const char *t = q;
				size_t len;
				while (q < eol && *q != ' ')
					q++;
				len = (size_t)(q - t);
				if (in_policy && (ntok++ == 0 || !is_maps_key(t, len))) {
					if (out->n_entries == 1 &&
					    plen + len + 2 < sizeof(out->policy)) {
						if (plen)
							out->policy[plen++] = ' ';
						memcpy(out->policy + plen, t, len);
						plen += len;
						out->policy[plen] = '\0';
					}
				} else {
					in_policy = 0;
					if (t[0] == 'N' && isdigit((unsigned char)t[1])) {
						char *ee;
						long node = strtol(t + 1, &ee, 10);
						if (*ee == '=' && node >= 0 &&
						    node < NUMA_MAX_NODES) {
							uint64_t v = strtoull(ee + 1, NULL, 10);
							out->pages[node] += v;
							out->total_pages += v;
						}
					} else if (strncmp(t, "kernelpagesize_kB=", 18) == 0) {
						out->page_bytes = strtoull(t + 18, NULL, 10) * 1024;
					}
				}
				while (q < eol && *q == ' ')
					q++;
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return out->n_entries ? 0 : -1;
}

void numa_maps_node_bytes(const char *text, uint64_t bytes[NUMA_MAX_NODES])
{
	memset(bytes, 0, NUMA_MAX_NODES * sizeof(bytes[0]));
	for (const char *p = text; p && *p;) {
		const char *eol = strchr(p, '\n'), *k;
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = xasprintf("%.*s", (int)len, p);
		uint64_t page = 4096, pages[NUMA_MAX_NODES] = {0};

		/* the page size ends the line; the counts come before it */
		if ((k = strstr(line, " kernelpagesize_kB=")) != NULL)
			page = strtoull(k + 19, NULL, 10) * 1024;
		for (char *t = strstr(line, " N"); t; t = strstr(t + 1, " N")) {
			char *e;
			long node = strtol(t + 2, &e, 10);
			if (e != t + 2 && *e == '=' && node >= 0 && node < NUMA_MAX_NODES)
				pages[node] += strtoull(e + 1, NULL, 10);
		}
		for (int i = 0; i < NUMA_MAX_NODES; i++)
			bytes[i] += pages[i] * page;
		free(line);
		p = eol ? eol + 1 : NULL;
	}
}

int numa_maps_range(const void *addr, size_t len, struct numa_maps_info *out)
{
	char *text = read_file_str("/proc/self/numa_maps", NULL);
	int rc;
	if (!text) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	rc = numa_maps_parse(text, (uintptr_t)addr, (uintptr_t)addr + len, out);
	free(text);
	return rc;
}

int numa_pages_where(const void *addr, size_t len, size_t max_samples,
		     uint64_t per_node[NUMA_MAX_NODES], uint64_t *n_sampled, uint64_t *n_absent)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n_pages = len / page, n, step;
	void **pages;
	int *status;
	long rc;
	memset(per_node, 0, NUMA_MAX_NODES * sizeof(per_node[0]));
	*n_sampled = *n_absent = 0;
	if (n_pages == 0)
		return 0;
	n = n_pages < max_samples ? n_pages : max_samples;
	step = n_pages / n;
	pages = xcalloc(n, sizeof(*pages));
	status = xcalloc(n, sizeof(*status));
	/* one page at a hashed offset inside each of n even slices: pages at a
	 * fixed stride alias with interleave (a stride of 6 pages over 2 or 3
	 * interleaved nodes finds every sample on one node) */
	for (size_t i = 0; i < n; i++) {
		uint64_t h = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull;
		pages[i] = (char *)addr + (i * step + (size_t)((h >> 32) % step)) * page;
	}
	/* nodes == NULL: query mode, nothing moves; status[i] is the node. */
	rc = move_pages(0, (unsigned long)n, pages, NULL, status, 0);
	if (rc < 0) {
		free(pages);
		free(status);
		return error("cannot query page placement (move_pages): %s", strerror(errno));
	}
	for (size_t i = 0; i < n; i++) {
		if (status[i] >= 0 && status[i] < NUMA_MAX_NODES)
			per_node[status[i]]++;
		else
			(*n_absent)++;
	}
	*n_sampled = n;
	free(pages);
	free(status);
	return 0;
}

static const char *const policy_names[NUMA_POLICY__COUNT] = {
	"none", "bind", "preferred", "interleave", "preferred-many", "weighted-interleave"};

const char *numa_policy_name(enum numa_policy p)
{
	return (unsigned)p < NUMA_POLICY__COUNT ? policy_names[p] : "?";
}

const char *numa_policy_missing(enum numa_policy p)
{
	if (p == NUMA_POLICY_WEIGHTED &&
	    access("/sys/kernel/mm/mempolicy/weighted_interleave", F_OK) != 0)
		return "this kernel has no weighted interleave (Linux 6.9+: "
		       "/sys/kernel/mm/mempolicy/weighted_interleave is absent)";
	return NULL;
}

int numa_nodes_parse(const char *s, const struct numa_topology *t, uint64_t *mask)
{
	int *v;
	size_t n;
	*mask = 0;
	if (strcmp(s, "all") == 0) {
		for (size_t i = 0; t && i < t->n; i++)
			if (t->nodes[i].mem_total_bytes && t->nodes[i].id < NUMA_MAX_NODES)
				*mask |= 1ull << t->nodes[i].id;
		if (!t || *mask == 0)
			*mask = 1;
		return 0;
	}
	if (!*s || numa_cpulist_parse(s, &v, &n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i] >= NUMA_MAX_NODES) {
			free(v);
			return -1;
		}
		*mask |= 1ull << v[i];
	}
	free(v);
	return n ? 0 : -1;
}

const char *numa_check_nodes(const char *spec, char *why, size_t len)
{
	uint64_t mask;

	if (numa_nodes_parse(spec, NULL, &mask) == 0)
		return NULL;
	snprintf(why, len, "not a node list (e.g. 0, 0,2, 1-3 or all; nodes below %d)",
		 NUMA_MAX_NODES);
	return why;
}

static const int policy_modes[NUMA_POLICY__COUNT] = {
	[NUMA_POLICY_NONE] = MPOL_DEFAULT,
	[NUMA_POLICY_BIND] = MPOL_BIND,
	[NUMA_POLICY_PREFERRED] = MPOL_PREFERRED,
	[NUMA_POLICY_INTERLEAVE] = MPOL_INTERLEAVE,
	[NUMA_POLICY_PREFERRED_MANY] = MPOL_PREFERRED_MANY,
	[NUMA_POLICY_WEIGHTED] = MPOL_WEIGHTED_INTERLEAVE,
};

#define MASK_LONGS (NUMA_MAX_NODES / (8 * sizeof(unsigned long)))

static int policy_mask(enum numa_policy p, uint64_t mask, unsigned long nodemask[MASK_LONGS])
{
	if ((unsigned)p >= NUMA_POLICY__COUNT || mask == 0)
		return error("bad placement request (policy %d, no nodes)", (int)p);
	if (p == NUMA_POLICY_PREFERRED && (mask & (mask - 1)))
		return error("policy 'preferred' takes one node (use preferred-many for several)");
	memset(nodemask, 0, MASK_LONGS * sizeof(unsigned long));
	for (int i = 0; i < NUMA_MAX_NODES; i++)
		if (mask & (1ull << i))
			nodemask[i / (8 * sizeof(unsigned long))] |=
				1ul << (i % (8 * sizeof(unsigned long)));
	return 0;
}

int numa_policy_apply(void *addr, size_t len, enum numa_policy p, uint64_t mask)
{
	unsigned long nodemask[MASK_LONGS];
	if (p == NUMA_POLICY_NONE)
		return 0;
	if (policy_mask(p, mask, nodemask))
		return -1;
	if (mbind(addr, len, policy_modes[p], nodemask, NUMA_MAX_NODES + 1, 0) != 0)
		return error("cannot apply policy '%s' (mbind): %s", numa_policy_name(p),
			     strerror(errno));
	return 0;
}

int numa_policy_set_task(enum numa_policy p, uint64_t mask)
{
	unsigned long nodemask[MASK_LONGS];
	if (p == NUMA_POLICY_NONE)
		return set_mempolicy(MPOL_DEFAULT, NULL, 0) == 0
			       ? 0
			       : error("cannot reset the memory policy: %s", strerror(errno));
	if (policy_mask(p, mask, nodemask))
		return -1;
	if (set_mempolicy(policy_modes[p], nodemask, NUMA_MAX_NODES + 1) != 0)
		return error("cannot set policy '%s' (set_mempolicy): %s", numa_policy_name(p),
			     strerror(errno));
	return 0;
}
