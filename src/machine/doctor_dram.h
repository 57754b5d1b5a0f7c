/* doctor_dram.h - the doctor's DRAM rule: DIMMs below their rated speed
 * (SMBIOS type 17, machine/limits.h). */
#ifndef MEMPATH_MACHINE_DOCTOR_DRAM_H
#define MEMPATH_MACHINE_DOCTOR_DRAM_H

#include <jansson.h>

#include "machine/finding.h"

void doctor_rule_dimm_speed(const json_t *h, struct doctor_finding *f);

#endif
