/* html_loaded.h - a loaded-latency probe (cpu.loaded, gpu.loaded) drawn as
 * Intel MLC draws it: the chase's latency against the bandwidth the load
 * achieved, one curve per traffic mix, with the unloaded latency
 * (docs/design.md §9.10). */
#ifndef MEMPATH_REPORT_HTML_LOADED_H
#define MEMPATH_REPORT_HTML_LOADED_H

#include <stdio.h>

#include "results/results.h"

/* Draws the curve when p has a latency and a bandwidth measured under the
 * same label sets (at least three); 1 when drawn, and *lat, *bw name the two
 * quantities (their bars are left out), else 0. */
int html_loaded(FILE *f, const struct probe_result *p, const char **lat, const char **bw);

#endif
