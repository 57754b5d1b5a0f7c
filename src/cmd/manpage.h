/* manpage.h - mempath(1) and the shell completions, written from the
 * command table (handed in by commands.c, which owns it), the option rows
 * and the probe table: nothing in them is written by hand, so they cannot
 * drift from --help (docs/design.md §9.7). */
#ifndef MEMPATH_CMD_MANPAGE_H
#define MEMPATH_CMD_MANPAGE_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/args.h"

/* The man page in roff. 0, or -1 when the stream failed. */
int manpage_write(FILE *f, const struct command *const *cmds, size_t n);
/* The completion script for shell "bash" or "zsh". 0, or -1. */
int completion_write(FILE *f, const char *shell, const struct command *const *cmds, size_t n);

#endif
