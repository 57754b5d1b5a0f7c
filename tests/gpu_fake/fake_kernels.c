/* fake_kernels.c - the fake backend's launchers (launch.h's contracts, in
 * plain C on the calling thread): each runs to its end before it returns, so
 * the events around it (fake.c) time it. What the CUDA kernels do that one
 * thread cannot (a chase beside load blocks running at the same time) is
 * refused with FAKE_ENOTSUP, and the probe fails with that reason.
 */
#include <string.h>

#include "fake_impl.h"
#include "gpu/kernels/pattern.h"

int fake_launch_gate(volatile int *flag, int *timed_out, uint64_t timeout_ns, struct gpu_stream *s)
{
	/* Work runs when it is queued: nothing waits behind a gate, so the
	 * gate is open at once (and never times out). */
	return FAKE_OK;
}

int fake_launch_fill(void *p, size_t bytes, uint64_t seed, struct gpu_stream *s)
{
	uint64_t *w = p;

	for (size_t i = 0; i < bytes / 8; i++)
		w[i] = gpu_pattern_word(seed, i);
	return FAKE_OK;
}

int fake_launch_verify(const void *p, size_t bytes, uint64_t seed, unsigned long long *bad,
		       struct gpu_stream *s)
{
	const uint64_t *w = p;
	unsigned long long n = 0;

	for (size_t i = 0; i < bytes / 8; i++)
		n += w[i] != gpu_pattern_word(seed, i);
	*bad += n;
	return FAKE_OK;
}

int fake_launch_sleep(uint64_t ns, struct gpu_stream *s)
{
	uint64_t t0 = fake_now_ns();

	while (ns && fake_now_ns() - t0 < ns)
		;
	return FAKE_OK;
}

int fake_launch_fma(float *out, unsigned blocks, unsigned threads, unsigned iters,
		    struct gpu_stream *s)
{
	for (unsigned t = 0; t < blocks * threads; t++) {
		float x = 1.0f + (float)t * 1e-7f;

		for (unsigned i = 0; i < iters * 64; i++)
			x = x * 0.999999f + 1e-6f;
		out[t] = x;
	}
	return FAKE_OK;
}

/* The CUDA read's reduction, whatever the grid: the XOR of every 16 B
 * element folded as ((x ^ z) << 32) | (y ^ w) of its four 32-bit words. */
static unsigned long long fold(const void *p, size_t bytes)
{
	const uint64_t *w = p;
	uint64_t a = 0;

	for (size_t i = 0; i + 1 < bytes / 8; i += 2)
		a ^= w[i] ^ w[i + 1];
	return (a << 32) | (a >> 32);
}

int fake_launch_read(const void *p, size_t bytes, const struct gpu_grid *g, int streaming,
		     unsigned long long *out, struct gpu_stream *s)
{
	*out ^= fold(p, bytes / 16 * 16);
	return FAKE_OK;
}

int fake_launch_write(void *p, size_t bytes, const struct gpu_grid *g, int streaming, uint64_t seed,
		      struct gpu_stream *s)
{
	uint32_t *w = p, sd = (uint32_t)seed;

	/* element j: (j, seed, j >> 32, ~seed), as the CUDA kernel stores it */
	for (uint64_t j = 0; j < bytes / 16; j++) {
		w[4 * j] = (uint32_t)j;
		w[4 * j + 1] = sd;
		w[4 * j + 2] = (uint32_t)(j >> 32);
		w[4 * j + 3] = ~sd;
	}
	return FAKE_OK;
}

int fake_launch_copy(void *dst, const void *src, size_t bytes, const struct gpu_grid *g,
		     struct gpu_stream *s)
{
	memcpy(dst, src, bytes / 16 * 16);
	return FAKE_OK;
}

int fake_launch_read_l2(const void *p, size_t chunk_bytes, unsigned regions,
			const struct gpu_grid *g, unsigned long long *out, struct gpu_stream *s)
{
	const char *c = p;

	if (!g->blocks || !regions)
		return FAKE_EINVAL;
	for (unsigned b = 0; b < g->blocks; b++)
		*out ^= fold(c + (size_t)(b % regions) * chunk_bytes, chunk_bytes);
	return FAKE_OK;
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t h, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)h * n) >> 64);
}

int fake_launch_sectors(const void *base, uint64_t span, uint64_t distinct, uint64_t per_thread,
			uint64_t seed, const struct gpu_grid *g, unsigned long long *out,
			struct gpu_stream *s)
{
	const char *b = base;
	uint64_t slot = distinct ? span / 32 / distinct : 0, acc = 0;

	if (slot == 0)
		return FAKE_EINVAL;
	for (uint64_t t = 0; t < (uint64_t)g->blocks * g->threads; t++) {
		uint64_t h = mix64(seed ^ (t * 0x9e3779b97f4a7c15ull));

		for (uint64_t j = 0; j < per_thread; j++) {
			uint64_t sec = below(mix64(h + j), distinct);
			uint64_t pos = sec * slot + below(mix64(sec + 0x5ec7095eedull), slot);

			acc ^= *(const uint64_t *)(const void *)(b + pos * 32);
		}
	}
	*out ^= acc;
	return FAKE_OK;
}

int fake_launch_blocks(const void *base, uint64_t span, uint64_t block_bytes, uint64_t per_warp,
		       uint64_t seed, const struct gpu_grid *g, unsigned long long *out,
		       struct gpu_stream *s)
{
	const char *b = base;
	uint64_t n = block_bytes ? span / block_bytes : 0;

	if (n == 0 || block_bytes % 512)
		return FAKE_EINVAL;
	for (uint64_t w = 0; w < (uint64_t)g->blocks * g->threads / 32; w++) {
		uint64_t h = mix64(seed ^ (w * 0x9e3779b97f4a7c15ull));

		for (uint64_t k = 0; k < per_warp; k++)
			*out ^= fold(b + below(mix64(h + k), n) * block_bytes, block_bytes);
	}
	return FAKE_OK;
}

int fake_launch_chain_build(uint64_t *buf, const uint32_t *seq, uint64_t n, uint64_t stride_words,
			    struct gpu_stream *s)
{
	for (uint64_t i = 0; i < n; i++)
		buf[(uint64_t)seq[i] * stride_words] =
			(uint64_t)(uintptr_t)(buf + seq[i + 1 < n ? i + 1 : 0] * stride_words);
	return FAKE_OK;
}

int fake_launch_chase(const uint64_t *buf, uint64_t steps, uint64_t *pos, unsigned threads,
		      struct gpu_stream *s)
{
	uint64_t p = (uint64_t)(uintptr_t)(buf + *pos);

	for (uint64_t i = 0; i < steps; i++)
		p = *(const volatile uint64_t *)(uintptr_t)p;
	*pos = (p - (uint64_t)(uintptr_t)buf) / 8;
	return FAKE_OK;
}

int fake_launch_load_read(const void *p, size_t bytes, unsigned blocks, size_t smem_bytes,
			  struct gpu_load_ctl *ctl, uint64_t max_ns, struct gpu_stream *s)
{
	return FAKE_ENOTSUP; /* a load beside a chase: two streams at once */
}

int fake_launch_chase_loaded(const uint64_t *buf, uint64_t steps, uint64_t *pos,
			     struct gpu_load_ctl *ctl, unsigned wait_blocks, uint64_t wait_ns,
			     size_t smem_bytes, struct gpu_stream *s)
{
	return fake_launch_load_read(NULL, 0, 0, 0, ctl, 0, s);
}
