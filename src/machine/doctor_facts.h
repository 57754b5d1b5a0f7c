/* doctor_facts.h - for the rule files (doctor.c, doctor_gpu.c): facts read
 * from a fingerprint, and filling a finding. */
#ifndef MEMPATH_MACHINE_DOCTOR_FACTS_H
#define MEMPATH_MACHINE_DOCTOR_FACTS_H

#include <jansson.h>

#include "machine/finding.h"

#define GiB (1024.0 * 1024 * 1024)
#define MiB (1024.0 * 1024)

/* o[a][b]... for a NULL-terminated path of keys; NULL when any step is absent. */
json_t *doctor_at(const json_t *o, ...);
/* o[a][b] as a string, or NULL. */
const char *doctor_str_at(const json_t *o, const char *a, const char *b);
/* An integer fact: 1 and *v set, or 0 when absent or not an integer. */
int doctor_int_at(const json_t *o, const char *a, const char *b, long long *v);
/* Sets a finding's level and evidence; the fix (copied) only for WARN and INFO. */
void doctor_set(struct doctor_finding *f, enum doctor_level l, const char *fix, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));

#endif
