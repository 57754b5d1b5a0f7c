/* cache.h - the CPU's last-level cache as sysfs advertises it
 * (devices/system/cpu/cpuN/cache/indexM: level, type, size,
 * shared_cpu_list). The one place the LLC is read: cpu.stream sizes its
 * arrays from it, the cache knee sweep reaches past it, and a DRAM figure's
 * working set is judged against it. The measured knee (mem.h) is the other
 * fact: caches can be smaller in effect than advertised (§4.8).
 */
#ifndef MEMPATH_MACHINE_CACHE_H
#define MEMPATH_MACHINE_CACHE_H

#include <stdint.h>

struct cache_llc {
	int level;		 /* 3 on most servers; 0 when sysfs has no caches */
	uint64_t instance_bytes; /* one instance (one socket's or one CCX's L3) */
	unsigned instances;	 /* distinct instances among the CPUs (shared_cpu_list) */
	uint64_t total_bytes;	 /* instance_bytes x instances */
};

/* The highest-level data or unified cache under sysfs_root ("/sys" live, a
 * recorded tree in tests): 0, or -1 (out zeroed) when there is none. */
int cache_llc_read(const char *sysfs_root, struct cache_llc *out);
/* This machine's (cached after the first call): total_bytes, 0 if unknown. */
uint64_t cache_llc_bytes(void);
/* cpu.stream's default bytes per array: at least 4x the last-level cache
 * (all instances: threads span sockets) and 4x the measured knee, and at
 * least 256 MiB (before the cap on MemAvailable). Pure. */
uint64_t cache_stream_bytes(uint64_t llc_total, uint64_t knee);
/* The largest size of the cache knee sweep: past the LLC (2x it), at least
 * 256 MiB. Pure. */
uint64_t cache_sweep_top(uint64_t llc_total);

#endif
