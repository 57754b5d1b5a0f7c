/* cpulat.h - the CPU latency request (/dev/cpu_dma_latency, PM QoS) as a
 * knob: held for a whole mempath run when MEMPATH_CPU_DMA_LATENCY names a
 * value in microseconds (0: no idle state with any exit latency), read into
 * the fingerprint as cpu_dma_latency_us (the request in force, every
 * process's; 2000000000 is the kernel's "none"). ab sets it for a leg with
 * --b-env MEMPATH_CPU_DMA_LATENCY=0. The kernel drops the request when the
 * file is closed, so no exit - SIGKILL included - leaves it behind
 * (docs/design.md §10.5).
 */
#ifndef MEMPATH_MACHINE_CPULAT_H
#define MEMPATH_MACHINE_CPULAT_H

#include <jansson.h>

/* Holds the request MEMPATH_CPU_DMA_LATENCY asks for until this process
 * ends; 0 (also when none is asked), or -1 with an error line (a bad value,
 * the file cannot be written: not root). */
int cpulat_hold_env(void);
/* The request in force, us (-1: unknown: no file, not readable). */
long long cpulat_read(void);
/* The fingerprint's knob cpu_dma_latency_us, where it can be read. */
void cpulat_knobs(json_t *knobs);
/* "; ..." saying what a request of req us does to idle states exiting in up
 * to `worst` us (-1: there are none); a static buffer. */
const char *cpulat_note(long long req, long long worst);
/* The CPU idle states of cpu0 as "NAME (EXIT us)" joined by ", " into buf;
 * their count (0: none, the buffer says why: no cpuidle driver). */
int cpulat_idle_states(char *buf, size_t len);

#endif
