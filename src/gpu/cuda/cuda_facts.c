/* cuda_facts.c - the CUDA backend's errors, availability and device facts.
 *
 * Every CUDA call goes through CUDA_CHECK(), which keeps the call's text and
 * the error name for the probe's FAIL reason. Only set_device and the
 * peer-access calls (peer.c) call cudaSetDevice (since CUDA 12 it creates the
 * context), so asking whether a GPU exists initialises the driver but
 * creates no context.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "base/util.h"
#include "gpu/cuda/cuda_impl.h"

static char last_err[512];

int cuda_check(int err, const char *text)
{
	if (err == 0)
		return 0;
	snprintf(last_err, sizeof(last_err), "%s: %s", text,
		 err > 0 ? cudaGetErrorName((cudaError_t)err) : "failed");
	return -1;
}

int cuda_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
	va_end(ap);
	return -1;
}

void cuda_set_error(const char *msg)
{
	snprintf(last_err, sizeof(last_err), "%s", msg);
}

const char *cuda_last_error(void)
{
	return last_err;
}

const char *cuda_error_name(int err)
{
	return cudaGetErrorName((cudaError_t)err);
}

/* Kernels load at context creation, not at first launch: a lazily loaded
 * kernel queued behind the gate (gpu_measure) waits for the device to idle
 * while the gate waits for the host, a deadlock the gate's timeout ends
 * (seen on the H200 with CUDA 13's default CUDA_MODULE_LOADING=LAZY). Set
 * before the first CUDA call; a user's own setting wins. */
void cuda_env(void)
{
	static int done;

	if (!done) {
		setenv("CUDA_MODULE_LOADING", "EAGER", 0);
		done = 1;
	}
}

void cuda_clear_error(void)
{
	(void)cudaGetLastError();
}

const char *cuda_unsupported_reason(void)
{
	static char why[160];
	int n = 0;
	cudaError_t e;

	cuda_env();
	e = cudaGetDeviceCount(&n);

	if (e != cudaSuccess) {
		snprintf(why, sizeof(why), "no usable CUDA device: cudaGetDeviceCount: %s",
			 cudaGetErrorName(e));
		return why;
	}
	if (n == 0)
		return "no CUDA device";
	return NULL;
}

int cuda_count(void)
{
	int n = 0;

	cuda_env();
	return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

/* ---- device facts ----------------------------------------------------- */

static int attr(enum cudaDeviceAttr a, int dev)
{
	int v = 0;

	if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess)
		return -1;
	return v;
}

int cuda_get_props(int dev, struct gpu_props *p)
{
	struct cudaDeviceProp dp;
	char path[128], *s;

	memset(p, 0, sizeof(*p));
	cuda_env();
	if (CUDA_CHECK(cudaGetDeviceProperties(&dp, dev)))
		return -1;
	snprintf(p->name, sizeof(p->name), "%s", dp.name);
	p->cc_major = dp.major;
	p->cc_minor = dp.minor;
	p->sm_count = dp.multiProcessorCount;
	p->max_threads_per_sm = dp.maxThreadsPerMultiProcessor;
	p->smem_per_sm = (uint64_t)dp.sharedMemPerMultiprocessor;
	p->smem_per_block_optin = (uint64_t)dp.sharedMemPerBlockOptin;
	p->smem_reserved_per_block = (uint64_t)dp.reservedSharedMemPerBlock;
	p->l2_bytes = (uint64_t)dp.l2CacheSize;
	p->mem_bytes = (uint64_t)dp.totalGlobalMem;
	p->pageable_access = attr(cudaDevAttrPageableMemoryAccess, dev);
	p->pageable_host_pt = attr(cudaDevAttrPageableMemoryAccessUsesHostPageTables, dev);
	p->concurrent_managed = attr(cudaDevAttrConcurrentManagedAccess, dev);
	p->host_numa_node = -1;
	if (cudaDeviceGetPCIBusId(p->pci_bus_id, sizeof(p->pci_bus_id), dev) == cudaSuccess) {
		for (char *c = p->pci_bus_id; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/numa_node", p->pci_bus_id);
		s = read_line_str(path);
		if (s) {
			p->host_numa_node = atoi(s);
			free(s);
		}
	}
	if (p->host_numa_node < 0)
		p->host_numa_node = attr(cudaDevAttrHostNumaId, dev);
	cudaDriverGetVersion(&p->driver_version);
	cudaRuntimeGetVersion(&p->runtime_version);
	return 0;
}

int cuda_mem_info(uint64_t *free_bytes, uint64_t *total_bytes)
{
	size_t f = 0, t = 0;

	if (CUDA_CHECK(cudaMemGetInfo(&f, &t)))
		return -1;
	*free_bytes = f;
	*total_bytes = t;
	return 0;
}

/* ---- several devices -------------------------------------------------- */

int cuda_set_device(int dev)
{
	cuda_env();
	return CUDA_CHECK(cudaSetDevice(dev));
}

int cuda_get_device(int *dev)
{
	*dev = 0;
	return CUDA_CHECK(cudaGetDevice(dev));
}
