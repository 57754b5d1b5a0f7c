/* commands.h - the command table and what reads it: main() and
 * `mempath help`. */
#ifndef MEMPATH_CMD_COMMANDS_H
#define MEMPATH_CMD_COMMANDS_H

#include <stddef.h>

#include "cmd/args.h"

extern const struct command *const command_table[];
extern const size_t command_table_len;

/* The command named `name`, or NULL. */
const struct command *command_find(const char *name);
/* The command a mistyped name most likely meant, or NULL. */
const char *command_suggest(const char *name);
/* mempath's main: argv[1] names the command. Returns the exit status. */
int commands_main(int argc, char **argv);

#endif
