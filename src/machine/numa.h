/* numa.h - NUMA topology from sysfs, placement requests and the truth about
 * placement.
 *
 * Topology is read from a sysfs root given by the caller ("/sys" on a live
 * machine, tests/data/sysfs-* in tests), so every parser here runs against
 * fixture trees of machines we do not have: two sockets, a CXL memory-only
 * node, HBM. A node with memory and no CPUs (CXL expander, HBM, a GPU's
 * memory on a coherent system) is a destination only.
 *
 * Placement (docs/design.md §4.3): a policy is a request; what backs a range is read
 * back from /proc/self/numa_maps (whole range, per node page counts) or with
 * the move_pages(2) query mode (sampled pages, exact nodes now).
 *
 * Names carry the module prefix numa_topology_/numa_maps_/numa_policy_ so they
 * never clash with libnuma's own numa_* symbols.
 */
#ifndef MEMPATH_NUMA_H
#define MEMPATH_NUMA_H

#include <stddef.h>
#include <stdint.h>

#include "base/kv.h"

#define NUMA_MAX_NODES 64

struct numa_node {
	int id;
	int *cpus; /* from nodeN/cpulist, ascending */
	size_t n_cpus;
	uint64_t mem_total_bytes; /* nodeN/meminfo MemTotal; 0 when absent */
	uint64_t mem_free_bytes;
	int *distance; /* to nodes[0..n) of the topology, same order; NULL if absent */
};

struct numa_topology {
	struct numa_node *nodes; /* ascending id */
	size_t n;
};

/* Reads <sysfs_root>/devices/system/node/node* (cpulist, meminfo, distance).
 * Returns 0, or -1 when there is no node directory at all (no error printed:
 * a kernel without NUMA has none, callers treat that as one node). */
int numa_topology_read(const char *sysfs_root, struct numa_topology *out);
void numa_topology_free(struct numa_topology *t);
/* The node with this id, or NULL. */
const struct numa_node *numa_topology_node(const struct numa_topology *t, int id);
/* Kind of a node: "cpu+memory", "memory-only" (CXL, HBM: a destination
 * only), "cpu-only" or "empty". */
const char *numa_node_kind(const struct numa_node *n);
/* Counts of nodes with CPUs and with memory. */
size_t numa_topology_cpu_nodes(const struct numa_topology *t);
size_t numa_topology_mem_nodes(const struct numa_topology *t);

/* "0-3,8,10-11" -> sorted ints (caller frees *out). Returns 0, or -1 on a
 * malformed list. An empty string is an empty list. */
int numa_cpulist_parse(const char *s, int **out, size_t *n);

/* <sysfs_root>/devices/system/node/node<N>/numastat by name (numa_hit,
 * numa_miss, ...). Returns 0 or -1 (unreadable; out left empty). */
int numa_numastat_read(const char *sysfs_root, int node, struct kv_list *out);

/* Bytes per node of every numa_maps entry in text (N<node>= pages times the
 * entry's kernelpagesize_kB): what a process holds on each node. Pure. */
void numa_maps_node_bytes(const char *text, uint64_t bytes[NUMA_MAX_NODES]);

/* Per node page counts of the numa_maps entries whose start lies in
 * [start, end). page_bytes is the entries' kernelpagesize_kB (the last seen);
 * policy the first entry's policy word ("default", "bind:0", "interleave:0-1",
 * "prefer:1", "preferred-many:0-1"). */
struct numa_maps_info {
	char policy[64];
	uint64_t pages[NUMA_MAX_NODES];
	uint64_t total_pages;
	uint64_t page_bytes;
	unsigned n_entries;
};
/* Pure: text is a numa_maps file. Returns 0, or -1 when no entry matched. */
int numa_maps_parse(const char *text, uintptr_t start, uintptr_t end, struct numa_maps_info *out);
/* Same for this process (/proc/self/numa_maps). */
int numa_maps_range(const void *addr, size_t len, struct numa_maps_info *out);

/* move_pages(2) query of up to max_samples pages spread over the range, one
 * at a hashed offset in each of as many even slices (a fixed stride would
 * alias with interleave), touched pages only reporting a node: per_node[i] counts pages found on
 * node i (i < NUMA_MAX_NODES); *n_sampled the pages asked about, *n_absent those not present or not
 * queryable. Returns 0 or -1 (error printed). */
int numa_pages_where(const void *addr, size_t len, size_t max_samples,
		     uint64_t per_node[NUMA_MAX_NODES], uint64_t *n_sampled, uint64_t *n_absent);

/* Memory policies mempath can request, by the names the options use. */
enum numa_policy {
	NUMA_POLICY_NONE = 0,	    /* leave the task's policy alone */
	NUMA_POLICY_BIND,	    /* MPOL_BIND: only these nodes */
	NUMA_POLICY_PREFERRED,	    /* MPOL_PREFERRED: one node first, then fall back */
	NUMA_POLICY_INTERLEAVE,	    /* MPOL_INTERLEAVE: page by page over the nodes */
	NUMA_POLICY_PREFERRED_MANY, /* MPOL_PREFERRED_MANY (5.15+): these nodes first */
	NUMA_POLICY_WEIGHTED,	    /* MPOL_WEIGHTED_INTERLEAVE (6.9+): by the weights in
				       /sys/kernel/mm/mempolicy/weighted_interleave */
	NUMA_POLICY__COUNT
};
#define NUMA_POLICY_CHOICES "none|bind|preferred|interleave|preferred-many|weighted-interleave"
const char *numa_policy_name(enum numa_policy p);
/* NULL when this kernel has policy p, else why not (a static string): weighted
 * interleave needs its sysfs weights (Linux 6.9). */
const char *numa_policy_missing(enum numa_policy p);
/* Parses a node list ("0", "0,2", "1-3"; "all" = every node with memory
 * in t, or node 0 when t is NULL) into a bitmask. Returns 0 or -1. */
int numa_nodes_parse(const char *s, const struct numa_topology *t, uint64_t *mask);
/* An option row's check (opt.h's OPT_STR_CHECK): NULL when spec is a node
 * list numa_nodes_parse takes, else why not (in why). */
const char *numa_check_nodes(const char *spec, char *why, size_t len);
/* Applies policy p with nodes mask to [addr, addr+len) with mbind(2), before
 * the range is touched. PREFERRED takes exactly one node. Returns 0 or -1
 * (error printed, naming the policy and the kernel's reason). */
int numa_policy_apply(void *addr, size_t len, enum numa_policy p, uint64_t mask);
/* The same as this thread's policy for new allocations (set_mempolicy(2));
 * NUMA_POLICY_NONE restores the default. A child forked after it inherits it,
 * which is how a helper process gets placed. Returns 0 or -1 (error printed). */
int numa_policy_set_task(enum numa_policy p, uint64_t mask);

#endif
