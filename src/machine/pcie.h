/* pcie.h - the PCIe facts behind GPU peer-to-peer (docs/design.md §8.17):
 * the GPUs (PCI class 0x03xx, display controllers: NVIDIA's datacenter parts
 * are 0x0302, an emulated q35 display 0x0380), the ports above each up to the
 * host bridge, each port's ACS capability from its config space, the GPUs'
 * BARs, their IOMMU groups, and the common ancestor of every pair.
 *
 * Everything is read under a sysfs root given by the caller ("/sys" on a live
 * machine, a recorded tree in tests), as numa.h does; the parsers are pure.
 * Pairs are GPUs of one vendor (peer-to-peer runs between devices of one
 * driver; a server's BMC display, 0x0300 too, pairs with nothing).
 */
#ifndef MEMPATH_MACHINE_PCIE_H
#define MEMPATH_MACHINE_PCIE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define PCIE_EXT_CAP_ACS 0x000d /* Access Control Services extended capability */
/* ACS Capability / Control register bits (PCIe base spec, ACS capability) */
#define PCIE_ACS_SV 0x0001 /* SrcValid: source validation */
#define PCIE_ACS_TB 0x0002 /* TransBlk: translation blocking */
#define PCIE_ACS_RR 0x0004 /* ReqRedir: P2P request redirect */
#define PCIE_ACS_CR 0x0008 /* CmpltRedir: P2P completion redirect */
#define PCIE_ACS_UF 0x0010 /* UpstreamFwd: upstream forwarding */
#define PCIE_ACS_EC 0x0020 /* EgressCtrl: P2P egress control */
#define PCIE_ACS_DT 0x0040 /* DirectTrans: direct translated P2P */
/* What pci=disable_acs_redir= clears on the ports it names (the kernel's
 * pci_disable_acs_redir): request and completion redirect, egress control. */
#define PCIE_ACS_REDIR (PCIE_ACS_RR | PCIE_ACS_CR | PCIE_ACS_EC)

struct pcie_acs {
	unsigned offset;   /* of the capability in config space */
	unsigned cap, ctl; /* ACS Capability and ACS Control registers */
};

/* The ACS capability in len bytes of config space: 1 found (*out set), 0 the
 * extended capability list has none, -1 the bytes do not reach extended
 * config space (fewer than 4096: sysfs gives 64 bytes to non-root readers,
 * 256 where there is no extended space). Pure. */
int pcie_acs_find(const unsigned char *cfg, size_t len, struct pcie_acs *out);
/* The seven ACS bits as lspci prints them: "SrcValid+ TransBlk- ReqRedir+
 * CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-". */
void pcie_acs_flags(unsigned bits, char *buf, size_t len);
/* One BAR of a sysfs "resource" file. */
struct pcie_bar {
	int index;	/* BAR 0-5 */
	uint64_t start; /* bus address */
	uint64_t bytes;
	int prefetch, is64, io;
};
/* The BARs in use (0-5) of a sysfs resource text, at most max; the count. Pure. */
size_t pcie_resource_parse(const char *text, struct pcie_bar *bars, size_t max);

/* The fingerprint's "pcie" object read under sysfs_root: "gpus" (bdf, class,
 * vendor, device, numa_node, host_bridge, path: the ports from the host
 * bridge down, iommu_group, iommu_type, bars), "ports" by BDF (class, type,
 * config_bytes, acs: "present"/"absent"/"unreadable", acs_cap, acs_ctl and
 * their flags, redirect: the redirect bits set) and "pairs" (gpus, kind,
 * ancestor, ports: those strictly below the ancestor on both sides). NULL
 * when sysfs_root has no PCI bus. */
json_t *pcie_collect(const char *sysfs_root);
/* The fingerprint's "iommu" object under sysfs_root: units (class/iommu),
 * groups, group0_type, group_types (count per type). Never NULL. */
json_t *pcie_iommu_collect(const char *sysfs_root);
/* The mode of the GPUs' IOMMU groups (of all groups without GPUs):
 * "passthrough" (identity), "translated" (DMA, DMA-FQ), "mixed", "off" (no
 * groups), or NULL when iommu says nothing. */
const char *pcie_iommu_mode(const json_t *iommu, const json_t *pcie);
/* pci=disable_acs_redir=PORT;PORT for the ports on the pairs' paths with a
 * redirect bit set (new string), or NULL when none is set. */
char *pcie_acs_param(const json_t *pcie);
/* The knobs compare checks: iommu_mode, and with GPUs acs_redirect (the
 * ports with redirect set, "none", left out where a port is unreadable),
 * gpu_bar1 (each GPU's largest BAR) and p2p_path (each pair's kind). */
void pcie_knobs(json_t *knobs, const json_t *iommu, const json_t *pcie);

#endif
