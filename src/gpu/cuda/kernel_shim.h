/* kernel_shim.h - what the kernels of src/gpu/kernels/ ask of the CUDA
 * compiler and runtime beyond C++: the runtime's header, the stream behind
 * the opaque handle, the launch's error, and the device primitives written in
 * PTX or CUDA intrinsics (the ns timer, 16 B streaming and L2-only loads and
 * stores, warp shuffles, the dynamic shared memory limit). The kernels
 * include it as "kernel_shim.h": the CUDA rule (backend.mk) puts this folder
 * on nvcc's include path, and another backend's compiler gets its own file of
 * the same name and macros (docs/adding-a-backend.md). Kernels only.
 */
#ifndef MEMPATH_GPU_CUDA_KERNEL_SHIM_H
#define MEMPATH_GPU_CUDA_KERNEL_SHIM_H

#include <cuda_runtime.h>

/* The runtime's stream of a launcher's struct gpu_stream * (launch.h). */
typedef cudaStream_t shim_stream_t;
#define SHIM_STREAM(gs) ((cudaStream_t)(gs))
/* The launch's error as the launchers return it (0 = success), and the
 * error of a refused argument. */
#define SHIM_LAUNCH_ERROR() ((int)cudaGetLastError())
#define SHIM_EINVAL	    ((int)cudaErrorInvalidValue)

/* The device's ns clock (%globaltimer). */
static __device__ __forceinline__ unsigned long long shim_now_ns(void)
{
	unsigned long long t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/* 16 B loads: streaming, evict first (ld.global.cs); through the L2 only,
 * not the L1 (ld.global.cg). A 16 B streaming store (st.global.cs). */
static __device__ __forceinline__ uint4 shim_load_cs(const uint4 *p)
{
	return __ldcs(p);
}

static __device__ __forceinline__ uint4 shim_load_cg(const uint4 *p)
{
	return __ldcg(p);
}

static __device__ __forceinline__ void shim_store_cs(uint4 *p, uint4 v)
{
	__stcs(p, v);
}

/* Warp shuffles over the whole (32-lane) warp. */
#define SHIM_SHFL_XOR(v, d) __shfl_xor_sync(0xffffffffu, (v), (d))
#define SHIM_SHFL(v, lane)  __shfl_sync(0xffffffffu, (v), (lane))

/* Lets kernel ask for smem_bytes of dynamic shared memory above the default
 * 48 KiB; 0 or the runtime's error. */
static inline int shim_allow_smem(const void *kernel, size_t smem_bytes)
{
	if (smem_bytes <= 48 * 1024)
		return 0;
	return (int)cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
					 (int)smem_bytes);
}

#endif
