/* discovery.c - the smallest GPU backend: the GPUs and accelerators on the PCI bus (sysfs), the
 * entries every backend must write (GPU_ENTRIES' MUST) and no more: every GPU probe skips, saying
 * so (t2004, docs/adding-a-backend.md). MEMPATH_TEST_PCI_ROOT: a test's tree for sysfs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/backend.h"

static char devs[64][256]; /* the devices' sysfs names, "0000:18:00.0" */
static int n_devs = -1;

static const char *root(void)
{
	const char *r = getenv("MEMPATH_TEST_PCI_ROOT");

	return r && *r ? r : "/sys/bus/pci/devices";
}

/* A number from one of dev's sysfs files ("0x10de", "-1"), or -1. */
static long num(const char *dev, const char *file)
{
	char path[512], buf[32] = "-1";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", root(), dev, file);
	if ((f = fopen(path, "r")) != NULL && !fgets(buf, sizeof(buf), f))
		snprintf(buf, sizeof(buf), "-1");
	if (f)
		fclose(f);
	return strtol(buf, NULL, 0);
}

static int pci_count(void)
{
	struct dirent *e;
	DIR *d;

	if (n_devs >= 0 || (n_devs = 0, d = opendir(root())) == NULL)
		return n_devs;
	while ((e = readdir(d)) != NULL && n_devs < 64) {
		long cls = num(e->d_name, "class") >> 16;

		if (e->d_name[0] != '.' && (cls == 0x03 || cls == 0x12))
			snprintf(devs[n_devs++], sizeof(devs[0]), "%s", e->d_name);
	}
	closedir(d);
	qsort(devs, (size_t)n_devs, sizeof(devs[0]), (int (*)(const void *, const void *))strcmp);
	return n_devs;
}

static const char *pci_unsupported_reason(void)
{
	return pci_count() > 0 ? NULL : "no GPU or accelerator on the PCI bus";
}

static int pci_get_props(int dev, struct gpu_props *p)
{
	if (dev < 0 || dev >= pci_count())
		return -1;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "PCI device %04lx:%04lx", num(devs[dev], "vendor"),
		 num(devs[dev], "device"));
	snprintf(p->pci_bus_id, sizeof(p->pci_bus_id), "%s", devs[dev]);
	p->host_numa_node = (int)num(devs[dev], "numa_node");
	return 0;
}

const struct gpu_backend gpu_backend_discovery = {
	.names = {.api = "PCI"},
	.unsupported_reason = pci_unsupported_reason,
	.count = pci_count,
	.get_props = pci_get_props,
};
