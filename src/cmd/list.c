/* list.c - `mempath list`: probes with their suites, from the probe table. */
#include <string.h>

#include "base/util.h"
#include "cmd/args.h"
#include "probes/registry.h"

static int list_main(void *opts, const struct cmd_line *l)
{
	if (l->argc > 0)
		return error("unexpected argument '%s' (see 'mempath list --help')", l->argv[0]), 2;
	printf("%-18s %-10s %s\n", "probe", "suites", "summary");
	for (size_t i = 0; i < probe_table_len; i++) {
		const struct probe *p = probe_table[i];
		char suites[32];
		snprintf(suites, sizeof(suites), "%s%s%s%s", p->flags & PROBE_QUICK ? "Q," : "",
			 p->flags & PROBE_CPU ? "cpu" : "", p->flags & PROBE_GPU ? "gpu" : "",
			 p->flags & PROBE_P2P ? "p2p" : "");
		printf("%-18s %-10s %s\n", p->name, suites, p->summary);
	}
	printf("\nsuites: Q = also in the quick suite (at quick sizes); full runs them all.\n"
	       "'mempath help PROBE' shows a probe's options.\n");
	return 0;
}

const struct command command_list = {
	.name = "list",
	.summary = "list probes, suites and options",
	.about = "Lists every probe with the suites it belongs to and a one-line summary.\n"
		 "Suites: quick (Q), cpu, gpu, p2p; full runs them all.\n",
	.run = list_main,
};
