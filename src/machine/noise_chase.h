/* noise_chase.h - the noise meter's own chase (noise.h, NOISE_CHASE_*):
 * what a hop through memory below the private caches costs now, which a
 * neighbour's memory traffic moves without taking a CPU (docs/design.md
 * §4.14, §5.18). */
#ifndef MEMPATH_NOISE_CHASE_H
#define MEMPATH_NOISE_CHASE_H

#include <stddef.h>

/* NOISE_CHASE_BYTES of cache lines linked in one random cycle (a fixed
 * seed); NULL when the memory cannot be had. free() it. */
size_t *noise_chase_new(void);
/* NOISE_CHASE_HOPS dependent loads through chase from *pos (left where they
 * ended): ns a hop, the faster of the two halves. */
double noise_chase_ns(const size_t *chase, size_t *pos);

#endif
