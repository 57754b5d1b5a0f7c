/* load.h - the steps of a loaded-latency sweep: how hard the load runs at
 * each step of cpu.loaded (a delay between the injectors' line accesses,
 * from full speed to idle) and gpu.loaded (how many SMs stream). Intel MLC's
 * --loaded_latency is the model: one chase, the rest load, the load stepped
 * down so latency can be read against the bandwidth it meets. Pure.
 */
#ifndef MEMPATH_KIT_LOAD_H
#define MEMPATH_KIT_LOAD_H

#include <stddef.h>
#include <stdint.h>

#define LOAD_MAX_STEPS 32
/* The delay of the idle step: no injector runs. */
#define LOAD_IDLE UINT32_MAX

/* Delays for cpu.loaded: "auto" (0, 25, 50, ... 3200, idle: each twice the
 * one before) or a list of delays in spin iterations per 64 B line and
 * "idle" ("0,400,idle"). Out: unique, ascending, idle last (full speed
 * first). Returns 0, or -1 for a malformed or empty list, a delay above
 * 10^7 or more than LOAD_MAX_STEPS steps. */
int load_parse_delays(const char *spec, uint32_t *out, size_t *n_out);

/* Loaded SM counts for gpu.loaded on a GPU of n_sms SMs, one of which is the
 * chase's own: "auto" (0, then 1/8, 1/4, 1/2, 3/4 of the SMs and all the
 * others) or a list of counts, "max" = n_sms - 1 ("0,16,max"). Counts above
 * n_sms - 1 are dropped and counted in *n_dropped. Out: unique, ascending;
 * 0 is the idle step. Returns 0, or -1 for a malformed or empty list or
 * n_sms < 2. */
int load_parse_sms(const char *spec, unsigned n_sms, unsigned *out, size_t *n_out,
		   unsigned *n_dropped);

#endif
