/* backends.c - the GPU backends built in: gpu_backend() and the one reason GPU
 * work cannot run (backend.h). With CUDA (make GPU=1) the CUDA backend of
 * cuda.c; without it this is the only file of src/gpu/ built, and there is no
 * backend. The list is written out here: nothing registers itself. Not
 * backend.c: the CUDA files include backend.h and this file names their
 * table, so one module would reach the other both ways (make check-layers).
 */
#include <stddef.h>

#include "gpu/backend.h"

#ifdef MEMPATH_GPU
extern const struct gpu_backend gpu_backend_cuda;
#endif

const struct gpu_backend *gpu_backend(void)
{
#ifdef MEMPATH_GPU
	return &gpu_backend_cuda;
#else
	return NULL;
#endif
}

const char *gpu_unsupported_reason(void)
{
	const struct gpu_backend *gpu = gpu_backend();

	if (!gpu)
		return "built without CUDA (no nvcc at build time, or make GPU=0)";
	return gpu->unsupported_reason();
}
