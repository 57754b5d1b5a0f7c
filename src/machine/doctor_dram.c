/* doctor_dram.c - DIMMs configured below their rated speed: the BIOS's
 * memory frequency setting, a mixed population or too many DIMMs per channel
 * cost every DRAM-bound path the same share. */
#include "machine/doctor_dram.h"

#include <stdio.h>
#include <string.h>

#include "machine/doctor_facts.h"

void doctor_rule_dimm_speed(const json_t *h, struct doctor_finding *f)
{
	const json_t *dram = doctor_at(h, "dram", NULL),
		     *dimms = doctor_at(h, "dram", "dimms", NULL), *d;
	const char *why = doctor_str_at(h, "dram", "unknown");
	char slow[512] = "";
	size_t i, known = 0, u;

	if (!dram) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no DRAM facts in the fingerprint");
		return;
	}
	if (why) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "%s", why);
		return;
	}
	json_array_foreach (dimms, i, d) {
		long long rated = 0, conf = 0;
		if (!doctor_int_at(d, "speed_mts", NULL, &rated) ||
		    !doctor_int_at(d, "configured_mts", NULL, &conf) || rated <= 0 || conf <= 0)
			continue;
		known++;
		if (conf < rated && (u = strlen(slow)) < sizeof(slow))
			snprintf(slow + u, sizeof(slow) - u, "%s%s %lld of %lld MT/s",
				 u ? ", " : "", doctor_str_at(d, "locator", NULL) ?: "?", conf,
				 rated);
	}
	if (known == 0)
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "SMBIOS gives no rated and configured speed for any DIMM");
	else if (slow[0])
		doctor_set(f, DOCTOR_WARN,
			   "set the memory frequency in the BIOS (or check the population: mixed "
			   "DIMMs and two per channel lower it); cpu.stream shows what it costs",
			   "DIMM(s) below their rated speed: %s", slow);
	else
		doctor_set(f, DOCTOR_OK, NULL, "%zu DIMM(s) at their rated speed", known);
}
