/* outguard.c - the one output guard (outguard.h). */
#include "base/outguard.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

int path_in_dir(const char *path, const char *dir)
{
	char *copy = xstrdup(path), *slash = strrchr(copy, '/');
	const char *folder = ".";
	struct stat sa, sb;
	int in;

	if (slash == copy)
		folder = "/";
	else if (slash) {
		*slash = '\0';
		folder = copy;
	}
	in = stat(folder, &sa) == 0 && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
	     sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	free(copy);
	return in;
}

static int name_owned(const char *path, const char *const *owned)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; owned && owned[i]; i++) {
		size_t n = strlen(owned[i]);
		if (n && owned[i][n - 1] == '*' ? strncmp(base, owned[i], n - 1) == 0
						: strcmp(base, owned[i]) == 0)
			return 1;
	}
	return 0;
}

int output_guard(const char *out, const struct out_inputs *in, const char *const *owned)
{
	struct stat st;

	if (!out)
		return 0;
	if (output_path_check(out) != 0)
		return -1;
	for (size_t i = 0; in && i < in->n_files; i++)
		if (same_file(out, in->files[i]))
			return error("refusing to write '%s': it is also an input (%s)", out,
				     in->files[i]);
	for (size_t i = 0; in && i < in->n_dirs; i++)
		if (path_in_dir(out, in->dirs[i]) &&
		    (stat(out, &st) == 0 || name_owned(out, owned)))
			return error("refusing to write '%s': it is a file of %s, which this "
				     "command reads (write it elsewhere)",
				     out, in->dirs[i]);
	return 0;
}

int check_output_not_input(const char *out, char *const *inputs, size_t n)
{
	struct out_inputs in = {inputs, n, NULL, 0};
	return output_guard(out, &in, NULL);
}
