/* pcie_cfg.h - what a PCI function's config space says of its PCI Express
 * capability: the port type and the payload size its Device Control sets
 * (the link receipt's TLP framing, kit/receipts.h). Pure, but for the one
 * reader of a function's config file.
 */
#ifndef MEMPATH_PCIE_CFG_H
#define MEMPATH_PCIE_CFG_H

#include <stddef.h>

/* The PCI Express capability's device/port type (4 root port, 5 switch
 * upstream, 6 switch downstream, 7 PCIe-to-PCI bridge ...), or -1 when the
 * capability list is not in the bytes. Pure. */
int pcie_port_type(const unsigned char *cfg, size_t len);
/* The Max_Payload_Size the PCI Express capability's Device Control sets
 * (bytes: 128 << bits 7:5), or -1 when the capability is not in the bytes.
 * Pure. */
int pcie_max_payload(const unsigned char *cfg, size_t len);
/* The same of the PCI function bdf ("0000:18:00.0") under sysfs_root's
 * bus/pci/devices (its config file; root reads past the first 64 bytes). */
int pcie_device_max_payload(const char *sysfs_root, const char *bdf);

#endif
