/* cpu_kernels.c - the CPU memory kernels (cpu_kernels.h). */
#include "kit/cpu_kernels.h"

#include <string.h>

#ifdef __x86_64__
#include <emmintrin.h>
#endif

/* Written with vector types so -O2 gives full-width loads and stores (gcc
 * -O2 compiles STREAM's own loops to scalar 8 B ones: objdump of stream.c);
 * loop distribution is off because GCC would otherwise turn the copy loop
 * into a libc memcpy call, and that code path has its own kernel. */
#if defined(__clang__)
#define KERNEL_ATTR __attribute__((noinline, no_builtin("memcpy", "memset")))
#elif defined(__GNUC__)
#define KERNEL_ATTR __attribute__((noinline, optimize("no-tree-loop-distribute-patterns")))
#else
#define KERNEL_ATTR
#endif

typedef double v2d __attribute__((vector_size(16)));
typedef uint64_t v2u __attribute__((vector_size(16)));

KERNEL_ATTR double cpu_kern_read(const double *restrict a, size_t n)
{
	const v2d *p = (const v2d *)a;
	v2d s0 = {0, 0}, s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;

	/* Eight chains hide the add latency even when one core can pull more
	 * than 60 GB/s. */
	for (size_t i = 0; i < n / 2; i += 8) {
		s0 += p[i];
		s1 += p[i + 1];
		s2 += p[i + 2];
		s3 += p[i + 3];
		s4 += p[i + 4];
		s5 += p[i + 5];
		s6 += p[i + 6];
		s7 += p[i + 7];
	}
	v2d s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
	return s[0] + s[1];
}

KERNEL_ATTR void cpu_kern_write(double *restrict c, double w, size_t n)
{
	v2d *p = (v2d *)c;
	const v2d v = {w, w};

#pragma GCC unroll 4
	for (size_t i = 0; i < n / 2; i++)
		p[i] = v;
}

KERNEL_ATTR void cpu_kern_copy(double *restrict c, const double *restrict a, size_t n)
{
	v2d *d = (v2d *)c;
	const v2d *s = (const v2d *)a;

#pragma GCC unroll 4
	for (size_t i = 0; i < n / 2; i++)
		d[i] = s[i];
}

KERNEL_ATTR void cpu_kern_triad(double *restrict c, const double *restrict a,
				const double *restrict b, double s, size_t n)
{
	v2d *d = (v2d *)c;
	const v2d *x = (const v2d *)a, *y = (const v2d *)b;
	const v2d k = {s, s};

#pragma GCC unroll 4
	for (size_t i = 0; i < n / 2; i++)
		d[i] = x[i] + k * y[i];
}

void cpu_kern_memcpy(double *c, const double *a, size_t n)
{
	memcpy(c, a, n * sizeof(double));
}

#ifdef __x86_64__
void cpu_kern_write_nt(double *restrict c, double w, size_t n)
{
	const __m128d v = _mm_set1_pd(w);

	for (size_t i = 0; i < n; i += 8) {
		_mm_stream_pd(c + i, v);
		_mm_stream_pd(c + i + 2, v);
		_mm_stream_pd(c + i + 4, v);
		_mm_stream_pd(c + i + 6, v);
	}
	_mm_sfence();
}

void cpu_kern_copy_nt(double *restrict c, const double *restrict a, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		_mm_stream_pd(c + i, _mm_load_pd(a + i));
		_mm_stream_pd(c + i + 2, _mm_load_pd(a + i + 2));
		_mm_stream_pd(c + i + 4, _mm_load_pd(a + i + 4));
		_mm_stream_pd(c + i + 6, _mm_load_pd(a + i + 6));
	}
	_mm_sfence();
}

void cpu_kern_triad_nt(double *restrict c, const double *restrict a, const double *restrict b,
		       double s, size_t n)
{
	const __m128d k = _mm_set1_pd(s);

	for (size_t i = 0; i < n; i += 8) {
		for (size_t j = 0; j < 8; j += 2) {
			__m128d y = _mm_mul_pd(k, _mm_load_pd(b + i + j));

			_mm_stream_pd(c + i + j, _mm_add_pd(_mm_load_pd(a + i + j), y));
		}
	}
	_mm_sfence();
}
#endif

const char *cpu_mix_name(enum cpu_mix m)
{
	static const char *const names[CPU_MIX_N] = {"read", "r2w1", "r1w1"};

	return m < CPU_MIX_N ? names[m] : "?";
}

double cpu_mix_bytes_per_line(enum cpu_mix m)
{
	static const double bytes[CPU_MIX_N] = {64, 96, 128};

	return m < CPU_MIX_N ? bytes[m] : 0;
}

/* The pause between lines: an empty loop the compiler must keep. */
static inline void spin(unsigned n)
{
	for (unsigned k = n; k; k--)
		__asm__ volatile("");
}

uint64_t cpu_kern_paced(uint64_t *p, size_t lines, enum cpu_mix mix, unsigned delay)
{
	v2u *q = (v2u *)p, acc = {0, 0};
	const v2u one = {1, 1};

	/* A 64 B line is four 16 B vectors. */
	for (size_t l = 0; l < lines; l += 2) {
		v2u *x = q + 4 * l, *y = x + 4;

		switch (mix) {
		case CPU_MIX_READ:
			acc ^= (x[0] ^ x[1]) ^ (x[2] ^ x[3]);
			spin(delay);
			acc ^= (y[0] ^ y[1]) ^ (y[2] ^ y[3]);
			break;
		case CPU_MIX_R2W1:
			for (int k = 0; k < 4; k++)
				y[k] += x[k];
			spin(delay);
			break;
		case CPU_MIX_R1W1:
			for (int k = 0; k < 4; k++)
				x[k] += one;
			spin(delay);
			for (int k = 0; k < 4; k++)
				y[k] += one;
			break;
		default:
			return 0;
		}
		spin(delay);
	}
	return acc[0] ^ acc[1] ^ q[0][0];
}

uint64_t cpu_kern_page_pass(const void *p, size_t bytes)
{
	const volatile unsigned char *b = p;
	uint64_t sum = 0;

	for (size_t off = 0; off < bytes; off += 4096)
		sum += b[off];
	return sum;
}
