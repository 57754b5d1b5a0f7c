/* doctor_pages.h - the doctor's page-size rule: which multi-size THP sizes
 * the kernel offers are off (the fingerprint's mthp_<kB>kB_enabled knobs,
 * machine/pagesize.h); doctor --measure prices one of them (first touch at
 * 4k vs 64k folios). */
#ifndef MEMPATH_MACHINE_DOCTOR_PAGES_H
#define MEMPATH_MACHINE_DOCTOR_PAGES_H

#include <jansson.h>

#include "machine/finding.h"

void doctor_rule_mthp(const json_t *h, struct doctor_finding *f);
/* Its price: first touch at 4k vs 64k (arm64's contpte size). */
extern const struct doctor_cost doctor_cost_mthp;

#endif
