/* gpu.h - the GPU API used by probes and sysinfo.
 *
 * Built from cuda.c + kernels/ *.cu when nvcc is found, from none.c otherwise
 * (make GPU=0), so probe files compile and link the same way in both builds
 * and report skip with the reason where there is no usable GPU.
 * Never call any of this in a process that will fork probe children: CUDA
 * contexts do not survive fork. Probes run in children; sysinfo collects GPU
 * facts through runner_json_in_child().
 */
#ifndef MEMPATH_GPU_H
#define MEMPATH_GPU_H

#include <jansson.h>

/* NULL when at least one CUDA device is usable, else why not ("built without
 * CUDA (make GPU=0)", "no CUDA device: <error name>"). */
const char *gpu_unsupported_reason(void);
/* Number of usable CUDA devices (0 if none). */
int gpu_count(void);
/* GPU part of the fingerprint: an array of per-device objects, or NULL. */
json_t *gpu_sysinfo(void);

#endif
