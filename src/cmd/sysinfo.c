/* sysinfo.c - `mempath sysinfo [--json]`: the machine's fingerprint. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "machine/sysinfo.h"

const char usage_sysinfo[] = "usage: mempath sysinfo [--json]\n"
			     "\n"
			     "Prints the fingerprint stored in every results file: kernel, CPU,\n"
			     "caches, NUMA, THP and other knobs, cpuidle states, IOMMU, GPUs.\n";

int cmd_sysinfo(int argc, char **argv)
{
	int as_json = 0;
	json_t *host;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			as_json = 1;
		else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage_sysinfo, stdout);
			return 0;
		} else {
			fprintf(stderr, "mempath: error: unexpected argument '%s'\n", argv[i]);
			return 2;
		}
	}
	host = sysinfo_collect();
	if (as_json) {
		json_dumpf(host, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
	} else {
		sysinfo_print(host, stdout);
	}
	json_decref(host);
	return 0;
}
