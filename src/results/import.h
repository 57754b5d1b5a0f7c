/* import.h - the reference tools' own outputs read into results of their
 * own kind (docs/design.md §5.20): nvbandwidth (its JSON, -j, or its text),
 * STREAM, multichase and gpu-benches' gpu-l2-cache, gpu-stream and
 * gpu-latency (their text). Each becomes one probe result named
 * "ref.TOOL" whose metrics are the tool's figures, as the tool counts them,
 * so that check and compare can put them beside mempath's. Pure: text in,
 * a probe result out. */
#ifndef MEMPATH_RESULTS_IMPORT_H
#define MEMPATH_RESULTS_IMPORT_H

#include <stddef.h>

#include "results/results.h"

/* The tools it reads, NULL-terminated. */
extern const char *const import_tools[];
/* Which of them wrote text (by the marks each prints), or NULL. */
const char *import_detect(const char *text);
/* Reads tool's output text into out (initialised here, name "ref.TOOL"):
 * 0, or -1 with why (len bytes) when it holds none of the tool's figures. */
int import_read(const char *tool, const char *text, struct probe_result *out, char *why,
		size_t len);

#endif
