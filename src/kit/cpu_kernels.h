/* cpu_kernels.h - the CPU memory kernels probes time: STREAM's four over
 * double arrays with temporal or non-temporal stores and libc memcpy
 * (cpu.stream), and the paced line traffic of loaded-latency injectors
 * (cpu.loaded).
 *
 * The code path is named (docs/design.md §4.12): the STREAM kernels are our
 * own loops, compiled so GCC and clang cannot turn them into libc calls, and
 * cpu_kern_memcpy() is libc's memcpy and nothing else; the page pass makes a
 * buffer's translations present before a chase is timed. Nothing here times,
 * allocates or prints.
 */
#ifndef MEMPATH_KIT_CPU_KERNELS_H
#define MEMPATH_KIT_CPU_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Element counts given to the STREAM kernels are multiples of this (two 64 B
 * lines), so no loop needs a tail. */
#define CPU_KERN_ELEMS 16

/* sum of a[0..n) (8 independent chains of 16 B vectors). */
double cpu_kern_read(const double *a, size_t n);
/* c[i] = w */
void cpu_kern_write(double *c, double w, size_t n);
/* c[i] = a[i], own loop (not memcpy) */
void cpu_kern_copy(double *c, const double *a, size_t n);
/* c[i] = a[i] + s * b[i] */
void cpu_kern_triad(double *c, const double *a, const double *b, double s, size_t n);
/* c[i] = a[i] by libc memcpy: the code path STREAM's Copy compiles to. */
void cpu_kern_memcpy(double *c, const double *a, size_t n);

/* Non-temporal stores (SSE2 _mm_stream_pd; x86-64 only, else not defined):
 * no write-allocate read; an sfence ends each, so the stores are visible
 * before the caller's barrier. Pointers 16 B aligned. */
#ifdef __x86_64__
#define CPU_KERN_HAVE_NT 1
void cpu_kern_write_nt(double *c, double w, size_t n);
void cpu_kern_copy_nt(double *c, const double *a, size_t n);
void cpu_kern_triad_nt(double *c, const double *a, const double *b, double s, size_t n);
#else
#define CPU_KERN_HAVE_NT 0
/* Reads one byte in each 4 KiB page of [p, p + bytes), in address order;
 * returns their sum, for the caller to consume. One load per page: the
 * page's translation is made present (a guest's hypervisor may have to build
 * it again), a sixty-fourth of the lines at most are brought into the cache. */
uint64_t cpu_kern_page_pass(const void *p, size_t bytes);

#endif

/* Paced traffic: how the lines of an injector's buffer are touched. Every mix
 * reads a line before it writes it, so the memory traffic is exactly the
 * stated mix (no write-allocate read on top). */
enum cpu_mix {
	CPU_MIX_READ, /* read each line */
	CPU_MIX_R2W1, /* read lines i and i+1, write line i+1: 2 reads : 1 write */
	CPU_MIX_R1W1, /* read line i, write it back: 1 read : 1 write */
	CPU_MIX_N
};

/* Label of a mix ("read", "r2w1", "r1w1"). */
const char *cpu_mix_name(enum cpu_mix m);
/* Bytes moved to or from memory per line stepped: lines read plus lines
 * written, 64 B each (read 64, r2w1 96, r1w1 128). */
double cpu_mix_bytes_per_line(enum cpu_mix m);

/* Steps through `lines` 64 B lines at p (64 B aligned, lines even) with the
 * mix, spinning `delay` iterations of an empty loop (about one core cycle
 * each) after every line; returns an XOR of what was read, for the caller
 * to consume. */
uint64_t cpu_kern_paced(uint64_t *p, size_t lines, enum cpu_mix mix, unsigned delay);

/* Reads one byte in each 4 KiB page of [p, p + bytes), in address order;
 * returns their sum, for the caller to consume. One load per page: the
 * page's translation is made present (a guest's hypervisor may have to build
 * it again), a sixty-fourth of the lines at most are brought into the cache. */
uint64_t cpu_kern_page_pass(const void *p, size_t bytes);

#endif
