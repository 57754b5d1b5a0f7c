/* doctor_gpu.h - the GPU rules of doctor.c's table; each reads the
 * fingerprint and fills one finding. */
#ifndef MEMPATH_MACHINE_DOCTOR_GPU_H
#define MEMPATH_MACHINE_DOCTOR_GPU_H

#include <jansson.h>

#include "machine/finding.h"

void doctor_rule_gpu_persistence(const json_t *h, struct doctor_finding *f);
void doctor_rule_gpu_pcie(const json_t *h, struct doctor_finding *f);
void doctor_rule_gpu_system_memory(const json_t *h, struct doctor_finding *f);

#endif
