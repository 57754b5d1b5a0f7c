/* doctor_p2p.h - the peer-to-peer rules of doctor.c's table (doctor_p2p.c):
 * IOMMU mode, ACS redirect on the ports between GPUs, BAR size, the pairs'
 * PCIe path and the driver's peer-access answers; each reads the fingerprint,
 * fills one finding and keeps the facts it read in f->facts. */
#ifndef MEMPATH_MACHINE_DOCTOR_P2P_H
#define MEMPATH_MACHINE_DOCTOR_P2P_H

#include <jansson.h>

#include "machine/finding.h"

void doctor_rule_iommu_mode(const json_t *h, struct doctor_finding *f);
void doctor_rule_acs_redirect(const json_t *h, struct doctor_finding *f);
void doctor_rule_bar1(const json_t *h, struct doctor_finding *f);
void doctor_rule_p2p_path(const json_t *h, struct doctor_finding *f);
void doctor_rule_peer_access(const json_t *h, struct doctor_finding *f);

#endif
