/* pattern.h - the data pattern written and checked by host and device code.
 *
 * Word i of a buffer filled with seed s is gpu_pattern_word(s, i): a
 * splitmix64 finaliser, so no two neighbouring words are equal, the data is
 * never zeros, and either side can check a copy without a reference buffer.
 */
#ifndef MEMPATH_GPU_PATTERN_H
#define MEMPATH_GPU_PATTERN_H

#include <stdint.h>

#ifdef __CUDACC__
#define PATTERN_FN __host__ __device__ __forceinline__
#else
#define PATTERN_FN static inline
#endif

PATTERN_FN uint64_t gpu_pattern_word(uint64_t seed, uint64_t i)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ull + i;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
