/* mem.h - mappings with a page-size intent, and the truth about them.
 *
 * A request is not a result (docs/design.md §4.3): MADV_HUGEPAGE can silently give no
 * huge pages and THP=always gives huge pages nobody asked for. mem_map() states
 * the intent (MADV_HUGEPAGE or MADV_NOHUGEPAGE, 2 MiB aligned) and
 * mem_smaps_range() reads back what backs the range from /proc/self/smaps.
 * Sizes are checked against MemAvailable before anything is mapped.
 */
#ifndef MEMPATH_MEM_H
#define MEMPATH_MEM_H

#include <stddef.h>
#include <stdint.h>

#define MEM_HUGE_BYTES (2ull << 20)

/* DEFAULT states no intent at all: the system policy (THP enabled=always,
 * madvise, never) decides, which is what a THP policy A/B must measure. */
enum mem_pages { MEM_PAGES_4K = 0, MEM_PAGES_THP = 1, MEM_PAGES_DEFAULT = 2 };

struct mem_buf {
	void *addr;	   /* 2 MiB aligned start */
	size_t size_bytes; /* usable size requested */
	void *map_addr;	   /* what munmap needs */
	size_t map_bytes;
	enum mem_pages pages;
};

/* Anonymous private mapping of size bytes, 2 MiB aligned, with
 * MADV_HUGEPAGE (THP) or MADV_NOHUGEPAGE (4k); not touched. extra_flags are
 * OR-ed into mmap flags (e.g. MAP_POPULATE; note the madvise then comes after
 * population, so callers wanting THP+populate use MADV_POPULATE_WRITE).
 * Returns 0 or -1 (error printed). */
int mem_map(struct mem_buf *b, size_t size, enum mem_pages pages, int extra_flags);
void mem_unmap(struct mem_buf *b);

struct smaps_info {
	uint64_t size_bytes; /* VMA sizes overlapping the range */
	uint64_t rss_bytes;
	uint64_t anon_huge_bytes; /* AnonHugePages: THP actually backing it */
	unsigned n_vmas;
};

/* Sums the smaps entries of VMAs overlapping [start, end) in text (the
 * contents of a smaps file). Returns 0, or -1 if no VMA overlaps. */
int mem_smaps_parse(const char *text, uintptr_t start, uintptr_t end, struct smaps_info *out);
/* Same for this process (/proc/self/smaps). */
int mem_smaps_range(const void *addr, size_t len, struct smaps_info *out);

/* Room left under the memory limits of the cgroups a process is in, the
 * smallest over its cgroup and every ancestor: cgroup v2 memory.max -
 * memory.current, v1 memory.limit_in_bytes - memory.usage_in_bytes. 0 when
 * no limit applies or none can be read. root is the cgroup mount
 * ("/sys/fs/cgroup"), cgroup_text the contents of /proc/self/cgroup; pure but
 * for reading under root, so tests pass a fixture tree. */
uint64_t mem_cgroup_room(const char *root, const char *cgroup_text);
/* What this process may still use: MemAvailable, or the room under its
 * cgroup's limit when that is smaller; 0 if unreadable. */
uint64_t mem_available_bytes(void);
/* Refuses (error naming `what` and the numbers, -1) a size above 80% of
 * MemAvailable unless force. */
int mem_check_size(uint64_t bytes, int force, const char *what);
/* min(want, frac * MemAvailable), rounded down to 2 MiB, at least 2 MiB. */
uint64_t mem_cap(uint64_t want, double frac);

/* The last-level-cache knee measured by pointer-chase latency (not the
 * advertised size: docs/design.md §4.8), cached per host in
 * $XDG_CACHE_HOME/mempath/knee (or ~/.cache). *measured_now says whether this
 * call measured it. Falls back to a safe floor of 32 MiB when it cannot
 * measure. */
uint64_t mem_cache_knee_bytes(int *measured_now);
/* The knee cached for this host, or 0 where none is: never measures (for a
 * figure whose size the user gave, which only notes how it compares). */
uint64_t mem_cache_knee_cached(void);
/* The last-level cache as sysfs advertises it: the size of the highest-level
 * data or unified cache under dir (/sys/devices/system/cpu/cpu0/cache:
 * indexN/level, type, size "491520K"); 0 when none is readable. */
uint64_t mem_llc_bytes_at(const char *dir);
uint64_t mem_llc_bytes(void);
/* Knee from a latency curve: sizes ascending with ns per load. The knee is the
 * largest size whose latency is still below the midpoint (geometric mean)
 * between the smallest-size and largest-size latencies. Pure; for tests. */
uint64_t mem_knee_from_curve(const uint64_t *sizes, const double *ns, size_t n);

/* Randomised single cycle over n slots (Sattolo), as next-index array. */
void mem_random_cycle(uint64_t *next, size_t n, uint64_t seed);
/* Visit order of n slots for a chase: seq[] holds each index once. With
 * group >= n the order is fully random; otherwise slots are taken group by
 * group (groups of `group` consecutive slots, in random order), each group's
 * slots in random order, so every run of `group` visits stays in one group:
 * multichase's page-local order. Linking seq[i] -> seq[i+1] (and the last to
 * the first) gives one cycle through all slots. */
void mem_visit_order(uint64_t *seq, size_t n, size_t group, uint64_t seed);

/* The chase orders of the latency probes (docs/design.md §8.8). */
enum mem_order {
	MEM_ORDER_RANDOM, /* one random cycle through all nodes */
	MEM_ORDER_LOCAL,  /* random within groups of `group` nodes, groups in random order */
	MEM_ORDER_STRIDE, /* node 0, 1, 2, ...: a fixed stride, nvbandwidth's latency chain */
};
/* seq[] = the visit order of n nodes (each index once) in the given order;
 * group is read by MEM_ORDER_LOCAL only. Linking seq[i] -> seq[i+1] and the
 * last to the first gives one cycle through all nodes. */
void mem_chase_order(uint64_t *seq, size_t n, enum mem_order order, size_t group, uint64_t seed);
/* Byte offset of node k in a chain whose nodes are `stride` bytes apart (a
 * power of two >= 64): the start of one 64 B line inside node k's stride,
 * picked by a hash of k and seed. With a stride of 128 B or more no line next
 * to a node is ever in the chain (adjacent-line and stream prefetch cannot
 * help), and the hashed position keeps every cache set and channel in use,
 * which a fixed position would cut to 64/stride of them. stride 64: k * 64. */
uint64_t mem_node_offset(uint64_t k, uint64_t stride, uint64_t seed);

#endif
