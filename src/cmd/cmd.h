/* cmd.h - the one list of commands; only commands.c (the table, the top-level
 * usage and `mempath help`) includes it. Each command is one file
 * src/cmd/<name>.c ending in `const struct command command_<name>` (args.h)
 * and one CMD(<name>) row below. Exit statuses: 0 ok, 1 failure, 2 bad usage
 * or input, 130 interrupted; each command's usage says what it adds. */
#ifndef MEMPATH_CMD_CMD_H
#define MEMPATH_CMD_CMD_H

#include "cmd/args.h"

#define CMD_LIST      \
	CMD(run)      \
	CMD(probe)    \
	CMD(list)     \
	CMD(help)     \
	CMD(sysinfo)  \
	CMD(report)   \
	CMD(compare)  \
	CMD(ab)       \
	CMD(bisect)   \
	CMD(plan)     \
	CMD(wrap)     \
	CMD(phantom)  \
	CMD(doctor)   \
	CMD(fleet)    \
	CMD(check)    \
	CMD(import)   \
	CMD(history)  \
	CMD(findings) \
	CMD(completion)

#define CMD(x) extern const struct command command_##x;
CMD_LIST
#undef CMD

#endif
