/* outguard.h - the one output guard of every writer and command
 * (docs/design.md §2.1): an output path that cannot be written, that names
 * one of the command's inputs, or that would overwrite a file of a
 * directory the command reads (an ab or bisect directory: its legs,
 * compare.json, its logs) is refused before anything is read or written. */
#ifndef MEMPATH_BASE_OUTGUARD_H
#define MEMPATH_BASE_OUTGUARD_H

#include <stddef.h>

/* What a command reads: files, and directories whose files it reads. */
struct out_inputs {
	char *const *files;
	size_t n_files;
	char *const *dirs;
	size_t n_dirs;
};

/* 0 when out (NULL: stdout) may be written; else -1 after one error line
 * ("refusing to write 'out': ..."): output_path_check() fails, out is the
 * same file as one of in->files, or out is in one of in->dirs and exists
 * there (or, with owned, its name is one the command writes there: each
 * entry a name, or a prefix when it ends in '*'). */
int output_guard(const char *out, const struct out_inputs *in, const char *const *owned);

/* output_guard() with inputs only: "refusing to write 'out': it is also an
 * input". */
int check_output_not_input(const char *out, char *const *inputs, size_t n);

/* 1 when path's folder is dir (same device and inode), else 0. */
int path_in_dir(const char *path, const char *dir);

#endif
