/* sysinfo.c - `mempath sysinfo [--json]`: the machine's fingerprint. */
#include "machine/sysinfo.h"
#include "base/util.h"
#include "cmd/args.h"
#include "report/format.h"

struct sysinfo_opts {
	int json;
};

static const struct arg sysinfo_args[] = {
	ARG_FLAG("json", 0, struct sysinfo_opts, json, "the fingerprint as JSON"), ARG_END};

static int sysinfo_main(void *p, const struct cmd_line *l)
{
	struct sysinfo_opts *o = p;
	json_t *host;
	if (l->argc > 0)
		return error("unexpected argument '%s' (see 'mempath sysinfo --help')", l->argv[0]),
		       2;
	host = sysinfo_collect();
	if (o->json) {
		report_json_dumpf(host, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
	} else {
		sysinfo_print(host, stdout);
	}
	json_decref(host);
	return 0;
}

const struct command command_sysinfo = {
	.name = "sysinfo",
	.summary = "print this machine's fingerprint",
	.about = "Prints the fingerprint stored in every results file: kernel, CPU,\n"
		 "caches, NUMA, THP and other knobs, cpuidle states, IOMMU, GPUs.\n",
	.args = sysinfo_args,
	.opts_size = sizeof(struct sysinfo_opts),
	.run = sysinfo_main,
};
