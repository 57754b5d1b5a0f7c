/* beside.h - `compare TOOLS MINE`: the reference tools' figures (an
 * imported run, as the metrics they are references for:
 * verdict/reference.h ref_tools_as) beside mempath's, a row each with the
 * ratio, in term, md or json (docs/design.md §5.20). No verdict: a tool's
 * figure is one number of its own method, not a leg of samples. */
#ifndef MEMPATH_REPORT_BESIDE_H
#define MEMPATH_REPORT_BESIDE_H

#include "report/format.h"
#include "results/results.h"

/* tools and mine have the same probes and metrics in the same order;
 * names: their files, tools first. To path atomically, or to stdout when
 * NULL. 0, or -1 after an error line (a format other than term, md, json). */
int report_beside_write_file(const struct run *tools, const struct run *mine,
			     const char *const names[2], enum report_format fmt, const char *path);

#endif
