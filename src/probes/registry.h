/* registry.h - the one list of probes; only the registry and the commands
 * include it (make check-layers enforces that).
 *
 * Adding a probe: one file src/probes/<name>.c ending in
 *   const struct probe probe_<name> = { .name = "cpu.x", ... };
 * and one PROBE(<name>) row below. The row makes both the extern and the
 * table entry; the Makefile takes src/probes/ *.c by wildcard; the registry
 * smoke test runs every row, so a new probe is tested without new test code.
 */
#ifndef MEMPATH_PROBES_REGISTRY_H
#define MEMPATH_PROBES_REGISTRY_H

#include <stddef.h>

#include "kit/probe.h"

#define PROBE_LIST              \
	PROBE(cpu_first_touch)  \
	PROBE(cpu_stream)       \
	PROBE(cpu_latency)      \
	PROBE(cpu_loaded)       \
	PROBE(cpu_reach)        \
	PROBE(cpu_blocks)       \
	PROBE(cpu_cycler)       \
	PROBE(cpu_wake)         \
	PROBE(cpu_numa)         \
	PROBE(work_decode)      \
	PROBE(gpu_stream)       \
	PROBE(gpu_l2)           \
	PROBE(gpu_random)       \
	PROBE(gpu_latency)      \
	PROBE(gpu_host_latency) \
	PROBE(gpu_loaded)       \
	PROBE(gpu_first_touch)  \
	PROBE(gpu_copy)         \
	PROBE(gpu_alloc)        \
	PROBE(gpu_sync)         \
	PROBE(gpu_clocks)       \
	PROBE(gpu_p2p)

#define PROBE(x) extern const struct probe probe_##x;
PROBE_LIST
#undef PROBE

extern const struct probe *const probe_table[];
extern const size_t probe_table_len;

/* Probe by JSON name ("cpu.stream"), or NULL. */
const struct probe *probe_find(const char *name);
/* The probe a mistyped name most likely meant, or NULL. */
const char *probe_suggest(const char *name);

#endif
