/* pcie_cfg.c - the PCI Express capability in config space (pcie_cfg.h). */
#include "machine/pcie_cfg.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/util.h"

static unsigned rd16(const unsigned char *c, size_t o)
{
	return (unsigned)c[o] | (unsigned)c[o + 1] << 8;
}

/* The offset of the PCI Express capability, or 0 when it is not in the bytes. */
static unsigned pcie_cap(const unsigned char *cfg, size_t len)
{
	unsigned off;

	if (!cfg || len < 0x40 || !(rd16(cfg, 0x06) & 0x10)) /* status: capability list */
		return 0;
	off = cfg[0x34] & 0xfc;
	for (int hops = 0; off >= 0x40 && off + 4 <= len && hops < 64; hops++) {
		if (cfg[off] == 0x10)
			return off;
		off = cfg[off + 1] & 0xfc;
	}
	return 0;
}

int pcie_port_type(const unsigned char *cfg, size_t len)
{
	unsigned off = pcie_cap(cfg, len);

	/* PCI Express capability flags 7:4 are the port type */
	return off ? (int)(rd16(cfg, off + 2) >> 4 & 0xf) : -1;
}

int pcie_max_payload(const unsigned char *cfg, size_t len)
{
	unsigned off = pcie_cap(cfg, len);

	/* Device Control at +8: Max_Payload_Size in bits 7:5 */
	return off && off + 10 <= len ? 128 << (rd16(cfg, off + 8) >> 5 & 7) : -1;
}

int pcie_device_max_payload(const char *sysfs_root, const char *bdf)
{
	char *path = xasprintf("%s/bus/pci/devices/%s/config", sysfs_root, bdf);
	size_t len = 0;
	unsigned char *cfg = (unsigned char *)read_file_str(path, &len);
	int mps = cfg ? pcie_max_payload(cfg, len) : -1;

	free(cfg);
	free(path);
	return mps;
}
