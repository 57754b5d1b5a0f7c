/* ab_schedule.h - the order of the legs of ab's rounds (docs/design.md
 * §5.10, §5.22): which variant runs where in each round. */
#ifndef MEMPATH_FLOW_AB_SCHEDULE_H
#define MEMPATH_FLOW_AB_SCHEDULE_H

#include <stddef.h>

/* The schedule of n rounds: "abba" alternates AB and BA (ABBAAB...),
 * "random" draws each round's order from seed; a new string. */
char *ab_schedule(unsigned rounds, const char *order, unsigned long long seed);
/* The schedule of n rounds of nv variants (letters A, B, ...): two variants
 * as ab_schedule; more, "abba" rotates the order by one variant every second
 * round and reverses every other round (ABCD DCBA BCDA ADCB ...), so each
 * variant runs in every place and before and after every other; "random"
 * shuffles each round from seed. A new string. */
char *ab_schedule_n(size_t nv, unsigned rounds, const char *order, unsigned long long seed);

#endif
