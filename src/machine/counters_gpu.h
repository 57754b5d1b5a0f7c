/* counters_gpu.h - the GPU sources of the counters layer (counters.h,
 * docs/design.md §4.17, §4.20): for a GPU probe, NVML's PCIe bytes each way
 * (its byte counters, "pcie_rx_bytes", and the link's bytes with their TLP
 * overhead from its throughput counter, "pcie_rx_link_bytes") and the time each clock-limiting
 * policy held the clocks down, per GPU (the "gpu" source: "gpu0:pcie_rx_bytes",
 * "gpu0:throttle_power_ns"); and for a probe of unified memory, CUPTI's unified-memory counters of
 * the process (the "cupti" source: "cupti:gpu_page_faults", "cupti:htod_bytes", ...). Every value
 * is cumulative since the open; -1 where it could not be read.
 */
#ifndef MEMPATH_COUNTERS_GPU_H
#define MEMPATH_COUNTERS_GPU_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

enum { GPUCOUNT_NVML, GPUCOUNT_CUPTI, GPUCOUNT_N };

struct gpucount;

/* Opens the sources: NVML's when gpu_probe, CUPTI's when also um (call it
 * before the probe makes its GPU context: CUPTI asks so). Never NULL;
 * why[s] (a new string) says why source s is not read, NULL when it is;
 * CUPTI's counters it could not count here go to *missing (a new array, or
 * NULL). */
struct gpucount *gpucount_open(int gpu_probe, int um, char *why[GPUCOUNT_N], json_t **missing);
size_t gpucount_n(const struct gpucount *g);
const char *gpucount_name(const struct gpucount *g, size_t i);
/* GPUCOUNT_NVML or GPUCOUNT_CUPTI: the source of counter i */
int gpucount_source(const struct gpucount *g, size_t i);
/* Every counter's value now into row[0..n); -1 where it could not be read. */
void gpucount_read(struct gpucount *g, int64_t *row);
void gpucount_close(struct gpucount *g);

#endif
