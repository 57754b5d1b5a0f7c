/* mem.c - mappings with a page-size intent, smaps truth, size caps, the
 * measured cache knee. */
#include "machine/mem.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/kv.h"
#include "base/util.h"
#include "machine/cache.h"

int mem_map(struct mem_buf *b, size_t size, enum mem_pages pages, int extra_flags)
{
	size_t map_bytes = size_add(size, MEM_HUGE_BYTES); /* saturates: mmap refuses */
	void *p;
	uintptr_t aligned;
	memset(b, 0, sizeof(*b));
	if (size == 0)
		return error("cannot map an empty buffer");
	p = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | extra_flags,
		 -1, 0);
	if (p == MAP_FAILED)
		return error("cannot map %zu bytes: %s", size, strerror(errno));
	aligned = ((uintptr_t)p + MEM_HUGE_BYTES - 1) & ~(uintptr_t)(MEM_HUGE_BYTES - 1);
	b->map_addr = p;
	b->map_bytes = map_bytes;
	b->addr = (void *)aligned;
	b->size_bytes = size;
	b->pages = pages;
	/* State the intent either way: with THP=always a "4k" buffer would
	 * otherwise get huge pages nobody asked for. DEFAULT: no madvise. */
	if (pages != MEM_PAGES_DEFAULT &&
	    madvise(b->addr, size, pages == MEM_PAGES_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) != 0 &&
	    pages == MEM_PAGES_THP) {
		int e = errno;
		mem_unmap(b);
		return error("madvise(MADV_HUGEPAGE) failed: %s", strerror(e));
	}
	return 0;
}

void mem_unmap(struct mem_buf *b)
{
	if (b->map_addr)
		munmap(b->map_addr, b->map_bytes);
	memset(b, 0, sizeof(*b));
}

static uint64_t field_kb(const char *line, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(line, name, n) != 0 || line[n] != ':')
		return UINT64_MAX;
	return strtoull(line + n + 1, NULL, 10) * 1024;
}

int mem_smaps_parse(const char *text, uintptr_t start, uintptr_t end, struct smaps_info *out)
{
	const char *p = text;
	int in_range = 0;
	memset(out, 0, sizeof(*out));
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		uintmax_t lo, hi;
		char c;
		/* A VMA header is "lo-hi perms ..."; field lines are "Name: value"
		 * (a name such as "AnonHugePages" starts with a hex digit but is
		 * never followed by '-'). */
		if (sscanf(p, "%jx-%jx%c", &lo, &hi, &c) == 3 && c == ' ') {
			in_range = (uintptr_t)lo < end && (uintptr_t)hi > start;
			if (in_range) {
				out->n_vmas++;
				out->size_bytes += (uint64_t)(hi - lo);
			}
			goto next;
		}
		if (in_range) {
			uint64_t v;
			if ((v = field_kb(p, "Rss")) != UINT64_MAX)
				out->rss_bytes += v;
			else if ((v = field_kb(p, "AnonHugePages")) != UINT64_MAX)
				out->anon_huge_bytes += v;
		}
	next:
		p = eol ? eol + 1 : NULL;
	}
	return out->n_vmas ? 0 : -1;
}

int mem_smaps_range(const void *addr, size_t len, struct smaps_info *out)
{
	char *text = read_file_str("/proc/self/smaps", NULL);
	int rc;
	if (!text) {
		memset(out, 0, sizeof(*out));
		return error("cannot read /proc/self/smaps: %s", strerror(errno));
	}
	rc = mem_smaps_parse(text, (uintptr_t)addr, (uintptr_t)addr + len, out);
	free(text);
	if (rc != 0)
		return error("no mapping at %p in /proc/self/smaps", addr);
	return 0;
}

/* Reads a cgroup file's number ("max" and v1's near-2^63 "no limit" read
 * as 0: no limit). */
static uint64_t cgroup_number(const char *dir, const char *file, int *found)
{
	char *path = xasprintf("%s/%s", dir, file), *t = read_line_str(path), *end;
	unsigned long long v = 0;
	free(path);
	*found = 0;
	if (t && strcmp(t, "max") != 0) {
		v = strtoull(t, &end, 10);
		*found = end != t && !*end;
	}
	free(t);
	return *found && v < (1ull << 62) ? v : 0;
}

