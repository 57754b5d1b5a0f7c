/* registry.c - the probe table, generated from PROBE_LIST in probes.h. */
#include <string.h>

#include "base/suggest.h"
#include "base/util.h"
#include "probes/registry.h"

#define PROBE(x) &probe_##x,
const struct probe *const probe_table[] = {PROBE_LIST};
#undef PROBE

const size_t probe_table_len = sizeof(probe_table) / sizeof(probe_table[0]);

const struct probe *probe_find(const char *name)
{
	for (size_t i = 0; i < probe_table_len; i++)
		if (strcmp(probe_table[i]->name, name) == 0)
			return probe_table[i];
	return NULL;
}

const char *probe_suggest(const char *name)
{
	const char *names[64];
	size_t n = 0;

	for (size_t i = 0; i < probe_table_len && n < ARRAY_SIZE(names); i++)
		names[n++] = probe_table[i]->name;
	return suggest(name, names, n);
}
