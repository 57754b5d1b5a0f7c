// hold.cu - a CUDA program that holds GIB GiB of device memory (cudaMalloc,
// then cudaMemset so it is backed) for HOLD_MS ms and exits; its pid goes to
// stderr so the readings of nvidia-smi can be matched to it.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t gib = argc > 1 ? strtoul(argv[1], NULL, 10) : 3;
	unsigned ms = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 2000;
	void *p = NULL;
	cudaError_t e = cudaMalloc(&p, gib << 30);
	if (e == cudaSuccess)
		e = cudaMemset(p, 1, gib << 30);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess) {
		fprintf(stderr, "hold: %s\n", cudaGetErrorString(e));
		return 1;
	}
	fprintf(stderr, "hold pid %d holds %zu GiB\n", (int)getpid(), gib);
	usleep(ms * 1000u);
	cudaFree(p);
	return 0;
}
