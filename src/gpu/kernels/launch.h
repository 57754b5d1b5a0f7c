/* launch.h - the extern "C" kernel launchers, shared by the kernels that
 * define them (src/gpu/kernels/ *.cu) and by the backend that puts them in
 * the table (backend.h: launch_* entries), where probes reach them.
 *
 * The kernels are one source for every backend whose compiler takes CUDA's
 * C++ dialect: what differs (the runtime's header and stream type, the
 * launch's error, the device clock, streaming and L2-only loads and stores,
 * warp shuffles) is behind "kernel_shim.h", the backend's own (CUDA's is
 * src/gpu/cuda/kernel_shim.h), found on the include path its make rule
 * gives the device compiler (docs/adding-a-backend.md).
 *
 * Every launcher enqueues one kernel on stream s (NULL: the legacy default
 * stream) and returns the runtime's error of the launch as an int (0 =
 * success); callers wrap the call in GPU_CHECK() so a failure is recorded
 * with its text. Pointers are device-accessible addresses (device, managed,
 * or mapped host memory); none is freed or kept by a launcher. A backend
 * without these kernels (the fake of tests/gpu_fake/) fills the entries with
 * its own functions of the same signatures.
 */
#ifndef MEMPATH_GPU_LAUNCH_H
#define MEMPATH_GPU_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The backend's stream, opaque (backend.h): each launcher casts it to its
 * runtime's own (CUDA: cudaStream_t). */
struct gpu_stream;

/* A launch shape. unroll: independent 16-byte accesses each thread has in
 * flight (1, 2, 4 or 8; others round down to one of these). blocks = 0 asks
 * read, write and copy for the chunked layout (stream.cu): one block per
 * unroll x threads accesses, as many as the buffer needs. */
struct gpu_grid {
	unsigned blocks, threads, unroll;
};

/* --- common.cu --- */

/* One thread spins until *flag != 0 (host-mapped pinned memory, so the host
 * releases it with a plain store) or timeout_ns passes; then sets *timed_out
 * to 1. nvbandwidth's way of holding a stream while work is queued behind it. */
int gpu_launch_gate(volatile int *flag, int *timed_out, uint64_t timeout_ns, struct gpu_stream *s);
/* Writes pattern words (pattern.h) seed-derived over bytes (multiple of 8). */
int gpu_launch_fill(void *p, size_t bytes, uint64_t seed, struct gpu_stream *s);
/* Adds the number of 8-byte words differing from the pattern to *bad. */
int gpu_launch_verify(const void *p, size_t bytes, uint64_t seed, unsigned long long *bad,
		      struct gpu_stream *s);
/* One thread busy-waits ns on the device's ns timer; ns = 0 is an empty kernel. */
int gpu_launch_sleep(uint64_t ns, struct gpu_stream *s);
/* Compute-bound load: each thread runs iters rounds of 64 FMAs (8
 * independent chains x 8; 128 flops per round, an FMA counting 2) and writes
 * one float to out (blocks * threads floats), so nothing is optimised away. */
int gpu_launch_fma(float *out, unsigned blocks, unsigned threads, unsigned iters,
		   struct gpu_stream *s);

/* --- stream.cu --- */

/* Reads bytes (multiple of 16) with 16-byte loads, grid-stride, XOR-reduces
 * what it read and XORs one word per warp into *out. streaming = 1 loads
 * with ld.global.cs (evict first) instead of the default cached load. */
int gpu_launch_read(const void *p, size_t bytes, const struct gpu_grid *g, int streaming,
		    unsigned long long *out, struct gpu_stream *s);
/* Writes bytes with 16-byte stores; streaming = 1 uses st.global.cs (evict
 * first) instead of the default write-back store. Data: pattern words. */
int gpu_launch_write(void *p, size_t bytes, const struct gpu_grid *g, int streaming, uint64_t seed,
		     struct gpu_stream *s);
/* dst = src over bytes with 16-byte loads and stores. */
int gpu_launch_copy(void *dst, const void *src, size_t bytes, const struct gpu_grid *g,
		    struct gpu_stream *s);