/* The smallest limit - usage from dir up to root (both in the same mount). */
static uint64_t room_up(const char *root, char *rel, const char *limit_f, const char *usage_f)
{
	uint64_t room = 0;
	for (;;) {
		char *dir = xasprintf("%s%s", root, rel);
		int have_l, have_u;
		uint64_t l = cgroup_number(dir, limit_f, &have_l);
		uint64_t u = cgroup_number(dir, usage_f, &have_u);
		char *slash = strrchr(rel, '/');
		free(dir);
		if (have_l && l > 0) {
			uint64_t r = l > u ? l - u : 0;
			if (room == 0 || r < room)
				room = r ? r : 1;
		}
		if (!slash || slash == rel)
			break;
		*slash = '\0';
	}
	return room;
}

uint64_t mem_cgroup_room(const char *root, const char *cgroup_text)
{
	uint64_t room = 0;
	for (const char *p = cgroup_text; p && *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xasprintf("%.*s", (int)len, p), *c1 = strchr(line, ':'), *c2;
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (c2) {
			uint64_t r = 0;
			*c2 = '\0';
			if (strcmp(c1 + 1, "") == 0 && strncmp(line, "0", 1) == 0) {
				r = room_up(root, c2 + 1, "memory.max", "memory.current");
			} else if (strstr(c1 + 1, "memory")) {
				char *mroot = xasprintf("%s/memory", root);
				r = room_up(mroot, c2 + 1, "memory.limit_in_bytes",
					    "memory.usage_in_bytes");
				free(mroot);
			}
			if (r && (room == 0 || r < room))
				room = r;
		}
		free(line);
		p += len;
		if (*p == '\n')
			p++;
	}
	return room;
}

uint64_t mem_available_bytes(void)
{
	struct kv_list l;
	int found = 0;
	int64_t v = 0;
	char *cg = read_file_str("/proc/self/cgroup", NULL);
	uint64_t avail, room = cg ? mem_cgroup_room("/sys/fs/cgroup", cg) : 0;
	free(cg);
	if (meminfo_read(&l) == 0)
		v = kv_get(&l, "MemAvailable", &found);
	kv_free(&l);
	avail = found && v > 0 ? (uint64_t)v : 0;
	return room && (avail == 0 || room < avail) ? room : avail;
}

int mem_check_size(uint64_t bytes, int force, const char *what)
{
	uint64_t avail = mem_available_bytes();
	if (avail == 0)
		return 0; /* cannot tell; the child's OOM is then caught by the runner */
	if ((double)bytes > 0.8 * (double)avail && !force)
		return error("%s of %.2f GiB is above 80%% of what this process may use (%.2f GiB: "
			     "MemAvailable, or the room under its cgroup's memory limit); use a "
			     "smaller size or --force",
			     what, (double)bytes / (1 << 30), (double)avail / (1 << 30));
	return 0;
}

uint64_t mem_cap(uint64_t want, double frac)
{
	uint64_t avail = mem_available_bytes();
	uint64_t cap = avail ? (uint64_t)((double)avail * frac) : want;
	uint64_t v = want < cap ? want : cap;
	v &= ~(uint64_t)(MEM_HUGE_BYTES - 1);
	return v < MEM_HUGE_BYTES ? MEM_HUGE_BYTES : v;
}

/* Sattolo's algorithm: a uniformly random permutation with exactly one
 * cycle, so a chase from any slot visits all n before repeating; perm[] is
 * that cycle in visit order (perm[i] -> perm[i + 1]). */
static uint64_t *sattolo(size_t n, uint64_t seed)
{
	uint64_t *perm = xmalloc(n * sizeof(*perm));
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rng_below(&r, i);
		uint64_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	return perm;
}

void mem_random_cycle(uint64_t *next, size_t n, uint64_t seed)
{
	uint64_t *perm;
	if (n == 0)
		return;
	perm = sattolo(n, seed);
	for (size_t i = 0; i < n; i++)
		next[perm[i]] = perm[(i + 1) % n];
	free(perm);
}

/* The cycle of mem_random_cycle(next, m, seed) walked from slot 0, offset by
 * start, into out[0..m): the cycle in visit order rotated to begin at 0,
 * read in order rather than walked (a walk of 32M slots is 32M dependent
 * misses: seconds). */
static void cycle_from_zero(uint64_t *out, size_t m, uint64_t seed, uint64_t start)
{
	uint64_t *perm = sattolo(m, seed);
	size_t z = 0;

	while (perm[z] != 0)
		z++;
	for (size_t i = 0; i < m; i++)
		out[i] = start + perm[(z + i) % m];
	free(perm);
}

