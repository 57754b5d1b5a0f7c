/* main.c - the command table (git/perf style); nothing else. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"run", cmd_run, "run a suite, print a table, save a results file"},
	{"probe", cmd_probe, "run one probe"},
	{"list", cmd_list, "list probes, suites and options"},
	{"help", cmd_help, "help for a command or a probe"},
	{"sysinfo", cmd_sysinfo, "print this machine's fingerprint"},
	{"report", cmd_report, "render a results or comparison file (term, md, json, csv, html)"},
	{"compare", cmd_compare, "per-metric verdicts of A/B/A' results files"},
	{"ab", cmd_ab, "run A/B/A legs with your setup commands, restore, compare"},
	{"wrap", cmd_wrap, "run any workload N times: its numbers, rusage, vmstat per iteration"},
	{"phantom", cmd_phantom, "memory not returned after a command exits (driver pools)"},
	{"doctor", cmd_doctor, "known traps of this machine, with the evidence and the fix"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: mempath [--version] [--help] COMMAND [ARGS]\n\n"
		   "Measures how fast memory gets from where it is to where it is used.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'mempath help COMMAND' or 'mempath help PROBE' for details; "
		   "'mempath list' for the probes.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("mempath %s (%s)\n", MEMPATH_VERSION, MEMPATH_GIT);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "mempath: error: unknown command '%s' (see 'mempath --help')\n", argv[1]);
	return 2;
}
