/* timing.h - private to the CUDA build (cuda.c, timing.c): the timing
 * loop's per-context state must be forgotten when the context is reset. */
#ifndef MEMPATH_GPU_TIMING_H
#define MEMPATH_GPU_TIMING_H

/* Drops the gate's host-mapped words (freed by cudaDeviceReset). */
void gpu_timing_forget(void);

#endif
