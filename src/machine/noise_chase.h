/* noise_chase.h - the noise meter's own chase (noise.h): what a hop
 * through memory below the private caches costs now, which a neighbour's
 * memory traffic moves without taking a CPU (docs/design.md §4.14,
 * §5.18). */
#ifndef MEMPATH_NOISE_CHASE_H
#define MEMPATH_NOISE_CHASE_H

#include <stddef.h>

/* The chase (docs/design.md §4.14, §5.18): at each reading,
 * NOISE_CHASE_HOPS dependent loads through a buffer of NOISE_CHASE_BYTES
 * whose lines are linked in one random cycle, from where the last reading
 * left off: a line is revisited after a thousand readings, so a hop costs
 * what the memory below the private caches costs now - the shared cache if
 * the buffer stayed in it, DRAM under a neighbour that sweeps the cache or
 * loads the memory bus. 256 hops a reading (tens of microseconds, 16 KiB
 * of lines every 0.1 s) do not load what they measure. */
#define NOISE_CHASE_BYTES (16u << 20)
#define NOISE_CHASE_HOPS  256

/* NOISE_CHASE_BYTES of cache lines linked in one random cycle (a fixed
 * seed); NULL when the memory cannot be had. free() it. */
size_t *noise_chase_new(void);
/* NOISE_CHASE_HOPS dependent loads through chase from *pos (left where they
 * ended): ns a hop, the faster of the two halves. */
double noise_chase_ns(const size_t *chase, size_t *pos);

#endif
