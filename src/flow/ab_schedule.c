/* src/flow/ab_schedule.c - the order of the legs of ab's rounds
 * (flow/ab_schedule.h). */
#include "flow/ab_schedule.h"

#include <string.h>

#include "base/util.h"

char *ab_schedule(unsigned rounds, const char *order, unsigned long long seed)
{
	char *s = xcalloc(2 * (size_t)rounds + 1, 1);
	struct rng r;
	rng_seed(&r, seed);
	for (unsigned k = 0; k < rounds; k++) {
		int ab = strcmp(order, "random") == 0 ? rng_below(&r, 2) == 0 : k % 2 == 0;
		s[2 * k] = ab ? 'A' : 'B';
		s[2 * k + 1] = ab ? 'B' : 'A';
	}
	return s;
}

char *ab_schedule_n(size_t nv, unsigned rounds, const char *order, unsigned long long seed)
{
	char *s;
	struct rng r;
	if (nv <= 2)
		return ab_schedule(rounds, order, seed);
	s = xcalloc(nv * (size_t)rounds + 1, 1);
	rng_seed(&r, seed);
	for (unsigned k = 0; k < rounds; k++) {
		char *row = s + nv * k;
		for (size_t j = 0; j < nv; j++)
			row[j] = (char)('A' + (j + k / 2) % nv);
		if (strcmp(order, "random") == 0) {
			for (size_t j = nv - 1; j > 0; j--) { /* Fisher-Yates */
				size_t x = (size_t)rng_below(&r, (unsigned)(j + 1));
				char t = row[j];
				row[j] = row[x];
				row[x] = t;
			}
		} else if (k % 2) {
			for (size_t j = 0; j < nv / 2; j++) {
				char t = row[j];
				row[j] = row[nv - 1 - j];
				row[nv - 1 - j] = t;
			}
		}
	}
	return s;
}