void mem_visit_order(uint64_t *seq, size_t n, size_t group, uint64_t seed)
{
	size_t n_groups, k = 0;
	uint64_t *gorder, g;

	if (n == 0)
		return;
	if (group == 0 || group > n)
		group = n;
	n_groups = (n + group - 1) / group;
	gorder = xmalloc(n_groups * sizeof(*gorder));
	if (n_groups > 1)
		cycle_from_zero(gorder, n_groups, seed, 0);
	else
		gorder[0] = 0;
	for (size_t gi = 0; gi < n_groups; gi++) {
		size_t start, m;

		g = gorder[gi];
		start = g * group;
		m = n - start < group ? n - start : group;
		if (m > 1)
			cycle_from_zero(seq + k, m, seed ^ (0x9e3779b97f4a7c15ull * (g + 1)),
					start);
		else
			seq[k] = start;
		k += m;
	}
	free(gorder);
}

void mem_chase_order(uint64_t *seq, size_t n, enum mem_order order, size_t group, uint64_t seed)
{
	if (order == MEM_ORDER_STRIDE) {
		for (size_t i = 0; i < n; i++)
			seq[i] = i;
		return;
	}
	mem_visit_order(seq, n, order == MEM_ORDER_LOCAL ? group : n, seed);
}

uint64_t mem_node_offset(uint64_t k, uint64_t stride, uint64_t seed)
{
	uint64_t lines = stride / 64, z = (k ^ seed) * 0x9e3779b97f4a7c15ull;

	if (lines <= 1)
		return k * stride;
	/* splitmix64's finaliser: neighbouring k land on unrelated lines */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return k * stride + (z % lines) * 64;
}

uint64_t mem_knee_from_curve(const uint64_t *sizes, const double *ns, size_t n)
{
	double lo, hi, mid;
	uint64_t knee;
	if (n == 0)
		return 0;
	lo = ns[0];
	hi = ns[n - 1];
	if (hi <= lo * 1.5)
		return sizes[n - 1]; /* no knee inside the curve */
	mid = sqrt(lo * hi);
	knee = sizes[0];
	for (size_t i = 0; i < n; i++)
		if (ns[i] < mid)
			knee = sizes[i];
		else
			break;
	return knee;
}

/* Lays one random cycle of 64 B lines over the first size bytes of buf:
 * mem_random_cycle's, linked straight from the permutation (one pass of
 * random stores, not two). */
static void chase_lay(char *buf, size_t size)
{
	size_t n = size / 64;
	uint64_t *perm = sattolo(n, 0x6b6e6565ull ^ size);
	for (size_t i = 0; i < n; i++)
		*(char **)(buf + perm[i] * 64) = buf + perm[(i + 1) % n] * 64;
	free(perm);
}

/* ns per load over the cycle chase_lay() laid, from its first line: `warm`
 * loads untimed, then `loads` timed. */
static double chase_ns(char *buf, uint64_t warm, uint64_t loads)
{
	char *p = buf;
	uint64_t t0, dt;

	for (uint64_t i = 0; i < warm; i++)
		p = *(char **)p;
	t0 = time_now_ns();
	for (uint64_t i = 0; i < loads; i++)
		p = *(char **)p;
	dt = time_now_ns() - t0;
	__asm__ volatile("" : : "r"(p));
	return (double)dt / (double)loads;
}

static char *knee_cache_path(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (xdg && *xdg)
		return xasprintf("%s/mempath", xdg);
	if (home && *home)
		return xasprintf("%s/.cache/mempath", home);
	return NULL;
}

/* Identifies the host for the cache: CPU model and memory size. */
static char *knee_key(void)
{
	char *cpuinfo = read_file_str("/proc/cpuinfo", NULL), *model = NULL, *key;
	struct kv_list l;
	int64_t total = 0;
	if (cpuinfo) {
		char *m = strstr(cpuinfo, "model name");
		if (m) {
			char *colon = strchr(m, ':'), *eol = strchr(m, '\n');
			if (colon && eol && colon < eol) {
				*eol = '\0';
				model = xstrdup(str_trim(colon + 1));
			}
		}
	}
	if (meminfo_read(&l) == 0)
		total = kv_get(&l, "MemTotal", NULL);
	kv_free(&l);
	/* the sweep's top in the key: a knee from a sweep that stopped short of
	 * the LLC (256 MiB, before it reached past it) is measured again */
	key = xasprintf("%s|%ld|%" PRId64 "|sweep %" PRIu64, model ? model : "unknown",
			sysconf(_SC_NPROCESSORS_ONLN), total, cache_sweep_top(cache_llc_bytes()));
	free(model);
	free(cpuinfo);
	for (char *c = key; *c; c++)
		if (*c == '\t' || *c == '\n')
			*c = ' ';
	return key;
}

