/* noise_chase.c - the noise meter's own chase (noise_chase.h). */
#include "machine/noise_chase.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "base/util.h"

/* One word a cache line: a line's first word is the index of the next. */
#define LINE_WORDS (64 / sizeof(size_t))

/* The chase buffer: one cycle through every line in a random order
 * (Sattolo's shuffle, a fixed seed: every meter the same); NULL when it
 * cannot be had. */
size_t *noise_chase_new(void)
{
	size_t lines = NOISE_CHASE_BYTES / 64, *order, *buf;
	struct rng r;
	/* on huge pages where the machine gives them: a hop then costs the
	 * memory, not a page walk per hop */
	if (posix_memalign((void **)&buf, 2u << 20, NOISE_CHASE_BYTES) != 0)
		return NULL;
	madvise(buf, NOISE_CHASE_BYTES, MADV_HUGEPAGE);
	order = xcalloc(lines, sizeof(*order));
	rng_seed(&r, 0x6e6f697365ull);
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = (size_t)rng_below(&r, i), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		buf[order[i] * LINE_WORDS] = order[(i + 1) % lines] * LINE_WORDS;
	free(order);
	return buf;
}

/* NOISE_CHASE_HOPS dependent loads from where the last chase ended: ns a
 * hop, the fastest of the two halves (a half the scheduler cut into is not
 * the memory's). */
double noise_chase_ns(const size_t *chase, size_t *pos)
{
	double best = INFINITY;
	size_t at = *pos;
	for (int half = 0; half < 2; half++) {
		uint64_t t0 = time_now_ns();
		for (int k = 0; k < NOISE_CHASE_HOPS / 2; k++)
			at = ((const volatile size_t *)chase)[at];
		best = fmin(best, (double)(time_now_ns() - t0) / (NOISE_CHASE_HOPS / 2));
	}
	*pos = at;
	return best;
}
