/* doctor_pages.c - the doctor's page-size rule (doctor_pages.h). */
#include "machine/doctor_pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/doctor_facts.h"

const struct doctor_cost doctor_cost_mthp = {
	.probe = "cpu.first_touch",
	.opts = "pages=4k,64k touch=write size=64M",
	.metric = "touch_rate",
	.key = "pages",
	.a = "4k",
	.b = "64k",
	.fixed_key = "touch",
	.fixed_val = "write",
	.what = "first touch of 4 KiB pages vs 64 KiB folios (64k enabled alone)"};

/* "mthp_<kB>kB_enabled" -> kB, or 0. */
static unsigned long size_kb(const char *knob)
{
	char *end;
	unsigned long kb;

	if (strncmp(knob, "mthp_", 5) != 0)
		return 0;
	kb = strtoul(knob + 5, &end, 10);
	return strcmp(end, "kB_enabled") == 0 ? kb : 0;
}

static void add(char *buf, size_t len, unsigned long kb, const char *v)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s%lu%s%s%s", used ? ", " : "",
			 kb >= 1024 ? kb / 1024 : kb, kb >= 1024 ? "m" : "k", v ? " " : "",
			 v ? v : "");
}

void doctor_rule_mthp(const json_t *h, struct doctor_finding *f)
{
	const json_t *knobs = json_object_get(h, "knobs"), *v;
	const char *k;
	char off[256] = "", on[256] = "";
	int n_off = 0, n = 0;

	json_object_foreach ((json_t *)knobs, k, v) {
		unsigned long kb = size_kb(k);
		const char *s = json_string_value(v);

		if (!kb || !s)
			continue;
		n++;
		if (strcmp(s, "never") == 0) {
			add(off, sizeof(off), kb, NULL);
			n_off++;
		} else {
			add(on, sizeof(on), kb, s);
		}
	}
	if (!n) {
		doctor_set(f, DOCTOR_NA, NULL,
			   "no multi-size THP sizes recorded (a kernel before 6.8, or no THP)");
		return;
	}
	if (!n_off) {
		doctor_set(f, DOCTOR_OK, NULL, "every multi-size THP size is on: %s", on);
		return;
	}
	doctor_set(f, DOCTOR_INFO,
		   "to try a size for a run: mempath probe cpu.first_touch pages=all (as root it "
		   "enables each size alone and puts every setting back); to keep one: echo "
		   "madvise > /sys/kernel/mm/transparent_hugepage/hugepages-<kB>kB/enabled",
		   "%d of %d multi-size THP sizes off (enabled never): %s; on: %s", n_off, n, off,
		   on[0] ? on : "none");
}
