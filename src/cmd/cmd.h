/* cmd.h - one function per command (src/cmd/<name>.c). Each returns the
 * process exit status: 0 ok, 1 failure, 2 bad usage or input, 130 interrupted. */
#ifndef MEMPATH_CMD_H
#define MEMPATH_CMD_H

#include <stdio.h>

int cmd_run(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_wrap(int argc, char **argv);
int cmd_phantom(int argc, char **argv);
int cmd_doctor(int argc, char **argv);

extern const char usage_run[], usage_probe[], usage_list[], usage_help[], usage_sysinfo[],
	usage_report[];
extern const char usage_compare[], usage_ab[];
extern const char usage_wrap[], usage_phantom[], usage_doctor[];

/* Prints a command's usage (for `mempath help CMD`); 0 if known, -1 if not. */
int cmd_usage(const char *name, FILE *f);

#endif
