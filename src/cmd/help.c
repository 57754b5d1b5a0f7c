/* help.c - `mempath help [COMMAND|PROBE]`, generated from the tables. */
#include <string.h>

#include "cmd/cmd.h"
#include "probes/registry.h"

const char usage_help[] = "usage: mempath help [COMMAND | PROBE]\n"
			  "\n"
			  "Usage of a command, or a probe's summary, suites and options.\n";

int cmd_usage(const char *name, FILE *f)
{
	static const struct {
		const char *name;
		const char *text;
	} usages[] = {
		{"run", usage_run},	    {"probe", usage_probe},	{"list", usage_list},
		{"help", usage_help},	    {"sysinfo", usage_sysinfo}, {"report", usage_report},
		{"compare", usage_compare}, {"ab", usage_ab},		{"wrap", usage_wrap},
		{"phantom", usage_phantom}, {"doctor", usage_doctor}};
	for (size_t i = 0; i < sizeof(usages) / sizeof(usages[0]); i++)
		if (strcmp(name, usages[i].name) == 0) {
			fputs(usages[i].text, f);
			return 0;
		}
	return -1;
}

static void probe_help(const struct probe *p)
{
	printf("%s - %s\n\nsuites:%s%s%s%s\n\noptions (name=value):\n", p->name, p->summary,
	       p->flags & PROBE_QUICK ? " quick" : "", p->flags & PROBE_CPU ? " cpu" : "",
	       p->flags & PROBE_GPU ? " gpu" : "", p->flags & PROBE_P2P ? " p2p" : "");
	opt_print_help(p->opts, stdout);
	if (p->quick_opts)
		printf("\n--quick and the quick suite apply: %s\n", p->quick_opts);
	printf("\nexample: mempath probe %s --quick\n", p->name);
}

int cmd_help(int argc, char **argv)
{
	const struct probe *p;
	if (argc < 2) {
		char *args[] = {"mempath", "--help", NULL};
		extern int main(int, char **);
		return main(2, args);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage_help, stdout);
		return 0;
	}
	if (cmd_usage(argv[1], stdout) == 0)
		return 0;
	p = probe_find(argv[1]);
	if (!p) {
		fprintf(stderr,
			"mempath: error: no command or probe named '%s' (see 'mempath list')\n",
			argv[1]);
		return 2;
	}
	probe_help(p);
	return 0;
}
