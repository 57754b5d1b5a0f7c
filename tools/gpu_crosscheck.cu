// gpu_crosscheck.cu - an independent cross-check for gpu.stream and gpu.copy.
//
// Shares no code with mempath: plain cudaMemcpy D2D, a naive 16-byte read
// kernel, and pinned H2D / D2H cudaMemcpyAsync, each timed with CUDA events
// around 20 back-to-back operations (no gate), median of 11 samples.
// Build and run: nvcc -O3 -arch=sm_90 tools/gpu_crosscheck.cu -o xc && ./xc
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CK(x)                                                                              \
	do {                                                                               \
		cudaError_t e_ = (x);                                                      \
		if (e_ != cudaSuccess) {                                                   \
			fprintf(stderr, "%s: %s\n", #x, cudaGetErrorName(e_));             \
			exit(1);                                                           \
		}                                                                          \
	} while (0)

__global__ void naive_read(const int4 *p, size_t n, int *out)
{
	int4 a = make_int4(0, 0, 0, 0);
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		a.x ^= v.x;
		a.y ^= v.y;
		a.z ^= v.z;
		a.w ^= v.w;
	}
	if ((a.x ^ a.y ^ a.z ^ a.w) == 0x12345678)
		*out = 1;
}

template <class F> static double median_gbps(double bytes_per_op, int ops, F op)
{
	cudaEvent_t a, b;
	std::vector<double> v;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	for (int s = 0; s < 13; s++) {
		float ms;
		CK(cudaEventRecord(a));
		for (int i = 0; i < ops; i++)
			op();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		CK(cudaEventElapsedTime(&ms, a, b));
		if (s >= 2) // two warm-ups
			v.push_back(bytes_per_op * ops / (ms * 1e-3) / 1e9);
	}
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

int main()
{
	size_t big = 4ull << 30, hsz = 256ull << 20;
	void *d0, *d1, *h0, *h1;
	int *flag, sms;
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CK(cudaMalloc(&d0, big));
	CK(cudaMalloc(&d1, big));
	CK(cudaMalloc(&flag, sizeof(int)));
	CK(cudaMemset(d0, 1, big));
	CK(cudaMallocHost(&h0, hsz));
	CK(cudaMallocHost(&h1, hsz));
	memset(h0, 2, hsz);

	double d2d = median_gbps((double)big, 20, [&] { CK(cudaMemcpyAsync(d1, d0, big, cudaMemcpyDeviceToDevice)); });
	printf("xc d2d_memcpy_4G      read+write %.1f GB/s   bytes-once %.1f GB/s\n", 2 * d2d, d2d);
	double rd = median_gbps((double)big, 20, [&] {
		naive_read<<<sms * 4, 512>>>((const int4 *)d0, big / 16, flag);
		CK(cudaGetLastError());
	});
	printf("xc naive_read_4G      %.1f GB/s\n", rd);
	double h2d = median_gbps((double)hsz, 20, [&] { CK(cudaMemcpyAsync(d0, h0, hsz, cudaMemcpyHostToDevice)); });
	printf("xc pinned_h2d_256M    %.1f GB/s\n", h2d);
	double d2h = median_gbps((double)hsz, 20, [&] { CK(cudaMemcpyAsync(h1, d0, hsz, cudaMemcpyDeviceToHost)); });
	printf("xc pinned_d2h_256M    %.1f GB/s\n", d2h);
	CK(cudaMemcpy(h1, d0, hsz, cudaMemcpyDeviceToHost));
	printf("xc check_h2d_data     %s\n", memcmp(h0, h1, hsz) == 0 ? "ok" : "MISMATCH");
	return 0;
}
