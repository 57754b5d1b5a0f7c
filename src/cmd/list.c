/* list.c - `mempath list`: probes with their suites, from the probe table. */
#include <string.h>

#include "cmd/cmd.h"
#include "probes/registry.h"

const char usage_list[] =
	"usage: mempath list\n"
	"\n"
	"Lists every probe with the suites it belongs to and a one-line summary.\n"
	"Suites: quick (Q), cpu, gpu, p2p; full runs them all.\n";

int cmd_list(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			fputs(usage_list, stdout);
			return 0;
		}
		fprintf(stderr, "mempath: error: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	printf("%-18s %-10s %s\n", "probe", "suites", "summary");
	for (size_t i = 0; i < probe_table_len; i++) {
		const struct probe *p = probe_table[i];
		char suites[32];
		snprintf(suites, sizeof(suites), "%s%s%s%s", p->flags & PROBE_QUICK ? "Q," : "",
			 p->flags & PROBE_CPU ? "cpu" : "", p->flags & PROBE_GPU ? "gpu" : "",
			 p->flags & PROBE_P2P ? "p2p" : "");
		printf("%-18s %-10s %s\n", p->name, suites, p->summary);
	}
	printf("\n'mempath help PROBE' shows a probe's options.\n");
	return 0;
}
