/* limits_user.h - a limit the machine's facts cannot give, from its user
 * (docs/design.md §5.17): the DRAM bandwidth of a machine without SMBIOS
 * tables (a VM, a cloud GPU host), from a file ("dram_gbps 204.8") or
 * check's --dram-gbps. A limit, not a measured figure. */
#ifndef MEMPATH_MACHINE_LIMITS_USER_H
#define MEMPATH_MACHINE_LIMITS_USER_H

#include <jansson.h>

/* The file: $MEMPATH_LIMITS if set, else /etc/mempath/limits.conf. */
const char *limits_user_file(void);
/* "dram_gbps N" (or "dram_gbps = N") of text, blank lines and # comments
 * aside: 0 and *gbps, 1 when text names none, -1 with why (a static
 * string) when a line is not one of those or N is not a rate in
 * (0, 1e5]. Pure. */
int limits_user_parse(const char *text, double *gbps, const char **why);
/* The user's DRAM limit: {gbps, from} from the file, NULL where there is
 * none (a file that does not parse: a warning naming it, and NULL). */
json_t *limits_user_dram(void);

#endif
