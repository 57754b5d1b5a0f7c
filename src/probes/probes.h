/* probes.h - the probe interface and the one list of probes.
 *
 * Adding a probe: one file src/probes/<name>.c ending in
 *   const struct probe probe_<name> = { .name = "cpu.x", ... };
 * and one PROBE(<name>) row below. The row makes both the extern and the
 * table entry; the Makefile takes src/probes/ *.c by wildcard; the registry
 * smoke test runs every row, so a new probe is tested without new test code.
 */
#ifndef MEMPATH_PROBES_H
#define MEMPATH_PROBES_H

#include <stddef.h>

#include "../core/measure.h"
#include "../core/opt.h"

/* Suite membership and what the probe needs. */
#define PROBE_CPU   0x01u /* suite cpu */
#define PROBE_GPU   0x02u /* suite gpu */
#define PROBE_P2P   0x04u /* suite p2p */
#define PROBE_QUICK 0x10u /* also in the quick suite (at quick sizes) */

struct probe {
	const char *name;    /* JSON name: "cpu.stream" */
	const char *summary; /* one line for `mempath list` */
	unsigned flags;
	const struct opt *opts; /* option rows, OPT_END terminated (may be NULL) */
	size_t opts_size;	/* sizeof the options struct */
	const char *quick_opts; /* "size=64M reps=..." applied for quick runs */
	double timeout_s;	/* 0: the runner's default */
	/* NULL when the probe can run here with these options, else the reason
	 * (a static or leaked string): recorded as status skip. Called in the
	 * child, so it may initialise a GPU. */
	const char *(*supported)(const void *opts);
	/* Measures and records into ctx->res; returns PROBE_OK/SKIP/FAIL. */
	int (*run)(struct probe_ctx *ctx, const void *opts);
};

#define PROBE_LIST             \
	PROBE(cpu_first_touch) \
	PROBE(cpu_stream)      \
	PROBE(cpu_latency)     \
	PROBE(cpu_reach)       \
	PROBE(cpu_blocks)      \
	PROBE(cpu_cycler)      \
	PROBE(cpu_wake)        \
	PROBE(cpu_numa)        \
	PROBE(work_decode)     \
	PROBE(gpu_stream)      \
	PROBE(gpu_random)      \
	PROBE(gpu_latency)     \
	PROBE(gpu_first_touch) \
	PROBE(gpu_copy)        \
	PROBE(gpu_alloc)       \
	PROBE(gpu_sync)        \
	PROBE(gpu_clocks)      \
	PROBE(gpu_p2p)

#define PROBE(x) extern const struct probe probe_##x;
PROBE_LIST
#undef PROBE

extern const struct probe *const probe_table[];
extern const size_t probe_table_len;

/* Probe by JSON name ("cpu.stream"), or NULL. */
const struct probe *probe_find(const char *name);

#endif