/* L2-resident reads: block b of g reads chunk b % regions (chunk_bytes each,
 * a multiple of 16) of p through the L2 only (ld.global.cg), XOR-reduced
 * into *out as gpu_launch_read does. */
int gpu_launch_read_l2(const void *p, size_t chunk_bytes, unsigned regions,
		       const struct gpu_grid *g, unsigned long long *out, struct gpu_stream *s);

/* --- random.cu --- */

/* Independent random 32 B-sector reads: `distinct` sectors, one in each of
 * `distinct` equal slots of [base, base + span) (a fixed, hashed position
 * inside its slot, so sectors do not line up on one channel), visited in
 * hashed random order. Each thread does per_thread accesses, g->unroll of them
 * in flight; one 16 B load (ld.global.cg, L1 bypassed) per sector. XOR of
 * the loaded words goes to *out. span >= 32 * distinct. */
int gpu_launch_sectors(const void *base, uint64_t span, uint64_t distinct, uint64_t per_thread,
		       uint64_t seed, const struct gpu_grid *g, unsigned long long *out,
		       struct gpu_stream *s);
/* Random block gathers: each warp reads per_warp whole blocks of block_bytes
 * (multiple of 512), each at a hashed random block-aligned offset within
 * [base, base + span). */
int gpu_launch_blocks(const void *base, uint64_t span, uint64_t block_bytes, uint64_t per_warp,
		      uint64_t seed, const struct gpu_grid *g, unsigned long long *out,
		      struct gpu_stream *s);

/* --- chase.cu --- */

/* Builds a pointer chain: node seq[i] (at word seq[i] * stride_words) holds
 * the address of node seq[(i + 1) % n]. */
int gpu_launch_chain_build(uint64_t *buf, const uint32_t *seq, uint64_t n, uint64_t stride_words,
			   struct gpu_stream *s);
/* One thread follows the chain for steps dependent loads, starting at word
 * *pos, and stores where it ended in *pos. */
int gpu_launch_chase(const uint64_t *buf, uint64_t steps, uint64_t *pos, unsigned threads,
		     struct gpu_stream *s);

/* --- load.cu: a chase under load (gpu.loaded) --- */

/* Device words shared by a load kernel and the chase it loads, zeroed by
 * the caller before each pair of launches. Times are the device timer's ns. */
struct gpu_load_ctl {
	unsigned long long stop;	       /* set by the chase when its loads are done */
	unsigned long long running;	       /* load blocks that have started */
	unsigned long long bytes;	       /* bytes the load blocks read */
	unsigned long long t_start, t_end;     /* first load block's start, last one's end */
	unsigned long long chase_t0, chase_t1; /* around the chase's dependent loads */
	unsigned long long chase_gave_up;      /* 1: the chase stopped waiting for the load */
	unsigned long long sink;	       /* XOR of what the load read */
};

/* `blocks` blocks of 512 threads read [p, p + bytes) over and over with 16 B
 * streaming loads (ld.global.cs, 8 in flight per thread) until ctl->stop is
 * set or max_ns passed since each block began; each block counts itself in
 * ctl->running when it starts and adds its bytes at the end. smem_bytes of
 * dynamic shared memory per block (0: none): more than half an SM's keeps
 * one block per SM. bytes >= blocks * 512 * 128. */
int gpu_launch_load_read(const void *p, size_t bytes, unsigned blocks, size_t smem_bytes,
			 struct gpu_load_ctl *ctl, uint64_t max_ns, struct gpu_stream *s);
/* One thread (one warp) waits until ctl->running >= wait_blocks (or wait_ns,
 * then sets ctl->chase_gave_up), follows the chain from word *pos for steps
 * dependent loads with the device timer read before and after (ctl->chase_t0/t1),
 * stores where it ended in *pos, then sets ctl->stop. smem_bytes as above,
 * so no load block shares its SM. */
int gpu_launch_chase_loaded(const uint64_t *buf, uint64_t steps, uint64_t *pos,
			    struct gpu_load_ctl *ctl, unsigned wait_blocks, uint64_t wait_ns,
			    size_t smem_bytes, struct gpu_stream *s);

#ifdef __cplusplus
}
#endif

#endif