/* The knee cached for this host in path's file (key first), or 0. */
static uint64_t knee_read_cached(const char *path, const char *key)
{
	char *text = path ? read_file_str(path, NULL) : NULL, *tab;
	uint64_t knee = 0;

	if (!text)
		return 0;
	tab = strrchr(text, '\t');
	if (tab && (size_t)(tab - text) == strlen(key) && strncmp(text, key, strlen(key)) == 0)
		knee = strtoull(tab + 1, NULL, 10);
	free(text);
	return knee >= (256u << 10) ? knee : 0;
}

uint64_t mem_cache_knee_cached(void)
{
	char *dir = knee_cache_path(), *path = dir ? xasprintf("%s/knee", dir) : NULL,
	     *key = knee_key();
	uint64_t knee = knee_read_cached(path, key);

	free(dir);
	free(path);
	free(key);
	return knee;
}

uint64_t mem_cache_knee_bytes(int *measured_now)
{
	enum { MAX_SIZES = 16 };
	uint64_t sizes[MAX_SIZES], top = cache_sweep_top(cache_llc_bytes()), map;
	double ns[MAX_SIZES];
	size_t n = 0;
	char *dir = knee_cache_path(), *path = dir ? xasprintf("%s/knee", dir) : NULL,
	     *key = knee_key();
	uint64_t knee = knee_read_cached(path, key);
	struct mem_buf b;
	if (measured_now)
		*measured_now = 0;
	if (knee) {
		free(dir);
		free(path);
		free(key);
		return knee;
	}
	/* 256 KiB doubling past the last-level cache (2x it, at least 256 MiB,
	 * at most a quarter of MemAvailable) on huge pages, so the curve shows
	 * cache capacity and not translation. */
	while (n < MAX_SIZES && ((256ull << 10) << n) <= top)
		n++;
	map = (256ull << 10) << (n - 1);
	while (n > 11 && map > mem_available_bytes() / 4)
		map = (256ull << 10) << (--n - 1);
	if (mem_available_bytes() < (1ull << 30) || mem_map(&b, map, MEM_PAGES_THP, 0) != 0) {
		free(dir);
		free(path);
		free(key);
		return 32u << 20;
	}
	/* Best of three per size: noise (other tenants, the other vCPU) only
	 * ever adds latency, and an unstable knee would make runs incomparable. */
	for (size_t i = 0; i < n; i++) {
		sizes[i] = (256ull << 10) << i;
		uint64_t lines = sizes[i] / 64;

		/* laid once a size (laying 8M lines took seconds), warmed once:
		 * the whole set up to 1M lines (a cache's set is then in it;
		 * past that it is memory anyway), then three tries of 256K loads
		 * (28 ms at 110 ns) */
		chase_lay(b.addr, sizes[i]);
		ns[i] = chase_ns(b.addr, lines < (1u << 20) ? lines : 1u << 20, 1u << 18);
		for (int k = 0; k < 2; k++) {
			double again = chase_ns(b.addr, 0, 1u << 18);
			if (again < ns[i])
				ns[i] = again;
		}
	}
	mem_unmap(&b);
	knee = mem_knee_from_curve(sizes, ns, n);
	if (measured_now)
		*measured_now = 1;
	if (path) {
		char *line = xasprintf("%s\t%" PRIu64 "\n", key, knee);
		for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
			*slash = '\0'; /* mkdir -p */
			mkdir(dir, 0755);
			*slash = '/';
		}
		mkdir(dir, 0755);
		if (write_file_atomic(path, line, strlen(line)) != 0)
			warning("could not cache the cache knee in '%s'", path);
		free(line);
	}
	free(dir);
	free(path);
	free(key);
	return knee;
}

uint64_t mem_llc_bytes_at(const char *dir)
{
	uint64_t best = 0;
	long best_level = 0;

	for (int i = 0; i < 16; i++) {
		char path[512], *level, *type, *size, *end;
		uint64_t bytes;
		long lv;

		snprintf(path, sizeof(path), "%s/index%d/level", dir, i);
		if (!(level = read_line_str(path)))
			break;
		snprintf(path, sizeof(path), "%s/index%d/type", dir, i);
		type = read_line_str(path);
		snprintf(path, sizeof(path), "%s/index%d/size", dir, i);
		size = read_line_str(path);
		lv = strtol(level, NULL, 10);
		bytes = size ? strtoull(size, &end, 10) : 0;
		if (size && (*end == 'K' || *end == 'k'))
			bytes <<= 10;
		else if (size && *end == 'M')
			bytes <<= 20;
		if (type && strncmp(type, "Instruction", 11) && bytes && lv >= best_level) {
			best_level = lv;
			best = bytes;
		}
		free(level);
		free(type);
		free(size);
	}
	return best;
}

uint64_t mem_llc_bytes(void)
{
	return mem_llc_bytes_at("/sys/devices/system/cpu/cpu0/cache");
}
