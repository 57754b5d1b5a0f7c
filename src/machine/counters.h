/* counters.h - what the kernel and the CPU did over each sample window
 * (docs/design.md §4.17): opened in a probe's child before the probe runs,
 * read at every window boundary the results' clock hands out
 * (metric_clock()), and attached per counted sample to the probe's metrics.
 *
 * Sources, each recorded in the result with its state and, where it cannot
 * be read, why (never silently absent):
 *   vmstat      /proc/vmstat: thp_*, pgfault, pgmajfault, numa_*, pgmigrate_*,
 *               pgpromote_*, pgdemote_*, compact_* (machine-wide)
 *   mthp        /sys/kernel/mm/transparent_hugepage/hugepages-SIZE/stats
 *   interrupts  /proc/interrupts: the named lines (TLB, CAL, ...) and the
 *               device lines named in COUNTERS_IRQ_DEVICES, summed over CPUs
 *   software    perf_event_open of the probe's own threads: page faults,
 *               context switches, CPU migrations
 *   tracepoints perf_event_open counts per CPU: huge_memory:*,
 *               migrate:mm_migrate_pages, tlb:tlb_flush by reason, iommu:map
 *               and unmap, irq:irq_handler_entry of the device lines
 *   hardware    cycles, instructions, LLC misses, dTLB load misses of the
 *               probe's threads, where a PMU is exposed
 *   gpu         GPU probes: NVML's PCIe bytes each way and the time each
 *               clock-limiting policy held the clocks down, per GPU
 *               ("gpu0:pcie_rx_bytes", "gpu0:throttle_power_ns")
 *   cupti       probes of unified memory: CUPTI's unified-memory counters of
 *               the process ("cupti:gpu_page_faults", "cupti:htod_bytes",
 *               docs/design.md §4.20); counters_gpu.h has both GPU sources
 * Counter names carry their source: "vmstat:thp_fault_alloc",
 * "mthp:64kB:anon_fault_alloc", "irq:TLB", "irq:343:nvidia",
 * "sw:page-faults", "trace:tlb:tlb_flush:remote_shootdown", "hw:cycles".
 */
#ifndef MEMPATH_COUNTERS_H
#define MEMPATH_COUNTERS_H

#include <stdint.h>

#include "base/kv.h"
#include "results/results.h"

/* Device lines of /proc/interrupts that are counted (name prefixes). */
#define COUNTERS_IRQ_DEVICES "nvidia"

/* What counters_open() reads beside the kernel's and the CPU's counters. */
#define COUNTERS_GPU 0x1u /* a GPU probe: the gpu source */
#define COUNTERS_UM  0x2u /* ... of unified memory: the cupti source too */

/* Opens every source in this process (its threads made later are counted
 * too; `what`: COUNTERS_GPU, COUNTERS_UM) and installs the window clock.
 * Call it before the probe makes a GPU context. Idempotent;
 * counters_close() undoes. */
void counters_open(unsigned what);
/* One reading of every open source; returns its time (monotonic seconds).
 * The window clock: before counters_open(), the plain time. */
double counters_mark(void);
/* Puts each counted sample's counter deltas in its metric (the readings at
 * exactly its window's start and end; otherwise the sample is "unmarked")
 * and the sources' states in p->counter_sources. */
void counters_attach(struct probe_result *p);
/* Closes the sources, forgets the readings, puts the plain clock back. */
void counters_close(void);

/* Parsers, exposed for tests. /proc/interrupts text: one entry per kept
 * line ("TLB", "343:nvidia"), its counts summed over the CPUs; the device
 * lines kept are those whose name starts with a prefix of the
 * comma-separated `devices`. 0, or -1 when the text has no CPU header. */
int counters_parse_interrupts(const char *text, const char *devices, struct kv_list *out);
/* Is this /proc/vmstat name one the vmstat source keeps? */
int counters_vmstat_kept(const char *name);

#endif
