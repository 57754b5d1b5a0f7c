/* fake_impl.h - what the two files of the fake backend share (fake.c: the
 * table, memory, streams, events; fake_kernels.c: the launchers). The fake
 * is docs/adding-a-backend.md's worked example: host memory stands in for
 * device memory, plain C loops for the kernels, and every call runs to its
 * end when it is queued, so a stream is the calling thread and an event is
 * the monotonic clock read when it is recorded.
 */
#ifndef MEMPATH_TESTS_GPU_FAKE_IMPL_H
#define MEMPATH_TESTS_GPU_FAKE_IMPL_H

#include "gpu/backend.h"

/* The fake's error codes (launchers return them; error_name() names them). */
enum { FAKE_OK, FAKE_EINVAL, FAKE_ENOTSUP, FAKE_ENOMEM, FAKE_N_ERRORS };

/* Records a formatted message as the last GPU error; returns -1. */
int fake_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The monotonic clock, ns. */
uint64_t fake_now_ns(void);

/* ---- fake_kernels.c: the launch_* entries ------------------------------- */

int fake_launch_gate(volatile int *flag, int *timed_out, uint64_t timeout_ns, struct gpu_stream *s);
int fake_launch_fill(void *p, size_t bytes, uint64_t seed, struct gpu_stream *s);
int fake_launch_verify(const void *p, size_t bytes, uint64_t seed, unsigned long long *bad,
		       struct gpu_stream *s);
int fake_launch_sleep(uint64_t ns, struct gpu_stream *s);
int fake_launch_fma(float *out, unsigned blocks, unsigned threads, unsigned iters,
		    struct gpu_stream *s);
int fake_launch_read(const void *p, size_t bytes, const struct gpu_grid *g, int streaming,
		     unsigned long long *out, struct gpu_stream *s);
int fake_launch_write(void *p, size_t bytes, const struct gpu_grid *g, int streaming, uint64_t seed,
		      struct gpu_stream *s);
int fake_launch_copy(void *dst, const void *src, size_t bytes, const struct gpu_grid *g,
		     struct gpu_stream *s);
int fake_launch_read_l2(const void *p, size_t chunk_bytes, unsigned regions,
			const struct gpu_grid *g, unsigned long long *out, struct gpu_stream *s);
int fake_launch_sectors(const void *base, uint64_t span, uint64_t distinct, uint64_t per_thread,
			uint64_t seed, const struct gpu_grid *g, unsigned long long *out,
			struct gpu_stream *s);
int fake_launch_blocks(const void *base, uint64_t span, uint64_t block_bytes, uint64_t per_warp,
		       uint64_t seed, const struct gpu_grid *g, unsigned long long *out,
		       struct gpu_stream *s);
int fake_launch_chain_build(uint64_t *buf, const uint32_t *seq, uint64_t n, uint64_t stride_words,
			    struct gpu_stream *s);
int fake_launch_chase(const uint64_t *buf, uint64_t steps, uint64_t *pos, unsigned threads,
		      struct gpu_stream *s);
int fake_launch_load_read(const void *p, size_t bytes, unsigned blocks, size_t smem_bytes,
			  struct gpu_load_ctl *ctl, uint64_t max_ns, struct gpu_stream *s);
int fake_launch_chase_loaded(const uint64_t *buf, uint64_t steps, uint64_t *pos,
			     struct gpu_load_ctl *ctl, unsigned wait_blocks, uint64_t wait_ns,
			     size_t smem_bytes, struct gpu_stream *s);

#endif
