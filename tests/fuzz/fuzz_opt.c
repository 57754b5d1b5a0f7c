/* fuzz_opt.c - libFuzzer target for option parsing: the input, as a C
 * string, goes to opt_parse_size, and as "name=value" (and as a space-separated
 * list, like a probe's quick options) to opt_set on every probe's real option
 * table, after its defaults; each value is then formatted back, and a size
 * must survive format-and-parse. Built and run by `make fuzz`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/opt.h"
#include "probes/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), buf[512];
	uint64_t v, back;
	memcpy(s, data, size);
	s[size] = '\0';
	/* opt_format_size's quarters ("1.25G") print with %.17g: they parse back
	 * exactly, so a size that parses must survive format and parse. */
	if (opt_parse_size(s, &v) == 0) {
		opt_format_size(v, buf, sizeof(buf));
		if (opt_parse_size(buf, &back) != 0 || back != v)
			abort();
	}
	for (size_t i = 0; i < probe_table_len; i++) {
		const struct probe *p = probe_table[i];
		void *dst;
		if (!p->opts)
			continue;
		dst = calloc(1, p->opts_size);
		if (opt_defaults(p->opts, dst) != 0)
			abort(); /* a bad default is the registry test's, but say so */
		opt_set(p->opts, dst, s, p->name);
		opt_set_all(p->opts, dst, s, p->name);
		for (const struct opt *o = p->opts; o->name; o++)
			opt_format_value(o, dst, buf, sizeof(buf));
		free(dst);
	}
	free(s);
	return 0;
}
