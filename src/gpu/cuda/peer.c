/* peer.c - the CUDA backend's peer-to-peer calls (backend.h, "several
 * devices"): can access peer, link attributes, enabling and disabling peer
 * access, peer copies. Each call that needs another device current switches to it and
 * back, so the caller's current device is kept.
 */
#include <cuda_runtime_api.h>

#include "gpu/cuda/cuda_impl.h"

int cuda_can_access_peer(int dev, int peer, int *can)
{
	*can = 0;
	return CUDA_CHECK(cudaDeviceCanAccessPeer(can, dev, peer));
}

int cuda_p2p_attr(enum gpu_p2p_attr a, int src, int dst, int *v)
{
	static const enum cudaDeviceP2PAttr attrs[] = {
		[GPU_P2P_ACCESS] = cudaDevP2PAttrAccessSupported,
		[GPU_P2P_NATIVE_ATOMICS] = cudaDevP2PAttrNativeAtomicSupported,
		[GPU_P2P_PERF_RANK] = cudaDevP2PAttrPerformanceRank};

	*v = 0;
	return CUDA_CHECK(cudaDeviceGetP2PAttribute(v, attrs[a], src, dst));
}

int cuda_peer_enable(int dev, int peer, int *was_enabled)
{
	int cur = 0;
	cudaError_t e;

	*was_enabled = 0;
	if (CUDA_CHECK(cudaGetDevice(&cur)) || CUDA_CHECK(cudaSetDevice(dev)))
		return -1;
	e = cudaDeviceEnablePeerAccess(peer, 0);
	if (e == cudaErrorPeerAccessAlreadyEnabled) {
		/* Not sticky, but latched: the next launcher's cudaGetLastError()
		 * would report it as its own failure. */
		(void)cudaGetLastError();
		*was_enabled = 1;
		e = cudaSuccess;
	}
	if (cuda_check((int)e, "cudaDeviceEnablePeerAccess(peer, 0)")) {
		cudaSetDevice(cur);
		return -1;
	}
	return CUDA_CHECK(cudaSetDevice(cur));
}

int cuda_peer_disable(int dev, int peer)
{
	int cur = 0;

	if (CUDA_CHECK(cudaGetDevice(&cur)) || CUDA_CHECK(cudaSetDevice(dev)))
		return -1;
	if (CUDA_CHECK(cudaDeviceDisablePeerAccess(peer))) {
		cudaSetDevice(cur);
		return -1;
	}
	return CUDA_CHECK(cudaSetDevice(cur));
}

int cuda_memcpy_peer_async(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
			   struct gpu_stream *s)
{
	return CUDA_CHECK(cudaMemcpyPeerAsync(dst, dst_dev, src, src_dev, bytes, CU_S(s)));
}
