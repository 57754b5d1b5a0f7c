/* backends.c - the GPU backend built in: gpu_backend() and the one reason GPU
 * work cannot run (backend.h). The Makefile names the backend's table when
 * it compiles this file (MEMPATH_GPU_TABLE: gpu_backend_cuda of
 * src/gpu/cuda/cuda.c, gpu_backend_fake of tests/gpu_fake/; the
 * backend is chosen at build time, docs/adding-a-backend.md); without one
 * (make GPU=0) this and um.c are the only files of src/gpu/ built, and there
 * is no backend. Nothing registers itself. Not backend.c: the backends'
 * files include backend.h and this file names their table, so one module
 * would reach the other both ways (make check-layers).
 */
#include <stddef.h>

#include "gpu/backend.h"

#ifdef MEMPATH_GPU
extern const struct gpu_backend MEMPATH_GPU_TABLE;
#endif

const struct gpu_backend *gpu_backend(void)
{
#ifdef MEMPATH_GPU
	return &MEMPATH_GPU_TABLE;
#else
	return NULL;
#endif
}

const char *gpu_unsupported_reason(void)
{
	const struct gpu_backend *gpu = gpu_backend();

	/* The text results files have always had (schema stability), though
	 * CUDA is one backend of several. */
	if (!gpu)
		return "built without CUDA (no nvcc at build time, or make GPU=0)";
	return gpu->unsupported_reason();
}
