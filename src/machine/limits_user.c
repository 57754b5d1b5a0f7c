/* limits_user.c - limits given by the machine's user (limits_user.h). */
#include "machine/limits_user.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *limits_user_file(void)
{
	const char *e = getenv("MEMPATH_LIMITS");
	return e && *e ? e : "/etc/mempath/limits.conf";
}

int limits_user_parse(const char *text, double *gbps, const char **why)
{
	int found = 0;
	const char *line = text;
	*why = NULL;
	while (line && *line) {
		const char *end = strchr(line, '\n'), *p = line;
		size_t n = end ? (size_t)(end - line) : strlen(line);
		char buf[256];
		if (n >= sizeof(buf))
			return *why = "a line is longer than 255 characters", -1;
		memcpy(buf, line, n);
		buf[n] = '\0';
		line = end ? end + 1 : NULL;
		p = buf;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		if (strncmp(p, "dram_gbps", 9) != 0 ||
		    !(isspace((unsigned char)p[9]) || p[9] == '='))
			return *why = "a line is not 'dram_gbps N' (GB/s, 1e9 bytes per second)",
			       -1;
		p += 9;
		while (isspace((unsigned char)*p) || *p == '=')
			p++;
		char *stop;
		errno = 0;
		double v = strtod(p, &stop);
		while (isspace((unsigned char)*stop))
			stop++;
		if (stop == p || *stop || errno || !isfinite(v) || !(v > 0) || v > 1e5)
			return *why = "dram_gbps is not a rate in GB/s between 0 and 100000", -1;
		*gbps = v;
		found = 1;
	}
	return found ? 0 : 1;
}

json_t *limits_user_dram(void)
{
	const char *path = limits_user_file(), *why;
	size_t len = 0;
	char *text = read_file_str(path, &len);
	double gbps = 0;
	int rc;
	if (!text)
		return NULL;
	rc = limits_user_parse(text, &gbps, &why);
	free(text);
	if (rc < 0)
		warning("%s: %s; no DRAM limit taken from it", path, why);
	return rc == 0 ? json_pack("{s:f, s:s}", "gbps", gbps, "from", path) : NULL;
}
