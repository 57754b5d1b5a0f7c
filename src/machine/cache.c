/* cache.c - the last-level cache from sysfs (cache.h). */
#include "machine/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

#define MAX_CPUS      4096
#define MAX_INSTANCES 256

/* "32768K", "300M", "1G" -> bytes; 0 when unreadable. */
static uint64_t size_of(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	switch (*end) {
	case 'K':
		return v << 10;
	case 'M':
		return v << 20;
	case 'G':
		return v << 30;
	default:
		return *end == '\0' || *end == '\n' ? v : 0;
	}
}

static char *field(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *s = read_line_str(path);
	free(path);
	return s ? str_trim(s) : NULL;
}

/* The index of cpu's highest data/unified cache: its level and size, and its
 * shared_cpu_list (new string), or -1. */
static int cpu_llc(const char *root, int cpu, int *level, uint64_t *bytes, char **shared)
{
	int found = -1;
	*level = 0;
	*shared = NULL;
	for (int i = 0; i < 16; i++) {
		char *dir = xasprintf("%s/devices/system/cpu/cpu%d/cache/index%d", root, cpu, i);
		char *lv = field(dir, "level"), *type = field(dir, "type"),
		     *size = field(dir, "size");
		if (lv && type && size && strcmp(type, "Instruction") != 0 && atoi(lv) > *level) {
			*level = atoi(lv);
			*bytes = size_of(size);
			free(*shared);
			*shared = field(dir, "shared_cpu_list");
			found = 0;
		}
		free(lv);
		free(type);
		free(size);
		free(dir);
	}
	return found;
}

int cache_llc_read(const char *sysfs_root, struct cache_llc *out)
{
	char *seen[MAX_INSTANCES];
	size_t n_seen = 0;
	memset(out, 0, sizeof(*out));
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		int level, dup = 0;
		uint64_t bytes = 0;
		char *shared, *probe = xasprintf("%s/devices/system/cpu/cpu%d", sysfs_root, cpu);
		int exists = access(probe, F_OK) == 0;
		free(probe);
		if (!exists)
			break;
		if (cpu_llc(sysfs_root, cpu, &level, &bytes, &shared) != 0 || level < out->level) {
			free(shared);
			continue;
		}
		if (level > out->level) { /* a higher level than cpu0's: start over */
			for (size_t i = 0; i < n_seen; i++)
				free(seen[i]);
			n_seen = 0;
			out->level = level;
			out->instance_bytes = bytes;
		}
		for (size_t i = 0; i < n_seen && shared; i++)
			dup |= strcmp(seen[i], shared) == 0;
		if (!dup && n_seen < MAX_INSTANCES)
			seen[n_seen++] = shared ? shared : xstrdup("?");
		else
			free(shared);
	}
	for (size_t i = 0; i < n_seen; i++)
		free(seen[i]);
	out->instances = (unsigned)n_seen;
	out->total_bytes = out->instance_bytes * out->instances;
	return out->level > 0 && out->instance_bytes > 0 ? 0 : -1;
}

uint64_t cache_llc_bytes(void)
{
	static int done;
	static uint64_t bytes;
	if (!done) {
		struct cache_llc c;
		bytes = cache_llc_read("/sys", &c) == 0 ? c.total_bytes : 0;
		done = 1;
	}
	return bytes;
}

uint64_t cache_stream_bytes(uint64_t llc_total, uint64_t knee)
{
	uint64_t b = 256ull << 20;
	if (4 * llc_total > b)
		b = 4 * llc_total;
	if (4 * knee > b)
		b = 4 * knee;
	return b;
}

uint64_t cache_sweep_top(uint64_t llc_total)
{
	return 2 * llc_total > (256ull << 20) ? 2 * llc_total : 256ull << 20;
}
