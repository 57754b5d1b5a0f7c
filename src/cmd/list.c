/* list.c - `mempath list`: probes with their suites, from the probe table. */
#include <string.h>

#include "base/util.h"
#include "cmd/args.h"
#include "machine/limits.h"
#include "probes/registry.h"

struct list_opts {
	int limits;
};

static const struct arg list_args[] = {
	ARG_FLAG("limits", 0, struct list_opts, limits,
		 "every bandwidth metric of every probe with the path whose physical limit holds "
		 "it (dram, hbm, pcie, nvlink, l2), or why none does"),
	ARG_END};

/* --limits: the limit table (machine/limits.c), a row a line. */
static int list_limits(void)
{
	const struct limits_row *rows;
	size_t n = limits_rows(&rows);
	printf("%-16s %-16s %-10s %-7s %s\n", "probe", "metric", "where", "path", "what / why not");
	for (size_t i = 0; i < n; i++) {
		char where[48] = "-", path[16] = "none";
		if (rows[i].label)
			snprintf(where, sizeof(where), "%s=%s", rows[i].label, rows[i].value);
		if (rows[i].kind)
			snprintf(path, sizeof(path), "%s%s", rows[i].kind,
				 rows[i].bytes > 1  ? "x2"
				 : rows[i].ways > 1 ? "/2"
						    : "");
		printf("%-16s %-16s %-10s %-7s %s\n", rows[i].probe, rows[i].metric, where, path,
		       rows[i].why);
	}
	printf("\npath: x2 the path carries each counted byte twice (read and written); /2 the "
	       "figure may reach twice one direction's limit.\n");
	return 0;
}

static int list_main(void *opts, const struct cmd_line *l)
{
	const struct list_opts *o = opts;
	if (l->argc > 0)
		return error("unexpected argument '%s' (see 'mempath list --help')", l->argv[0]), 2;
	if (o->limits)
		return list_limits();
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
		 "Suites: quick (Q), cpu, gpu, p2p; full runs them all. With --limits, every\n"
		 "bandwidth metric and the physical limit that holds it, or why none does.\n",
	.examples = "mempath list\n"
		    "mempath list --limits\n",
	.args = list_args,
	.opts_size = sizeof(struct list_opts),
	.run = list_main,
};
