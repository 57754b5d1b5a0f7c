/* none.c - the GPU API when mempath is built without CUDA (make GPU=0 or no
 * nvcc): every GPU probe reports skip with this reason. */
#include "gpu.h"

const char *gpu_unsupported_reason(void)
{
	return "built without CUDA (no nvcc at build time, or make GPU=0)";
}

int gpu_count(void)
{
	return 0;
}

json_t *gpu_sysinfo(void)
{
	return NULL;
}
